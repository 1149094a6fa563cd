from django.urls import path

from . import views as v

urlpatterns = [
    path("operator/ara", v.OperatorAramaView.as_view(), name="operator-ara"),
]

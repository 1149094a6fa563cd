from django.urls import path

from . import views as v

urlpatterns = [
    path("widget/upload", v.WidgetUploadView.as_view(), name="widget-upload"),
    path("operator/upload", v.OperatorUploadView.as_view(), name="operator-upload"),
]

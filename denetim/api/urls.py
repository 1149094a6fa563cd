from django.urls import path

from . import views

urlpatterns = [
    path("operator/tenants/<int:musteri_id>/denetim", views.DenetimView.as_view(), name="operator-denetim"),
]

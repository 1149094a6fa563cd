from django.urls import path

from . import kisi_views as views

urlpatterns = [
    path("operator/kisiler", views.KisiListView.as_view(), name="operator-kisiler"),
    path("operator/kisiler/<int:kisi_id>", views.KisiView.as_view(), name="operator-kisi"),
    path("operator/kisiler/<int:kisi_id>/birlestir", views.KisiBirlestirView.as_view(), name="operator-kisi-birlestir"),
    path("operator/tenants/<int:musteri_id>/nitelikler", views.TenantNitelikleriView.as_view(),
         name="operator-tenants-nitelikler"),
]

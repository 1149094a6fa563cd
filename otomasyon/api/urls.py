from django.urls import path

from . import views

urlpatterns = [
    path("operator/tenants/<int:musteri_id>/kurallar", views.TenantKurallariView.as_view(), name="operator-kurallar"),
    path("operator/kurallar/<int:kural_id>", views.KuralView.as_view(), name="operator-kural"),
    path("operator/kurallar/<int:kural_id>/calismalar", views.KuralCalismalariView.as_view(),
         name="operator-kural-calismalar"),
    path("operator/tenants/<int:musteri_id>/makrolar", views.TenantMakrolariView.as_view(), name="operator-makrolar"),
    path("operator/makrolar/<int:makro_id>", views.MakroView.as_view(), name="operator-makro"),
    path("operator/makrolar/<int:makro_id>/uygula", views.MakroUygulaView.as_view(), name="operator-makro-uygula"),
]

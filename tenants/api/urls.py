from django.urls import path

from . import ekipler, views

urlpatterns = [
    path("auth/login", views.GirisView.as_view(), name="auth-login"),
    path("auth/logout", views.CikisView.as_view(), name="auth-logout"),
    path("operator/tenants", views.TenantListView.as_view(), name="operator-tenants"),
    path("operator/tenants/sira", views.TenantSiraView.as_view(), name="operator-tenants-sira"),
    path("operator/tenants/<int:musteri_id>/sessize", views.TenantSessizeView.as_view(), name="operator-tenants-sessize"),
    path("operator/tenants/<int:musteri_id>/eposta-bildirimi", views.TenantEpostaBildirimiView.as_view(),
         name="operator-tenants-eposta-bildirimi"),
    path("operator/tenants/<int:musteri_id>/operatorler", views.TenantUyeleriView.as_view(), name="operator-tenants-uyeler"),
    path("operator/tenants/<int:musteri_id>/ayarlar", views.TenantAyarlarView.as_view(), name="operator-tenants-ayarlar"),
    path("operator/tenants/<int:musteri_id>/etiketler", views.TenantEtiketleriView.as_view(),
         name="operator-tenants-etiketler"),
    path("operator/etiketler/<int:etiket_id>", views.EtiketView.as_view(), name="operator-etiket"),
    path("operator/tenants/<int:musteri_id>/ekipler", ekipler.TenantEkipleriView.as_view(),
         name="operator-tenants-ekipler"),
    path("operator/ekipler/<int:ekip_id>", ekipler.EkipView.as_view(), name="operator-ekip"),
    path("operator/status", views.OperatorDurumView.as_view(), name="operator-status"),
]

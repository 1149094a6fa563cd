from django.urls import path

from . import views

# The operator's status, logout, muting, the tenant's settings and its teams are routed by
# panel.api.urls (issue 40: their views call chat's actions, which tenants cannot import).
urlpatterns = [
    path("auth/login", views.GirisView.as_view(), name="auth-login"),
    path("operator/tenants", views.TenantListView.as_view(), name="operator-tenants"),
    path("operator/tenants/sira", views.TenantSiraView.as_view(), name="operator-tenants-sira"),
    path("operator/tenants/<int:musteri_id>/eposta-bildirimi", views.TenantEpostaBildirimiView.as_view(),
         name="operator-tenants-eposta-bildirimi"),
    path("operator/tenants/<int:musteri_id>/operatorler", views.TenantUyeleriView.as_view(), name="operator-tenants-uyeler"),
    path("operator/tenants/<int:musteri_id>/etiketler", views.TenantEtiketleriView.as_view(),
         name="operator-tenants-etiketler"),
    path("operator/etiketler/<int:etiket_id>", views.EtiketView.as_view(), name="operator-etiket"),
]

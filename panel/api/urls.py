from django.urls import path

from . import ekipler, giris, gorunumler, hazir_yanit, operator, views

urlpatterns = [
    path("operator/canned-responses/<int:hazir_yanit_id>/doldur", hazir_yanit.HazirYanitDoldurView.as_view(),
         name="operator-canned-response-doldur"),
    path("operator/dashboard", views.DashboardView.as_view(), name="operator-dashboard"),
    path("operator/gorunumler", gorunumler.GorunumlerView.as_view(), name="operator-gorunumler"),
    path("operator/toplu", gorunumler.TopluView.as_view(), name="operator-toplu"),
    # The operator's calls whose change routing follows (issue 40; the paths are tenants.api's).
    path("auth/logout", operator.CikisView.as_view(), name="auth-logout"),
    path("operator/status", operator.OperatorDurumView.as_view(), name="operator-status"),
    path("operator/tenants/<int:musteri_id>/sessize", operator.TenantSessizeView.as_view(),
         name="operator-tenants-sessize"),
    path("operator/tenants/<int:musteri_id>/ayarlar", operator.TenantAyarlarView.as_view(),
         name="operator-tenants-ayarlar"),
    path("operator/tenants/<int:musteri_id>/ekipler", ekipler.TenantEkipleriView.as_view(),
         name="operator-tenants-ekipler"),
    path("operator/ekipler/<int:ekip_id>", ekipler.EkipView.as_view(), name="operator-ekip"),
    path("panel/giris", giris.PanelGirisView.as_view(), name="panel-giris"),
    path("panel/oturum", giris.PanelOturumView.as_view(), name="panel-oturum"),
    path("panel/cikis", giris.PanelCikisView.as_view(), name="panel-cikis"),
    path("panel/soket-bileti", giris.SoketBiletiView.as_view(), name="panel-soket-bileti"),
]

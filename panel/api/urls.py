from django.urls import path

from . import giris, gorunumler, hazir_yanit, views

urlpatterns = [
    path("operator/canned-responses/<int:hazir_yanit_id>/doldur", hazir_yanit.HazirYanitDoldurView.as_view(),
         name="operator-canned-response-doldur"),
    path("operator/dashboard", views.DashboardView.as_view(), name="operator-dashboard"),
    path("operator/gorunumler", gorunumler.GorunumlerView.as_view(), name="operator-gorunumler"),
    path("operator/toplu", gorunumler.TopluView.as_view(), name="operator-toplu"),
    path("panel/giris", giris.PanelGirisView.as_view(), name="panel-giris"),
    path("panel/oturum", giris.PanelOturumView.as_view(), name="panel-oturum"),
    path("panel/cikis", giris.PanelCikisView.as_view(), name="panel-cikis"),
    path("panel/soket-bileti", giris.SoketBiletiView.as_view(), name="panel-soket-bileti"),
]

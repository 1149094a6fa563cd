from django.urls import path

from . import oturum, views

urlpatterns = [
    path("operator/dashboard", views.DashboardView.as_view(), name="operator-dashboard"),
    path("panel/giris", oturum.PanelGirisView.as_view(), name="panel-giris"),
    path("panel/oturum", oturum.PanelOturumView.as_view(), name="panel-oturum"),
    path("panel/cikis", oturum.PanelCikisView.as_view(), name="panel-cikis"),
    path("panel/soket-bileti", oturum.SoketBiletiView.as_view(), name="panel-soket-bileti"),
]

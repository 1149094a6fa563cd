from django.urls import path, re_path

from . import eposta_views, views, webhook_views

app_name = "portal"
urlpatterns = [
    path("", views.PanoView.as_view(), name="pano"),
    path("giris", views.GirisView.as_view(), name="giris"),
    path("kayit", views.KayitView.as_view(), name="kayit"),
    path("cikis", views.CikisView.as_view(), name="cikis"),
    path("sifre", views.SifreView.as_view(), name="sifre"),
    path("projeler", views.ProjelerView.as_view(), name="projeler"),
    path("projeler/sec/<int:musteri_id>", views.ProjeSecView.as_view(), name="proje_sec"),
    path("projelerim", views.ProjelerimView.as_view(), name="projelerim"),
    path("projelerim/yeni", views.ProjeYeniView.as_view(), name="projelerim_yeni"),
    path("widget", views.WidgetAyarView.as_view(), name="widget"),
    path("eposta", eposta_views.EpostaView.as_view(), name="eposta"),
    path("webhooks", webhook_views.WebhookListeView.as_view(), name="webhooks"),
    path("webhooks/<int:endpoint_id>", webhook_views.WebhookDuzenleView.as_view(), name="webhook_duzenle"),
    path("webhooks/teslimat/<int:teslimat_id>/yeniden", webhook_views.TeslimatYenidenView.as_view(),
         name="teslimat_yeniden"),
    # Last: aliases (/portal/login ...), trailing slashes, and the portal's own 404 page.
    re_path(r"^(?P<yol>.+)$", views.bilinmeyen_yol, name="bilinmeyen"),
]

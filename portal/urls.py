from django.urls import path, re_path

from . import ekip_views, eposta_views, gorunum_views, icerik_views, kb_views, views, webhook_views

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
    path("bilgi-bankasi", kb_views.BilgiBankasiView.as_view(), name="kb"),
    path("bilgi-bankasi/kategori/<int:kategori_id>", kb_views.KbKategoriView.as_view(), name="kb_kategori"),
    path("bilgi-bankasi/makale/yeni", kb_views.KbMakaleYeniView.as_view(), name="kb_makale_yeni"),
    path("bilgi-bankasi/makale/<int:makale_id>", kb_views.KbMakaleView.as_view(), name="kb_makale"),
    path("bilgi-bankasi/onizleme", kb_views.KbOnizlemeView.as_view(), name="kb_onizleme"),
    path("hazir-yanitlar", icerik_views.HazirYanitView.as_view(), name="hazir_yanitlar"),
    path("hazir-yanitlar/<int:nesne_id>", icerik_views.HazirYanitView.as_view(), name="hazir_yanit"),
    path("kampanyalar", icerik_views.KampanyaView.as_view(), name="kampanyalar"),
    path("kampanyalar/<int:nesne_id>", icerik_views.KampanyaView.as_view(), name="kampanya"),
    path("gorunum", gorunum_views.GorunumView.as_view(), name="gorunum"),
    path("ekip", ekip_views.EkipView.as_view(), name="ekip"),
    path("ekip/<int:uyelik_id>", ekip_views.UyeView.as_view(), name="uye"),
    path("ekip/davet/<int:davet_id>/iptal", ekip_views.DavetIptalView.as_view(), name="davet_iptal"),
    path("davet/<str:token>", ekip_views.DavetKabulView.as_view(), name="davet_kabul"),
    # Last: aliases (/portal/login ...), trailing slashes, and the portal's own 404 page.
    re_path(r"^(?P<yol>.+)$", views.bilinmeyen_yol, name="bilinmeyen"),
]

from django.conf import settings
from django.contrib import admin
from django.http import JsonResponse
from django.urls import include, path, re_path

from supportdesk.core import hata_raporu, kullanici_dosyasi, mesajlar
from supportdesk.core.metrikler import metrics_view

urlpatterns = [
    path("metrics", metrics_view, name="metrics"),
    path("api/v1/", include("supportdesk.api_urls")),
    path(settings.ADMIN_URL, admin.site.urls),
    path("portal/", include("portal.urls")),
    path("eposta/", include("eposta.urls")),
    path("panel/", include("panel.urls")),
    path("", include("portal.root_urls")),
]

if settings.SERVE_MEDIA:
    # Uploaded files in development and single-box deployments (names are unguessable), never
    # rendered as pages of the service (supportdesk.core.kullanici_dosyasi).
    urlpatterns += [re_path(r"^media/(?P<path>.*)$", kullanici_dosyasi.medya)]


def _json_or_default(status, kod, mesaj, default):
    def view(request, exception=None):
        if request.path.startswith("/api/v1/"):
            metin = str(mesaj() if callable(mesaj) else mesaj)  # lazy: in the request's language
            return JsonResponse({"basarili": False, "hata": {"kod": kod, "mesaj": metin}}, status=status)
        return default(request, exception) if exception is not None else default(request)

    return view


from django.views import defaults as _defaults  # noqa: E402

handler400 = _json_or_default(400, "GECERSIZ_ISTEK", mesajlar.GECERSIZ_ISTEK, _defaults.bad_request)
handler403 = _json_or_default(403, "YETKISIZ", mesajlar.YETKISIZ, _defaults.permission_denied)
handler404 = _json_or_default(404, "BULUNAMADI", mesajlar.BULUNAMADI, _defaults.page_not_found)
handler500 = _json_or_default(500, "SUNUCU_HATASI", hata_raporu.sunucu_hatasi_mesaji, _defaults.server_error)

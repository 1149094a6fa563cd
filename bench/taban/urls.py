"""The bare views under /bench/ (before the service's routes, so no catch-all takes them), then
every route of the served checkout, with its JSON error handlers."""
from django.urls import include, path

from supportdesk.urls import handler400, handler403, handler404, handler500  # noqa: F401

from .views import BosKayit, BosOkuma, SinirliKayit, YayinliKayit, sinirli_kayit_django

urlpatterns = [
    path("bench/bos-kayit", BosKayit.as_view()),
    path("bench/bos-okuma", BosOkuma.as_view()),
    path("bench/sinirli-kayit", SinirliKayit.as_view()),
    path("bench/sinirli-kayit-django", sinirli_kayit_django),
    path("bench/yayinli-kayit", YayinliKayit.as_view()),
    path("", include("supportdesk.urls")),
]

"""Everything under /api/v1. Each app owns its routes; the catch-all keeps 404s in the envelope."""
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView
from rest_framework.renderers import JSONRenderer

from supportdesk.core.views import BilinmeyenAdresView, CanliView, HazirView, SaglikView


class ZarfliHatalar:
    """The schema and docs views render YAML or HTML; their errors (405, 406) get the JSON
    envelope like every other answer under /api/v1 (CONTRACT 1)."""

    def finalize_response(self, request, response, *args, **kwargs):
        if response.status_code >= 400:
            request.accepted_renderer, request.accepted_media_type = JSONRenderer(), "application/json"
        return super().finalize_response(request, response, *args, **kwargs)


class SemaView(ZarfliHatalar, SpectacularAPIView):
    pass


class SwaggerView(ZarfliHatalar, SpectacularSwaggerSplitView):
    """The page and its init script apart (`?script=`): no inline script, so the page's
    Content-Security-Policy (supportdesk.core.csp) allows only scripts of this origin."""


class RedocView(ZarfliHatalar, SpectacularRedocView):
    pass


urlpatterns = [
    path("saglik", SaglikView.as_view(), name="saglik"),
    path("saglik/canli", CanliView.as_view(), name="saglik-canli"),
    path("saglik/hazir", HazirView.as_view(), name="saglik-hazir"),
    # The widget's hot calls (the poll, the visitor's message) first: each include is tried
    # pattern by pattern, and no earlier or later pattern matches a path of chat's (all start
    # with widget/chat/, operator/chat, operator/canned-responses; supportdesk/tests/test_api_adresleri.py).
    path("", include("chat.api.urls")),
    path("schema/", SemaView.as_view(), name="schema"),
    path("docs/", SwaggerView.as_view(url_name="schema"), name="docs"),
    path("redoc/", RedocView.as_view(url_name="schema"), name="redoc"),
    path("", include("tenants.api.urls")),
    path("", include("webhooks.api.urls")),
    path("", include("otomasyon.api.urls")),
    path("", include("dosyalar.api.urls")),
    path("", include("tickets.api.urls")),
    path("", include("knowledge.api.urls")),
    path("", include("arama.api.urls")),
    path("", include("context.api.urls")),
    path("", include("eposta.api.urls")),
    path("", include("widget.api.urls")),
    path("", include("panel.api.urls")),
    path("", include("gizlilik.api.urls")),
    path("", include("denetim.api.urls")),
    path("", include("context.api.kisi_urls")),
    # [\s\S], not `.`: a path with an encoded newline (/api/v1/x%0A) must get the envelope too.
    re_path(r"^[\s\S]*$", BilinmeyenAdresView.as_view(), name="api-bilinmeyen"),
]

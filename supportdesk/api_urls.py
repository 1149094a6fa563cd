"""Everything under /api/v1. Each app owns its routes; the catch-all keeps 404s in the envelope."""
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from supportdesk.core.views import BilinmeyenAdresView, SaglikView

urlpatterns = [
    path("saglik", SaglikView.as_view(), name="saglik"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    path("redoc/", SpectacularRedocView.as_view(url_name="schema"), name="redoc"),
    path("", include("tenants.api.urls")),
    path("", include("webhooks.api.urls")),
    path("", include("chat.api.urls")),
    path("", include("tickets.api.urls")),
    path("", include("knowledge.api.urls")),
    path("", include("context.api.urls")),
    # [\s\S], not `.`: a path with an encoded newline (/api/v1/x%0A) must get the envelope too.
    re_path(r"^[\s\S]*$", BilinmeyenAdresView.as_view(), name="api-bilinmeyen"),
]

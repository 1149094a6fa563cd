"""`/panel/`: the operator console's page (CONTRACT 12). A static shell: everything it shows
comes from the public operator REST API and the operator socket, read by its ES modules."""
from django.views.decorators.http import require_GET
from django.views.generic import TemplateView

from supportdesk.core.csp import sayfa_csp

# No inline script or style anywhere, so the policy can forbid both: an injected message could
# not run even if it ever reached the DOM as HTML (it does not: text nodes only). The socket too.
CSP = sayfa_csp(connect_src="'self' ws: wss:")


class KonsolView(TemplateView):
    template_name = "panel/index.html"

    def get(self, request, *args, **kwargs):
        yanit = super().get(request, *args, **kwargs)
        yanit["Content-Security-Policy"] = CSP
        yanit["Cache-Control"] = "no-cache"
        yanit["Referrer-Policy"] = "same-origin"
        return yanit


konsol = require_GET(KonsolView.as_view())

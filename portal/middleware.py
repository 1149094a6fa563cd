"""The portal's pages get the console's Content-Security-Policy (supportdesk.core.csp): every
response under /portal/, its error pages and redirects included, unless a view set its own."""
from django.urls import reverse

from supportdesk.core.csp import sayfa_csp

CSP = sayfa_csp()


class PortalCSP:
    def __init__(self, get_response):
        self.get_response = get_response
        self.onek = None

    def __call__(self, request):
        yanit = self.get_response(request)
        if self.onek is None:
            self.onek = reverse("portal:pano")
        if request.path.startswith(self.onek):
            yanit.headers.setdefault("Content-Security-Policy", CSP)
        return yanit

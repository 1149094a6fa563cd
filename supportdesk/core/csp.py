"""The Content-Security-Policy of the service's own pages (the operator console, the owners'
portal, the Django admin and the API's Swagger page). They have no inline script, no inline
style attribute and no `javascript:` URL, so the policy forbids all three: markup injected into a
page could neither run nor restyle it. Colours that come from data (a project's colour) are set
by the pages' scripts through CSSOM (`element.style.setProperty`), which the policy allows, from
`data-renk` attributes.
"""
from django.conf import settings


def sayfa_csp(*, connect_src: str = "'self'", frame_ancestors: str = "'none'") -> str:
    """`frame_ancestors`: "'self'" only for a page the service frames itself (the portal's widget preview)."""
    return (f"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob: https:; "
            f"connect-src {connect_src}; object-src 'none'; base-uri 'none'; form-action 'self'; "
            f"frame-ancestors {frame_ancestors}")


class YonetimVeBelgeCSP:
    """The admin (`ADMIN_URL`) and the API's Swagger page (`/api/v1/docs/`, whose init script is
    served apart as `?script=`, supportdesk.api_urls) get the same policy as the portal, errors
    and redirects included, unless a view set its own (issue 38). Neither needs anything inline:
    Django's admin has no inline script or style, and the Swagger page's look is a static file."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.onekler = ("/" + settings.ADMIN_URL.lstrip("/"), settings.API_ONEKI + "docs/")
        self.politika = sayfa_csp()
        self.redoc = settings.API_ONEKI + "redoc/"

    def __call__(self, request):
        yanit = self.get_response(request)
        if request.path.startswith(self.onekler):
            yanit.headers.setdefault("Content-Security-Policy", self.politika)
        elif request.path.startswith(self.redoc):
            yanit.headers.setdefault("Content-Security-Policy", REDOC_CSP)
        return yanit


# The ReDoc page (`/api/v1/redoc/`): scripts of this origin only, as every page (its init is a
# static file, templates/drf_spectacular/redoc.html). ReDoc writes its styles as <style> elements
# at run time (styled-components) and searches in a worker it makes from a blob: those two are
# allowed here and nowhere else. Styles cannot run code; the page shows only the schema.
REDOC_CSP = sayfa_csp().replace("style-src 'self'", "style-src 'self' 'unsafe-inline'") + "; worker-src blob:"

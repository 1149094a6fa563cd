"""How user files (uploads, context screenshots, tenants' logos) are served: never as a page of
the service. A PDF with JavaScript or an HTML-ish text opened from `/media/` ran in the service's
own origin (its cookies, its localStorage, its same-origin API). So every user file carries
`Content-Security-Policy: sandbox` (an opaque origin, no scripts, no forms), and everything but an
image is `Content-Disposition: attachment` (downloaded, not rendered); images stay inline for the
console's previews and the widget's logo.
"""
import mimetypes
import posixpath

from django.conf import settings
from django.utils.http import content_disposition_header
from django.views.static import serve

# By the stored name's extension: stored names are ours (uploads and screenshots take theirs from
# the sniffed type, a logo is a checked PNG, JPEG, WebP or a cleaned SVG).
SATIR_ICI_TIPLER = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp", "image/svg+xml"})
CSP = "sandbox"


def satir_ici_mi(ad: str) -> bool:
    return mimetypes.guess_type(ad)[0] in SATIR_ICI_TIPLER


def medya(request, path):
    """`/media/…` when the service serves MEDIA_ROOT itself (SERVE_MEDIA). MEDIA_ROOT is read per
    request, not captured at import, so a changed setting (tests) holds."""
    yanit = serve(request, path, document_root=settings.MEDIA_ROOT)
    yanit["Content-Security-Policy"] = CSP
    if not satir_ici_mi(path):
        yanit["Content-Disposition"] = content_disposition_header(True, posixpath.basename(path))
    return yanit

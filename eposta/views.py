"""The one-click stop link of visitor mails (CONTRACT 14): a page, not under /api/v1.

GET (the link in the mail) stops at once and says so; POST is RFC 8058's one-click request a
mail client sends for `List-Unsubscribe-Post` (no session, so no CSRF token)."""
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from supportdesk.core.exceptions import Bulunamadi

from . import services


@csrf_exempt
@require_http_methods(["GET", "POST"])
def durdur(request, token: str):
    try:
        services.eposta_durdur(token=token)
    except Bulunamadi:
        return render(request, "eposta/durdur.html", {"gecersiz": True}, status=404)
    return render(request, "eposta/durdur.html", {"gecersiz": False})

"""The development demo host page (issue 8): a make-believe tenant site with the widget embedded."""
from django.conf import settings
from django.http import Http404
from django.shortcuts import render
from django.views import View

from tenants.management.commands.demo_verisi import DEMO_MUSTERILER
from tenants.models import Musteri


class DemoView(View):
    """`/demo/`: wired to the first demo tenant so that `make run` shows the widget at once.

    Development only: the page prints a tenant's widget key, which is public by design but
    has no business on a production host's front page.
    """

    def get(self, request):
        if not settings.DEBUG:
            raise Http404
        musteri = Musteri.objects.filter(firma_adi=DEMO_MUSTERILER[0][0]).order_by("id").first()
        return render(request, "demo/index.html", {
            "musteri": musteri,
            # `?dusmanca=1` adds hostile host CSS, to see that the Shadow DOM keeps the widget whole.
            "dusmanca": request.GET.get("dusmanca") == "1",
        }, status=200 if musteri else 503)

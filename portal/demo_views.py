"""The development demo host page (issue 8): a make-believe tenant site with the widget embedded."""
from django.conf import settings
from django.http import Http404
from django.shortcuts import render
from django.views import View

from tenants.management.commands.demo_verisi import DEMO_MUSTERILER
from tenants.models import Musteri


class DemoView(View):
    """`/demo/`: wired to the first demo tenant so that `make run` shows the widget at once;
    `/demo/?proje=<id>` (the page's selector) shows another demo project's widget.

    Development only: the page prints a tenant's widget key, which is public by design but
    has no business on a production host's front page. Only the demo projects (by their names in
    `demo_verisi`, the first of each name) are offered; any other id is a 404.
    """

    def get(self, request):
        if not settings.DEBUG:
            raise Http404
        projeler = _demo_projeleri()
        secilen = request.GET.get("proje")
        if secilen is None:
            musteri = projeler[0] if projeler else None
        else:
            musteri = next((m for m in projeler if str(m.id) == secilen), None)
            if musteri is None:
                raise Http404
        return render(request, "demo/index.html", {
            "musteri": musteri,
            "projeler": projeler,
            # Links of the page keep the chosen project (a reload stays on it).
            "taban": f"/demo/?proje={musteri.id}" if secilen is not None else "/demo/",
            # `?dusmanca=1` adds hostile host CSS, to see that the Shadow DOM keeps the widget whole.
            "dusmanca": request.GET.get("dusmanca") == "1",
        }, status=200 if musteri else 503)


def _demo_projeleri() -> list[Musteri]:
    adlar = [ad for ad, _ in DEMO_MUSTERILER]
    ilkler = {}
    for musteri in Musteri.objects.filter(firma_adi__in=adlar).order_by("id"):
        ilkler.setdefault(musteri.firma_adi, musteri)  # a later namesake is not the demo tenant
    return [ilkler[ad] for ad in adlar if ad in ilkler]

"""`/portal/kisiler`: the project's contacts (CONTRACT 25): list and search for every member; CSV
export and import for `sahip` and `yonetici` (a file of people's data, as CONTRACT 18's export),
through `context.kisi_aktarim` (formulas neutralised as every CSV of the service, CONTRACT 13)."""
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from context import kisi_aktarim as aktarim
from context.kisi_ozeti import kisi_verileri
from kisiler.selectors import kisi_list, nitelik_list
from supportdesk.core.exceptions import GecersizIstek
from supportdesk.core.pagination import sayfala

from .views import PortalView, yetkisiz


class KisilerView(PortalView):
    yonetim_gerekli = True  # GET for every member; the import (POST) for sahip and yonetici

    def get(self, request):
        if request.GET.get("bicim") == "csv":
            return self._csv()
        q = (request.GET.get("q") or "").strip()[:200]
        qs = kisi_list(musteri_idleri=[self.musteri.id], q=q or None)
        try:
            satirlar, sonraki = sayfala(qs, request.GET, alanlar=("id",), azalan=True)
        except GecersizIstek:
            satirlar, sonraki = sayfala(qs, {}, alanlar=("id",), azalan=True)
        return self.sayfa("portal/kisiler.html", q=q, kisiler=kisi_verileri(satirlar), sonraki=sonraki,
                          nitelikler=nitelik_list(musteri_id=self.musteri.id), hatalar=[])

    def _csv(self):
        if not self.uyelik.yonetebilir:
            return yetkisiz(self.request)
        yanit = HttpResponse(content_type="text/csv; charset=utf-8")
        yanit["Content-Disposition"] = 'attachment; filename="kisiler.csv"'
        yanit.write("\ufeff")  # so that spreadsheet programs read the Turkish letters as UTF-8
        aktarim.disa_aktar(musteri_id=self.musteri.id, hedef=yanit)
        return yanit

    def post(self, request):
        dosya = request.FILES.get("dosya")
        hatalar: list[str] = []
        if dosya is None:
            hatalar = [_("Bir CSV dosyası seçin.")]
        else:
            try:
                sonuc = aktarim.ice_aktar(musteri_id=self.musteri.id, icerik=dosya.read(aktarim.DOSYA_MAX + 1))
                hatalar = sonuc.hatalar
            except GecersizIstek as e:
                hatalar = [str(m) for m in (e.alanlar or {}).values()]
        if hatalar:
            return self.sayfa("portal/kisiler.html", status=400, q="", sonraki=None, hatalar=hatalar[:50],
                              kisiler=kisi_verileri(list(kisi_list(musteri_idleri=[self.musteri.id]).order_by("-id")[:50])),
                              nitelikler=nitelik_list(musteri_id=self.musteri.id))
        messages.success(request, _("İçe aktarıldı: %(eklenen)s yeni kişi, %(guncellenen)s kişi güncellendi.") % {
            "eklenen": sonuc.eklenen, "guncellenen": sonuc.guncellenen})
        return redirect("portal:kisiler")

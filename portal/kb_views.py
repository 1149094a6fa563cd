"""`/portal/bilgi-bankasi`: the project's help center, categories and articles (CONTRACT 13).

Writes go through `knowledge.services` (the same services the admin and `icerik_yukle` use), so
the body is sanitized and the search columns and vector are rebuilt on every save; objects are
looked up through `knowledge.selectors` with the active project, so a guessed id is a 404.
"""
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from knowledge import metin
from knowledge import selectors as kb_selectors
from knowledge import services as kb_services
from knowledge.models import KbKategori, KbMakale
from supportdesk.core.exceptions import Bulunamadi, GecersizIstek

from . import forms
from .ekip_views import form_hatalari
from .views import PortalView, bulunamadi


class _KbTemel(PortalView):
    yonetim_gerekli = True

    def _kategoriler(self):
        return list(kb_selectors.kb_kategori_list(musteri=self.musteri))

    def _liste(self, status=200, kategori_form=None):
        return self.sayfa("portal/kb.html", status=status, kategoriler=self._kategoriler(),
                          makaleler=list(kb_selectors.kb_yonetim_makale_list(musteri=self.musteri)),
                          kategori_form=kategori_form or forms.KbKategoriForm())

    def _kategori_kaydet(self, form, kategori=None):
        """The form's category saved, or None with the service's errors put on the form."""
        if not form.is_valid():
            return None
        d = form.cleaned_data
        slug = d["slug"].strip() or kb_services.kb_slug_uret(musteri=self.musteri, baslik=d["ad"], model=KbKategori,
                                                             haric=kategori and kategori.pk)
        try:
            return kb_services.kb_kategori_kaydet(musteri=self.musteri, slug=slug, ad=d["ad"], aciklama=d["aciklama"],
                                                  ad_en=d["ad_en"], aciklama_en=d["aciklama_en"],
                                                  sira=d["sira"] or 0, kategori=kategori or KbKategori(musteri=self.musteri))
        except GecersizIstek as exc:
            form_hatalari(form, exc)
            return None


class BilgiBankasiView(_KbTemel):
    def get(self, request):
        return self._liste()

    def post(self, request):  # a new category
        form = forms.KbKategoriForm(request.POST)
        kategori = self._kategori_kaydet(form)
        if kategori is None:
            return self._liste(kategori_form=form)
        messages.success(request, _("“%(ad)s” kategorisi eklendi.") % {"ad": kategori.ad})
        return redirect("portal:kb")


class KbKategoriView(_KbTemel):
    def _kategori(self, kategori_id):
        return kb_selectors.kb_kategori_get(musteri=self.musteri, kategori_id=kategori_id)

    def get(self, request, kategori_id: int):
        try:
            kategori = self._kategori(kategori_id)
        except Bulunamadi:
            return bulunamadi(request)
        form = forms.KbKategoriForm(initial={"ad": kategori.ad, "slug": kategori.slug, "aciklama": kategori.aciklama,
                                             "sira": kategori.sira, "ad_en": kategori.ad_en,
                                             "aciklama_en": kategori.aciklama_en})
        return self.sayfa("portal/kb_kategori.html", kategori=kategori, form=form)

    def post(self, request, kategori_id: int):
        try:
            kategori = self._kategori(kategori_id)
        except Bulunamadi:
            return bulunamadi(request)
        if request.POST.get("islem") == "sil":
            kb_services.kb_kategori_sil(kategori=kategori)
            messages.success(request, _("“%(ad)s” silindi; makaleleri kategorisiz kaldı.") % {"ad": kategori.ad})
            return redirect("portal:kb")
        form = forms.KbKategoriForm(request.POST)
        if self._kategori_kaydet(form, kategori) is None:
            kategori.refresh_from_db()
            return self.sayfa("portal/kb_kategori.html", kategori=kategori, form=form)
        messages.success(request, _("Kategori kaydedildi."))
        return redirect("portal:kb")


class _MakaleTemel(_KbTemel):
    def _form(self, data=None, initial=None):
        return forms.KbMakaleForm(data, initial=initial, kategoriler=self._kategoriler())

    def _duzenleyici(self, form, makale=None, status=200):
        return self.sayfa("portal/kb_makale.html", status=status, form=form, makale=makale)

    def _kaydet(self, form, makale=None):
        if not form.is_valid():
            return None
        d = form.cleaned_data
        try:
            kategori = (kb_selectors.kb_kategori_get(musteri=self.musteri, kategori_id=d["kategori"])
                        if d["kategori"] else None)
        except Bulunamadi:
            form.add_error("kategori", _("Bu kategori bu projede yok."))
            return None
        slug = d["slug"].strip() or kb_services.kb_slug_uret(musteri=self.musteri, baslik=d["baslik"],
                                                             haric=makale and makale.pk)
        try:
            return kb_services.kb_makale_kaydet(
                musteri=self.musteri, slug=slug, baslik=d["baslik"], ozet=d["ozet"], kategori=kategori,
                yayinda=d["yayinda"], sira=d["sira"] or 0, icerik_markdown=d["icerik_markdown"],
                baslik_en=d["baslik_en"], ozet_en=d["ozet_en"], icerik_markdown_en=d["icerik_markdown_en"],
                makale=makale or KbMakale(musteri=self.musteri),
            )
        except GecersizIstek as exc:
            form_hatalari(form, exc)
            return None


class KbMakaleYeniView(_MakaleTemel):
    def get(self, request):
        # A new article is published unless the author unticks it (issue 24).
        return self._duzenleyici(self._form(initial={"kategori": request.GET.get("kategori", ""), "yayinda": True}))

    def post(self, request):
        form = self._form(request.POST)
        makale = self._kaydet(form)
        if makale is None:
            return self._duzenleyici(form)
        bildirim = _("“%(baslik)s” kaydedildi ve yayında.") if makale.yayinda else _("“%(baslik)s” kaydedildi (taslak).")
        messages.success(request, bildirim % {"baslik": makale.baslik})
        return redirect("portal:kb_makale", makale_id=makale.pk)


class KbMakaleView(_MakaleTemel):
    def _makale(self, makale_id):
        return kb_selectors.kb_yonetim_makale_get(musteri=self.musteri, makale_id=makale_id)

    def get(self, request, makale_id: int):
        try:
            makale = self._makale(makale_id)
        except Bulunamadi:
            return bulunamadi(request)
        form = self._form(initial={"baslik": makale.baslik, "slug": makale.slug, "kategori": makale.kategori_id,
                                   "ozet": makale.ozet, "icerik_markdown": makale.icerik_markdown or makale.icerik,
                                   "yayinda": makale.yayinda, "sira": makale.sira, "baslik_en": makale.baslik_en,
                                   "ozet_en": makale.ozet_en,
                                   "icerik_markdown_en": makale.icerik_markdown_en or makale.icerik_en})
        return self._duzenleyici(form, makale)

    def post(self, request, makale_id: int):
        try:
            makale = self._makale(makale_id)
        except Bulunamadi:
            return bulunamadi(request)
        if request.POST.get("islem") == "sil":
            kb_services.kb_makale_sil(makale=makale)
            messages.success(request, _("“%(baslik)s” silindi.") % {"baslik": makale.baslik})
            return redirect("portal:kb")
        form = self._form(request.POST)
        if self._kaydet(form, makale) is None:
            return self._duzenleyici(form, self._makale(makale_id))  # the stored article, unchanged
        messages.success(request, _("Makale kaydedildi."))
        return redirect("portal:kb_makale", makale_id=makale.pk)


class KbOnizlemeView(PortalView):
    """The editor's live preview: the Markdown rendered and sanitized exactly as saving would."""

    yonetim_gerekli = True

    def post(self, request):
        kaynak = request.POST.get("icerik_markdown", "")[:200_000]
        return HttpResponse(metin.markdown_html(kaynak), content_type="text/html; charset=utf-8")

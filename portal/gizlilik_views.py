"""Privacy in the portal (CONTRACT 18, 21): a visitor's history page with export and erasure, the
audit log, and the deletion of a project by its last owner."""
from datetime import datetime, time, timedelta

from django import forms
from django.contrib import messages
from django.db import transaction
from django.http import FileResponse, HttpResponseRedirect
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from chat import yonlendirme
from chat.models import Oturum
from denetim.metin import eylem_adi, eylem_secenekleri, kayit_metni
from denetim.selectors import kayit_list
from gizlilik import services as gizlilik
from supportdesk.core.exceptions import GecersizIstek
from supportdesk.core.pagination import sayfala
from supportdesk.core.replika import replikadan
from supportdesk.core.throttling import istemci_ip
from tenants.ayarlar import ayar_degeri
from tenants.models import Musteri, Uyelik
from tickets.models import Ticket

from .views import AKTIF_PROJE, PortalView, bulunamadi, yetkisiz


class ZiyaretciView(PortalView):
    """`/portal/ziyaretci/<id>`: one visitor's chats and tickets in the active project; its owners
    and admins export them (a zip) or erase them (after typing the visitor's id)."""

    def _satirlar(self, ziyaretci_id):
        oturumlar = list(Oturum.objects.filter(musteri=self.musteri, ziyaretci_id=ziyaretci_id).order_by("-id")[:100])
        ticketlar = list(Ticket.objects.filter(musteri=self.musteri, ziyaretci_id=ziyaretci_id).order_by("-id")[:100])
        return oturumlar, ticketlar

    @replikadan
    def get(self, request, ziyaretci_id: str):
        oturumlar, ticketlar = self._satirlar(ziyaretci_id)
        if request.GET.get("disa_aktar"):
            if not self.uyelik.yonetebilir:
                return yetkisiz(request)
            arsiv = gizlilik.ziyaretci_disa_aktar(musteri=self.musteri, ziyaretci_id=ziyaretci_id,
                                                  kullanici_id=request.user.pk)
            ad = "".join(c if c.isalnum() or c in "-_" else "_" for c in ziyaretci_id)[:60]
            return FileResponse(arsiv, as_attachment=True, filename=f"ziyaretci-{ad}.zip", content_type="application/zip")
        return self.sayfa("portal/ziyaretci.html", ziyaretci_id=ziyaretci_id, oturumlar=oturumlar, ticketlar=ticketlar)

    def post(self, request, ziyaretci_id: str):
        if not self.uyelik.yonetebilir:
            return yetkisiz(request)
        if request.POST.get("onay", "").strip() != ziyaretci_id:
            messages.error(request, _("Silmek için ziyaretçi kimliğini aynen yazın."))
            return redirect("portal:ziyaretci", ziyaretci_id=ziyaretci_id)
        silinen = gizlilik.ziyaretci_sil(musteri=self.musteri, ziyaretci_id=ziyaretci_id, kullanici_id=request.user.pk)
        messages.success(request, _("Ziyaretçinin verisi silindi: %(oturum)s sohbet, %(mesaj)s mesaj, %(ticket)s ticket, "
                                    "%(yanit)s yanıt, %(dosya)s dosya, %(baglam)s bağlam kaydı.") % silinen)
        return redirect("portal:ziyaretci", ziyaretci_id=ziyaretci_id)


class DenetimFiltreForm(forms.Form):
    eylem = forms.ChoiceField(label=gettext_lazy("Eylem"), required=False,
                              choices=lambda: [("", _("Tümü")), *eylem_secenekleri()])
    kullanici = forms.IntegerField(label=gettext_lazy("Kullanıcı (kimlik)"), required=False, min_value=1)
    bas = forms.DateField(label=gettext_lazy("Başlangıç"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    son = forms.DateField(label=gettext_lazy("Bitiş"), required=False, widget=forms.DateInput(attrs={"type": "date"}))


def _gun(gun, ertesi=False):
    if gun is None:
        return None
    return timezone.make_aware(datetime.combine(gun + timedelta(days=1 if ertesi else 0), time.min))


class SaklamaForm(forms.Form):
    saklama_gun = forms.CharField(label=gettext_lazy("Saklama süresi (gün, 30–3650; boş: süresiz)"), required=False,
                                  widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}))


def _saklama_degeri(metin: str):
    metin = (metin or "").strip()
    if not metin:
        return None
    return int(metin) if metin.isascii() and metin.isdigit() and len(metin) < 10 else metin


class GizlilikView(PortalView):
    """`/portal/gizlilik` (issue 39.8): everything about a project's personal data on one page, for
    its owners and admins: retention (`saklama_gun`, CONTRACT 15, 18, saved by the settings
    service), a visitor look-up leading to its export and erasure, and the audit log with its
    filters (what `/portal/denetim` was; that address sends here)."""

    def _sayfa(self, request, saklama_form=None, status=200):
        form = DenetimFiltreForm(request.GET or None)
        d = form.cleaned_data if form.is_valid() else {}
        qs = kayit_list(musteri_id=self.uyelik.musteri_id, eylem=d.get("eylem") or None, kullanici_id=d.get("kullanici"),
                        baslangic=_gun(d.get("bas")), bitis=_gun(d.get("son"), ertesi=True))
        try:
            kayitlar, sonraki = sayfala(qs, request.GET, azalan=True)
        except GecersizIstek:
            kayitlar, sonraki = sayfala(qs, {}, azalan=True)
        for kayit in kayitlar:  # issue 39.7: a sentence in the reader's language, not codes and dicts
            kayit.metin, kayit.eylem_adi = kayit_metni(kayit), eylem_adi(kayit.eylem)
        sorgu = request.GET.copy()
        sorgu.pop("cursor", None)
        saklama = ayar_degeri(self.musteri, "saklama_gun")
        saklama_form = saklama_form or SaklamaForm(initial={"saklama_gun": "" if saklama is None else saklama})
        if status == 200 and request.GET and not form.is_valid():
            status = 400
        return self.sayfa("portal/gizlilik.html", status=status, form=form, kayitlar=kayitlar, sonraki=sonraki,
                          sorgu=sorgu.urlencode(), saklama_form=saklama_form, saklama_gun=saklama)

    @replikadan
    def get(self, request):
        if not self.uyelik.yonetebilir:
            return yetkisiz(request)
        ziyaretci_id = request.GET.get("ziyaretci", "").strip()
        if ziyaretci_id:
            return redirect("portal:ziyaretci", ziyaretci_id=ziyaretci_id)
        return self._sayfa(request)

    def post(self, request):
        if not self.uyelik.yonetebilir:
            return yetkisiz(request)
        form = SaklamaForm(request.POST)
        form.is_valid()
        try:
            yonlendirme.ayarlari_guncelle(  # the one action of a settings change (issue 40)
                musteri=self.musteri, kullanici=request.user, ip=istemci_ip(request),
                degisiklikler={"saklama_gun": _saklama_degeri(form.cleaned_data.get("saklama_gun", ""))})
        except GecersizIstek as exc:
            for mesaj in (exc.alanlar or {"saklama_gun": exc.mesaj}).values():
                form.add_error("saklama_gun", mesaj)
            return self._sayfa(request, saklama_form=form, status=400)
        messages.success(request, _("Saklama süresi kaydedildi."))
        return redirect("portal:gizlilik")


def denetim_yonlendir(request):
    """The audit log's old address (CONTRACT 21's `/portal/denetim`): the privacy page, with the
    same filters and cursor."""
    hedef = reverse("portal:gizlilik")
    if request.META.get("QUERY_STRING"):
        hedef += "?" + request.META["QUERY_STRING"]
    return HttpResponseRedirect(hedef + "#denetim")


class ProjeSilView(PortalView):
    """`/portal/proje-sil`: the active project's last owner deletes it after typing its name; the
    project leaves no row and no file behind (every row cascades; files: gizlilik)."""

    def _son_sahip_mi(self) -> bool:
        return (self.uyelik.rol == Uyelik.Rol.SAHIP
                and not Uyelik.objects.filter(musteri_id=self.uyelik.musteri_id, rol=Uyelik.Rol.SAHIP)
                .exclude(pk=self.uyelik.pk).exists())

    def get(self, request):
        if self.uyelik.rol != Uyelik.Rol.SAHIP:
            return yetkisiz(request)
        return self.sayfa("portal/proje_sil.html", son_sahip=self._son_sahip_mi())

    def post(self, request):
        if self.uyelik.rol != Uyelik.Rol.SAHIP:
            return yetkisiz(request)
        musteri = self.uyelik.musteri
        if not self._son_sahip_mi():
            messages.error(request, _("Projenin başka sahipleri var: proje yalnızca son sahibi tarafından silinebilir."))
            return redirect("portal:proje_sil")
        if request.POST.get("onay", "").strip() != musteri.firma_adi:
            messages.error(request, _("Silmek için projenin adını aynen yazın."))
            return redirect("portal:proje_sil")
        with transaction.atomic():
            kilitli = Musteri.objects.select_for_update().filter(pk=musteri.pk).first()
            if kilitli is None:
                return bulunamadi(request)
            kilitli.delete()
        request.session.pop(AKTIF_PROJE, None)
        messages.success(request, _("%(ad)s projesi ve tüm verisi silindi.") % {"ad": musteri.firma_adi})
        return redirect("portal:pano")

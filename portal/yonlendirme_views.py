"""`/portal/yonlendirme`: routing, working hours and timed rules (CONTRACT 15, 21). The page's
fields are turned into the settings API's shape and checked by the same action and validator
(`chat.yonlendirme.ayarlari_guncelle`: `tenants.services.musteri_ayarlari_guncelle`, then a new
routing mode drains the queue; `tenants.ayarlar`), so the rules are written once.
The widget's language (`dil`, CONTRACT 15, 19) is set here, with the other section 15 settings,
and nowhere else in the portal."""
import re
from zoneinfo import ZoneInfo

from django.contrib import messages
from django.shortcuts import redirect
from django.utils import dateformat, timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from chat import yonlendirme
from supportdesk.core.dil import dilde, widget_dili
from supportdesk.core.exceptions import GecersizIstek
from supportdesk.core.throttling import istemci_ip
from tenants.ayarlar import ALANLAR, MESAI_DISI_METNI, ayarlar_oku, takvim
from tenants.models import Musteri
from tenants.takvim import GUNLER, saat_dilimi_listesi

from .views import PortalView

GUN_ADLARI = dict(zip(GUNLER, (gettext_lazy("Pazartesi"), gettext_lazy("Salı"), gettext_lazy("Çarşamba"),
                                gettext_lazy("Perşembe"), gettext_lazy("Cuma"), gettext_lazy("Cumartesi"),
                                gettext_lazy("Pazar")), strict=True))
KISA_GUNLER = (pgettext_lazy("kısa gün adı", "Pzt"), pgettext_lazy("kısa gün adı", "Sal"),
               pgettext_lazy("kısa gün adı", "Çar"), pgettext_lazy("kısa gün adı", "Per"),
               pgettext_lazy("kısa gün adı", "Cum"), pgettext_lazy("kısa gün adı", "Cmt"),
               pgettext_lazy("kısa gün adı", "Paz"))
_DILIM = re.compile(r"^\s*(\S+)\s*[-–]\s*(\S+)\s*$")
# Retention (`saklama_gun`) is on the privacy page (`/portal/gizlilik`, issue 39.8), not here.
SAYI_ALANLARI = ("bekleme_zaman_asimi_dk", "sessiz_kapatma_dk", "yeniden_atama_dk")


def _dilimleri_coz(metin: str) -> list | str:
    """"09:00-12:00, 13:00-17:00" as slots; the text itself when it is not of that form (the
    validator then names the field)."""
    dilimler = []
    for parca in filter(None, (p.strip() for p in metin.split(","))):
        eslesme = _DILIM.match(parca)
        if eslesme is None:
            return metin
        dilimler.append([eslesme.group(1), eslesme.group(2)])
    return dilimler


# The zones most projects pick, first (issue 39.8); then every other zone under its region.
SIK_SAAT_DILIMLERI = ("Europe/Istanbul", "UTC", "Europe/London", "Europe/Berlin", "Europe/Paris", "Europe/Amsterdam",
                      "Europe/Moscow", "Asia/Baku", "Asia/Dubai", "Asia/Kolkata", "Asia/Tokyo", "Asia/Shanghai",
                      "America/New_York", "America/Chicago", "America/Los_Angeles", "America/Sao_Paulo",
                      "Australia/Sydney")
BOLGE_ADLARI = {"Europe": gettext_lazy("Avrupa"), "Asia": gettext_lazy("Asya"), "America": gettext_lazy("Amerika"),
                "Africa": gettext_lazy("Afrika"), "Australia": gettext_lazy("Avustralya"),
                "Pacific": gettext_lazy("Pasifik"), "Atlantic": gettext_lazy("Atlas Okyanusu"),
                "Indian": gettext_lazy("Hint Okyanusu"), "Antarctica": gettext_lazy("Antarktika"),
                "Arctic": gettext_lazy("Arktik")}


def _utc_farki(ad: str, simdi) -> str:
    fark = simdi.astimezone(ZoneInfo(ad)).utcoffset()
    dakika = int(fark.total_seconds() // 60)
    return f"UTC{'+' if dakika >= 0 else '−'}{abs(dakika) // 60:02d}:{abs(dakika) % 60:02d}"


def saat_dilimi_gruplari(adlar: list[str]) -> list[tuple[str, list[tuple[str, str]]]]:
    """The zone choice as (group, [(name, "name (UTC+03:00)")]): the common ones first, then each
    region in the member's language, "other" last; each zone once, with its offset now."""
    simdi = timezone.now()
    var = set(adlar)
    sik = [ad for ad in SIK_SAAT_DILIMLERI if ad in var]
    gruplar: dict[str, list[str]] = {}
    for ad in adlar:
        if ad not in sik:
            gruplar.setdefault(ad.split("/", 1)[0] if "/" in ad else "", []).append(ad)
    sirali = sorted(gruplar.items(), key=lambda kv: (kv[0] not in BOLGE_ADLARI, str(BOLGE_ADLARI.get(kv[0], kv[0]))))
    sonuc = [(_("Sık kullanılanlar"), sik)]
    sonuc += [(str(BOLGE_ADLARI[bolge]) if bolge in BOLGE_ADLARI else pgettext("saat dilimi bölgesi", "Diğer"), liste)
              for bolge, liste in sirali]
    birlesik: dict[str, list[str]] = {}
    for etiket, liste in sonuc:
        birlesik.setdefault(etiket, []).extend(liste)
    return [(etiket, [(ad, f"{ad.replace('_', ' ')} ({_utc_farki(ad, simdi)})") for ad in liste])
            for etiket, liste in birlesik.items() if liste]


def _sayi(metin: str):
    metin = metin.strip()
    if not metin:
        return None
    return int(metin) if metin.isascii() and metin.isdigit() and len(metin) < 10 else metin


def formdan_gunler(post) -> dict | None:
    """The day boxes as a `calisma_saatleri` object (None when the page sent no day box); a box
    not of the slot form makes `{day: its text}`, which the check names."""
    if not any(f"gun_{gun}" in post for gun in GUNLER):
        return None
    saatler = {}
    for gun in GUNLER:
        dilimler = _dilimleri_coz(post.get(f"gun_{gun}", ""))
        if isinstance(dilimler, str):
            return {gun: dilimler}  # its check names the day in `calisma_saatleri`
        saatler[gun] = dilimler
    return saatler


def formdan_ayarlar(post) -> dict:
    """The page's fields as the settings API's body (every field: the page shows them all). Under
    "always open" the days are not the calendar (null); the view keeps them (`formdan_gunler`)."""
    saatler = None
    if post.get("her_zaman_acik") != "1":
        saatler = formdan_gunler(post) or {gun: [] for gun in GUNLER}
    return {
        "saat_dilimi": post.get("saat_dilimi", "").strip(),
        "atama_modu": post.get("atama_modu", ""),
        "calisma_saatleri": saatler,
        "tatiller": [t.strip() for t in re.split(r"[\s,]+", post.get("tatiller", "")) if t.strip()],
        "mesai_disi_mesaji": post.get("mesai_disi_mesaji", "").replace("\r\n", "\n"),
        **{alan: _sayi(post.get(alan, "")) for alan in SAYI_ALANLARI},
        "dil": post.get("dil", ""),
    }


def _form_degerleri(ayarlar: dict, kayitli: dict | None = None) -> dict:
    """The page's values; under "always open" the day boxes show the days kept (issue 39.3)."""
    saatler = ayarlar["calisma_saatleri"]
    gunler = saatler if saatler is not None else (kayitli if isinstance(kayitli, dict) else {})
    return {
        **ayarlar,
        "her_zaman_acik": saatler is None,
        "gunler": [{"anahtar": g, "ad": GUN_ADLARI[g],
                    "metin": ", ".join(f"{a}-{b}" for a, b in _dilimler(gunler.get(g)))} for g in GUNLER],
        "tatiller_metni": "\n".join(ayarlar["tatiller"]),
        **{alan: "" if ayarlar[alan] is None else ayarlar[alan] for alan in SAYI_ALANLARI},
    }


def _dilimler(deger) -> list:
    """A day's valid slots (a kept day is not checked again when read)."""
    if not isinstance(deger, list):
        return []
    return [d for d in deger if isinstance(d, list | tuple) and len(d) == 2]


def _an(zaman) -> str:
    """A local moment as the member's language writes it (Turkish: 27.11.2026 09:00)."""
    return dateformat.format(zaman, pgettext("tarih biçimi", "d.m.Y H:i"))


def acilis_onizlemesi(musteri: Musteri, adet: int = 5) -> list[dict]:
    """The next openings from now, in the tenant's zone, for the page's preview, with weekday and
    date in the member's language."""
    t = takvim(musteri)
    sonuc = []
    for bas, bit in t.acilislar(timezone.now(), adet=adet, gun=28):
        b, s = bas.astimezone(t.bolge), bit.astimezone(t.bolge)
        if s.date() == b.date():
            bitis = dateformat.format(s, "H:i")
        else:
            gun_saat = dateformat.format(s, pgettext("tarih biçimi", "d.m H:i"))
            bitis = f"{KISA_GUNLER[s.weekday()]} {gun_saat}"
        sonuc.append({"metin": f"{KISA_GUNLER[b.weekday()]} {_an(b)} – {bitis}", "baslangic": bas})
    return sonuc


def _yakin_tatiller(t, simdi, gun: int = 28) -> list[str]:
    """The holidays of the next `gun` days, as local dates in the member's language: what closes an
    always-open tenant (CONTRACT 15), shown under "Her zaman açık"."""
    bugun = simdi.astimezone(t.bolge).date()
    return [f"{KISA_GUNLER[d.weekday()]} {dateformat.format(d, pgettext('tarih biçimi', 'j M'))}"
            for d in sorted(t.tatiller) if 0 <= (d - bugun).days < gun]


class YonlendirmeView(PortalView):
    yonetim_gerekli = True

    def _sayfa(self, degerler: dict | None = None, hatalar: dict | None = None, status: int = 200):
        m = self.musteri
        t = takvim(m)
        simdi = timezone.now()
        return self.sayfa(
            "portal/yonlendirme.html", status=status, musteri=m, hatalar=hatalar or {},
            d=degerler or _form_degerleri(ayarlar_oku(m), m.kayitli_calisma_saatleri), saat_dilimleri=saat_dilimi_listesi(),
            saat_dilimi_gruplari=saat_dilimi_gruplari(saat_dilimi_listesi()),
            atama_modlari=Musteri.AtamaModu.choices, diller=Musteri.Dil.choices,
            acik=t.acik_mi(simdi), yerel_saat=_an(simdi.astimezone(t.bolge)), saat_dilimi=t.saat_dilimi,
            acilislar=acilis_onizlemesi(m), varsayilan_metin=self._varsayilan_metin(), alan_adlari=list(ALANLAR),
            yakin_tatiller=_yakin_tatiller(t, simdi),
        )

    def _varsayilan_metin(self) -> str:
        """The service's closed text as the widget shows it: in the widget's language."""
        with dilde(widget_dili(self.musteri, self.request)):
            return _(str(MESAI_DISI_METNI))

    def get(self, request):
        return self._sayfa()

    def post(self, request):
        ayarlar = formdan_ayarlar(request.POST)
        kayitli = formdan_gunler(request.POST) if ayarlar["calisma_saatleri"] is None else None
        try:
            yonlendirme.ayarlari_guncelle(musteri=self.musteri, kullanici=request.user, degisiklikler=ayarlar,
                                          ip=istemci_ip(request), kayitli_calisma_saatleri=kayitli)
        except GecersizIstek as exc:
            # What was typed stays in the boxes, valid or not.
            degerler = _form_degerleri(ayarlar_oku(self.musteri), self.musteri.kayitli_calisma_saatleri)
            degerler.update({alan: request.POST.get(alan, "") for alan in (
                "saat_dilimi", "atama_modu", "mesai_disi_mesaji", "dil", *SAYI_ALANLARI)},
                her_zaman_acik=request.POST.get("her_zaman_acik") == "1", tatiller_metni=request.POST.get("tatiller", ""))
            for gun in degerler["gunler"]:
                gun["metin"] = request.POST.get(f"gun_{gun['anahtar']}", "")
            return self._sayfa(degerler, hatalar=exc.alanlar or {"genel": exc.mesaj}, status=400)
        messages.success(request, _("Yönlendirme ve mesai ayarları kaydedildi."))
        return redirect("portal:yonlendirme")

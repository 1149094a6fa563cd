"""`/portal/raporlar`: the project's figures for a date range, as a page with server-drawn SVG
charts and as CSV (CONTRACT 13). Days are calendar days of the project's own zone (`saat_dilimi`,
CONTRACT 15); the default range is the last 30 days including today, in that zone.

Languages (CONTRACT 19): the page and the spreadsheet tables (`bicim=excel`) speak the member's
language, headers, durations, dates and the spreadsheet dialect included (Turkish: `;`, decimal
comma, dd.mm.yyyy; English: `,`, decimal point, mm/dd/yyyy). The plain CSV (`bicim=csv`) is for
scripts: its section and key names and its format never change with the language (docs/api.md)."""
from datetime import datetime, time, timedelta

from django.http import HttpResponse
from django.utils import dateformat, formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from chat.raporlar import PUANLAR, ilk_yanit_sla_raporu, oturum_raporu
from supportdesk.core.replika import replikadan
from supportdesk.core.tablo import GuvenliYazici
from tenants.ayarlar import bolge
from tickets import sla as ticket_sla
from tickets.selectors import sla_raporu, ticket_raporu

from . import forms
from .views import PortalView

VARSAYILAN_GUN = 30
GRAFIK_EN, GRAFIK_BOY = 720, 180


def _sure(saniye) -> str:
    if saniye is None:
        return "—"
    saniye = round(saniye)
    dakika, sn = divmod(saniye, 60)
    saat, dakika = divmod(dakika, 60)
    if saat:
        return _("%(saat)s sa %(dakika)s dk") % {"saat": saat, "dakika": dakika}
    if dakika:
        return _("%(dakika)s dk %(saniye)s sn") % {"dakika": dakika, "saniye": sn}
    return _("%(saniye)s sn") % {"saniye": sn}


def _sayi(deger, basamak=2):
    return "—" if deger is None else f"{deger:.{basamak}f}"


def rapor_hesapla(*, musteri_id: int, bas_gun, son_gun, tz) -> dict:
    bas = timezone.make_aware(datetime.combine(bas_gun, time.min), tz)
    son = timezone.make_aware(datetime.combine(son_gun + timedelta(days=1), time.min), tz)
    sohbet = oturum_raporu(musteri_id=musteri_id, bas=bas, son=son, tz=tz)
    gunler = [bas_gun + timedelta(days=i) for i in range((son_gun - bas_gun).days + 1)]
    chat_hedef = ticket_sla.politika(musteri_id).chat_ilk_yanit_sn
    return {**sohbet, "ticket": ticket_raporu(musteri_id=musteri_id, bas=bas, son=son),
            "gunler": [(g, sohbet["gunluk"].get(g, 0)) for g in gunler],
            "sla": sla_raporu(musteri_id=musteri_id, bas=bas, son=son),
            "sla_chat": ilk_yanit_sla_raporu(musteri_id=musteri_id, bas=bas, son=son, hedef_sn=chat_hedef)}


# CONTRACT 17 in the report: met / breached per target (tickets.sla), and the chats' first response.
SLA_HEDEFLERI = (("ilk", "ilk_yanit", gettext_lazy("İlk yanıt")), ("sonraki", "sonraki_yanit", gettext_lazy("Sonraki yanıt")),
                 ("cozum", "cozum", gettext_lazy("Çözüm")))


def _sla_satirlari(r) -> list[tuple[str, str, int, int]]:
    """(name in CSV, name on the page, met, breached) per target; the chat's first response last."""
    t = r["sla"]["toplam"]
    satirlar = [(ad, baslik, t[f"{k}_karsilandi"], t[f"{k}_ihlal"]) for k, ad, baslik in SLA_HEDEFLERI]
    if r["sla_chat"] is not None:
        satirlar.append(("chat_ilk_yanit", _("Sohbette ilk yanıt"), r["sla_chat"]["karsilandi"], r["sla_chat"]["ihlal"]))
    return satirlar


def _gunluk_grafik(gunler: list) -> dict:
    """Bars of chats per day, laid out for the template's <svg> (no script, no CDN)."""
    en_cok = max((n for _, n in gunler), default=0) or 1
    genislik = GRAFIK_EN / max(len(gunler), 1)
    cubuklar = []
    for i, (gun, n) in enumerate(gunler):
        boy = round(n / en_cok * (GRAFIK_BOY - 20), 1)
        cubuklar.append({"x": round(i * genislik + 1, 1), "y": round(GRAFIK_BOY - boy, 1), "w": round(max(genislik - 2, 1), 1),
                         "h": boy, "gun": gun, "n": n})
    return {"cubuklar": cubuklar, "en": GRAFIK_EN, "boy": GRAFIK_BOY, "en_cok": en_cok}


def _puan_grafigi(ozet: dict) -> list:
    toplam = ozet["puanli"] or 1
    return [{"puan": p, "n": ozet[f"puan_{p}"], "yuzde": round(100 * ozet[f"puan_{p}"] / toplam, 1)} for p in PUANLAR]


class RaporView(PortalView):
    def _aralik(self, request):
        bugun = timezone.localdate(timezone=bolge(self.musteri))
        varsayilan = {"bas": bugun - timedelta(days=VARSAYILAN_GUN - 1), "son": bugun}
        if "bas" not in request.GET and "son" not in request.GET:
            return forms.RaporForm(initial=varsayilan), varsayilan["bas"], varsayilan["son"]
        form = forms.RaporForm(request.GET)
        if form.is_valid():
            return form, form.cleaned_data["bas"], form.cleaned_data["son"]
        return form, None, None

    @replikadan
    def get(self, request):
        form, bas, son = self._aralik(request)
        if bas is None:
            return self.sayfa("portal/raporlar.html", status=400, form=form)
        r = rapor_hesapla(musteri_id=self.musteri.id, bas_gun=bas, son_gun=son, tz=bolge(self.musteri))
        if request.GET.get("bicim") == "csv":
            return self._csv(r, bas, son)
        if request.GET.get("bicim") == "excel":
            return _excel(r, bas, son, request.GET.get("tablo"))
        return self.sayfa("portal/raporlar.html", form=form, r=r, bas=bas, son=son, grafik=_gunluk_grafik(r["gunler"]),
                          puanlar=_puan_grafigi(r["ozet"]), ilk_yanit=_sure(r["medyan_ilk_yanit"]),
                          cozum=_sure(r["medyan_cozum"]), puan_ortalama=_sayi(r["ozet"]["puan_ortalama"]),
                          operatorler=[{**o, "puan": _sayi(o["puan_ortalama"]), "ilk_yanit": _sure(o["ilk_yanit_ortalama"])}
                                       for o in r["operatorler"]],
                          sla_satirlari=_sla_satirlari(r),
                          sla_operatorleri=[{"email": o["operator__email"], "hucreler": [
                              (o[f"{k}_karsilandi"], o[f"{k}_ihlal"]) for k, _, _ in SLA_HEDEFLERI]}
                              for o in r["sla"]["operatorler"]])

    def _csv(self, r, bas, son):
        """For scripts: comma, ".", the summary, ratings and days, then the operators (docs/api.md)."""
        yanit = HttpResponse(content_type="text/csv; charset=utf-8")
        yanit["Content-Disposition"] = f'attachment; filename="rapor-{bas:%Y%m%d}-{son:%Y%m%d}.csv"'
        yanit.write("\ufeff")  # so that spreadsheet programs read the Turkish letters as UTF-8
        w = GuvenliYazici(yanit)  # a member's e-mail may start with '=': never a formula
        o, t = r["ozet"], r["ticket"]
        w.writerow(["bolum", "anahtar", "deger"])
        ozet = [("sohbet", o["toplam"]), ("kapanan_sohbet", o["kapanan"]),
                ("medyan_ilk_yanit_saniye", _sayi(r["medyan_ilk_yanit"], 1)),
                ("medyan_cozum_saniye", _sayi(r["medyan_cozum"], 1)), ("puan_ortalama", _sayi(o["puan_ortalama"])),
                ("puanli_sohbet", o["puanli"]), ("ticket_acilan", t["acilan"]), ("ticket_cozulen", t["cozulen"])]
        w.writerows(("ozet", k, v) for k, v in ozet)
        w.writerows(("puan", p, o[f"puan_{p}"]) for p in PUANLAR)
        w.writerows(("gun", g.isoformat(), n) for g, n in r["gunler"])
        w.writerow([])
        w.writerow(["operator", "sohbet", "kapanan", "puan_ortalama", "ilk_yanit_ortalama_saniye"])
        w.writerows((op["operator__email"], op["sohbet"], op["kapanan"], _sayi(op["puan_ortalama"]),
                     _sayi(op["ilk_yanit_ortalama"], 1)) for op in r["operatorler"])
        # CONTRACT 17: met / breached per target, then per ticket owner.
        w.writerow([])
        w.writerow(["sla_hedef", "karsilandi", "ihlal"])
        w.writerows((ad, k, i) for ad, _, k, i in _sla_satirlari(r))
        w.writerow([])
        w.writerow(["sla_operator", *(f"{ad}_{x}" for _, ad, _ in SLA_HEDEFLERI for x in ("karsilandi", "ihlal"))])
        w.writerows((o["operator__email"], *(o[f"{k}_{x}"] for k, _, _ in SLA_HEDEFLERI for x in ("karsilandi", "ihlal")))
                    for o in r["sla"]["operatorler"])
        return yanit


# `?bicim=excel&tablo=...`: one table per file, as a spreadsheet in the member's locale opens it
# (Turkish: `;` between cells, "," decimals, dd.mm.yyyy days; English: `,`, ".", mm/dd/yyyy; a
# BOM), with headers in its language; the plain CSV stays for machines.
EXCEL_TABLOLARI = ("gunluk", "operator", "ozet")


def _ondalik(deger, basamak=2):
    return "" if deger is None else round(float(deger), basamak)


def _excel(r, bas, son, tablo):
    tablo = tablo if tablo in EXCEL_TABLOLARI else "gunluk"
    yanit = HttpResponse(content_type="text/csv; charset=utf-8")
    yanit["Content-Disposition"] = f'attachment; filename="rapor-{tablo}-{bas:%Y%m%d}-{son:%Y%m%d}.csv"'
    yanit.write("\ufeff")
    ondalik = formats.get_format("DECIMAL_SEPARATOR")
    w = GuvenliYazici(yanit, ayirici=";" if ondalik == "," else ",", ondalik=ondalik)
    if tablo == "gunluk":
        gun_bicimi = pgettext("tarih biçimi", "d.m.Y")
        w.writerow([_("Gün"), pgettext("rapor", "Sohbet")])
        w.writerows((dateformat.format(g, gun_bicimi), n) for g, n in r["gunler"])
    elif tablo == "operator":
        w.writerow([_("Operatör"), pgettext("rapor", "Sohbet"), _("Kapanan"), _("Puan ortalaması"),
                    _("Ortalama ilk yanıt (sn)")])
        w.writerows((op["operator__email"], op["sohbet"], op["kapanan"], _ondalik(op["puan_ortalama"]),
                     _ondalik(op["ilk_yanit_ortalama"], 1)) for op in r["operatorler"])
    else:
        o, t = r["ozet"], r["ticket"]
        w.writerow([_("Ölçü"), _("Değer")])
        w.writerows([(pgettext("rapor", "Sohbet"), o["toplam"]), (_("Kapanan sohbet"), o["kapanan"]),
                     (_("Medyan ilk yanıt (sn)"), _ondalik(r["medyan_ilk_yanit"], 1)),
                     (_("Medyan çözüm süresi (sn)"), _ondalik(r["medyan_cozum"], 1)),
                     (_("Puan ortalaması"), _ondalik(o["puan_ortalama"])), (_("Puanlı sohbet"), o["puanli"]),
                     *((ngettext("%(puan)s puan", "%(puan)s puan", p) % {"puan": p}, o[f"puan_{p}"]) for p in PUANLAR),
                     (_("Açılan talep"), t["acilan"]), (_("Çözülen talep"), t["cozulen"])])
    return yanit

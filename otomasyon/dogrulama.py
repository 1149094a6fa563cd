"""A rule's and a macro's parts checked against CONTRACT 23, before anything is saved: every
problem is a 400 naming its place (`kosullar.0.alan`, `eylemler.2.etiket_id`); an id of another
tenant is such a problem too (the same words as a missing one)."""
from django.utils.translation import gettext as _

from chat.models import MESAJ_MAX, HazirYanit
from supportdesk.core.exceptions import GecersizIstek
from supportdesk.core.girdi import gecerli_id_mi, saklanabilir_metin_mi
from tenants.models import Ekip, Etiket, Uyelik
from tickets.models import Ticket

from .models import OLAYLAR

ALANLAR = ("kanal", "dil", "sayfa_url", "metin", "etiket", "oncelik", "ekip_id", "mesai", "ziyaretci_email")
ISLEMLER = ("esit", "esit_degil", "icerir", "icermez", "baslar")
# Each action and the one parameter it takes (None: none).
KURAL_EYLEMLERI: dict[str, str | None] = {
    "ekibe_ata": "ekip_id", "operatore_ata": "operator_id", "etiket_ekle": "etiket_id", "etiket_kaldir": "etiket_id",
    "oncelik": "oncelik", "hazir_yanit": "hazir_yanit_id", "not": "icerik", "durum": "durum", "kapat": None,
}
MAKRO_EYLEMLERI: dict[str, str | None] = {**KURAL_EYLEMLERI, "mesaj": "icerik"}
KOSUL_EN_COK = 20
EYLEM_EN_COK = 20
DEGER_MAX = 500
AD_MAX = 100


def _gecerli(degerler) -> str:
    return _("Şunlardan biri olmalı: %(degerler)s.") % {"degerler": ", ".join(degerler)}


def ad_dogrula(ad) -> str:
    if not isinstance(ad, str) or not ad.strip() or len(ad.strip()) > AD_MAX or not saklanabilir_metin_mi(ad):
        raise GecersizIstek(alanlar={"ad": _("1-%(en_cok)d karakter olmalı.") % {"en_cok": AD_MAX}})
    return ad.strip()


def olay_dogrula(olay) -> str:
    if olay not in OLAYLAR:
        raise GecersizIstek(alanlar={"olay": _gecerli(OLAYLAR)})
    return olay


def kosullar_dogrula(kosullar, *, musteri_id: int) -> list[dict]:
    if not isinstance(kosullar, list) or len(kosullar) > KOSUL_EN_COK:
        raise GecersizIstek(alanlar={"kosullar": _("En çok %(sayi)d koşullu bir liste olmalı.") % {"sayi": KOSUL_EN_COK}})
    temiz = []
    for i, kosul in enumerate(kosullar):
        yer = f"kosullar.{i}"
        if not isinstance(kosul, dict) or set(kosul) - {"alan", "islem", "deger"}:
            raise GecersizIstek(alanlar={yer: _("{alan, islem, deger} nesnesi olmalı.")})
        alan, islem, deger = kosul.get("alan"), kosul.get("islem"), kosul.get("deger")
        if alan not in ALANLAR:
            raise GecersizIstek(alanlar={f"{yer}.alan": _gecerli(ALANLAR)})
        if islem not in ISLEMLER:
            raise GecersizIstek(alanlar={f"{yer}.islem": _gecerli(ISLEMLER)})
        if alan == "ekip_id":
            if not _kiracinin(Ekip, deger, musteri_id):
                raise GecersizIstek(alanlar={f"{yer}.deger": _("Bu projenin bir ekibi olmalı.")})
        elif alan == "mesai":
            if deger not in ("acik", "kapali"):
                raise GecersizIstek(alanlar={f"{yer}.deger": _gecerli(("acik", "kapali"))})
        elif alan == "oncelik" and islem in ("esit", "esit_degil") and deger not in Ticket.Oncelik.values:
            raise GecersizIstek(alanlar={f"{yer}.deger": _gecerli(Ticket.Oncelik.values)})
        elif not isinstance(deger, str) or len(deger) > DEGER_MAX or not saklanabilir_metin_mi(deger):
            raise GecersizIstek(alanlar={f"{yer}.deger": _("En çok %(sayi)d karakterlik bir metin olmalı.")
                                         % {"sayi": DEGER_MAX}})
        temiz.append({"alan": alan, "islem": islem, "deger": deger})
    return temiz


def _kiracinin(model, deger, musteri_id: int) -> bool:
    if isinstance(deger, bool) or not isinstance(deger, int) or not gecerli_id_mi(deger):
        return False
    return model.objects.filter(pk=deger, musteri_id=musteri_id).exists()


def eylemler_dogrula(eylemler, *, musteri_id: int, makro: bool = False) -> list[dict]:
    turler = MAKRO_EYLEMLERI if makro else KURAL_EYLEMLERI
    if not isinstance(eylemler, list) or not eylemler or len(eylemler) > EYLEM_EN_COK:
        raise GecersizIstek(alanlar={"eylemler": _("1-%(sayi)d eylemli bir liste olmalı.") % {"sayi": EYLEM_EN_COK}})
    temiz = []
    for i, eylem in enumerate(eylemler):
        yer = f"eylemler.{i}"
        if not isinstance(eylem, dict):
            raise GecersizIstek(alanlar={yer: _("Nesne olmalı.")})
        tur = eylem.get("tur")
        if not isinstance(tur, str) or tur not in turler:  # a list or an object is no key (TypeError)
            raise GecersizIstek(alanlar={f"{yer}.tur": _gecerli(turler)})
        param = turler[tur]
        if set(eylem) - {"tur", param}:
            raise GecersizIstek(alanlar={yer: _("Bilinmeyen alan: %(alanlar)s.")
                                         % {"alanlar": ", ".join(sorted(set(eylem) - {"tur", str(param)}))}})
        if param is None:
            temiz.append({"tur": tur})
            continue
        deger = eylem.get(param)
        if not _parametre_gecerli(param, deger, musteri_id):
            raise GecersizIstek(alanlar={f"{yer}.{param}": _PARAMETRE_MESAJLARI[param]()})
        temiz.append({"tur": tur, param: deger.strip() if isinstance(deger, str) and param == "icerik" else deger})
    return temiz


def _parametre_gecerli(param: str, deger, musteri_id: int) -> bool:
    if param == "ekip_id":
        return _kiracinin(Ekip, deger, musteri_id)
    if param == "etiket_id":
        return _kiracinin(Etiket, deger, musteri_id)
    if param == "hazir_yanit_id":
        return _kiracinin(HazirYanit, deger, musteri_id)
    if param == "operator_id":
        return (not isinstance(deger, bool) and isinstance(deger, int) and gecerli_id_mi(deger)
                and Uyelik.objects.filter(musteri_id=musteri_id, kullanici_id=deger, kullanici__is_active=True).exists())
    if param == "oncelik":
        return deger in Ticket.Oncelik.values
    if param == "durum":
        return deger in Ticket.Durum.values
    if param == "icerik":
        return (isinstance(deger, str) and bool(deger.strip()) and len(deger) <= MESAJ_MAX
                and saklanabilir_metin_mi(deger))
    return False


_PARAMETRE_MESAJLARI = {
    "ekip_id": lambda: _("Bu projenin bir ekibi olmalı."),
    "etiket_id": lambda: _("Bu projenin bir etiketi olmalı."),
    "hazir_yanit_id": lambda: _("Bu projenin bir hazır yanıtı olmalı."),
    "operator_id": lambda: _("Bu projenin bir üyesi olmalı."),
    "oncelik": lambda: _gecerli(Ticket.Oncelik.values),
    "durum": lambda: _gecerli(Ticket.Durum.values),
    "icerik": lambda: _("1-%(en_cok)d karakterlik bir metin olmalı.") % {"en_cok": MESAJ_MAX},
}


def sira_dogrula(sira) -> int:
    if isinstance(sira, bool) or not isinstance(sira, int) or not -1_000_000 <= sira <= 1_000_000:
        raise GecersizIstek(alanlar={"sira": _("Bir tam sayı olmalı.")})
    return sira


def bool_dogrula(deger, alan: str) -> bool:
    if not isinstance(deger, bool):
        raise GecersizIstek(alanlar={alan: _("true ya da false olmalı.")})
    return deger

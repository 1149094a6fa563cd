"""Labels of a tenant (CONTRACT 16): reads and writes, for the REST API and the portal alike.

A label is put on chats and tickets by their apps (`chat.services.chat_etiketleri_ayarla`,
`tickets.services.ticket_etiketleri_ayarla`), which resolve the ids given with
`etiketler_coz` here: only labels of the chat's or ticket's own tenant (404 for any other).
Each write states what happened (`etiket_olusturuldu`, `etiket_degisti`, `etiket_silindi`, with
`kullanici_id` and `ip` for the audit log)."""
import re
import unicodedata

from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from supportdesk.core.exceptions import Bulunamadi, GecersizIstek
from supportdesk.core.girdi import gecerli_id_mi
from supportdesk.core.katlama import katla
from supportdesk.core.olaylar import yayinla

from .models import VARSAYILAN_ETIKET_RENGI, Etiket

AD_MAX = 40
ETIKET_IDLERI_MAX = 50  # labels on one chat or ticket
AD_VAR_MESAJI = gettext_lazy("Bu projede bu adda bir etiket zaten var (büyük/küçük harf farkı sayılmaz).")
_RENK = re.compile(r"^#[0-9A-Fa-f]{6}$")


# --- shapes ----------------------------------------------------------------------------------
def etiket_kisa_verisi(etiket: Etiket) -> dict:
    """A label as chats and tickets carry it (`etiketler: [{"id", "ad", "renk"}]`)."""
    return {"id": etiket.id, "ad": etiket.ad, "renk": etiket.renk}


def etiket_verisi(etiket: Etiket) -> dict:
    return {"id": etiket.id, "musteri_id": etiket.musteri_id, "ad": etiket.ad, "renk": etiket.renk}


def etiket_adlari(nesne) -> list[str]:
    """The names of a chat's or ticket's labels, for the webhooks' `veri` (CONTRACT 16)."""
    return [e.ad for e in nesne.etiketler.all()] if nesne is not None and nesne.pk else []


# --- reads -----------------------------------------------------------------------------------
def etiket_list(*, musteri_id: int) -> QuerySet[Etiket]:
    return Etiket.objects.kapsamda([musteri_id]).order_by("anahtar", "id")


def etiket_get(*, musteri_idleri: list[int], etiket_id) -> Etiket:
    """A label of one of the caller's tenants; the same 404 for missing and another tenant's."""
    etiket = (Etiket.objects.kapsamda(musteri_idleri).filter(pk=etiket_id).first()
              if gecerli_id_mi(etiket_id) else None)
    if etiket is None:
        raise Bulunamadi()
    return etiket


def etiket_idleri_dogrula(deger) -> list[int]:
    """`etiket_idleri` of a request: a list of positive integers (repeats count once)."""
    if not isinstance(deger, list) or len(deger) > ETIKET_IDLERI_MAX:
        mesaj = _("En çok %(sayi)s etiket id'si içeren bir liste olmalı.") % {"sayi": ETIKET_IDLERI_MAX}
        raise GecersizIstek(alanlar={"etiket_idleri": mesaj})
    if any(isinstance(i, bool) or not isinstance(i, int) or i < 1 for i in deger):
        raise GecersizIstek(alanlar={"etiket_idleri": _("Pozitif tam sayılar olmalı.")})
    return list(dict.fromkeys(deger))


def etiketler_coz(*, musteri_id: int, etiket_idleri: list[int]) -> list[Etiket]:
    """The labels of this tenant with these ids; any id not of this tenant is a 404 (CONTRACT 16)."""
    if not etiket_idleri:
        return []
    if not all(gecerli_id_mi(i) for i in etiket_idleri):
        raise Bulunamadi(_("Etiket bulunamadı."))
    etiketler = list(Etiket.objects.kapsamda([musteri_id]).filter(pk__in=etiket_idleri))
    if len(etiketler) != len(etiket_idleri):
        raise Bulunamadi(_("Etiket bulunamadı."))
    return etiketler


# --- writes ----------------------------------------------------------------------------------
def _ad_dogrula(ad) -> str:
    if not isinstance(ad, str):
        raise GecersizIstek(alanlar={"ad": _("Metin olmalı.")})
    # Stored and compared composed (NFC): "İ" typed as I + U+0307 is the one letter "İ".
    ad = unicodedata.normalize("NFC", " ".join(ad.split()))
    if not ad or len(ad) > AD_MAX or any(not c.isprintable() for c in ad):
        raise GecersizIstek(alanlar={"ad": _("1-%(sayi)s karakter olmalı.") % {"sayi": AD_MAX}})
    return ad


def _renk_dogrula(renk) -> str:
    if renk in (None, ""):
        return VARSAYILAN_ETIKET_RENGI
    if not isinstance(renk, str) or not _RENK.match(renk):
        raise GecersizIstek(alanlar={"renk": _("#RRGGBB biçiminde olmalı (örneğin #2563EB).")})
    return renk.upper()


def ad_anahtari(ad: str) -> str:
    """The name as two labels are compared: Turkish-folded (`katla`, composed first), and "i̇" (the
    "İ" lowered without Turkish rules, i + U+0307) read as the "i" it is, so "i̇ade" is "İade"."""
    return katla(ad).replace("i\u0307", "i")


def _ad_kullanimda(*, musteri_id: int, anahtar: str, haric_pk=None) -> bool:
    return Etiket.objects.kapsamda([musteri_id]).filter(anahtar=anahtar).exclude(pk=haric_pk).exists()


def _kaydet(etiket: Etiket) -> None:
    if _ad_kullanimda(musteri_id=etiket.musteri_id, anahtar=etiket.anahtar, haric_pk=etiket.pk):
        raise GecersizIstek(alanlar={"ad": AD_VAR_MESAJI})
    try:
        with transaction.atomic():
            etiket.save()
    except IntegrityError:  # the same name saved by a parallel request
        raise GecersizIstek(alanlar={"ad": AD_VAR_MESAJI}) from None


def _olay(ad: str, etiket: Etiket, *, kullanici_id, ip, **ek) -> None:
    yayinla(ad, musteri_id=etiket.musteri_id, veri={
        "etiket_id": etiket.id, "musteri_id": etiket.musteri_id, "ad": etiket.ad, "renk": etiket.renk,
        "aktor_id": kullanici_id, "ip": ip, **ek,
    })


def etiket_olustur(*, musteri_id: int, ad, renk=None, kullanici_id: int | None = None, ip: str | None = None) -> Etiket:
    ad, renk = _ad_dogrula(ad), _renk_dogrula(renk)
    etiket = Etiket(musteri_id=musteri_id, ad=ad, anahtar=ad_anahtari(ad), renk=renk)
    with transaction.atomic():
        _kaydet(etiket)
        _olay("etiket_olusturuldu", etiket, kullanici_id=kullanici_id, ip=ip)
    return etiket


_YOK = object()


def etiket_guncelle(*, etiket: Etiket, ad=_YOK, renk=_YOK, kullanici_id: int | None = None,
                    ip: str | None = None) -> Etiket:
    """Rename and/or recolour; a field not given stays. Chats and tickets keep the label."""
    yeni_ad = etiket.ad if ad is _YOK else _ad_dogrula(ad)
    yeni_renk = etiket.renk if renk is _YOK else _renk_dogrula(renk)
    eski_ad = etiket.ad
    alanlar = [a for a, degisti in (("ad", yeni_ad != etiket.ad), ("renk", yeni_renk != etiket.renk)) if degisti]
    etiket.ad, etiket.anahtar, etiket.renk = yeni_ad, ad_anahtari(yeni_ad), yeni_renk
    if not alanlar:
        return etiket
    with transaction.atomic():
        _kaydet(etiket)
        _olay("etiket_degisti", etiket, kullanici_id=kullanici_id, ip=ip, eski_ad=eski_ad, alanlar=alanlar)
    return etiket


def etiket_sil(*, etiket: Etiket, kullanici_id: int | None = None, ip: str | None = None) -> None:
    """Delete a label: it leaves every chat and ticket that carried it (the M2M rows go with it)."""
    with transaction.atomic():
        _olay("etiket_silindi", etiket, kullanici_id=kullanici_id, ip=ip)
        etiket.delete()

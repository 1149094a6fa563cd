"""Teams of a tenant (CONTRACT 22): reads and writes, for the REST API and the portal alike.

A team is some members of a tenant (memberships: a member who leaves the tenant leaves its teams)
with a routing mode of its own (`atama_modu`, null: the tenant's) and a flag saying whether the
widget offers it ("which department?"). Chats and tickets point at a team; their apps resolve the
id they are given with `ekip_coz` here (a team of the item's own tenant, else 400 with `alanlar`).
Each write states `ekip_degisti` (`islem`: `olusturuldu`, `degisti`, `silindi`; with `aktor_id`
and `ip` for the audit log). Names follow the labels' rules (tenants.etiketler): trimmed, composed,
unique per tenant ignoring Turkish casing (400 with `alanlar.ad`, as for labels)."""
import unicodedata

from django.db import IntegrityError, transaction
from django.db.models import Prefetch, Q, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from supportdesk.core.exceptions import Bulunamadi, GecersizIstek
from supportdesk.core.girdi import gecerli_id_mi
from supportdesk.core.olaylar import yayinla

from .etiketler import ad_anahtari
from .models import Ekip, Musteri, Uyelik

AD_MAX = 60
UYELER_MAX = 500
AD_VAR_MESAJI = gettext_lazy("Bu projede bu adda bir ekip zaten var (büyük/küçük harf farkı sayılmaz).")
EKIP_YOK_MESAJI = gettext_lazy("Bu projenin böyle bir ekibi yok.")
MODLAR = tuple(Musteri.AtamaModu.values)


# --- shapes ----------------------------------------------------------------------------------
def ekip_verisi(ekip: Ekip) -> dict:
    """`ekip` of CONTRACT 22. `uyeler`: the members' user ids, ascending (prefetched by `ekip_list`)."""
    return {
        "id": ekip.id, "musteri_id": ekip.musteri_id, "ad": ekip.ad,
        "uyeler": sorted(u.kullanici_id for u in ekip.uyelikler.all()),
        "atama_modu": ekip.atama_modu, "widgetta_secilir": ekip.widgetta_secilir,
    }


def _uyelikler_prefetch() -> Prefetch:
    return Prefetch("uyelikler", queryset=Uyelik.objects.only("id", "kullanici_id", "musteri_id"))


# --- reads -----------------------------------------------------------------------------------
def ekip_list(*, musteri_id: int) -> QuerySet[Ekip]:
    return Ekip.objects.kapsamda([musteri_id]).prefetch_related(_uyelikler_prefetch()).order_by("anahtar", "id")


def ekip_get(*, musteri_idleri: list[int], ekip_id) -> Ekip:
    """A team of one of the caller's tenants; the same 404 for missing and another tenant's."""
    ekip = (Ekip.objects.kapsamda(musteri_idleri).prefetch_related(_uyelikler_prefetch()).filter(pk=ekip_id).first()
            if gecerli_id_mi(ekip_id) else None)
    if ekip is None:
        raise Bulunamadi()
    return ekip


def ekip_coz(*, musteri_id: int, ekip_id, alan: str = "ekip_id", widget: bool = False) -> Ekip | None:
    """The team `ekip_id` of this tenant (None: no team). Anything else (a team of another tenant,
    an unknown id, a wrong type; `widget`: a team not offered in the widget) is 400 with
    `alanlar[alan]` (CONTRACT 22)."""
    if ekip_id is None:
        return None
    if isinstance(ekip_id, bool) or not isinstance(ekip_id, int) or not gecerli_id_mi(ekip_id):
        raise GecersizIstek(alanlar={alan: _("Pozitif bir tam sayı ya da null olmalı.")})
    qs = Ekip.objects.filter(musteri_id=musteri_id, pk=ekip_id)
    if widget:
        qs = qs.filter(widgetta_secilir=True)
    ekip = qs.only("id", "musteri_id", "ad", "atama_modu").first()
    if ekip is None:
        raise GecersizIstek(alanlar={alan: str(EKIP_YOK_MESAJI)})
    return ekip


def ekip_suzgeci_coz(deger) -> int | str | None:
    """`ekip_id` of the operators' list filters (CONTRACT 22): an id, `benim` (the caller's teams) or
    `yok` (no team); None when absent. A bad value is 400."""
    if deger in (None, ""):
        return None
    if deger in ("benim", "yok"):
        return deger
    if isinstance(deger, str) and deger.isdigit() and gecerli_id_mi(int(deger)):
        return int(deger)
    raise GecersizIstek(alanlar={"ekip_id": _("Bir ekip id'si, 'benim' ya da 'yok' olmalı.")})


def ekip_suzgeci_dogrula(*, musteri_idleri: list[int], deger) -> int | str | None:
    """`ekip_id` of a list filter, checked: a team id must be one of the caller's tenants' (else 404,
    as `etiket_id`)."""
    cozulen = ekip_suzgeci_coz(deger)
    if isinstance(cozulen, int) and not Ekip.objects.kapsamda(musteri_idleri).filter(pk=cozulen).exists():
        raise Bulunamadi()
    return cozulen


def ekip_suzgeci_q(deger: int | str, *, kullanici_id: int | None) -> Q:
    """The Q of a resolved `ekip_id` filter over chats or tickets (their `ekip`)."""
    if deger == "yok":
        return Q(ekip__isnull=True)
    if deger == "benim":
        return Q(ekip__in=Ekip.objects.filter(uyelikler__kullanici_id=kullanici_id).values("id"))
    return Q(ekip_id=deger)


# --- writes ----------------------------------------------------------------------------------
def _ad_dogrula(ad) -> str:
    if not isinstance(ad, str):
        raise GecersizIstek(alanlar={"ad": _("Metin olmalı.")})
    ad = unicodedata.normalize("NFC", " ".join(ad.split()))
    if not ad or len(ad) > AD_MAX or any(not c.isprintable() for c in ad):
        raise GecersizIstek(alanlar={"ad": _("1-%(sayi)s karakter olmalı.") % {"sayi": AD_MAX}})
    return ad


def _mod_dogrula(mod) -> str | None:
    if mod is None:
        return None
    if mod not in MODLAR:
        raise GecersizIstek(alanlar={"atama_modu": _("null ya da şunlardan biri olmalı: %(degerler)s.")
                                     % {"degerler": ", ".join(MODLAR)}})
    return mod


def _bayrak_dogrula(deger) -> bool:
    if not isinstance(deger, bool):
        raise GecersizIstek(alanlar={"widgetta_secilir": _("true ya da false olmalı.")})
    return deger


def _uyeler_dogrula(*, musteri_id: int, uyeler) -> list[Uyelik]:
    """`uyeler`: operator ids, each a member of the tenant (else 400 `alanlar.uyeler`)."""
    if not isinstance(uyeler, list) or len(uyeler) > UYELER_MAX:
        raise GecersizIstek(alanlar={"uyeler": _("Operatör id'lerinden oluşan bir liste olmalı.")})
    if any(isinstance(i, bool) or not isinstance(i, int) or not gecerli_id_mi(i) for i in uyeler):
        raise GecersizIstek(alanlar={"uyeler": _("Pozitif tam sayılar olmalı.")})
    idler = list(dict.fromkeys(uyeler))
    uyelikler = list(Uyelik.objects.filter(musteri_id=musteri_id, kullanici_id__in=idler))
    if len(uyelikler) != len(idler):
        raise GecersizIstek(alanlar={"uyeler": _("Yalnızca bu projenin üyeleri ekibe eklenebilir.")})
    return uyelikler


def _kaydet(ekip: Ekip) -> None:
    if Ekip.objects.filter(musteri_id=ekip.musteri_id, anahtar=ekip.anahtar).exclude(pk=ekip.pk).exists():
        raise GecersizIstek(alanlar={"ad": str(AD_VAR_MESAJI)})
    try:
        with transaction.atomic():
            ekip.save()
    except IntegrityError:  # the same name saved by a parallel request
        raise GecersizIstek(alanlar={"ad": str(AD_VAR_MESAJI)}) from None


def _olay(islem: str, ekip: Ekip, *, aktor_id, ip, alanlar: list[str]) -> None:
    yayinla("ekip_degisti", musteri_id=ekip.musteri_id, veri={
        "ekip_id": ekip.id, "musteri_id": ekip.musteri_id, "ad": ekip.ad, "islem": islem, "alanlar": alanlar,
        "aktor_id": aktor_id, "ip": ip,
    })


_YOK = object()


def ekip_olustur(*, musteri_id: int, ad, uyeler=_YOK, atama_modu=None, widgetta_secilir=False,
                 aktor_id: int | None = None, ip: str | None = None) -> Ekip:
    ad = _ad_dogrula(ad)
    uyelikler = [] if uyeler is _YOK else _uyeler_dogrula(musteri_id=musteri_id, uyeler=uyeler)
    ekip = Ekip(musteri_id=musteri_id, ad=ad, anahtar=ad_anahtari(ad), atama_modu=_mod_dogrula(atama_modu),
                widgetta_secilir=_bayrak_dogrula(widgetta_secilir))
    with transaction.atomic():
        _kaydet(ekip)
        ekip.uyelikler.set(uyelikler)
        _olay("olusturuldu", ekip, aktor_id=aktor_id, ip=ip, alanlar=[])
    return ekip_get(musteri_idleri=[musteri_id], ekip_id=ekip.pk)


def ekip_guncelle(*, ekip: Ekip, ad=_YOK, uyeler=_YOK, atama_modu=_YOK, widgetta_secilir=_YOK,
                  aktor_id: int | None = None, ip: str | None = None) -> tuple[Ekip, list[str]]:
    """Change what is named; a field not given stays. The team as saved and the names of the
    fields that changed. A new mode or new members may let someone take waiting chats: routing is
    a layer up, so callers go through `chat.yonlendirme.ekip_guncelle`, which drains the queue."""
    degisen: list[str] = []
    if ad is not _YOK:
        yeni_ad = _ad_dogrula(ad)
        if yeni_ad != ekip.ad:
            ekip.ad, ekip.anahtar = yeni_ad, ad_anahtari(yeni_ad)
            degisen.append("ad")
    if atama_modu is not _YOK:
        mod = _mod_dogrula(atama_modu)
        if mod != ekip.atama_modu:
            ekip.atama_modu = mod
            degisen.append("atama_modu")
    if widgetta_secilir is not _YOK:
        bayrak = _bayrak_dogrula(widgetta_secilir)
        if bayrak != ekip.widgetta_secilir:
            ekip.widgetta_secilir = bayrak
            degisen.append("widgetta_secilir")
    yeni_uyelikler = None
    if uyeler is not _YOK:
        yeni_uyelikler = _uyeler_dogrula(musteri_id=ekip.musteri_id, uyeler=uyeler)
        if {u.pk for u in yeni_uyelikler} != {u.pk for u in ekip.uyelikler.all()}:
            degisen.append("uyeler")
    if not degisen:
        return ekip, degisen
    with transaction.atomic():
        _kaydet(ekip)
        if "uyeler" in degisen and yeni_uyelikler is not None:
            ekip.uyelikler.set(yeni_uyelikler)
        _olay("degisti", ekip, aktor_id=aktor_id, ip=ip, alanlar=degisen)
    return ekip_get(musteri_idleri=[ekip.musteri_id], ekip_id=ekip.pk), degisen


def ekip_sil(*, ekip: Ekip, aktor_id: int | None = None, ip: str | None = None) -> None:
    """Delete a team: its chats and tickets keep going with `ekip_id` null (the FK's SET_NULL),
    routed in the tenant's mode (callers go through `chat.yonlendirme.ekip_sil`, which drains)."""
    with transaction.atomic():
        _olay("silindi", ekip, aktor_id=aktor_id, ip=ip, alanlar=[])
        ekip.delete()

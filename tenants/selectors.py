from django.contrib.postgres.expressions import ArraySubquery
from django.db import connection
from django.db.models import OuterRef, QuerySet
from django.utils.translation import gettext as _

from supportdesk.core.exceptions import Bulunamadi
from supportdesk.core.girdi import ID_MAX, gecerli_id_mi

from .models import Ekip, Kullanici, Musteri, Uyelik
from .musteri_onbellegi import musteri_getir


def uyelik_list(*, kullanici: Kullanici) -> QuerySet[Uyelik]:
    return (
        Uyelik.objects.filter(kullanici=kullanici, musteri__aktif=True)
        .select_related("musteri")
        .order_by("sira", "musteri_id")
    )


def uyelik_get(*, kullanici: Kullanici, musteri_id: int) -> Uyelik:
    """The caller's membership of a tenant; the same 404 for "no such tenant" and "not yours"."""
    if isinstance(musteri_id, int) and not 0 < musteri_id <= ID_MAX:
        raise Bulunamadi()  # an id no row can have (the database would refuse it with an error)
    try:
        return uyelik_list(kullanici=kullanici).get(musteri_id=musteri_id)
    except Uyelik.DoesNotExist:
        raise Bulunamadi() from None


def uye_list(*, kullanici: Kullanici, musteri_id: int) -> QuerySet[Uyelik]:
    """The members of one tenant of the caller (transfer targets); 404 for a tenant not its."""
    uyelik_get(kullanici=kullanici, musteri_id=musteri_id)
    return (Uyelik.objects.filter(musteri_id=musteri_id, kullanici__is_active=True)
            .select_related("kullanici").order_by("kullanici__email"))


def kullanici_musteri_idleri(*, kullanici: Kullanici) -> list[int]:
    return list(uyelik_list(kullanici=kullanici).values_list("musteri_id", flat=True))


def musteri_api_key_ile(*, api_key: str, nesil=None, nesil_okundu: bool = False) -> Musteri | None:
    """The active tenant of a widget key (cached: tenants.musteri_onbellegi); `nesil` is the cache's
    generation when the caller has read it in this request already."""
    if not api_key or len(api_key) > 64:
        return None
    return musteri_getir(api_key, lambda: _widget_musterisi(api_key), nesil=nesil, nesil_okundu=nesil_okundu)


def _widget_musterisi(api_key: str) -> Musteri | None:
    """The tenant as the widget's cache keeps it, with the teams the widget offers (CONTRACT 22,
    `widget/init`'s `ekipler`) read in the same statement on PostgreSQL: `_widget_ekipleri`. A team
    change renews the cache (`ekip_degisti`, tenants/dinleyiciler.py)."""
    qs = Musteri.objects.filter(api_key=api_key, aktif=True)
    if connection.vendor != "postgresql":
        musteri = qs.first()
        if musteri is not None:
            musteri._widget_ekipleri = widget_ekipleri(musteri_id=musteri.pk)  # type: ignore[attr-defined]
        return musteri
    ekipler = Ekip.objects.filter(musteri_id=OuterRef("pk"), widgetta_secilir=True).order_by("anahtar", "id")
    musteri = qs.annotate(_ekip_idleri=ArraySubquery(ekipler.values("id")),
                          _ekip_adlari=ArraySubquery(ekipler.values("ad"))).first()
    if musteri is not None:
        idler, adlar = getattr(musteri, "_ekip_idleri"), getattr(musteri, "_ekip_adlari")  # noqa: B009
        musteri._widget_ekipleri = [  # type: ignore[attr-defined]
            {"id": i, "ad": ad} for i, ad in zip(idler, adlar, strict=True)]
    return musteri


def widget_ekipleri(*, musteri_id: int) -> list[dict]:
    """`widget/init`'s `data.ekipler` (CONTRACT 22): the teams the widget may offer, `{"id", "ad"}`."""
    return [{"id": i, "ad": ad} for i, ad in Ekip.objects.filter(musteri_id=musteri_id, widgetta_secilir=True)
            .order_by("anahtar", "id").values_list("id", "ad")]


def musteri_widget_ekipleri(musteri: Musteri) -> list[dict]:
    """The widget's teams of a tenant from the widget's cache, else read now."""
    ekipler = getattr(musteri, "_widget_ekipleri", None)
    return ekipler if ekipler is not None else widget_ekipleri(musteri_id=musteri.pk)


def birincil_musteri_id(*, kullanici: Kullanici, uyelikler: list[Uyelik]) -> int | None:
    """`musteri_id` of spec 2.1: the stored primary tenant while the user is still a member of it."""
    ids = [u.musteri_id for u in uyelikler]
    if kullanici.musteri_id in ids:
        return kullanici.musteri_id
    return ids[0] if ids else None


def uye_idleri_dogrula(*, musteri_id: int, kullanici_idleri: list[int]) -> list[int]:
    """The given user ids (repeats once), each an active member of the tenant, else 404 (as a
    transfer's target): the mentions of a note, a ticket's owner (CONTRACT 16)."""
    idler = list(dict.fromkeys(kullanici_idleri))
    if idler and (not all(gecerli_id_mi(i) for i in idler) or Uyelik.objects.filter(
            musteri_id=musteri_id, kullanici_id__in=idler, kullanici__is_active=True).count() != len(idler)):
        raise Bulunamadi(_("Operatör bu projede bulunamadı."))
    return idler

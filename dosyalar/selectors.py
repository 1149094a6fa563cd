"""Reads of uploads, always within one visitor of one tenant (CONTRACT 5, HOUSE-STYLE 7)."""
from django.utils.translation import gettext_lazy

from supportdesk.core.exceptions import Bulunamadi
from supportdesk.core.girdi import gecerli_id_mi, id_coz

from .models import Dosya

EK_BULUNAMADI = gettext_lazy("Eklenmek istenen dosya bulunamadı.")


def dosya_get(*, musteri, ziyaretci_id: str, dosya_id) -> Dosya:
    """An upload of this visitor of this tenant; the same 404 for missing, another visitor's and
    another tenant's (CONTRACT 5)."""
    dosya_id = id_coz(dosya_id)
    try:
        return Dosya.objects.ziyaretcinin(musteri=musteri, ziyaretci_id=ziyaretci_id).get(pk=dosya_id)
    except Dosya.DoesNotExist:
        raise Bulunamadi() from None


def dosya_list_by_ids(*, musteri, ziyaretci_id: str, dosya_idleri: list[int]) -> list[Dosya]:
    """All of the given uploads, in the given order, or 404 when any is not this visitor's."""
    istenen = list(dict.fromkeys(dosya_idleri))
    if not all(gecerli_id_mi(i) for i in istenen):
        # An id no row can have (SQLite would even overflow on it): unknown, like any other.
        raise Bulunamadi(EK_BULUNAMADI)
    qs = Dosya.objects.ziyaretcinin(musteri=musteri, ziyaretci_id=ziyaretci_id).filter(pk__in=istenen)
    bulunan = {d.pk: d for d in qs}
    if len(bulunan) != len(istenen):
        raise Bulunamadi(EK_BULUNAMADI)
    return [bulunan[i] for i in istenen]


def operator_dosya_list_by_ids(*, musteri_id: int, kullanici, dosya_idleri: list[int]) -> list[Dosya]:
    """The operator's own uploads in that tenant, in the given order, or 404 when any is not
    (a visitor's upload, a colleague's, another tenant's: the same answer)."""
    istenen = list(dict.fromkeys(dosya_idleri))
    if not all(gecerli_id_mi(i) for i in istenen):
        raise Bulunamadi(EK_BULUNAMADI)
    qs = Dosya.objects.kapsamda([musteri_id]).filter(yukleyen=kullanici, ziyaretci_id="", pk__in=istenen)
    bulunan = {d.pk: d for d in qs}
    if len(bulunan) != len(istenen):
        raise Bulunamadi(EK_BULUNAMADI)
    return [bulunan[i] for i in istenen]

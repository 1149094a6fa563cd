"""Reads of rules, their runs and macros, scoped to the caller's tenants in the query."""
from django.db.models import QuerySet

from supportdesk.core.exceptions import Bulunamadi
from supportdesk.core.fields import ZamanField
from supportdesk.core.girdi import gecerli_id_mi

from .models import Kural, KuralCalismasi, Makro, TutmayanCalismalar

CALISMA_EN_COK = 100


def kural_list(*, musteri_id: int) -> QuerySet[Kural]:
    return Kural.objects.kapsamda([musteri_id]).order_by("sira", "id")


def kural_get(*, musteri_idleri: list[int], kural_id) -> Kural:
    kural = Kural.objects.kapsamda(musteri_idleri).filter(pk=kural_id).first() if gecerli_id_mi(kural_id) else None
    if kural is None:
        raise Bulunamadi()
    return kural


def calisma_list(*, kural: Kural) -> list[KuralCalismasi]:
    """The rule's newest CALISMA_EN_COK runs, newest first by their event's time: its own rows
    (`uygulandi`, `hata`, and `kosul_tutmadi` rows written before issue 42's one row per event) and
    the events' rows naming it (`TutmayanCalismalar`, shown as `kosul_tutmadi` with empty
    `ayrinti`), each the newest by id (the indexes' order): runs whose conditions did not hold are
    written in batches after the commit (`otomasyon.biriktir`), so their ids can be later than a
    next event's `uygulandi` run."""
    kendi = list(KuralCalismasi.objects.filter(kural=kural).order_by("-id")[:CALISMA_EN_COK])
    olaylar = (TutmayanCalismalar.objects.filter(musteri_id=kural.musteri_id, kural_idleri__contains=f",{kural.pk},")
               .order_by("-id").values_list("id", "zaman", "hedef")[:CALISMA_EN_COK])
    tutmayan = [(zaman, 0, i, KuralCalismasi(kural=kural, zaman=zaman, hedef=hedef, ayrinti=[],
                                             sonuc=KuralCalismasi.Sonuc.KOSUL_TUTMADI))
                for i, zaman, hedef in olaylar]
    hepsi = sorted([*((c.zaman, 1, c.pk, c) for c in kendi), *tutmayan], key=lambda t: t[:3], reverse=True)
    return [t[3] for t in hepsi[:CALISMA_EN_COK]]


def makro_list(*, musteri_id: int, kullanici_id: int) -> QuerySet[Makro]:
    return Makro.objects.gorunur(kullanici_id=kullanici_id).kapsamda([musteri_id]).order_by("ad", "id")


def makro_get(*, musteri_idleri: list[int], kullanici_id: int, makro_id) -> Makro:
    """A macro the caller may see: another's personal macro is as missing as another tenant's."""
    makro = (Makro.objects.gorunur(kullanici_id=kullanici_id).kapsamda(musteri_idleri).filter(pk=makro_id).first()
             if gecerli_id_mi(makro_id) else None)
    if makro is None:
        raise Bulunamadi()
    return makro


def kural_verisi(kural: Kural) -> dict:
    return {"id": kural.pk, "ad": kural.ad, "aktif": kural.aktif, "olay": kural.olay, "kosullar": kural.kosullar,
            "eylemler": kural.eylemler, "sira": kural.sira}


def calisma_verisi(calisma: KuralCalismasi) -> dict:
    return {"zaman": ZamanField().to_representation(calisma.zaman), "hedef": calisma.hedef, "sonuc": calisma.sonuc,
            "ayrinti": calisma.ayrinti}


def makro_verisi(makro: Makro) -> dict:
    return {"id": makro.pk, "ad": makro.ad, "paylasimli": makro.paylasimli, "sahip_id": makro.sahip_id,
            "eylemler": makro.eylemler}

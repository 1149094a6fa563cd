"""Writes of rules and macros (CONTRACT 23), and a macro's run. Every part is checked before
anything is saved (`dogrulama`): a bad rule changes nothing. A rule's write is audited
(`kural_degisti`) and drops the tenant's cached rules (`onbellek.unut`)."""
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from chat import selectors as chat_selectors
from supportdesk.core.exceptions import Bulunamadi, GecersizIstek, Yetkisiz
from supportdesk.core.olaylar import yayinla
from tenants.models import Musteri
from tickets import selectors as ticket_selectors

from . import dogrulama, eylemler, onbellek, sorgular
from .models import Kural, KuralCalismasi, Makro, TutmayanCalismalar
from .selectors import CALISMA_EN_COK, calisma_list

KURAL_ALANLARI = ("ad", "aktif", "olay", "kosullar", "eylemler", "sira")


def _kural_alanlari(veri: dict, *, musteri_id: int, yeni: bool) -> dict:
    if not isinstance(veri, dict):
        raise GecersizIstek(alanlar={"genel": _("İstek gövdesi bir JSON nesnesi olmalı.")})
    bilinmeyen = set(veri) - set(KURAL_ALANLARI) - {"id"}
    if bilinmeyen:
        raise GecersizIstek(alanlar={a: _("Bilinmeyen alan.") for a in sorted(bilinmeyen)})
    if yeni:
        eksik = [a for a in ("ad", "olay", "eylemler") if a not in veri]
        if eksik:
            raise GecersizIstek(alanlar={a: _("Gerekli.") for a in eksik})
    temiz: dict = {}
    if "ad" in veri:
        temiz["ad"] = dogrulama.ad_dogrula(veri["ad"])
    if "aktif" in veri:
        temiz["aktif"] = dogrulama.bool_dogrula(veri["aktif"], "aktif")
    if "olay" in veri:
        temiz["olay"] = dogrulama.olay_dogrula(veri["olay"])
    if "kosullar" in veri:
        temiz["kosullar"] = dogrulama.kosullar_dogrula(veri["kosullar"], musteri_id=musteri_id)
    if "eylemler" in veri:
        temiz["eylemler"] = dogrulama.eylemler_dogrula(veri["eylemler"], musteri_id=musteri_id)
    if "sira" in veri:
        temiz["sira"] = dogrulama.sira_dogrula(veri["sira"])
    return temiz


def _kurallar_var_esitle(musteri_id: int) -> None:
    """`Musteri.kurallar_var` follows whether the tenant has an active rule: the hot paths read it
    from the tenant they already hold (no round trip for a tenant without rules). Saved on the
    tenant's row, so the tenant caches' generation renews with it (every process sees it on its
    next request)."""
    var = Kural.objects.filter(musteri_id=musteri_id, aktif=True).exists()
    musteri = Musteri.objects.select_for_update().filter(pk=musteri_id).first()
    if musteri is not None and musteri.kurallar_var != var:
        musteri.kurallar_var = var
        musteri.save(update_fields=["kurallar_var"])


def _kural_degisti(kural: Kural, *, islem: str, aktor_id: int | None, ip: str | None, alanlar: list[str]) -> None:
    onbellek.unut(kural.musteri_id)
    _kurallar_var_esitle(kural.musteri_id)
    yayinla("kural_degisti", musteri_id=kural.musteri_id, veri={
        "kural_id": kural.pk, "musteri_id": kural.musteri_id, "islem": islem, "ad": kural.ad, "alanlar": alanlar,
        "aktor_id": aktor_id, "ip": ip,
    })


def kural_olustur(*, musteri_id: int, veri, aktor_id: int | None, ip: str | None = None) -> Kural:
    temiz = _kural_alanlari(veri, musteri_id=musteri_id, yeni=True)
    with transaction.atomic():
        kural = Kural.objects.create(musteri_id=musteri_id, **temiz)
        _kural_degisti(kural, islem="olusturuldu", aktor_id=aktor_id, ip=ip, alanlar=sorted(temiz))
    return kural


def kural_guncelle(*, kural: Kural, veri, aktor_id: int | None, ip: str | None = None) -> Kural:
    """`PUT` changes what it names; the rest stays."""
    temiz = _kural_alanlari(veri, musteri_id=kural.musteri_id, yeni=False)
    degisen = sorted(a for a, d in temiz.items() if getattr(kural, a) != d)
    if not degisen:
        return kural
    with transaction.atomic():
        for alan in degisen:
            setattr(kural, alan, temiz[alan])
        kural.save(update_fields=degisen)
        _kural_degisti(kural, islem="degisti", aktor_id=aktor_id, ip=ip, alanlar=degisen)
    return kural


@transaction.atomic
def kural_sil(*, kural: Kural, aktor_id: int | None, ip: str | None = None) -> None:
    kural_id = kural.pk
    kural.delete()
    kural.pk = kural_id
    _kural_degisti(kural, islem="silindi", aktor_id=aktor_id, ip=ip, alanlar=[])


# --- macros -------------------------------------------------------------------------------------
def _makro_alanlari(veri, *, musteri_id: int, yeni: bool, yonetebilir: bool) -> dict:
    if not isinstance(veri, dict):
        raise GecersizIstek(alanlar={"genel": _("İstek gövdesi bir JSON nesnesi olmalı.")})
    bilinmeyen = set(veri) - {"id", "ad", "paylasimli", "eylemler", "sahip_id"}
    if bilinmeyen:
        raise GecersizIstek(alanlar={a: _("Bilinmeyen alan.") for a in sorted(bilinmeyen)})
    if yeni:
        eksik = [a for a in ("ad", "eylemler") if a not in veri]
        if eksik:
            raise GecersizIstek(alanlar={a: _("Gerekli.") for a in eksik})
    temiz: dict = {}
    if "ad" in veri:
        temiz["ad"] = dogrulama.ad_dogrula(veri["ad"])
    if "paylasimli" in veri:
        temiz["paylasimli"] = dogrulama.bool_dogrula(veri["paylasimli"], "paylasimli")
        if temiz["paylasimli"] and not yonetebilir:
            raise Yetkisiz(_("Paylaşımlı makroları yalnızca proje sahibi ve yöneticiler oluşturabilir."))
    if "eylemler" in veri:
        temiz["eylemler"] = dogrulama.eylemler_dogrula(veri["eylemler"], musteri_id=musteri_id, makro=True)
    return temiz


def makro_olustur(*, musteri_id: int, kullanici, yonetebilir: bool, veri) -> Makro:
    temiz = _makro_alanlari(veri, musteri_id=musteri_id, yeni=True, yonetebilir=yonetebilir)
    return Makro.objects.create(musteri_id=musteri_id, sahip=kullanici, **temiz)


def makro_guncelle(*, makro: Makro, yonetebilir: bool, veri) -> Makro:
    temiz = _makro_alanlari(veri, musteri_id=makro.musteri_id, yeni=False, yonetebilir=yonetebilir)
    for alan, deger in temiz.items():
        setattr(makro, alan, deger)
    if temiz:
        makro.save(update_fields=list(temiz))
    return makro


def makro_uygula(*, makro: Makro, kullanici, musteri_idleri: list[int], tur, hedef_id) -> object:
    """CONTRACT 23: the macro's actions in order, as the caller, in one transaction: all or nothing
    (the first refused action's error is the answer and every earlier one is undone). The target is
    a chat or ticket of the macro's own tenant (404 otherwise). Returns the target as it ends."""
    if tur not in ("chat", "ticket"):
        raise GecersizIstek(alanlar={"tur": _("Şunlardan biri olmalı: %(degerler)s.") % {"degerler": "chat, ticket"}})
    if makro.musteri_id not in musteri_idleri:
        raise Bulunamadi()
    kapsam = [makro.musteri_id]
    with transaction.atomic():
        if tur == "chat":
            nesne_id = chat_selectors.oturum_get(musteri_idleri=kapsam, oturum_id=hedef_id).pk
        else:
            nesne_id = ticket_selectors.operator_ticket_get(musteri_idleri=kapsam, ticket_id=hedef_id, detay=False).pk
        for eylem in makro.eylemler:
            eylemler.uygula(eylem, tur=tur, nesne_id=nesne_id, musteri_id=makro.musteri_id, kullanici=kullanici)
    return nesne_id


# --- runs kept bounded -------------------------------------------------------------------------
BUDAMA_PARTI = 5000


def calismalari_buda(*, simdi=None) -> int:
    """Beat, daily: a rule keeps its newest CALISMA_EN_COK runs (all that
    `GET /operator/kurallar/{id}/calismalar` ever shows), and none older than its tenant's
    `saklama_gun` when it has one (a run names the chat or ticket it ran on, which retention
    erases after that many days: CONTRACT 18). Rule by rule on the `(kural, -id)` index, in
    batches of BUDAMA_PARTI rows, each its own short statement: a rule writing runs meanwhile is
    never waited for. Returns how many went."""
    simdi = simdi or timezone.now()
    silinen = 0
    for kural_id, saklama_gun in Kural.objects.order_by("id").values_list("id", "musteri__saklama_gun"):
        calismalar = KuralCalismasi.objects.filter(kural_id=kural_id)
        if saklama_gun is not None:  # first the expired, so that the newest 100 are counted among the rest
            silinen += _partilerle_sil(calismalar.filter(zaman__lt=simdi - timedelta(days=saklama_gun)))
        # The newest run beyond the kept ones: it and everything older go.
        esik = next(iter(calismalar.order_by("-id").values_list("id", flat=True)[CALISMA_EN_COK:CALISMA_EN_COK + 1]), None)
        if esik is not None:
            silinen += _partilerle_sil(calismalar.filter(id__lte=esik))
    return silinen + _olay_satirlarini_buda(simdi)


def _olay_satirlarini_buda(simdi) -> int:
    """The events' `kosul_tutmadi` rows (`TutmayanCalismalar`), tenant by tenant: those older than
    its retention go; of the rest, a row goes when no rule it names (and that still exists) shows
    it: each rule shows its newest CALISMA_EN_COK runs (`calisma_list`), so a row older than the
    oldest shown run of every rule it names is shown by none. A rule showing fewer keeps all its rows."""
    silinen = 0
    musteriler = (TutmayanCalismalar.objects.order_by("musteri_id").values_list("musteri_id", flat=True).distinct())
    for musteri_id in list(musteriler):
        satirlar = TutmayanCalismalar.objects.filter(musteri_id=musteri_id)
        saklama_gun = Musteri.objects.filter(pk=musteri_id).values_list("saklama_gun", flat=True).first()
        if saklama_gun is not None:
            silinen += _partilerle_sil(satirlar.filter(zaman__lt=simdi - timedelta(days=saklama_gun)),
                                       model=TutmayanCalismalar)
        sinirlar = {}  # rule id -> the time of its oldest shown run, None: it shows fewer, keep all
        for kural in Kural.objects.filter(musteri_id=musteri_id).order_by("id"):
            gosterilen = calisma_list(kural=kural)
            sinirlar[kural.pk] = gosterilen[-1].zaman if len(gosterilen) >= CALISMA_EN_COK else None
        silinen += sorgular.gosterilmeyenleri_sil(musteri_id=musteri_id, sinirlar=sinirlar, parti=BUDAMA_PARTI)
    return silinen


def _partilerle_sil(qs, *, model=KuralCalismasi) -> int:
    silinen = 0
    while idler := list(qs.order_by("id").values_list("id", flat=True)[:BUDAMA_PARTI]):
        silinen += model.objects.filter(id__in=idler).delete()[0]
    return silinen

"""Reads of the chat app, always scoped in the query: to the visitor (widget) or to the
operator's tenants (`musteri_idleri`)."""
from datetime import timedelta

from django.db.models import Avg, Count, Exists, F, Func, IntegerField, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from supportdesk.core.exceptions import Bulunamadi
from tenants.models import Kullanici

from .models import HazirYanit, Mesaj, Oturum

CEVRIMICI_DURUMLAR = (Kullanici.Durum.CEVRIMICI, Kullanici.Durum.MESGUL)


def _id(value) -> int:
    # Ids come from JSON bodies and query strings: anything but a positive integer is "not found".
    if isinstance(value, bool):
        raise Bulunamadi()
    try:
        value = int(value)
    except (TypeError, ValueError):
        raise Bulunamadi() from None
    if value < 1 or value > 2**63 - 1:
        raise Bulunamadi()
    return value


# --- sessions ------------------------------------------------------------------------------
def ziyaretci_oturum_list(*, musteri, ziyaretci_id: str) -> QuerySet[Oturum]:
    return Oturum.objects.filter(musteri=musteri, ziyaretci_id=ziyaretci_id)


def ziyaretci_oturum_get(
    *, musteri, ziyaretci_id: str, oturum_id, kuyruk_bilgisi: bool = False, kilitle: bool = False
) -> Oturum:
    """A chat of this visitor of this tenant; the same 404 for missing and someone else's.

    `kuyruk_bilgisi` adds `sira_no` and `cevrimici_operator` in the same query (the widget's
    poll path), as a correlated count on the queue index and an EXISTS. `kilitle` takes the
    row lock (SELECT ... FOR UPDATE) for a service inside its transaction.
    """
    qs = ziyaretci_oturum_list(musteri=musteri, ziyaretci_id=ziyaretci_id)
    if kilitle:
        qs = qs.select_for_update()
    if kuyruk_bilgisi:
        qs = kuyruk_bilgisi_ekle(qs)
    try:
        return qs.get(pk=_id(oturum_id))
    except Oturum.DoesNotExist:
        raise Bulunamadi() from None


def kuyruk_bilgisi_ekle(qs: QuerySet[Oturum]) -> QuerySet[Oturum]:
    onceki = (
        Oturum.objects.filter(musteri_id=OuterRef("musteri_id"), durum=Oturum.Durum.BEKLIYOR)
        .filter(Q(baslangic__lt=OuterRef("baslangic")) | Q(baslangic=OuterRef("baslangic"), id__lt=OuterRef("id")))
        .order_by()
        .annotate(n=Func(F("id"), function="COUNT"))
        .values("n")
    )
    cevrimici = Kullanici.objects.filter(
        uyelikler__musteri_id=OuterRef("musteri_id"), durum__in=CEVRIMICI_DURUMLAR, is_active=True
    )
    return qs.annotate(
        _onceki_bekleyen=Coalesce(Subquery(onceki, output_field=IntegerField()), 0),
        _cevrimici_operator=Exists(cevrimici),
    )


def ziyaretci_acik_oturum(*, musteri, ziyaretci_id: str, kuyruk_bilgisi: bool = False) -> Oturum | None:
    qs = ziyaretci_oturum_list(musteri=musteri, ziyaretci_id=ziyaretci_id).filter(durum__in=Oturum.ACIK_DURUMLAR)
    if kuyruk_bilgisi:
        qs = kuyruk_bilgisi_ekle(qs)
    return qs.first()


def oturum_get(*, musteri_idleri: list[int], oturum_id, kilitle: bool = False) -> Oturum:
    """A chat of one of the operator's tenants; the same 404 for missing and another tenant's."""
    qs = Oturum.objects.select_for_update() if kilitle else Oturum.objects.all()
    try:
        return qs.get(pk=_id(oturum_id), musteri_id__in=musteri_idleri)
    except Oturum.DoesNotExist:
        raise Bulunamadi() from None


def oturum_list(
    *, kullanici, musteri_idleri: list[int], durum: str | None = None, musteri_id: int | None = None
) -> QuerySet[Oturum]:
    """The combined queue over the caller's tenants.

    Without `durum`: the live queue, every waiting chat plus the caller's own active ones. A
    `musteri_id` that is not one of the caller's tenants is a 404, like any foreign id.
    """
    if musteri_id is not None:
        if musteri_id not in musteri_idleri:
            raise Bulunamadi()
        musteri_idleri = [musteri_id]
    qs = Oturum.objects.filter(musteri_id__in=musteri_idleri)
    if durum:
        return qs.filter(durum=durum)
    return qs.filter(Q(durum=Oturum.Durum.BEKLIYOR) | Q(durum=Oturum.Durum.AKTIF, operator=kullanici))


def sira_no(*, oturum: Oturum) -> int | None:
    """Place in the tenant's queue (1 = next) of a waiting chat, by one count on the queue index."""
    if oturum.durum != Oturum.Durum.BEKLIYOR:
        return None
    if hasattr(oturum, "_onceki_bekleyen"):
        return oturum._onceki_bekleyen + 1
    onceki = Oturum.objects.filter(
        Q(baslangic__lt=oturum.baslangic) | Q(baslangic=oturum.baslangic, id__lt=oturum.id),
        musteri_id=oturum.musteri_id,
        durum=Oturum.Durum.BEKLIYOR,
    ).count()
    return onceki + 1


def cevrimici_operator_var(*, musteri_id: int, oturum: Oturum | None = None) -> bool:
    if oturum is not None and hasattr(oturum, "_cevrimici_operator"):
        return oturum._cevrimici_operator
    return Kullanici.objects.filter(
        uyelikler__musteri_id=musteri_id, durum__in=CEVRIMICI_DURUMLAR, is_active=True
    ).exists()


def aktif_chat_sayisi(*, kullanici_id: int, musteri_id: int) -> int:
    return Oturum.objects.filter(operator_id=kullanici_id, musteri_id=musteri_id, durum=Oturum.Durum.AKTIF).count()


# --- messages ------------------------------------------------------------------------------
def mesaj_list(*, oturum: Oturum, sonra: int | None = None) -> QuerySet[Mesaj]:
    """Messages of a chat already resolved within its scope; `sonra` keeps only newer ones."""
    qs = Mesaj.objects.filter(oturum=oturum)
    if sonra is not None:
        qs = qs.filter(id__gt=sonra)
    return qs


# --- canned responses ----------------------------------------------------------------------
def hazir_yanit_list(*, musteri_idleri: list[int], musteri_id: int | None = None, q: str = "") -> QuerySet[HazirYanit]:
    if musteri_id is not None:
        if musteri_id not in musteri_idleri:
            raise Bulunamadi()
        musteri_idleri = [musteri_id]
    qs = HazirYanit.objects.filter(musteri_id__in=musteri_idleri)
    if q:
        qs = qs.filter(Q(kisayol__icontains=q) | Q(baslik__icontains=q) | Q(icerik__icontains=q))
    return qs


# --- dashboard -----------------------------------------------------------------------------
def _bugun_baslangici():
    simdi = timezone.localtime()
    return simdi.replace(hour=0, minute=0, second=0, microsecond=0)


def dashboard_verisi(*, musteri_idleri: list[int]) -> dict[int, dict]:
    """Per tenant: waiting, active, closed today, rating average (30 days), operators online.

    Three grouped queries whatever the data size; "today" is the local day of settings.TIME_ZONE.
    """
    sinir = timezone.now() - timedelta(days=30)
    bugun = _bugun_baslangici()
    satirlar = {
        r["musteri_id"]: r
        for r in Oturum.objects.filter(musteri_id__in=musteri_idleri)
        .filter(Q(durum__in=Oturum.ACIK_DURUMLAR) | Q(bitis_zamani__gte=min(bugun, sinir)) | Q(puan_zamani__gte=sinir))
        .values("musteri_id")
        .annotate(
            bekleyen=Count("id", filter=Q(durum=Oturum.Durum.BEKLIYOR)),
            aktif=Count("id", filter=Q(durum=Oturum.Durum.AKTIF)),
            bugun_kapanan=Count("id", filter=Q(durum=Oturum.Durum.KAPANDI, bitis_zamani__gte=bugun)),
            puan_ortalama=Avg("puan", filter=Q(puan__isnull=False, puan_zamani__gte=sinir)),
            puan_sayisi=Count("id", filter=Q(puan__isnull=False, puan_zamani__gte=sinir)),
        )
        .order_by()
    }
    cevrimici = {
        r["uyelikler__musteri_id"]: r["n"]
        for r in Kullanici.objects.filter(
            uyelikler__musteri_id__in=musteri_idleri, durum__in=CEVRIMICI_DURUMLAR, is_active=True
        )
        .values("uyelikler__musteri_id")
        .annotate(n=Count("id", distinct=True))
        .order_by()
    }
    toplam_cevrimici = (
        Kullanici.objects.filter(uyelikler__musteri_id__in=musteri_idleri, durum__in=CEVRIMICI_DURUMLAR, is_active=True)
        .distinct()
        .count()
    )
    sonuc = {}
    for mid in musteri_idleri:
        r = satirlar.get(mid, {})
        sonuc[mid] = {
            "bekleyen_chat": r.get("bekleyen", 0),
            "aktif_chat": r.get("aktif", 0),
            "bugun_kapanan_chat": r.get("bugun_kapanan", 0),
            "ortalama_puan": r.get("puan_ortalama"),
            "puan_sayisi": r.get("puan_sayisi", 0),
            "cevrimici_operator": cevrimici.get(mid, 0),
        }
    return {"musteriler": sonuc, "toplam_cevrimici_operator": toplam_cevrimici}

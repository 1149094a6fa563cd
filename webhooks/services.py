"""Webhooks: emitting events (`olay_yayinla`, the one call every app uses), managing endpoints,
and delivering (CONTRACT 7).

Flow: `olay_yayinla` writes the event and one `Teslimat` per subscribed active endpoint inside
the caller's transaction (the outbox). After commit the deliveries are queued to Celery; when
the broker is down they simply stay due and the beat task `vadesi_gelenleri_gonder` queues
them later. Each attempt is claimed with a lease, so duplicate messages never double-send.
"""
import hashlib
import hmac
import json
import logging
import random
import time
from datetime import timedelta

import requests
from django.conf import settings
from django.db import DatabaseError, OperationalError, transaction
from django.db.models import Q
from django.utils import timezone

from supportdesk.core.exceptions import GecersizIstek

from .hedef import HedefIzinsiz, hedef_kontrol, webhook_url_dogrula
from .hedef import oturum as hedef_oturumu
from .models import Olay, Teslimat, TeslimatDenemesi, WebhookEndpoint, yeni_gizli_anahtar

logger = logging.getLogger("supportdesk.webhooks")

ALAN_OLAYLAR = [t for t in Olay.Tip.values if t != Olay.Tip.WEBHOOK_TEST]
HATA_MAX = 500
KUYRUK_PARTI = 500
KAYIT_DENEME = 4

__all__ = [
    "olay_yayinla", "webhook_url_dogrula", "webhook_endpoint_olustur", "webhook_endpoint_guncelle",
    "webhook_endpoint_sil", "gizli_anahtar_dogrula", "webhook_test_olayi_gonder", "teslimat_yeniden_gonder", "teslimat_dene",
    "vadesi_gelenleri_kuyruga_al", "eski_olaylari_temizle", "teslimatlari_simdi_gonder", "imza_hesapla",
]


# --- emitting ------------------------------------------------------------------------------
def olay_yayinla(*, musteri_id: int, olay: str, veri: dict) -> Olay:
    """Write an event to the outbox inside the caller's transaction; deliver after commit.

    Call it from inside the service's `transaction.atomic()` block: when the change rolls back,
    so does the event; when it commits, delivery is enqueued (and the periodic sweep catches
    anything the broker missed). Costs 2 queries, 3 when the tenant has a subscribed endpoint.
    """
    if olay not in ALAN_OLAYLAR:
        raise ValueError(f"Bilinmeyen olay: {olay}")
    # savepoint=False: inside the caller's block this adds no SAVEPOINT queries; called on its
    # own it still keeps the event and its deliveries together.
    with transaction.atomic(savepoint=False):
        kayit = Olay.objects.create(musteri_id=musteri_id, olay=olay, veri=veri)
        _teslimatlari_olustur(kayit, WebhookEndpoint.objects.filter(musteri_id=musteri_id, aktif=True))
    return kayit


def _teslimatlari_olustur(kayit: Olay, endpointler) -> list[Teslimat]:
    hedefler = [e for e in endpointler if e.abone_mi(kayit.olay) or kayit.olay == Olay.Tip.WEBHOOK_TEST]
    if not hedefler:
        return []
    teslimatlar = Teslimat.objects.bulk_create(
        [Teslimat(musteri_id=kayit.musteri_id, olay=kayit, endpoint=e, sonraki_deneme=kayit.zaman) for e in hedefler]
    )
    ids = [t.pk for t in teslimatlar]
    transaction.on_commit(lambda: _teslimata_gonder(ids))
    return teslimatlar


def _teslimata_gonder(teslimat_idleri: list[int], countdown: float | None = None) -> bool:
    """Queue deliveries on the broker. Never raises: an unreachable broker leaves them due, and
    the beat sweep queues them once it is back (the request that caused the event is not hurt)."""
    from .tasks import teslimat_gonder

    if settings.WEBHOOK_LOCAL_WORKER and _eager():
        from . import yerel

        yerel.uyandir()
        return True
    try:
        for teslimat_id in teslimat_idleri:
            teslimat_gonder.apply_async((teslimat_id,), countdown=countdown)
    except Exception:  # any broker failure: the outbox keeps the delivery
        logger.warning("Webhook teslimatı kuyruğa alınamadı; süpürme görevi yeniden deneyecek: %s", teslimat_idleri,
                       exc_info=True)
        return False
    return True


# --- endpoints -----------------------------------------------------------------------------
def _olaylar_dogrula(olaylar) -> list[str]:
    if olaylar is None:
        return []
    if not isinstance(olaylar, (list, tuple)) or not all(isinstance(o, str) for o in olaylar):
        raise GecersizIstek(alanlar={"olaylar": "Olay adlarından oluşan bir liste olmalı."})
    bilinmeyen = [o for o in olaylar if o not in ALAN_OLAYLAR]
    if bilinmeyen:
        raise GecersizIstek(alanlar={"olaylar": f"Bilinmeyen olay: {', '.join(bilinmeyen)}. "
                                                f"Geçerli olaylar: {', '.join(ALAN_OLAYLAR)}."})
    return list(dict.fromkeys(olaylar))


def gizli_anahtar_dogrula(gizli_anahtar) -> str:
    if gizli_anahtar is None:
        return yeni_gizli_anahtar()
    if (not isinstance(gizli_anahtar, str) or not 16 <= len(gizli_anahtar) <= 128
            or not gizli_anahtar.isprintable() or any(c.isspace() for c in gizli_anahtar)):
        raise GecersizIstek(alanlar={"gizli_anahtar": "16-128 karakter, boşluksuz olmalı."})
    return gizli_anahtar


@transaction.atomic
def webhook_endpoint_olustur(
    *, musteri, url: str, olaylar: list[str] | None = None, gizli_anahtar: str | None = None
) -> WebhookEndpoint:
    """Create an endpoint of `musteri`.

    `olaylar`: event names to subscribe to; None or [] means every event. `gizli_anahtar`: the
    signing secret; None generates one (`whsec_...`). Raises GecersizIstek with `alanlar` keyed
    `url`, `olaylar` or `gizli_anahtar` (show them next to the form fields).
    """
    endpoint = WebhookEndpoint(
        musteri=musteri,
        url=webhook_url_dogrula(url),
        olaylar=_olaylar_dogrula(olaylar),
        gizli_anahtar=gizli_anahtar_dogrula(gizli_anahtar),
    )
    endpoint.save()
    return endpoint


_GUNCELLENEBILIR = {"url", "olaylar", "aktif", "gizli_anahtar"}


@transaction.atomic
def webhook_endpoint_guncelle(*, endpoint: WebhookEndpoint, **fields) -> WebhookEndpoint:
    """Change `url`, `olaylar`, `aktif` and/or `gizli_anahtar` of an endpoint.

    `gizli_anahtar=None` rotates the secret to a new random one. Turning `aktif` back on clears
    the failure streak that disabled it. Same validation errors as webhook_endpoint_olustur.
    Unknown field names are a programming error (TypeError).
    """
    bilinmeyen = set(fields) - _GUNCELLENEBILIR
    if bilinmeyen:
        raise TypeError(f"Güncellenemeyen alan(lar): {sorted(bilinmeyen)}")
    degisen = []
    if "url" in fields:
        endpoint.url = webhook_url_dogrula(fields["url"])
        degisen.append("url")
    if "olaylar" in fields:
        endpoint.olaylar = _olaylar_dogrula(fields["olaylar"])
        degisen.append("olaylar")
    if "gizli_anahtar" in fields:
        endpoint.gizli_anahtar = gizli_anahtar_dogrula(fields["gizli_anahtar"])
        degisen.append("gizli_anahtar")
    if "aktif" in fields:
        if not isinstance(fields["aktif"], bool):
            raise GecersizIstek(alanlar={"aktif": "true ya da false olmalı."})
        if fields["aktif"] and not endpoint.aktif:
            endpoint.hata_baslangici, endpoint.devre_disi_nedeni, endpoint.devre_disi_zamani = None, "", None
            degisen += ["hata_baslangici", "devre_disi_nedeni", "devre_disi_zamani"]
        endpoint.aktif = fields["aktif"]
        degisen.append("aktif")
    if degisen:
        endpoint.save(update_fields=[*degisen, "guncellenme"])
    return endpoint


@transaction.atomic
def webhook_endpoint_sil(*, endpoint: WebhookEndpoint) -> None:
    """Delete an endpoint with its delivery log; queued attempts for it then do nothing."""
    endpoint.delete()


@transaction.atomic
def webhook_test_olayi_gonder(*, endpoint: WebhookEndpoint) -> Teslimat:
    """Send a `webhook_test` event to this one endpoint only (even when it is disabled or not
    subscribed to anything), signed like every other event. Returns the delivery to show in
    the log; it is attempted after commit like any other."""
    kayit = Olay.objects.create(
        musteri_id=endpoint.musteri_id,
        olay=Olay.Tip.WEBHOOK_TEST,
        veri={"musteri_id": endpoint.musteri_id, "endpoint_id": endpoint.pk, "mesaj": "SupportDesk test olayı"},
    )
    [teslimat] = _teslimatlari_olustur(kayit, [endpoint])
    return teslimat


@transaction.atomic
def teslimat_yeniden_gonder(*, teslimat: Teslimat) -> Teslimat:
    """Start a finished (or waiting) delivery over with a fresh set of attempts ("send again")."""
    Teslimat.objects.filter(pk=teslimat.pk).update(
        durum=Teslimat.Durum.BEKLIYOR, deneme_sayisi=0, sonraki_deneme=timezone.now(),
        kilit_bitis=None, kuyruga_alinma=None, tamamlanma=None,
    )
    teslimat.refresh_from_db()
    transaction.on_commit(lambda: _teslimata_gonder([teslimat.pk]))
    return teslimat


# --- delivering ----------------------------------------------------------------------------
def imza_hesapla(*, gizli_anahtar: str, zaman: str, govde: bytes) -> str:
    """`X-Webhook-Imza` value: sha256=<hex HMAC-SHA256 of "{zaman}.{raw body}">."""
    mac = hmac.new(gizli_anahtar.encode("utf-8"), zaman.encode("ascii") + b"." + govde, hashlib.sha256)
    return "sha256=" + mac.hexdigest()


def bekleme_suresi(deneme: int) -> float:
    """Seconds to wait after failed attempt number `deneme` (1-based): exponential, capped,
    with +-jitter so that receivers coming back up are not hit by every sender at once."""
    temel = settings.WEBHOOK_BACKOFF_BASE_SECONDS * settings.WEBHOOK_BACKOFF_FACTOR ** (deneme - 1)
    temel = min(temel, settings.WEBHOOK_BACKOFF_MAX_SECONDS)
    jitter = settings.WEBHOOK_BACKOFF_JITTER
    return max(0.0, temel * (1 + random.uniform(-jitter, jitter)))


def _kilit_suresi() -> timedelta:
    # Outlives the task's hard time limit: a slow attempt is never taken over while it runs.
    return timedelta(seconds=max(settings.WEBHOOK_TIMEOUT_SECONDS, settings.CELERY_TASK_TIME_LIMIT or 0) + 30)


def _bos_kilit(simdi) -> Q:
    return Q(kilit_bitis__isnull=True) | Q(kilit_bitis__lt=simdi)


def teslimat_dene(*, teslimat_id: int) -> Teslimat | None:
    """Make one attempt of a due delivery; None when it is not due, finished, gone or claimed.

    The claim is one conditional UPDATE, so two workers (or a queued message plus the sweep)
    never send the same attempt twice; a finished delivery is never sent again.
    """
    simdi = timezone.now()
    alindi = (
        Teslimat.objects.filter(pk=teslimat_id, durum=Teslimat.Durum.BEKLIYOR, sonraki_deneme__lte=simdi)
        .filter(_bos_kilit(simdi))
        .update(kilit_bitis=simdi + _kilit_suresi())
    )
    if not alindi:
        return None
    teslimat = Teslimat.objects.select_related("olay", "endpoint").filter(pk=teslimat_id).first()
    if teslimat is None:
        return None  # its endpoint was deleted a moment ago
    endpoint = teslimat.endpoint
    if not endpoint.aktif and teslimat.olay.olay != Olay.Tip.WEBHOOK_TEST:
        return _bitir(teslimat, Teslimat.Durum.BASARISIZ, hata="Uç nokta devre dışı; gönderilmedi.")

    sonuc = _http_gonder(endpoint, teslimat.olay)  # no transaction is open while we wait
    onceki = teslimat.deneme_sayisi
    for kayit_denemesi in range(1, KAYIT_DENEME + 1):
        teslimat.deneme_sayisi = onceki
        try:
            return _sonucu_kaydet(teslimat, sonuc)
        except OperationalError:
            # A momentarily locked database (SQLite in development, several threads writing): the
            # request has gone out, so log it now rather than let the lease expire and send again.
            if kayit_denemesi == KAYIT_DENEME:
                raise
            time.sleep(0.2 * kayit_denemesi)
        except DatabaseError:
            if Teslimat.objects.filter(pk=teslimat_id).exists():
                raise
            return None  # deleted with its endpoint while we were sending: nothing left to log


def _bitir(teslimat: Teslimat, durum: str, *, hata: str = "") -> Teslimat:
    teslimat.durum, teslimat.son_hata, teslimat.kilit_bitis = durum, hata[:HATA_MAX], None
    teslimat.tamamlanma, teslimat.sonraki_deneme = timezone.now(), None
    teslimat.save(update_fields=["durum", "son_hata", "kilit_bitis", "tamamlanma", "sonraki_deneme"])
    return teslimat


def _http_gonder(endpoint: WebhookEndpoint, olay: Olay) -> dict:
    govde = json.dumps(olay.zarf(), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    zaman = str(int(time.time()))
    headers = {
        "Content-Type": "application/json; charset=utf-8",
        "User-Agent": "SupportDesk-Webhook/1.0",
        "X-Webhook-Id": str(olay.pk),
        "X-Webhook-Olay": olay.olay,
        "X-Webhook-Zaman": zaman,
        "X-Webhook-Imza": imza_hesapla(gizli_anahtar=endpoint.gizli_anahtar, zaman=zaman, govde=govde),
    }
    baslangic = time.monotonic()
    sonuc = {"durum_kodu": None, "hata": "", "basarili": False}
    try:
        hedef_kontrol(endpoint.url)
        with hedef_oturumu() as oturum:
            # Redirects are never followed: a public URL could bounce us to an internal one.
            yanit = oturum.post(endpoint.url, data=govde, headers=headers, allow_redirects=False,
                                timeout=settings.WEBHOOK_TIMEOUT_SECONDS, stream=True)
            yanit.close()
        sonuc["durum_kodu"] = yanit.status_code
        sonuc["basarili"] = 200 <= yanit.status_code < 300
        if not sonuc["basarili"]:
            sonuc["hata"] = f"HTTP {yanit.status_code}"
    except HedefIzinsiz as exc:
        sonuc["hata"] = f"Hedef izinsiz: {exc}"
    except requests.Timeout:
        sonuc["hata"] = f"Zaman aşımı ({settings.WEBHOOK_TIMEOUT_SECONDS:g} s)"
    except requests.RequestException as exc:
        sonuc["hata"] = f"{type(exc).__name__}: {exc}"
    sonuc["sure_ms"] = int((time.monotonic() - baslangic) * 1000)
    sonuc["hata"] = sonuc["hata"][:HATA_MAX]
    return sonuc


def _sonucu_kaydet(teslimat: Teslimat, sonuc: dict) -> Teslimat:
    simdi = timezone.now()
    numara = teslimat.deneme_sayisi + 1
    yeniden = None
    with transaction.atomic():
        TeslimatDenemesi.objects.create(
            teslimat=teslimat, numara=numara, zaman=simdi, durum_kodu=sonuc["durum_kodu"],
            sure_ms=sonuc["sure_ms"], hata=sonuc["hata"], basarili=sonuc["basarili"],
        )
        teslimat.deneme_sayisi, teslimat.son_durum_kodu = numara, sonuc["durum_kodu"]
        teslimat.son_hata, teslimat.kilit_bitis = sonuc["hata"], None
        if sonuc["basarili"]:
            teslimat.durum, teslimat.tamamlanma, teslimat.sonraki_deneme = Teslimat.Durum.TESLIM_EDILDI, simdi, None
            WebhookEndpoint.objects.filter(pk=teslimat.endpoint_id, hata_baslangici__isnull=False).update(
                hata_baslangici=None)
        else:
            _hata_serisi(teslimat.endpoint_id, simdi)
            if numara >= settings.WEBHOOK_MAX_ATTEMPTS:
                teslimat.durum, teslimat.tamamlanma, teslimat.sonraki_deneme = Teslimat.Durum.BASARISIZ, simdi, None
            else:
                yeniden = bekleme_suresi(numara)
                teslimat.sonraki_deneme = simdi + timedelta(seconds=yeniden)
        teslimat.save(update_fields=["deneme_sayisi", "son_durum_kodu", "son_hata", "kilit_bitis", "durum",
                                     "tamamlanma", "sonraki_deneme"])
    logger.info("Webhook teslimatı #%s deneme %s: %s (%s ms)", teslimat.pk, numara,
                sonuc["durum_kodu"] or sonuc["hata"], sonuc["sure_ms"])
    # Short waits ride on the broker's countdown; long ones (hours) are left to the sweep, since
    # a Redis broker re-delivers unacked ETA messages after its visibility timeout. In eager mode
    # a countdown would run at once, so retries wait for the sweep there too.
    if yeniden is not None and yeniden <= settings.WEBHOOK_ETA_MAX_SECONDS and not _eager():
        _teslimata_gonder([teslimat.pk], countdown=yeniden)
    return teslimat


def _hata_serisi(endpoint_id: int, simdi) -> None:
    """A failed attempt: start the endpoint's failure streak, or disable the endpoint when the
    streak has lasted WEBHOOK_DISABLE_AFTER_HOURS (3 days) without a single success."""
    WebhookEndpoint.objects.filter(pk=endpoint_id, hata_baslangici__isnull=True).update(hata_baslangici=simdi)
    sinir = simdi - timedelta(hours=settings.WEBHOOK_DISABLE_AFTER_HOURS)
    kapatildi = WebhookEndpoint.objects.filter(pk=endpoint_id, aktif=True, hata_baslangici__lte=sinir).update(
        aktif=False, devre_disi_zamani=simdi,
        devre_disi_nedeni=f"{settings.WEBHOOK_DISABLE_AFTER_HOURS:g} saattir başarılı teslimat yok; otomatik "
                          "olarak devre dışı bırakıldı.",
    )
    if kapatildi:
        logger.warning("Webhook uç noktası #%s sürekli hata verdiği için devre dışı bırakıldı", endpoint_id)


def _eager() -> bool:
    from .tasks import teslimat_gonder

    return bool(teslimat_gonder.app.conf.task_always_eager)


def vadesi_gelenleri_kuyruga_al() -> int:
    """Queue deliveries that have been due for longer than WEBHOOK_SWEEP_GRACE_SECONDS and are
    neither being attempted nor queued by this sweep recently. Returns how many were queued."""
    simdi = timezone.now()
    sinir = simdi - timedelta(seconds=settings.WEBHOOK_SWEEP_GRACE_SECONDS)
    ids = list(
        Teslimat.objects.filter(durum=Teslimat.Durum.BEKLIYOR, sonraki_deneme__lte=sinir)
        .filter(_bos_kilit(simdi))
        .filter(Q(kuyruga_alinma__isnull=True) | Q(kuyruga_alinma__lte=sinir))
        .order_by("sonraki_deneme")
        .values_list("id", flat=True)[:KUYRUK_PARTI]
    )
    if not ids:
        return 0
    Teslimat.objects.filter(pk__in=ids).update(kuyruga_alinma=simdi)
    if not _teslimata_gonder(ids):
        Teslimat.objects.filter(pk__in=ids).update(kuyruga_alinma=None)
        return 0
    return len(ids)


def vadesi_gelen_teslimat_idleri(*, limit: int, haric=()) -> list[int]:
    """Deliveries due now and not leased, oldest due first (the broker-less loop of yerel.py;
    `haric`: the ones it is already attempting)."""
    simdi = timezone.now()
    return list(
        Teslimat.objects.filter(durum=Teslimat.Durum.BEKLIYOR, sonraki_deneme__lte=simdi)
        .filter(_bos_kilit(simdi))
        .exclude(pk__in=list(haric))
        .order_by("sonraki_deneme")
        .values_list("id", flat=True)[:limit]
    )


def teslimatlari_simdi_gonder(*, musteri=None) -> int:
    """Attempt every waiting delivery now, in this process, ignoring backoff (tests, shell,
    debugging). Returns the number of attempts made."""
    qs = Teslimat.objects.filter(durum=Teslimat.Durum.BEKLIYOR)
    if musteri is not None:
        qs = qs.filter(musteri_id=getattr(musteri, "pk", musteri))
    sayi = 0
    for teslimat_id in qs.order_by("id").values_list("id", flat=True):
        Teslimat.objects.filter(pk=teslimat_id).update(sonraki_deneme=timezone.now())
        if teslimat_dene(teslimat_id=teslimat_id) is not None:
            sayi += 1
    return sayi


def eski_olaylari_temizle(*, gun: float | None = None) -> int:
    """Delete events (with their deliveries and attempt log) older than WEBHOOK_RETENTION_DAYS
    whose deliveries are all finished; the outbox would otherwise grow with every chat."""
    gun = settings.WEBHOOK_RETENTION_DAYS if gun is None else gun
    sinir = timezone.now() - timedelta(days=gun)
    eski = Olay.objects.filter(zaman__lt=sinir).exclude(teslimatlar__durum=Teslimat.Durum.BEKLIYOR)
    silinen, _ = Olay.objects.filter(pk__in=eski.values("pk")).delete()
    return silinen

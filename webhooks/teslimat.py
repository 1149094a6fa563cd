"""Delivering webhooks (CONTRACT 7): claiming and attempting a delivery, signing, backoff,
disabling a failing endpoint, and clean-up of the outbox. Nothing here queues anything: the
queue (`kuyruk`) and the per-endpoint pool (`havuz`) call in.

Each attempt is claimed with a lease (one conditional UPDATE), so duplicate messages, the sweep
and a re-run of a finished delivery never double-send.
"""
import hashlib
import hmac
import json
import logging
import random
import time
from dataclasses import dataclass, field
from datetime import timedelta

import requests
from django.conf import settings
from django.db import DatabaseError, OperationalError, transaction
from django.db.models import Q
from django.utils import timezone

from .hedef import HedefIzinsiz, hedef_kontrol
from .hedef import oturum as hedef_oturumu
from .models import Olay, Teslimat, TeslimatDenemesi, WebhookEndpoint
from .sorgular import teslimatlari_kirala_oku

logger = logging.getLogger("supportdesk.webhooks")

HATA_MAX = 500
KAYIT_DENEME = 4


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


def bos_kilit(simdi) -> Q:
    return Q(kilit_bitis__isnull=True) | Q(kilit_bitis__lt=simdi)


def teslimat_dene(*, teslimat_id: int) -> Teslimat | None:
    """Make one attempt of a due delivery; None when it is not due, finished, gone or claimed.

    The claim is one conditional UPDATE, so two workers (or a queued message plus the sweep)
    never send the same attempt twice; a finished delivery is never sent again.
    """
    simdi = timezone.now()
    alindi = (
        Teslimat.objects.filter(pk=teslimat_id, durum=Teslimat.Durum.BEKLIYOR, sonraki_deneme__lte=simdi)
        .filter(bos_kilit(simdi))
        .update(kilit_bitis=simdi + _kilit_suresi())
    )
    if not alindi:
        return None
    teslimat = Teslimat.objects.select_related("olay", "endpoint").filter(pk=teslimat_id).first()
    if teslimat is None:
        return None  # its endpoint was deleted a moment ago
    endpoint = teslimat.endpoint
    if not endpoint.aktif and teslimat.olay.olay != Olay.Tip.WEBHOOK_TEST:
        # A delivery's stored log (`son_hata`, `devre_disi_nedeni`) is written in the source
        # language and read back by its words ("Zaman aşımı"): not translated (CONTRACT 19).
        return _bitir(teslimat, Teslimat.Durum.BASARISIZ, hata="Uç nokta devre dışı; gönderilmedi.")  # ceviri: yok

    sonuc = _http_gonder(endpoint, teslimat.olay)  # no transaction is open while we wait
    return _kaydet_israrla(teslimat, sonuc)


def _kaydet_israrla(teslimat: Teslimat, sonuc: dict) -> Teslimat | None:
    """Log an attempt that has gone out, retrying a momentarily locked database; None when the
    delivery was deleted (with its endpoint) while we were sending."""
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
            if Teslimat.objects.filter(pk=teslimat.pk).exists():
                raise
            return None  # deleted with its endpoint while we were sending: nothing left to log


@dataclass
class TopluSonuc:
    """What `teslimatlari_dene` did: `denenen`, the deliveries attempted (or finished without a
    request: endpoint disabled), each with the seconds its attempt took; `geri`, the ones claimed
    but not attempted (their lease released at once: due again, for the caller's waiting line)."""

    denenen: list[tuple[Teslimat, float]] = field(default_factory=list)
    geri: list[int] = field(default_factory=list)


def teslimatlari_dene(teslimat_idleri: list[int], *, oturum: requests.Session | None = None,
                      devam=lambda: True) -> TopluSonuc:
    """Attempt several deliveries of one endpoint, one after another (the worker pool's path): the
    same attempt as `teslimat_dene`, with the database work done once for all of them.

    Claimed and read with event and endpoint in one statement on PostgreSQL (`sorgular`: the
    conditions of `teslimat_dene`; two elsewhere); the requests go out one by one with
    no transaction open; the results are logged in one transaction (one `INSERT` of the attempts,
    one `UPDATE` per status code of the successful ones, the failed ones as `teslimat_dene` logs
    them). The ones not due, finished, gone or claimed by someone else are skipped.

    The batch stops early, giving the rest back, after an attempt slower than
    `WEBHOOK_SLOW_SECONDS` or a timeout (so the caller can move the endpoint to its slow lane),
    once it has run for `WEBHOOK_SLOW_SECONDS` in all (the rest can go out side by side on the
    endpoint's other places instead of queueing behind this thread), when `devam()` says so
    (shutting down), or when the lease could not cover one more attempt.
    """
    sonuc = TopluSonuc()
    ids = list(dict.fromkeys(teslimat_idleri))
    if not ids:
        return sonuc
    simdi = timezone.now()
    kira = _kilit_suresi()
    baslangic = time.monotonic()
    kira_sonu = baslangic + kira.total_seconds()
    sirali = {t.pk: t for t in teslimatlari_kirala_oku(ids, simdi=simdi, kilit_bitis=simdi + kira)}
    if not sirali:
        return sonuc
    teslimatlar = [sirali[i] for i in ids if i in sirali]  # the order they were given in
    sonuclar: list[tuple[Teslimat, dict]] = []
    islenen = 0  # teslimatlar[:islenen] were attempted or finished
    try:
        for teslimat in teslimatlar:
            if islenen and (not devam() or time.monotonic() + _deneme_ust_siniri() + 10 > kira_sonu
                            or time.monotonic() - baslangic > settings.WEBHOOK_SLOW_SECONDS):
                break
            if not teslimat.endpoint.aktif and teslimat.olay.olay != Olay.Tip.WEBHOOK_TEST:
                sonuc.denenen.append((_bitir(teslimat, Teslimat.Durum.BASARISIZ,
                                             hata="Uç nokta devre dışı; gönderilmedi."), 0.0))  # ceviri: yok
                islenen += 1
                continue
            basla = time.monotonic()
            yanit = _http_gonder(teslimat.endpoint, teslimat.olay, oturum)
            sure = time.monotonic() - basla
            sonuclar.append((teslimat, yanit))
            sonuc.denenen.append((teslimat, sure))
            islenen += 1
            if sure > settings.WEBHOOK_SLOW_SECONDS or (yanit["durum_kodu"] is None and
                                                        yanit["hata"].startswith("Zaman aşımı")):  # ceviri: yok
                break
    finally:
        # Also when something unexpected was raised: what went out is logged (not sent again when
        # the lease runs out) and the rest is due again at once.
        sonuc.geri = [t.pk for t in teslimatlar[islenen:]]
        if sonuc.geri:
            Teslimat.objects.filter(pk__in=sonuc.geri, kilit_bitis=simdi + kira).update(kilit_bitis=None)
        if sonuclar:
            kaydedilmeyen = {t.pk for t, _ in sonuclar} - _toplu_kaydet_israrla(sonuclar)
            sonuc.denenen = [(t, s) for t, s in sonuc.denenen if t.pk not in kaydedilmeyen]
    return sonuc


def _deneme_ust_siniri() -> float:
    return settings.WEBHOOK_TIMEOUT_SECONDS + settings.WEBHOOK_CONNECT_TIMEOUT_SECONDS


def _toplu_kaydet_israrla(sonuclar: list[tuple[Teslimat, dict]]) -> set[int]:
    """Log a batch's attempts; the ids logged (a delivery deleted meanwhile is not). A locked
    database is retried as in `teslimat_dene`; any other database error falls back to logging
    them one by one, so one deleted delivery does not lose the others' log."""
    onceki = [(t, {a: getattr(t, a) for a in KAYIT_ALANLARI}) for t, _ in sonuclar]

    def geri_al():  # the transaction rolled back: the deliveries as they were read
        for t, alanlar in onceki:
            for ad, deger in alanlar.items():
                setattr(t, ad, deger)

    for kayit_denemesi in range(1, KAYIT_DENEME + 1):
        try:
            _toplu_kaydet(sonuclar)
            return {t.pk for t, _ in sonuclar}
        except OperationalError:
            geri_al()
            if kayit_denemesi == KAYIT_DENEME:
                raise
            time.sleep(0.2 * kayit_denemesi)
        except DatabaseError:
            geri_al()
            break
    return {t.pk for t, yanit in sonuclar if _kaydet_israrla(t, yanit) is not None}


def _toplu_kaydet(sonuclar: list[tuple[Teslimat, dict]]) -> None:
    simdi = timezone.now()
    denemeler, basarili = [], {}
    with transaction.atomic():
        for teslimat, yanit in sonuclar:
            denemeler.append(TeslimatDenemesi(
                teslimat=teslimat, numara=teslimat.deneme_sayisi + 1, zaman=simdi, durum_kodu=yanit["durum_kodu"],
                sure_ms=yanit["sure_ms"], hata=yanit["hata"], basarili=yanit["basarili"]))
        TeslimatDenemesi.objects.bulk_create(denemeler)
        for teslimat, yanit in sonuclar:
            _sonucu_uygula(teslimat, yanit, simdi)
            if yanit["basarili"]:
                basarili.setdefault((teslimat.deneme_sayisi, teslimat.son_durum_kodu), []).append(teslimat.pk)
            else:
                teslimat.save(update_fields=KAYIT_ALANLARI)
        for (deneme_sayisi, kod), ids in basarili.items():
            Teslimat.objects.filter(pk__in=ids).update(
                deneme_sayisi=deneme_sayisi, son_durum_kodu=kod, son_hata="", kilit_bitis=None,
                durum=Teslimat.Durum.TESLIM_EDILDI, tamamlanma=simdi, sonraki_deneme=None)
        _toplu_hata_serisi(sonuclar, simdi)
    for teslimat, yanit in sonuclar:
        _logla(teslimat, yanit)


def _toplu_hata_serisi(sonuclar: list[tuple[Teslimat, dict]], simdi) -> None:
    """The endpoint's failure streak after a batch, as if its attempts had been logged one by one:
    cleared when the last one succeeded, started anew when a success came before a failure, else
    as a failed attempt (`_hata_serisi`). No query when every attempt succeeded on a healthy one."""
    endpointler = {t.endpoint_id: t.endpoint for t, _ in sonuclar}
    for endpoint in endpointler.values():  # one, from the pool
        basarilar = [y["basarili"] for t, y in sonuclar if t.endpoint_id == endpoint.pk]
        if basarilar[-1]:
            if endpoint.hata_baslangici is not None or not all(basarilar):
                WebhookEndpoint.objects.filter(pk=endpoint.pk, hata_baslangici__isnull=False).update(
                    hata_baslangici=None)
        elif any(basarilar):
            WebhookEndpoint.objects.filter(pk=endpoint.pk).update(hata_baslangici=simdi)
        else:
            _hata_serisi(endpoint.pk, simdi)


def _bitir(teslimat: Teslimat, durum: str, *, hata: str = "") -> Teslimat:
    teslimat.durum, teslimat.son_hata, teslimat.kilit_bitis = durum, hata[:HATA_MAX], None
    teslimat.tamamlanma, teslimat.sonraki_deneme = timezone.now(), None
    teslimat.save(update_fields=["durum", "son_hata", "kilit_bitis", "tamamlanma", "sonraki_deneme"])
    return teslimat


def _http_gonder(endpoint: WebhookEndpoint, olay: Olay, oturum: requests.Session | None = None) -> dict:
    """One signed POST; `oturum`: a session to reuse (the worker pool's threads each keep one), else
    a fresh one closed afterwards."""
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
        if oturum is None:
            with hedef_oturumu() as yeni:
                yanit = _post(yeni, endpoint.url, govde, headers)
        else:
            yanit = _post(oturum, endpoint.url, govde, headers)
        sonuc["durum_kodu"] = yanit.status_code
        sonuc["basarili"] = 200 <= yanit.status_code < 300
        if not sonuc["basarili"]:
            sonuc["hata"] = f"HTTP {yanit.status_code}"
    except HedefIzinsiz as exc:
        sonuc["hata"] = f"Hedef izinsiz: {exc}"
    except requests.ConnectTimeout:
        sonuc["hata"] = f"Zaman aşımı: bağlantı kurulamadı ({_zaman_asimlari()[0]:g} s)"  # ceviri: yok
    except requests.Timeout:
        sonuc["hata"] = f"Zaman aşımı ({settings.WEBHOOK_TIMEOUT_SECONDS:g} s)"  # ceviri: yok
    except requests.RequestException as exc:
        sonuc["hata"] = f"{type(exc).__name__}: {exc}"
    sonuc["sure_ms"] = int((time.monotonic() - baslangic) * 1000)
    sonuc["hata"] = sonuc["hata"][:HATA_MAX]
    return sonuc


def _post(oturum: requests.Session, url: str, govde: bytes, headers: dict) -> requests.Response:
    # Redirects are never followed: a public URL could bounce us to an internal one. The answer's
    # body is never read (stream, then close): a receiver trickling an endless body cannot hold
    # the attempt, at the price of a new connection per request.
    yanit = oturum.post(url, data=govde, headers=headers, allow_redirects=False, timeout=_zaman_asimlari(),
                        stream=True)
    yanit.close()
    return yanit


def _zaman_asimlari() -> tuple[float, float]:
    # A short connect timeout: an address that does not answer at all is given up on quickly.
    return min(settings.WEBHOOK_CONNECT_TIMEOUT_SECONDS, settings.WEBHOOK_TIMEOUT_SECONDS), settings.WEBHOOK_TIMEOUT_SECONDS


def _sonucu_kaydet(teslimat: Teslimat, sonuc: dict) -> Teslimat:
    simdi = timezone.now()
    numara = teslimat.deneme_sayisi + 1
    with transaction.atomic():
        TeslimatDenemesi.objects.create(
            teslimat=teslimat, numara=numara, zaman=simdi, durum_kodu=sonuc["durum_kodu"],
            sure_ms=sonuc["sure_ms"], hata=sonuc["hata"], basarili=sonuc["basarili"],
        )
        _sonucu_uygula(teslimat, sonuc, simdi)
        if sonuc["basarili"]:
            if teslimat.endpoint.hata_baslangici is not None:  # as read when claimed: no query when healthy
                WebhookEndpoint.objects.filter(pk=teslimat.endpoint_id, hata_baslangici__isnull=False).update(
                    hata_baslangici=None)
        else:
            _hata_serisi(teslimat.endpoint_id, simdi)
        teslimat.save(update_fields=KAYIT_ALANLARI)
    _logla(teslimat, sonuc)
    return teslimat


KAYIT_ALANLARI = ["deneme_sayisi", "son_durum_kodu", "son_hata", "kilit_bitis", "durum", "tamamlanma",
                  "sonraki_deneme"]


def _sonucu_uygula(teslimat: Teslimat, sonuc: dict, simdi) -> None:
    """The delivery after one more attempt with this result (in memory; KAYIT_ALANLARI change):
    delivered, failed for good, or due again after the backoff."""
    numara = teslimat.deneme_sayisi + 1
    teslimat.deneme_sayisi, teslimat.son_durum_kodu = numara, sonuc["durum_kodu"]
    teslimat.son_hata, teslimat.kilit_bitis = sonuc["hata"], None
    if sonuc["basarili"]:
        teslimat.durum, teslimat.tamamlanma, teslimat.sonraki_deneme = Teslimat.Durum.TESLIM_EDILDI, simdi, None
    elif numara >= settings.WEBHOOK_MAX_ATTEMPTS:
        teslimat.durum, teslimat.tamamlanma, teslimat.sonraki_deneme = Teslimat.Durum.BASARISIZ, simdi, None
    else:
        teslimat.sonraki_deneme = simdi + timedelta(seconds=bekleme_suresi(numara))


def _logla(teslimat: Teslimat, sonuc: dict) -> None:
    logger.info("Webhook teslimatı #%s deneme %s: %s (%s ms)", teslimat.pk, teslimat.deneme_sayisi,
                sonuc["durum_kodu"] or sonuc["hata"], sonuc["sure_ms"])


def _hata_serisi(endpoint_id: int, simdi) -> None:
    """A failed attempt: start the endpoint's failure streak, or disable the endpoint when the
    streak has lasted WEBHOOK_DISABLE_AFTER_HOURS (3 days) without a single success."""
    WebhookEndpoint.objects.filter(pk=endpoint_id, hata_baslangici__isnull=True).update(hata_baslangici=simdi)
    sinir = simdi - timedelta(hours=settings.WEBHOOK_DISABLE_AFTER_HOURS)
    kapatildi = WebhookEndpoint.objects.filter(pk=endpoint_id, aktif=True, hata_baslangici__lte=sinir).update(
        aktif=False, devre_disi_zamani=simdi,
        devre_disi_nedeni=f"{settings.WEBHOOK_DISABLE_AFTER_HOURS:g} saattir başarılı teslimat yok; otomatik "  # ceviri: yok
                          "olarak devre dışı bırakıldı.",
    )
    if kapatildi:
        logger.warning("Webhook uç noktası #%s sürekli hata verdiği için devre dışı bırakıldı", endpoint_id)


def vadesi_gelen_teslimat_idleri(*, limit: int, haric=()) -> list[int]:
    """Deliveries due now and not leased, oldest due first (a web process's start without a
    broker, `kuyruk.vadesi_gelenleri_havuza_ver`; `haric`: ids to leave out)."""
    simdi = timezone.now()
    return list(
        Teslimat.objects.filter(durum=Teslimat.Durum.BEKLIYOR, sonraki_deneme__lte=simdi)
        .filter(bos_kilit(simdi))
        .exclude(pk__in=list(haric))
        .order_by("sonraki_deneme")
        .values_list("id", flat=True)[:limit]
    )


def teslimatlari_simdi_gonder(*, musteri=None) -> int:
    """Attempt every waiting delivery now, in this process, ignoring backoff (tests, shell,
    debugging). Returns the number of attempts made."""
    qs = Teslimat.objects.filter(durum=Teslimat.Durum.BEKLIYOR)
    if musteri is not None:
        qs = qs.kapsamda([getattr(musteri, "pk", musteri)])
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

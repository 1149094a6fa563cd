"""Helpers of the context tests: signed bodies, tiny valid images, stored-state snapshots."""
import time

from context.imza import imza_hesapla
from context.models import EkranGoruntusu, HataKaydi, SayfaGoruntuleme, Ziyaretci

CUSTOMER_INFO = "/api/v1/context/customer-info"
PAGE_INFO = "/api/v1/context/page-info"
ERROR_LOG = "/api/v1/context/error-log"
SCREENSHOT = "/api/v1/context/screenshot"

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + b"\x00" * 64
JPEG = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + b"\x00" * 64
GIF = b"GIF89a" + b"\x00" * 64


def imzali(musteri, ziyaretci_id="z-1", email="ayse@ornek.com", *, kayma=0, secret=None, **alanlar) -> dict:
    """A customer-info body signed the way docs/context.md tells tenants to sign it."""
    if kayma:
        _saniye_basina_kadar_bekle()
    ts = int(time.time()) + kayma
    body = {"ziyaretci_id": ziyaretci_id, "timestamp": ts, **alanlar}
    if email is not None:
        body["email"] = email
    body["signature"] = imza_hesapla(api_secret=secret or musteri.api_secret, ziyaretci_id=ziyaretci_id,
                                     email=email or "", timestamp=ts)
    return body


def _saniye_basina_kadar_bekle() -> None:
    # The server counts whole seconds, as the signer does. A body signed at x.95 s and read at
    # x+1.01 s is a second older than it was meant to be, which turns the ±300/301 s boundary
    # tests into coin flips; start them early in a second instead.
    kesir = time.time() % 1
    if kesir > 0.7:
        time.sleep(1.02 - kesir)


def durum(musteri=None) -> list:
    """Everything the context app stores, to prove a failed call changed nothing."""
    qs = Ziyaretci.objects.all() if musteri is None else Ziyaretci.objects.filter(musteri=musteri)
    ziyaretciler = list(qs.order_by("id").values())
    return [ziyaretciler, SayfaGoruntuleme.objects.count(), HataKaydi.objects.count(), EkranGoruntusu.objects.count()]


def ok(res, status=200) -> dict:
    assert res.status_code == status, res.content
    body = res.json()
    assert body["basarili"] is True, body
    assert isinstance(body["data"], dict), body
    return body

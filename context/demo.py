"""Demo visitor context (called by `manage.py demo_verisi`) for the chat app's demo visitors, so
that the operator sees a banner strip at once. Idempotent: profiles are re-stored with the same
values, pages, errors and the screenshot are added only to a visitor that has none.
(ceviri: dosya yok: demo data.)"""
import struct
import time
import zlib
from datetime import timedelta

from django.utils import timezone

from .imza import imza_hesapla
from .models import EkranGoruntusu, HataKaydi, SayfaGoruntuleme, Ziyaretci
from .services import ekran_goruntusu_ekle, hata_kaydi_ekle, sayfa_ekle, ziyaretci_profil_kaydet

SITE = "https://demo.supportdesk.local"


def _profiller() -> list[tuple[int, str, dict, bool]]:
    # (tenant index, visitor id, profile, signed) — ids match chat/demo.py's demo chats.
    bugun = timezone.localdate()
    return [
        (0, "demo-ziyaretci-1", {
            "email": "ayse.yilmaz@ornek.com", "ad": "Ayşe", "soyad": "Yılmaz", "paket": "Pro", "kontor": 120,
            "ekstra": {"trial_bitis": (bugun + timedelta(days=2)).isoformat(), "depolama_kullanilan_gb": 45.5,
                       "depolama_toplam_gb": 50, "son_yedek": "2 saat önce"},
        }, True),
        (1, "demo-ziyaretci-2", {
            "email": "mehmet.demir@ornek.com", "ad": "Mehmet", "soyad": "Demir", "paket": "Başlangıç", "kontor": 15.5,
            "ekstra": {"depolama_kullanim": "3.2 GB / 10 GB", "depolama_dolu_yuzde": 32, "depolama_kritik": False},
        }, False),
        (0, "demo-ziyaretci-3", {
            "email": "zeynep.kaya@ornek.com", "ad": "Zeynep", "soyad": "Kaya", "paket": "Kurumsal", "kontor": 0,
            "ekstra": {"trial_kalan_gun": 12},
        }, False),
    ]


def _png(genislik: int = 320, yukseklik: int = 200) -> bytes:
    """A plain light-grey PNG, built here so the demo needs no image library."""
    def parca(tur: bytes, veri: bytes) -> bytes:
        return struct.pack(">I", len(veri)) + tur + veri + struct.pack(">I", zlib.crc32(tur + veri) & 0xFFFFFFFF)

    satir = b"\x00" + b"\xe5\xe7\xeb" * genislik
    ihdr = struct.pack(">IIBBBBB", genislik, yukseklik, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + parca(b"IHDR", ihdr) + parca(b"IDAT", zlib.compress(satir * yukseklik)) + parca(b"IEND", b"")


def yukle(*, musteriler, operatorler) -> None:
    for index, ziyaretci_id, profil, imzali in _profiller():
        musteri = musteriler[index]
        imza = {}
        if imzali:
            ts = int(time.time())
            imza = {"timestamp": ts, "signature": imza_hesapla(api_secret=musteri.api_secret, ziyaretci_id=ziyaretci_id,
                                                               email=profil["email"], timestamp=ts)}
        ziyaretci, _ = ziyaretci_profil_kaydet(musteri=musteri, ziyaretci_id=ziyaretci_id, profil=profil, **imza)
        _kayitlar(ziyaretci)


def _kayitlar(ziyaretci: Ziyaretci) -> None:
    musteri, zid = ziyaretci.musteri, ziyaretci.ziyaretci_id
    if not SayfaGoruntuleme.objects.filter(ziyaretci=ziyaretci).exists():
        for yol, baslik in (("/", "Ana sayfa"), ("/fiyatlar", "Fiyatlar"), ("/hesabim/faturalar", "Faturalarım")):
            sayfa_ekle(musteri=musteri, ziyaretci_id=zid, url=SITE + yol, baslik=baslik, referrer="https://www.google.com/")
    if not HataKaydi.objects.filter(ziyaretci=ziyaretci).exists():
        hata_kaydi_ekle(musteri=musteri, ziyaretci_id=zid,
                        mesaj="TypeError: Cannot read properties of undefined (reading 'toplam')",
                        kaynak=SITE + "/static/fatura.js", satir=87, stack="at faturaOzeti (fatura.js:87:14)",
                        url=SITE + "/hesabim/faturalar", tarayici="Mozilla/5.0 (Windows NT 10.0) Chrome/131.0")
    if not EkranGoruntusu.objects.filter(ziyaretci=ziyaretci).exists():
        ekran_goruntusu_ekle(musteri=musteri, ziyaretci_id=zid, icerik=_png(), url=SITE + "/hesabim/faturalar")

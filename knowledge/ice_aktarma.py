"""Bulk import of a tenant's help center and campaigns from plain data (the `icerik_yukle`
command of CONTRACT 10, the demo data). Idempotent: categories and articles are matched by slug,
campaigns by title. A bad record raises a ValueError naming it (`kb_makaleleri[3]: slug: ...`);
the caller's transaction decides what is kept. The errors are the command's output, not
translated (`# ceviri: yok`)."""
from contextlib import contextmanager

from django.utils.dateparse import parse_datetime

from supportdesk.core.exceptions import ApiHatasi

from . import selectors, services

TURLER = ("kb_kategorileri", "kb_makaleleri", "kampanyalar")


def kb_icerik_yukle(*, musteri, veri: dict) -> dict[str, int]:
    sayilar = dict.fromkeys(TURLER, 0)
    for i, k in enumerate(liste(veri, "kb_kategorileri")):
        with _kayit("kb_kategorileri", i, k):
            services.kb_kategori_kaydet(musteri=musteri, slug=k.get("slug"), ad=k.get("ad"),
                                        aciklama=k.get("aciklama", ""), sira=k.get("sira", i))
        sayilar["kb_kategorileri"] += 1
    for i, m in enumerate(liste(veri, "kb_makaleleri")):
        with _kayit("kb_makaleleri", i, m):
            kategori = None
            if m.get("kategori_slug"):
                kategori = selectors.kb_kategori_bul(musteri=musteri, slug=m["kategori_slug"])
                if kategori is None:
                    raise ValueError(f"kategori bulunamadı: {m['kategori_slug']}")  # ceviri: yok
            services.kb_makale_kaydet(
                musteri=musteri, slug=m.get("slug"), baslik=m.get("baslik"), icerik=m.get("icerik", ""),
                ozet=m.get("ozet", ""), kategori=kategori, yayinda=m.get("yayinda", True), sira=m.get("sira", i),
            )
        sayilar["kb_makaleleri"] += 1
    for i, k in enumerate(liste(veri, "kampanyalar")):
        with _kayit("kampanyalar", i, k):
            services.kampanya_kaydet(
                musteri=musteri, baslik=k.get("baslik"), icerik=k.get("icerik", ""), gorsel_url=k.get("gorsel_url", ""),
                buton_metni=k.get("buton_metni", ""), buton_url=k.get("buton_url", ""), aktif=k.get("aktif", True),
                baslangic=_zaman(k, "baslangic"), bitis=_zaman(k, "bitis"),
                kampanya=selectors.kampanya_bul(musteri=musteri, baslik=k.get("baslik")),
            )
        sayilar["kampanyalar"] += 1
    return sayilar


def liste(veri: dict, anahtar: str) -> list:
    deger = veri.get(anahtar, [])
    if not isinstance(deger, list):
        raise ValueError(f"{anahtar} bir liste olmalı.")  # ceviri: yok
    return deger


def hata_metni(exc: ApiHatasi) -> str:
    if exc.alanlar:
        return "; ".join(f"{alan}: {mesaj}" for alan, mesaj in exc.alanlar.items())
    return exc.mesaj


@contextmanager
def _kayit(tur: str, i: int, kayit):
    """Names the failing record in the one-line error: `kb_makaleleri[3]: slug: ...`."""
    try:
        if not isinstance(kayit, dict):
            raise ValueError("bir nesne olmalı.")  # ceviri: yok
        yield
    except ApiHatasi as exc:
        raise ValueError(f"{tur}[{i}]: {hata_metni(exc)}") from None
    except ValueError as exc:
        raise ValueError(f"{tur}[{i}]: {exc}") from None


def _zaman(kayit: dict, alan: str):
    deger = kayit.get(alan)
    try:
        zaman = parse_datetime(deger) if isinstance(deger, str) else None
    except ValueError:
        zaman = None
    if zaman is None or zaman.tzinfo is None:
        raise ValueError(f"{alan}: saat dilimli ISO 8601 tarih-saat olmalı (ör. 2026-11-22T09:00:00+03:00).")  # ceviri: yok
    return zaman

"""`icerik_yukle --musteri ID FILE.json` (CONTRACT 10): KB categories, articles, campaigns and
canned responses of one tenant, idempotent (matched by slug, by title for campaigns, by
`kisayol` for canned responses). All or nothing: a bad record changes nothing."""
import json
from contextlib import contextmanager
from pathlib import Path

from django.db import transaction
from django.utils.dateparse import parse_datetime

from supportdesk.core.exceptions import ApiHatasi
from supportdesk.core.komut import ProvisionCommand
from tenants.models import Musteri

from ... import services
from ...models import Kampanya, KbKategori

TURLER = ("kb_kategorileri", "kb_makaleleri", "kampanyalar", "hazir_yanitlar")


class Command(ProvisionCommand):
    help = "Bir projeye bilgi bankası kategorileri, makaleleri, kampanyalar ve hazır yanıtlar yükler (JSON dosyası)."

    def add_command_arguments(self, parser):
        parser.add_argument("--musteri", type=int, required=True, help="Proje (müşteri) kimliği.")
        parser.add_argument("dosya", help="JSON dosyası: kb_kategorileri, kb_makaleleri, kampanyalar, hazir_yanitlar.")

    def run(self, *, musteri: int, dosya: str, **_):
        musteri_obj = Musteri.objects.filter(pk=musteri).first()
        if musteri_obj is None:
            raise LookupError(f"Proje bulunamadı: {musteri}")
        veri = _oku(dosya)
        try:
            with transaction.atomic():
                sayilar = icerik_yukle(musteri=musteri_obj, veri=veri)
        except ApiHatasi as exc:
            raise ValueError(_hata_metni(exc)) from None
        ozet = ", ".join(f"{tur}: {n}" for tur, n in sayilar.items())
        return sayilar, f"#{musteri_obj.id} {musteri_obj.firma_adi} için yüklendi: {ozet}"


def icerik_yukle(*, musteri, veri: dict) -> dict[str, int]:
    sayilar = dict.fromkeys(TURLER, 0)
    for i, k in enumerate(_liste(veri, "kb_kategorileri")):
        with _kayit("kb_kategorileri", i, k):
            services.kb_kategori_kaydet(musteri=musteri, slug=k.get("slug"), ad=k.get("ad"),
                                        aciklama=k.get("aciklama", ""), sira=k.get("sira", i))
        sayilar["kb_kategorileri"] += 1
    for i, m in enumerate(_liste(veri, "kb_makaleleri")):
        with _kayit("kb_makaleleri", i, m):
            kategori = None
            if m.get("kategori_slug"):
                kategori = KbKategori.objects.filter(musteri=musteri, slug=m["kategori_slug"]).first()
                if kategori is None:
                    raise ValueError(f"kategori bulunamadı: {m['kategori_slug']}")
            services.kb_makale_kaydet(
                musteri=musteri, slug=m.get("slug"), baslik=m.get("baslik"), icerik=m.get("icerik", ""),
                ozet=m.get("ozet", ""), kategori=kategori, yayinda=m.get("yayinda", True), sira=m.get("sira", i),
            )
        sayilar["kb_makaleleri"] += 1
    for i, k in enumerate(_liste(veri, "kampanyalar")):
        with _kayit("kampanyalar", i, k):
            services.kampanya_kaydet(
                musteri=musteri, baslik=k.get("baslik"), icerik=k.get("icerik", ""), gorsel_url=k.get("gorsel_url", ""),
                buton_metni=k.get("buton_metni", ""), buton_url=k.get("buton_url", ""), aktif=k.get("aktif", True),
                baslangic=_zaman(k, "baslangic"), bitis=_zaman(k, "bitis"),
                kampanya=Kampanya.objects.filter(musteri=musteri, baslik=k.get("baslik")).order_by("id").first(),
            )
        sayilar["kampanyalar"] += 1
    hazir = _liste(veri, "hazir_yanitlar")
    if hazir:
        # Canned responses belong to the chat app; imported lazily so the KB works without it.
        from chat.services import hazir_yanitlari_yukle

        sonuc = hazir_yanitlari_yukle(musteri=musteri, kayitlar=hazir)
        sayilar["hazir_yanitlar"] = sonuc if isinstance(sonuc, int) else len(hazir)
    return sayilar


def _oku(yol: str) -> dict:
    try:
        veri = json.loads(Path(yol).read_text(encoding="utf-8"))
    except OSError as exc:
        raise ValueError(f"Dosya okunamadı: {yol} ({exc.strerror})") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"Geçerli bir UTF-8 JSON dosyası değil: {yol} ({exc})") from None
    if not isinstance(veri, dict):
        raise ValueError("JSON kökü bir nesne olmalı.")
    bilinmeyen = set(veri) - set(TURLER)
    if bilinmeyen:
        raise ValueError(f"Bilinmeyen anahtar: {', '.join(sorted(bilinmeyen))}")
    return veri


def _liste(veri: dict, anahtar: str) -> list:
    deger = veri.get(anahtar, [])
    if not isinstance(deger, list):
        raise ValueError(f"{anahtar} bir liste olmalı.")
    return deger


@contextmanager
def _kayit(tur: str, i: int, kayit):
    """Names the failing record in the one-line error: `kb_makaleleri[3]: slug: ...`."""
    try:
        if not isinstance(kayit, dict):
            raise ValueError("bir nesne olmalı.")
        yield
    except ApiHatasi as exc:
        raise ValueError(f"{tur}[{i}]: {_hata_metni(exc)}") from None
    except ValueError as exc:
        raise ValueError(f"{tur}[{i}]: {exc}") from None


def _zaman(kayit: dict, alan: str):
    deger = kayit.get(alan)
    try:
        zaman = parse_datetime(deger) if isinstance(deger, str) else None
    except ValueError:
        zaman = None
    if zaman is None or zaman.tzinfo is None:
        raise ValueError(f"{alan}: saat dilimli ISO 8601 tarih-saat olmalı (ör. 2026-11-22T09:00:00+03:00).")
    return zaman


def _hata_metni(exc: ApiHatasi) -> str:
    if exc.alanlar:
        return "; ".join(f"{alan}: {mesaj}" for alan, mesaj in exc.alanlar.items())
    return exc.mesaj

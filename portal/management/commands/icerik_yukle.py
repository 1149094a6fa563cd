# ceviri: dosya yok (a management command: its output is not the interface, CONTRACT 19)
"""`icerik_yukle --musteri ID FILE.json` (CONTRACT 10): KB categories, articles, campaigns and
canned responses of one tenant, idempotent (matched by slug, by title for campaigns, by
`kisayol` for canned responses). All or nothing: a bad record changes nothing.

It lives in the portal, above both features it fills (knowledge and chat)."""
import json
from pathlib import Path

from django.db import transaction

from chat.services import hazir_yanitlari_yukle
from knowledge.ice_aktarma import TURLER as KB_TURLERI
from knowledge.ice_aktarma import hata_metni, kb_icerik_yukle, liste
from supportdesk.core.exceptions import ApiHatasi
from supportdesk.core.girdi import gecerli_id_mi
from supportdesk.core.komut import ProvisionCommand
from tenants.models import Musteri

TURLER = (*KB_TURLERI, "hazir_yanitlar")


class Command(ProvisionCommand):
    help = "Bir projeye bilgi bankası kategorileri, makaleleri, kampanyalar ve hazır yanıtlar yükler (JSON dosyası)."

    def add_command_arguments(self, parser):
        parser.add_argument("--musteri", type=int, required=True, help="Proje (müşteri) kimliği.")
        parser.add_argument("dosya", help="JSON dosyası: kb_kategorileri, kb_makaleleri, kampanyalar, hazir_yanitlar.")

    def run(self, *, musteri: int, dosya: str, **_):
        musteri_obj = Musteri.objects.filter(pk=musteri).first() if gecerli_id_mi(musteri) else None
        if musteri_obj is None:
            raise LookupError(f"Proje bulunamadı: {musteri}")
        veri = _oku(dosya)
        try:
            with transaction.atomic():
                sayilar = icerik_yukle(musteri=musteri_obj, veri=veri)
        except ApiHatasi as exc:
            raise ValueError(hata_metni(exc)) from None
        ozet = ", ".join(f"{tur}: {n}" for tur, n in sayilar.items())
        return sayilar, f"#{musteri_obj.id} {musteri_obj.firma_adi} için yüklendi: {ozet}"


def icerik_yukle(*, musteri, veri: dict) -> dict[str, int]:
    sayilar = {**kb_icerik_yukle(musteri=musteri, veri=veri), "hazir_yanitlar": 0}
    hazir = liste(veri, "hazir_yanitlar")
    if hazir:
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

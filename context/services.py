"""Writes of the context API (CONTRACT 6). Each validates first and changes nothing on error."""
import logging

import filetype
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from kisiler.services import kisi_kimlik_bagla
from supportdesk.core.exceptions import DesteklenmeyenDosya, DosyaCokBuyuk, GecersizIstek, ImzaGerekli
from supportdesk.core.olaylar import yayinla
from tenants.models import Musteri

from .imza import imza_dogrula, imza_kullan
from .models import SAKLANAN_KAYIT, EkranGoruntusu, HataKaydi, SayfaGoruntuleme, Ziyaretci
from .validators import ekstra_hatalari, sayi_mi

logger = logging.getLogger(__name__)

EKRAN_GORUNTUSU_MAX_BAYT = 5 * 1024 * 1024  # CONTRACT 9
EKRAN_GORUNTUSU_TIPLERI = {"image/png", "image/jpeg"}  # CONTRACT 6, decided by content
PROFIL_ALANLARI = ("email", "ad", "soyad", "paket", "kontor", "ekstra")


def _ziyaretci_kilitle(*, musteri: Musteri, ziyaretci_id: str) -> Ziyaretci:
    # The row lock serialises writers of one visitor, so a profile update is never lost and two
    # racing inserts cannot both skip the prune.
    ziyaretci, _ = Ziyaretci.objects.select_for_update().get_or_create(musteri=musteri, ziyaretci_id=ziyaretci_id)
    return ziyaretci


def _eskileri_sil(model, *, ziyaretci: Ziyaretci) -> list:
    """Keep the newest SAKLANAN_KAYIT rows of `model` for the visitor; return the deleted rows' files."""
    esik = list(
        model.objects.filter(ziyaretci=ziyaretci).order_by("-id").values_list("id", flat=True)[SAKLANAN_KAYIT - 1:SAKLANAN_KAYIT]
    )
    if not esik:
        return []
    eskiler = model.objects.filter(ziyaretci=ziyaretci, id__lt=esik[0])
    dosyalar = list(eskiler.values_list("gorsel", flat=True)) if model is EkranGoruntusu else []
    eskiler.delete()
    return dosyalar


def _profil_dogrula(profil: dict) -> None:
    hatalar = {}
    if "ekstra" in profil and profil["ekstra"] is not None:
        hatalar.update(ekstra_hatalari(profil["ekstra"]))
    if profil.get("kontor") is not None and not sayi_mi(profil["kontor"]):
        hatalar["kontor"] = gettext("Sayı olmalı.")
    bilinmeyen = set(profil) - set(PROFIL_ALANLARI)
    if bilinmeyen:
        hatalar["genel"] = f"Bilinmeyen alanlar: {', '.join(sorted(bilinmeyen))}"
    if hatalar:
        raise GecersizIstek(alanlar=hatalar)


@transaction.atomic
def ziyaretci_profil_kaydet(
    *, musteri: Musteri, ziyaretci_id: str, profil: dict, signature=None, timestamp=None, simdi: float | None = None
) -> tuple[Ziyaretci, bool]:
    """Store what customer-info sent; return (visitor, whether this call's identity was verified).

    `profil` holds only the fields the call sent (absent ones keep their stored value; null
    clears). A signed call stores the signed e-mail ("" when absent) and marks the profile
    verified. An unsigned call never verifies, and clears the flag of a verified profile: its
    data did not come from the tenant's server, so the operator must not see it as vouched for.
    """
    _profil_dogrula(profil)
    dogrulandi = signature is not None
    if dogrulandi:
        imza_dogrula(api_secret=musteri.api_secret, ziyaretci_id=ziyaretci_id, email=profil.get("email") or "",
                     timestamp=timestamp, signature=signature, simdi=simdi)
        profil = {**profil, "email": profil.get("email") or ""}
        # One signature, one body (CONTRACT 2a), compared by what it would store: `email` absent
        # and null sign and store alike, so they are one body; any other field changed is not.
        imza_kullan(musteri=musteri, amac="profil", signature=signature, timestamp=timestamp,
                    govde={"ziyaretci_id": ziyaretci_id, "timestamp": str(timestamp), **profil})
    elif musteri.kimlik_dogrulama_zorunlu:
        raise ImzaGerekli()

    ziyaretci = _ziyaretci_kilitle(musteri=musteri, ziyaretci_id=ziyaretci_id)
    an = timezone.now()
    for alan, deger in profil.items():
        if alan == "ekstra":
            deger = deger or {}
        elif alan != "kontor":
            deger = deger or ""
        setattr(ziyaretci, alan, deger)
    ziyaretci.identity_dogrulandi = dogrulandi
    ziyaretci.dogrulama_zamani = an if dogrulandi else None
    ziyaretci.profil_zamani = ziyaretci.guncellenme = an
    ziyaretci.save()
    if dogrulandi:
        # A signed identity makes the visitor's contact and joins the one with its e-mail (CONTRACT 25).
        kisi_kimlik_bagla(musteri_id=musteri.id, ziyaretci_id=ziyaretci_id, email=ziyaretci.email,
                          ad=" ".join(p for p in (ziyaretci.ad, ziyaretci.soyad) if p))
    if {"ad", "soyad", "email"} & set(profil):
        # The operators' search finds the visitor by these (CONTRACT 16: visitor name and e-mail).
        yayinla("ziyaretci_profili_kaydedildi", musteri_id=musteri.id, veri={
            "ziyaretci_id": ziyaretci_id, "ad": " ".join(p for p in (ziyaretci.ad, ziyaretci.soyad) if p),
            "email": ziyaretci.email,
        })
    return ziyaretci, dogrulandi


@transaction.atomic
def sayfa_ekle(*, musteri: Musteri, ziyaretci_id: str, url: str, baslik: str = "", referrer: str = "") -> SayfaGoruntuleme:
    ziyaretci = _ziyaretci_kilitle(musteri=musteri, ziyaretci_id=ziyaretci_id)
    sayfa = SayfaGoruntuleme.objects.create(musteri=musteri, ziyaretci=ziyaretci, url=url, baslik=baslik, referrer=referrer)
    _eskileri_sil(SayfaGoruntuleme, ziyaretci=ziyaretci)
    return sayfa


@transaction.atomic
def hata_kaydi_ekle(
    *, musteri: Musteri, ziyaretci_id: str, mesaj: str, kaynak: str = "", satir: int | None = None, stack: str = "",
    url: str = "", tarayici: str = "",
) -> HataKaydi:
    ziyaretci = _ziyaretci_kilitle(musteri=musteri, ziyaretci_id=ziyaretci_id)
    kayit = HataKaydi.objects.create(
        musteri=musteri, ziyaretci=ziyaretci, mesaj=mesaj, kaynak=kaynak, satir=satir, stack=stack, url=url, tarayici=tarayici
    )
    _eskileri_sil(HataKaydi, ziyaretci=ziyaretci)
    return kayit


def ekran_goruntusu_tipi(icerik: bytes) -> str:
    """PNG or JPEG by content (never by name or declared type), else 413/415."""
    if len(icerik) > EKRAN_GORUNTUSU_MAX_BAYT:
        mb = EKRAN_GORUNTUSU_MAX_BAYT // (1024 * 1024)
        raise DosyaCokBuyuk(gettext("Ekran görüntüsü en çok %(mb)s MB olabilir.") % {"mb": mb})
    tur = filetype.guess(icerik[:8192]) if icerik else None
    if tur is None or tur.mime not in EKRAN_GORUNTUSU_TIPLERI:
        raise DesteklenmeyenDosya(gettext("Ekran görüntüsü PNG ya da JPEG olmalı."))
    return tur.mime


def ekran_goruntusu_ekle(*, musteri: Musteri, ziyaretci_id: str, icerik: bytes, url: str = "") -> EkranGoruntusu:
    mime = ekran_goruntusu_tipi(icerik)
    kayit = EkranGoruntusu(musteri=musteri, mime_tipi=mime, boyut=len(icerik), url=url)
    try:
        with transaction.atomic():
            kayit.ziyaretci = _ziyaretci_kilitle(musteri=musteri, ziyaretci_id=ziyaretci_id)
            kayit.gorsel.save("ekran", ContentFile(icerik), save=False)
            kayit.save()
            silinecekler = _eskileri_sil(EkranGoruntusu, ziyaretci=kayit.ziyaretci)
            # Files of pruned rows go only once the prune is committed.
            transaction.on_commit(lambda: _dosyalari_sil(silinecekler))
    except Exception:
        # The row never committed: its file would be an orphan nobody can reach.
        if kayit.gorsel.name:
            _dosyalari_sil([kayit.gorsel.name])
        raise
    return kayit


def _dosyalari_sil(adlar: list[str]) -> None:
    for ad in adlar:
        try:
            default_storage.delete(ad)
        except OSError:
            logger.warning("Ekran görüntüsü dosyası silinemedi: %s", ad)

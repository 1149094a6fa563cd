"""A tenant's routing, working-hours and timed-rule settings (CONTRACT 15): the one check of a
value, shared by the settings API (`/operator/tenants/{id}/ayarlar`) and the portal page
(`/portal/yonlendirme`), and the one reading of the stored values (`ayarlar_oku`), which reads a
stored value that no longer validates as its default, so a stored value never breaks a read.
"""
from collections.abc import Callable
from datetime import datetime

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from supportdesk.core.fields import utc_iso
from supportdesk.core.girdi import saklanabilir_metin_mi

from .models import Musteri
from .takvim import VARSAYILAN_SAAT_DILIMI, Takvim, calisma_saatleri_hatasi, saat_dilimi_hatasi, tatiller_hatasi

METIN_EN_COK = 500


def _tam_sayi(alt: int, ust: int, *, bos_olur: bool) -> Callable[[object], str | None]:
    def denetle(deger) -> str | None:
        if deger is None and bos_olur:
            return None
        if isinstance(deger, bool) or not isinstance(deger, int) or not alt <= deger <= ust:
            if bos_olur:
                return _("%(alt)s ile %(ust)s arasında bir tam sayı olmalı (boş: kapalı).") % {"alt": alt, "ust": ust}
            return _("%(alt)s ile %(ust)s arasında bir tam sayı olmalı.") % {"alt": alt, "ust": ust}
        return None
    return denetle


def _secenek(degerler: list[str]) -> Callable[[object], str | None]:
    def denetle(deger) -> str | None:
        if deger not in degerler:
            return _("Geçerli değerler: %(degerler)s.") % {"degerler": ", ".join(degerler)}
        return None
    return denetle


def _metin(deger) -> str | None:
    if not isinstance(deger, str):
        return _("Metin olmalı.")
    if len(deger) > METIN_EN_COK:
        return _("En çok %(sayi)s karakter olabilir.") % {"sayi": METIN_EN_COK}
    if not saklanabilir_metin_mi(deger):  # NUL, or a lone surrogate the driver cannot encode (was a 500)
        return _("Geçersiz karakter içeriyor.")
    return None


# field -> (check, default), in the contract's order
ALANLAR: dict[str, tuple[Callable[[object], str | None], object]] = {
    "saat_dilimi": (saat_dilimi_hatasi, VARSAYILAN_SAAT_DILIMI),
    "atama_modu": (_secenek(Musteri.AtamaModu.values), Musteri.AtamaModu.MANUEL.value),
    "calisma_saatleri": (calisma_saatleri_hatasi, None),
    "tatiller": (tatiller_hatasi, []),
    "mesai_disi_mesaji": (_metin, ""),
    "bekleme_zaman_asimi_dk": (_tam_sayi(1, 1440, bos_olur=False), 10),
    "sessiz_kapatma_dk": (_tam_sayi(5, 10080, bos_olur=True), 30),
    "yeniden_atama_dk": (_tam_sayi(1, 240, bos_olur=True), None),
    "saklama_gun": (_tam_sayi(30, 3650, bos_olur=True), None),
    "dil": (_secenek(Musteri.Dil.values), Musteri.Dil.TR.value),
}


def ayar_hatalari(veri) -> dict[str, str]:
    """{field: message} for every bad field of a (partial) change; {} when all are good."""
    if not isinstance(veri, dict):
        return {"genel": _("Ayarlar bir JSON nesnesi olmalı.")}
    hatalar = {}
    for alan, deger in veri.items():
        if alan not in ALANLAR:
            hatalar[str(alan)[:64]] = _("Bilinmeyen alan.")
            continue
        mesaj = ALANLAR[alan][0](deger)
        if mesaj:
            hatalar[alan] = mesaj
    return hatalar


def ayar_degeri(musteri: Musteri, alan: str):
    """The stored value of `alan`, or its default when the stored value does not validate."""
    denetle, varsayilan = ALANLAR[alan]
    deger = getattr(musteri, alan)
    if denetle(deger) is not None:
        return list(varsayilan) if isinstance(varsayilan, list) else varsayilan
    return deger


def ayarlar_oku(musteri: Musteri) -> dict:
    """`{"ayarlar": ...}`'s object: every field of CONTRACT 15, each valid."""
    return {alan: ayar_degeri(musteri, alan) for alan in ALANLAR}


# The service's own closed text (`mesai_disi_mesaji` empty), and the ticket offer after it. Lazy
# (CONTRACT 19): each is worded in the language active where it is used (a chat's `sistem`
# message is written under `dilde(oturum.dil)`); `str()` one to keep it.
MESAI_DISI_METNI = gettext_lazy("Şu an mesai saatlerimiz dışındayız.")
TICKET_TEKLIFI = gettext_lazy("Beklemek yerine bir destek talebi bırakabilirsiniz; size e-postayla döneriz.")


def takvim(musteri: Musteri) -> Takvim:
    return Takvim.musteriden(musteri)


def bolge(musteri: Musteri):
    """The tenant's zone (ZoneInfo; the default for an invalid stored name): its days are counted in it."""
    return takvim(musteri).bolge


def kapali_metni(musteri: Musteri) -> str:
    """The tenant's own closed text, else the service's in the active language (a plain str)."""
    return ayar_degeri(musteri, "mesai_disi_mesaji") or str(MESAI_DISI_METNI)


def mesai_verisi(musteri: Musteri, simdi: datetime | None = None) -> dict:
    """`data.mesai` of the widget's answers (CONTRACT 15), from the tenant row alone (no query):
    `acik`, `sonraki_acilis` (null when open or none within 14 days), `mesaj` ("" when open)."""
    simdi = simdi or timezone.now()
    t = takvim(musteri)
    acik = t.acik_mi(simdi)
    return {
        "acik": acik,
        "sonraki_acilis": None if acik else utc_iso(t.sonraki_acilis(simdi)),
        "mesaj": "" if acik else kapali_metni(musteri),
    }

"""CSV export and import of a tenant's contacts (CONTRACT 25, the portal's `/portal/kisiler`).

Export goes through `supportdesk.core.tablo.GuvenliYazici` like every CSV of the service (CONTRACT
13): a name typed as `=HYPERLINK(...)` reaches a spreadsheet as text, never as a formula. Import
reads the same columns; the `'` that export put before such a cell is taken off again, so an
exported file imported back changes nothing. A row is matched by `id` (a contact of this tenant),
else by e-mail, else it makes a new contact; `id`, `ziyaretci_idleri` and the figures are read-only.
The whole file is checked first and written in one transaction: one bad row changes nothing.
"""
import csv
import io
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from kisiler import services
from kisiler.models import Kisi, NitelikTanimi, eposta_anahtari
from kisiler.selectors import nitelik_list
from supportdesk.core.exceptions import GecersizIstek
from supportdesk.core.fields import utc_iso
from supportdesk.core.tablo import FORMUL_BASLARI, GuvenliYazici

from .kisi_ozeti import kisi_verileri

SABIT_SUTUNLAR = ["id", "ad", "email", "telefon", "sirket", "ziyaretci_idleri", "ilk_gorulme", "son_gorulme",
                  "oturum_sayisi", "ticket_sayisi"]
YAZILAN_SUTUNLAR = ("ad", "email", "telefon", "sirket")
PARCA = 500  # contacts read per round of queries while exporting
SATIR_MAX = 5000  # rows of one import
DOSYA_MAX = 2 * 1024 * 1024
EVET = {"evet", "true", "1", "yes", "e"}
HAYIR = {"hayir", "hayır", "false", "0", "no", "h"}  # ceviri: yok


def disa_aktar(*, musteri_id: int, hedef) -> None:
    """Write every contact of the tenant to `hedef` (a file-like object), oldest first."""
    tanimlar = nitelik_list(musteri_id=musteri_id)
    w = GuvenliYazici(hedef)
    w.writerow([*SABIT_SUTUNLAR, *(t.anahtar for t in tanimlar)])
    son_id = 0
    while True:
        parca = list(Kisi.objects.kapsamda([musteri_id]).filter(pk__gt=son_id).order_by("id")[:PARCA])
        if not parca:
            return
        for k in kisi_verileri(parca):
            w.writerow([k["id"], k["ad"], k["email"], k["telefon"], k["sirket"], " ".join(k["ziyaretci_idleri"]),
                        utc_iso(k["ilk_gorulme"]), utc_iso(k["son_gorulme"]), k["oturum_sayisi"], k["ticket_sayisi"],
                        *(_hucre(k["nitelikler"].get(t.anahtar)) for t in tanimlar)])
        son_id = parca[-1].pk


def _hucre(deger):
    if deger is None:
        return ""
    if isinstance(deger, bool):
        return "evet" if deger else "hayir"
    return deger


@dataclass
class IceAktarimSonucu:
    eklenen: int = 0
    guncellenen: int = 0
    hatalar: list[str] = field(default_factory=list)


def _metin_coz(deger: str) -> str:
    """A cell as the user meant it: the `'` our export put before a formula-like cell goes."""
    if deger.startswith("'") and deger[1:].startswith(FORMUL_BASLARI):
        return deger[1:]
    return deger


def _nitelik_coz(tanim: NitelikTanimi, deger: str):
    """A cell of an attribute column in its declared type (an empty cell removes the value)."""
    if deger == "":
        return None
    if tanim.tur == NitelikTanimi.Tur.SAYI:
        try:
            sayi = float(deger.replace(",", "."))
        except ValueError:
            return deger  # the service refuses it with the type's message
        return int(sayi) if sayi.is_integer() and "." not in deger and "," not in deger else sayi
    if tanim.tur == NitelikTanimi.Tur.EVET_HAYIR:
        kucuk = deger.strip().lower()
        return True if kucuk in EVET else False if kucuk in HAYIR else deger
    return deger


def _satirlar(icerik: bytes) -> list[dict]:
    if len(icerik) > DOSYA_MAX:
        raise GecersizIstek(alanlar={"dosya": _("Dosya en çok 2 MB olabilir.")})
    try:
        metin = icerik.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise GecersizIstek(alanlar={"dosya": _("Dosya UTF-8 kodlu bir CSV olmalı.")}) from None
    try:
        ayirici = csv.Sniffer().sniff(metin[:4096], delimiters=",;").delimiter
    except csv.Error:
        ayirici = ","
    okuyucu = csv.DictReader(io.StringIO(metin), delimiter=ayirici)
    if not okuyucu.fieldnames or not {"ad", "email"} & set(okuyucu.fieldnames):
        raise GecersizIstek(alanlar={"dosya": _("İlk satır sütun adları olmalı (en az 'ad' ya da 'email').")})
    satirlar = list(okuyucu)
    if len(satirlar) > SATIR_MAX:
        raise GecersizIstek(alanlar={"dosya": _("En çok %(sayi)s satır içe aktarılabilir.") % {"sayi": SATIR_MAX}})
    return satirlar


def ice_aktar(*, musteri_id: int, icerik: bytes) -> IceAktarimSonucu:
    """Import a CSV of contacts (see the module's docstring). Raises `GecersizIstek` for an unreadable
    file; bad rows come back in `hatalar` (with their line numbers) and nothing is written."""
    satirlar = _satirlar(icerik)
    tanimlar = {t.anahtar: t for t in nitelik_list(musteri_id=musteri_id)}
    sonuc = IceAktarimSonucu()
    mevcut = {k.pk: k for k in Kisi.objects.kapsamda([musteri_id]).filter(
        pk__in=[int(s["id"]) for s in satirlar if (s.get("id") or "").isdigit() and len(s["id"]) < 19])}
    epostalar = {eposta_anahtari(s.get("email")) for s in satirlar} - {""}
    eposta_ile: dict[str, Kisi] = {}
    for k in Kisi.objects.kapsamda([musteri_id]).filter(email_anahtari__in=epostalar).order_by("-id"):
        eposta_ile[k.email_anahtari] = k  # the oldest with that e-mail wins, as a signed identity joins it
    yazilacak: list[tuple[Kisi | None, dict]] = []
    for no, satir in enumerate(satirlar, start=2):
        alanlar = {a: _metin_coz(satir[a] or "") for a in YAZILAN_SUTUNLAR if a in satir and satir[a] is not None}
        nitelikler = {a: _nitelik_coz(tanimlar[a], _metin_coz(satir[a] or "")) for a in tanimlar if a in satir}
        if nitelikler:
            alanlar["nitelikler"] = nitelikler
        kisi = mevcut.get(int(satir["id"])) if (satir.get("id") or "").isdigit() and len(satir["id"]) < 19 else None
        if kisi is None and alanlar.get("email"):
            kisi = eposta_ile.get(eposta_anahtari(alanlar["email"]))
        try:
            temiz = services.kisi_alanlari_dogrula(musteri_id=musteri_id, kisi=kisi, alanlar=alanlar)
        except GecersizIstek as e:
            ayrinti = "; ".join(f"{a}: {m}" for a, m in (e.alanlar or {}).items())
            sonuc.hatalar.append(_("Satır %(no)s: %(ayrinti)s") % {"no": no, "ayrinti": ayrinti})
            continue
        if kisi is None and not (temiz.get("ad") or temiz.get("email")):
            sonuc.hatalar.append(_("Satır %(no)s: ad ya da e-posta gerekli.") % {"no": no})
            continue
        yazilacak.append((kisi, temiz))
    if sonuc.hatalar:
        return sonuc
    an = timezone.now()
    with transaction.atomic():
        for kisi, temiz in yazilacak:
            if kisi is None:
                kisi = Kisi(musteri_id=musteri_id, olusturulma=an)
                sonuc.eklenen += 1
                if temiz.get("email"):
                    eposta_ile.setdefault(eposta_anahtari(temiz["email"]), kisi)
            else:
                sonuc.guncellenen += 1
            for alan, deger in temiz.items():
                setattr(kisi, alan, deger)
            kisi.email_anahtari = eposta_anahtari(kisi.email)
            kisi.guncellenme = an
            kisi.save()
    return sonuc

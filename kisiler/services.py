"""Writes of contacts (CONTRACT 25). Each validates before it saves and runs in one transaction.

Chats, tickets and context belong to visitor ids, and a contact is the set of its ids
(`KisiZiyaretci`): moving an id moves everything of it, so a merge touches only those rows.
"""
import math
import re
from datetime import date

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from supportdesk.core.exceptions import Bulunamadi, GecersizIstek
from supportdesk.core.girdi import email_dogrula, metin_dogrula, saklanabilir_metin_mi
from supportdesk.core.olaylar import yayinla

from .models import AD_MAX, SIRKET_MAX, TELEFON_MAX, Kisi, KisiZiyaretci, NitelikTanimi, eposta_anahtari

NITELIK_MAX = 50  # declarations per tenant
SECENEK_MAX = 50
METIN_MAX = 500
_ANAHTAR = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
_TELEFON = re.compile(r"^[0-9+()\-. ]*$")


# --- the hot path: a visitor's first chat, ticket or signed identity --------------------------
def kisi_ziyaretci_bagla(*, musteri_id: int, ziyaretci_id: str, ad: str = "", email: str = "") -> int:
    """The contact of a visitor id, made on its first chat or ticket (CONTRACT 25). Returns its id.

    A known visitor costs one indexed read (the common case: every later chat and ticket); a new
    one a savepoint with two inserts. The unique index settles two racing first calls: the loser's
    savepoint (its contact too) is rolled back and it reads the winner's."""
    kisi_id = (KisiZiyaretci.objects.filter(musteri_id=musteri_id, ziyaretci_id=ziyaretci_id)
               .values_list("kisi_id", flat=True).first())
    if kisi_id is not None:
        return kisi_id
    return _yeni_kisi(musteri_id=musteri_id, ziyaretci_id=ziyaretci_id, ad=ad, email=email)


def _yeni_kisi(*, musteri_id: int, ziyaretci_id: str, ad: str, email: str) -> int:
    try:
        with transaction.atomic():
            kisi = Kisi.objects.create(musteri_id=musteri_id, ad=(ad or "")[:AD_MAX], email=email or "",
                                       email_anahtari=eposta_anahtari(email))
            KisiZiyaretci.objects.create(musteri_id=musteri_id, kisi=kisi, ziyaretci_id=ziyaretci_id)
            return kisi.pk
    except IntegrityError:
        return KisiZiyaretci.objects.get(musteri_id=musteri_id, ziyaretci_id=ziyaretci_id).kisi_id


@transaction.atomic
def kisi_kimlik_bagla(*, musteri_id: int, ziyaretci_id: str, email: str = "", ad: str = "") -> int:
    """A signed identity (customer-info or widget/init with the site's signature, CONTRACT 2a/6)
    makes the visitor's contact, and one with an e-mail joins the contact that has it (CONTRACT 25).

    The visitor's own contact is merged into the e-mail's when it has no e-mail of its own or the
    same one (it was the same person, not yet known); a contact with another e-mail keeps its other
    ids and only this id moves (the site vouches for who this visitor is now)."""
    email = (email or "").strip()
    anahtar = eposta_anahtari(email)
    bag = (KisiZiyaretci.objects.select_for_update().select_related("kisi")
           .filter(musteri_id=musteri_id, ziyaretci_id=ziyaretci_id).first())
    hedef = (Kisi.objects.select_for_update().filter(musteri_id=musteri_id, email_anahtari=anahtar).order_by("id").first()
             if anahtar else None)
    if bag is None:
        if hedef is None:
            return _yeni_kisi(musteri_id=musteri_id, ziyaretci_id=ziyaretci_id, ad=ad, email=email)
        KisiZiyaretci.objects.create(musteri_id=musteri_id, kisi=hedef, ziyaretci_id=ziyaretci_id)
        _bosluklari_doldur(hedef, ad=ad)
        return hedef.pk
    kendi = bag.kisi
    if hedef is None or hedef.pk == kendi.pk:
        _bosluklari_doldur(kendi, ad=ad, email=email)
        return kendi.pk
    if kendi.email_anahtari in ("", anahtar):
        _birlestir(hedef=hedef, kaynak=kendi)
    else:
        KisiZiyaretci.objects.filter(pk=bag.pk).update(kisi=hedef)
    _bosluklari_doldur(hedef, ad=ad)
    return hedef.pk


def _bosluklari_doldur(kisi: Kisi, **degerler: str) -> None:
    """What a visitor told about itself fills what the contact does not know yet; an operator's
    edit is never overwritten by it."""
    alanlar = []
    for alan, deger in degerler.items():
        if deger and not getattr(kisi, alan):
            setattr(kisi, alan, deger[:AD_MAX] if alan == "ad" else deger)
            alanlar.append(alan)
    if "email" in alanlar:
        kisi.email_anahtari = eposta_anahtari(kisi.email)
        alanlar.append("email_anahtari")
    if alanlar:
        kisi.guncellenme = timezone.now()
        kisi.save(update_fields=[*alanlar, "guncellenme"])


# --- erasure (CONTRACT 18) ----------------------------------------------------------------------
def kisi_ziyaretci_sil(*, musteri_id: int, ziyaretci_id: str) -> None:
    """An erased visitor id leaves its contact; the contact goes with it when it has no other id."""
    kisi_id = (KisiZiyaretci.objects.filter(musteri_id=musteri_id, ziyaretci_id=ziyaretci_id)
               .values_list("kisi_id", flat=True).first())
    if kisi_id is None:
        return
    KisiZiyaretci.objects.filter(musteri_id=musteri_id, ziyaretci_id=ziyaretci_id).delete()
    if not KisiZiyaretci.objects.filter(kisi_id=kisi_id).exists():
        Kisi.objects.filter(pk=kisi_id, musteri_id=musteri_id).delete()


# --- edits by operators ------------------------------------------------------------------------
def _metin(deger, *, alan: str, en_cok: int) -> str:
    return metin_dogrula(deger, alan=alan, en_cok=en_cok, tek_satir=True)


def telefon_dogrula(deger) -> str:
    telefon = _metin(deger, alan="telefon", en_cok=TELEFON_MAX)
    if not _TELEFON.match(telefon):
        raise GecersizIstek(alanlar={"telefon": _("Yalnızca rakam, boşluk ve + ( ) - . olabilir.")})
    return telefon


def nitelik_degeri_dogrula(tanim: NitelikTanimi, deger):
    """A value of a declared attribute in its type; `None` removes the value."""
    if deger is None:
        return None
    tur = tanim.tur
    if (tur == NitelikTanimi.Tur.METIN and isinstance(deger, str) and len(deger) <= METIN_MAX
            and saklanabilir_metin_mi(deger)):
        return deger.strip()
    if tur == NitelikTanimi.Tur.SAYI and isinstance(deger, (int, float)) and not isinstance(deger, bool):
        if math.isfinite(deger):  # JSON's NaN and Infinity are no numbers
            return deger
    if tur == NitelikTanimi.Tur.EVET_HAYIR and isinstance(deger, bool):
        return deger
    if tur == NitelikTanimi.Tur.TARIH and isinstance(deger, str) and len(deger) == 10:
        try:
            return date.fromisoformat(deger).isoformat()
        except ValueError:
            pass
    if tur == NitelikTanimi.Tur.SECIM and isinstance(deger, str) and deger in tanim.secenekler:
        return deger
    return _tur_hatasi(tanim)


def _tur_hatasi(tanim: NitelikTanimi):
    mesajlar = {
        "metin": _("En çok %(sayi)s karakterlik metin olmalı.") % {"sayi": METIN_MAX},
        "sayi": _("Sayı olmalı."),
        "tarih": _("YYYY-AA-GG biçiminde bir tarih olmalı."),
        "evet_hayir": _("true ya da false olmalı."),
        "secim": _("Şunlardan biri olmalı: %(degerler)s.") % {"degerler": ", ".join(tanim.secenekler)},
    }
    raise GecersizIstek(alanlar={f"nitelikler.{tanim.anahtar}": mesajlar[tanim.tur]})


def _nitelikler_dogrula(*, musteri_id: int, mevcut: dict, degisiklik) -> dict:
    if not isinstance(degisiklik, dict):
        raise GecersizIstek(alanlar={"nitelikler": _("Nesne olmalı.")})
    tanimlar = {t.anahtar: t for t in NitelikTanimi.objects.kapsamda([musteri_id])}
    bilinmeyen = sorted(set(degisiklik) - set(tanimlar))
    if bilinmeyen:
        raise GecersizIstek(alanlar={f"nitelikler.{a}": _("Bu projede tanımlı bir nitelik değil.") for a in bilinmeyen})
    sonuc = dict(mevcut)
    for anahtar, deger in degisiklik.items():
        deger = nitelik_degeri_dogrula(tanimlar[anahtar], deger)
        if deger is None:
            sonuc.pop(anahtar, None)
        else:
            sonuc[anahtar] = deger
    return sonuc


KISI_ALANLARI = ("ad", "email", "telefon", "sirket", "nitelikler")


def kisi_alanlari_dogrula(*, musteri_id: int, kisi: Kisi | None, alanlar: dict) -> dict:
    """The fields of a PATCH (or an imported row) checked and normalised; unknown keys are a 400."""
    bilinmeyen = sorted(set(alanlar) - set(KISI_ALANLARI))
    if bilinmeyen:
        raise GecersizIstek(alanlar={a: _("Bilinmeyen alan.") for a in bilinmeyen})
    temiz: dict = {}
    if "ad" in alanlar:
        temiz["ad"] = _metin(alanlar["ad"], alan="ad", en_cok=AD_MAX)
    if "email" in alanlar:
        temiz["email"] = email_dogrula(alanlar["email"])
    if "telefon" in alanlar:
        temiz["telefon"] = telefon_dogrula(alanlar["telefon"])
    if "sirket" in alanlar:
        temiz["sirket"] = _metin(alanlar["sirket"], alan="sirket", en_cok=SIRKET_MAX)
    if "nitelikler" in alanlar:
        temiz["nitelikler"] = _nitelikler_dogrula(musteri_id=musteri_id, mevcut=kisi.nitelikler if kisi else {},
                                                  degisiklik=alanlar["nitelikler"])
    return temiz


@transaction.atomic
def kisi_guncelle(*, kisi: Kisi, alanlar: dict) -> Kisi:
    temiz = kisi_alanlari_dogrula(musteri_id=kisi.musteri_id, kisi=kisi, alanlar=alanlar)
    for alan, deger in temiz.items():
        setattr(kisi, alan, deger)
    kisi.email_anahtari = eposta_anahtari(kisi.email)
    kisi.guncellenme = timezone.now()
    kisi.save()
    return kisi


# --- merge ---------------------------------------------------------------------------------------
def _birlestir(*, hedef: Kisi, kaynak: Kisi) -> list[str]:
    """Move the second contact's ids onto the first, fill what the first does not know from the
    second, and delete the second. Returns the ids that moved."""
    tasinan = list(KisiZiyaretci.objects.filter(kisi=kaynak).order_by("id").values_list("ziyaretci_id", flat=True))
    KisiZiyaretci.objects.filter(kisi=kaynak).update(kisi=hedef)
    for alan in ("ad", "email", "telefon", "sirket"):
        if not getattr(hedef, alan) and getattr(kaynak, alan):
            setattr(hedef, alan, getattr(kaynak, alan))
    hedef.email_anahtari = eposta_anahtari(hedef.email)
    hedef.nitelikler = {**kaynak.nitelikler, **hedef.nitelikler}
    hedef.olusturulma = min(hedef.olusturulma, kaynak.olusturulma)
    hedef.guncellenme = timezone.now()
    hedef.save()
    kaynak.delete()
    return tasinan


def kisi_birlestir(*, kisi: Kisi, kaynak: Kisi, kullanici_id: int | None = None, ip: str | None = None) -> Kisi:
    """Merge `kaynak` into `kisi` (CONTRACT 25): its visitor ids, so its chats, tickets and
    context, follow; it is gone; the audit log keeps `kisi_birlesti`. Both are of one tenant (the
    caller looked `kaynak` up in `kisi`'s)."""
    if kisi.pk == kaynak.pk:
        raise GecersizIstek(alanlar={"kisi_id": _("Bir kişi kendisiyle birleştirilemez.")})
    with transaction.atomic():
        # Both rows locked in id order, so two merges of the same pair cannot deadlock.
        kilitli = {k.pk: k for k in Kisi.objects.select_for_update().filter(pk__in=[kisi.pk, kaynak.pk]).order_by("id")}
        if len(kilitli) != 2:  # a merge that committed first took one of them
            raise Bulunamadi(_("Kişi bulunamadı."))
        kisi, kaynak = kilitli[kisi.pk], kilitli[kaynak.pk]
        kaynak_id = kaynak.pk
        tasinan = _birlestir(hedef=kisi, kaynak=kaynak)
        yayinla("kisi_birlesti", musteri_id=kisi.musteri_id, veri={
            "kisi_id": kisi.pk, "birlesen_kisi_id": kaynak_id, "ziyaretci_idleri": tasinan,
            "aktor_id": kullanici_id, "ip": ip})
    return kisi


# --- attribute declarations -------------------------------------------------------------------
def _tanim_dogrula(i: int, kayit) -> NitelikTanimi:
    yer = f"[{i}]"
    if not isinstance(kayit, dict):
        raise GecersizIstek(alanlar={yer: _("Nesne olmalı.")})
    bilinmeyen = sorted(set(kayit) - {"anahtar", "ad", "tur", "secenekler"})
    if bilinmeyen:
        raise GecersizIstek(alanlar={f"{yer}.{a}": _("Bilinmeyen alan.") for a in bilinmeyen})
    anahtar = kayit.get("anahtar")
    if not isinstance(anahtar, str) or not _ANAHTAR.match(anahtar):
        raise GecersizIstek(alanlar={f"{yer}.anahtar": _(
            "Küçük harfle başlayan, en çok 40 karakterlik a-z, 0-9 ve _ olmalı.")})
    ad = _metin(kayit.get("ad"), alan=f"{yer}.ad", en_cok=60)
    if not ad:
        raise GecersizIstek(alanlar={f"{yer}.ad": _("Zorunlu.")})
    tur = kayit.get("tur")
    if tur not in NitelikTanimi.Tur.values:
        raise GecersizIstek(alanlar={f"{yer}.tur": _("Şunlardan biri olmalı: %(degerler)s.") % {
            "degerler": ", ".join(NitelikTanimi.Tur.values)}})
    secenekler = kayit.get("secenekler")
    if tur == NitelikTanimi.Tur.SECIM:
        if (not isinstance(secenekler, list) or not 1 <= len(secenekler) <= SECENEK_MAX
                or any(not isinstance(s, str) or not s.strip() or len(s) > 60 or not saklanabilir_metin_mi(s)
                       for s in secenekler)
                or len(set(secenekler)) != len(secenekler)):
            raise GecersizIstek(alanlar={f"{yer}.secenekler": _(
                "1-%(sayi)s farklı, boş olmayan metin olmalı.") % {"sayi": SECENEK_MAX}})
    elif secenekler not in (None, []):
        raise GecersizIstek(alanlar={f"{yer}.secenekler": _("Yalnızca 'secim' türünde olabilir.")})
    return NitelikTanimi(anahtar=anahtar, ad=ad, tur=tur, secenekler=secenekler or [], sira=i)


def nitelik_tanimlarini_ayarla(*, musteri_id: int, tanimlar) -> list[NitelikTanimi]:
    """Replace the tenant's attribute declarations (CONTRACT 25). Values already stored under a
    key no longer declared stay in the row but are not shown (declaring it again shows them)."""
    if not isinstance(tanimlar, list) or len(tanimlar) > NITELIK_MAX:
        raise GecersizIstek(alanlar={"nitelikler": _("En çok %(sayi)s tanım içeren bir liste olmalı.") % {
            "sayi": NITELIK_MAX}})
    yeni = [_tanim_dogrula(i, k) for i, k in enumerate(tanimlar)]
    anahtarlar = [t.anahtar for t in yeni]
    if len(set(anahtarlar)) != len(anahtarlar):
        raise GecersizIstek(alanlar={"nitelikler": _("Her anahtar bir kez kullanılabilir.")})
    with transaction.atomic():
        NitelikTanimi.objects.kapsamda([musteri_id]).delete()
        for t in yeni:
            t.musteri_id = musteri_id
        NitelikTanimi.objects.bulk_create(yeni)
    return yeni

"""Service levels of tickets (CONTRACT 17): the tenant's policy, the three clocks of a ticket, the
`sla` object of the operator ticket shape, the list's filter and sort, and the sweep.

Every clock's state is stored on the ticket row (`Ticket.sla_*`), written by the ticket services
inside their transaction (the row is locked there), so reading a ticket's `sla`, filtering
`?sla=` and sorting `siralama=sla` need no query per ticket, and the sweep finds what is due with
indexed range scans.

A clock's stored state (`sla_<saat>_durum`):
- ``""``: no target (or, `sonraki`, no cycle yet); shown as null;
- `bekliyor`: running, `_vade` is its due time, `_uyari` when the warning is due (null once sent);
- `gecikti`: running and past its due time: the sweep has announced the breach; shown `ihlal`;
- `karsilandi` / `ihlal`: ended in time / late (`_vade` kept);
- `duraklatildi` (`cozum` only, while `beklemede`): `sla_cozum_gecen_sn` counted so far.

Time is counted by the tenant's calendar (`tenants.takvim.Takvim`) when the policy says
`mesai_icinde`, else as plain elapsed time. Each warning and breach is announced once per target
and cycle: the sweep claims due rows with `select_for_update(skip_locked=True)` and clears what it
claimed in the same transaction, so two sweeps at once announce each exactly once; a reply that
ends a clock locks the same row, so it never races the sweep either.
"""
import base64
import json
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from supportdesk.core.fields import utc_iso
from supportdesk.core.kurallar import kurallari_calistir
from supportdesk.core.olaylar import yayinla
from supportdesk.core.pagination import imlec_yap, sayfa_boyutu, sayfala
from tenants.etiketler import etiket_adlari
from tenants.takvim import Takvim

from .models import SlaPolitikasi, Ticket

SAATLER = ("ilk", "sonraki", "cozum")
# The clock's name in the API (the `sla` object's keys, the webhooks' `hedef`) and its target key.
HEDEF_ADLARI = {"ilk": "ilk_yanit", "sonraki": "sonraki_yanit", "cozum": "cozum"}
HEDEF_ALANLARI = {"ilk": "ilk_yanit_dk", "sonraki": "sonraki_yanit_dk", "cozum": "cozum_dk"}
ONCELIKLER = ("acil", "yuksek", "normal", "dusuk")

BEKLIYOR, GECIKTI, KARSILANDI, IHLAL, DURAKLATILDI = "bekliyor", "gecikti", "karsilandi", "ihlal", "duraklatildi"
CALISAN = (BEKLIYOR, GECIKTI)

VARSAYILAN = {"aktif": False, "mesai_icinde": True, "uyari_dk": 15, "chat_ilk_yanit_sn": None}
UYARI_DK_MAX = 10080
HEDEF_DK_MAX = 525600  # a year
CHAT_SN_MAX = 86400


def bos_hedefler() -> dict:
    return {o: {a: None for a in HEDEF_ALANLARI.values()} for o in ONCELIKLER}


# --- the policy -----------------------------------------------------------------------------------
def politika(musteri_id: int) -> SlaPolitikasi:
    """The tenant's policy, or an unsaved one with the defaults (one query)."""
    p = SlaPolitikasi.objects.filter(musteri_id=musteri_id).first()
    if p is None:
        p = SlaPolitikasi(musteri_id=musteri_id, hedefler=bos_hedefler(), **VARSAYILAN)
    return p


def politika_verisi(p: SlaPolitikasi) -> dict:
    hedefler = bos_hedefler()
    for o, h in (p.hedefler or {}).items():
        if o in hedefler and isinstance(h, dict):
            hedefler[o].update({a: h.get(a) for a in HEDEF_ALANLARI.values()})
    return {"aktif": p.aktif, "mesai_icinde": p.mesai_icinde, "uyari_dk": p.uyari_dk,
            "chat_ilk_yanit_sn": p.chat_ilk_yanit_sn, "hedefler": hedefler}


def _pozitif(deger, en_cok: int) -> bool:
    return deger is None or (type(deger) is int and 0 < deger <= en_cok)


def politika_dogrula(govde) -> tuple[dict, dict]:
    """(the fields named in a `PUT` body, errors by field). Only what is named changes; within
    `hedefler` down to one target of one priority."""
    hatalar: dict[str, str] = {}
    if not isinstance(govde, dict):
        return {}, {"govde": _("Bir JSON nesnesi bekleniyor.")}
    degisen: dict = {}
    for ad, deger in govde.items():
        if ad in ("aktif", "mesai_icinde"):
            if type(deger) is not bool:
                hatalar[ad] = _("true ya da false olmalı.")
            degisen[ad] = deger
        elif ad == "uyari_dk":
            if type(deger) is not int or not 0 <= deger <= UYARI_DK_MAX:
                hatalar[ad] = _("0 ile %(en_cok)d arasında bir tam sayı olmalı.") % {"en_cok": UYARI_DK_MAX}
            degisen[ad] = deger
        elif ad == "chat_ilk_yanit_sn":
            if not _pozitif(deger, CHAT_SN_MAX):
                hatalar[ad] = _("1 ile %(en_cok)d arasında bir tam sayı ya da null olmalı.") % {"en_cok": CHAT_SN_MAX}
            degisen[ad] = deger
        elif ad == "hedefler":
            if not isinstance(deger, dict):
                hatalar[ad] = _("Öncelik adlarıyla bir nesne olmalı.")
                continue
            for oncelik, alanlar in deger.items():
                yol = f"hedefler.{oncelik}"
                if oncelik not in ONCELIKLER:
                    hatalar[yol] = _("Bilinmeyen öncelik; geçerli olanlar: %(degerler)s.") % {"degerler": ", ".join(ONCELIKLER)}
                elif not isinstance(alanlar, dict):
                    hatalar[yol] = _("Hedef adlarıyla bir nesne olmalı.")
                else:
                    for alan, dk in alanlar.items():
                        if alan not in HEDEF_ALANLARI.values():
                            hatalar[f"{yol}.{alan}"] = _("Bilinmeyen hedef.")
                        elif not _pozitif(dk, HEDEF_DK_MAX):
                            hatalar[f"{yol}.{alan}"] = _("Pozitif bir tam sayı (dakika) ya da null olmalı.")
            degisen[ad] = deger
        else:
            hatalar[ad] = _("Bilinmeyen alan.")
    return degisen, hatalar


def politika_kaydet(*, musteri_id: int, degisen: dict, kullanici_id: int | None, ip: str | None) -> SlaPolitikasi:
    """Store a validated change (`politika_dogrula`), announce it (`sla_degisti`), and move the
    open tickets' warning times when `uyari_dk` changed."""
    with transaction.atomic():
        p, _olustu = SlaPolitikasi.objects.select_for_update().get_or_create(
            musteri_id=musteri_id, defaults={"hedefler": bos_hedefler(), **VARSAYILAN})
        onceki, veri = politika_verisi(p), politika_verisi(p)
        for ad, deger in degisen.items():
            if ad == "hedefler":
                for oncelik, alanlar in deger.items():
                    veri["hedefler"][oncelik].update(alanlar)
            else:
                veri[ad] = deger
        uyari_degisti = veri["uyari_dk"] != p.uyari_dk
        for ad in ("aktif", "mesai_icinde", "uyari_dk", "chat_ilk_yanit_sn", "hedefler"):
            setattr(p, ad, veri[ad])
        p.guncellenme = timezone.now()
        p.save()
        if SAATI_ETKILEYEN & degisen.keys():
            _acik_ticketlara_uygula(musteri_id)
        elif uyari_degisti:
            _uyarilari_kaydir(musteri_id, p.uyari_dk)
        yayinla("sla_degisti", musteri_id=musteri_id,
                veri={"musteri_id": musteri_id, "aktor_id": kullanici_id, "ip": ip,
                      "alanlar": sorted(degisen), "degerler": politika_farki(onceki, veri)})
    return p


def politika_farki(onceki: dict, yeni: dict) -> dict:
    """What a change really changed, old and new (issue 39.7, for the audit log): `{field: [old,
    new]}`, a target as `hedefler.<priority>.<target>`. A field sent with its current value is left
    out (the portal's form sends every field each time)."""
    fark = {ad: [onceki[ad], yeni[ad]] for ad in ("aktif", "mesai_icinde", "uyari_dk", "chat_ilk_yanit_sn")
            if onceki[ad] != yeni[ad]}
    for oncelik in ONCELIKLER:
        for alan in HEDEF_ALANLARI.values():
            eski, simdi = onceki["hedefler"][oncelik][alan], yeni["hedefler"][oncelik][alan]
            if eski != simdi:
                fark[f"hedefler.{oncelik}.{alan}"] = [eski, simdi]
    return fark


# A change of these restarts the open tickets' clocks by the new policy (CONTRACT 17, wave 4).
SAATI_ETKILEYEN = frozenset({"aktif", "mesai_icinde", "hedefler"})
ACIK_DURUMLAR = (Ticket.Durum.ACIK, Ticket.Durum.BEKLEMEDE)


def _acik_ticketlara_uygula(musteri_id: int) -> int:
    """The policy was switched on, off or changed: every open ticket of the tenant takes it, its
    clocks counted from their creation (`politika_degisti`). In the policy's transaction, each row
    locked (in id order, as the ticket services lock one)."""
    qs = (Ticket.objects.select_for_update(of=("self",)).select_related("musteri")
          .filter(musteri_id=musteri_id, durum__in=ACIK_DURUMLAR).order_by("id"))
    ticketlar = list(qs)
    if not ticketlar:
        return 0
    b = baglam(ticketlar[0].musteri)
    for t in ticketlar:
        politika_degisti(t, b)
        # One UPDATE a row: `bulk_update`'s CASE per field and row took 129 s for 2000 open tickets,
        # these 15 s (9 s of it the bare round trips) on a loaded test box (issue 38).
        t.save(update_fields=ALANLAR)
    return len(ticketlar)


def _uyarilari_kaydir(musteri_id: int, uyari_dk: int) -> None:
    # A warning not yet sent moves with `uyari_dk` (one UPDATE per clock, open tickets only).
    fark = timedelta(minutes=uyari_dk)
    acik = Ticket.objects.filter(musteri_id=musteri_id, sla_vade__isnull=False)
    acik.update(sla_uyari=F("sla_vade") - fark)
    for saat in SAATLER:
        acik.filter(**{f"sla_{saat}_uyari__isnull": False, f"sla_{saat}_durum": BEKLIYOR}).update(
            **{f"sla_{saat}_uyari": F(f"sla_{saat}_vade") - fark})


def hedef_dk(p: SlaPolitikasi, oncelik: str, saat: str) -> int | None:
    if not p.aktif:
        return None
    h = (p.hedefler or {}).get(oncelik) or {}
    dk = h.get(HEDEF_ALANLARI[saat])
    return dk if type(dk) is int and dk > 0 else None


# --- time ----------------------------------------------------------------------------------------
@dataclass
class Baglam:
    """What a ticket's clocks are computed with: its tenant's policy and calendar, and now."""

    politika: SlaPolitikasi
    takvim: Takvim | None  # None: plain elapsed time
    simdi: datetime

    def vade(self, baslangic: datetime, saniye: float) -> datetime:
        sure = timedelta(seconds=saniye)
        return self.takvim.vade(baslangic, sure) if self.takvim else baslangic + sure

    def gecen(self, baslangic: datetime, bitis: datetime) -> float:
        if bitis <= baslangic:
            return 0.0
        return (self.takvim.gecen(baslangic, bitis) if self.takvim else bitis - baslangic).total_seconds()

    def uyari(self, vade: datetime) -> datetime:
        return vade - timedelta(minutes=self.politika.uyari_dk)


def baglam(musteri, *, simdi: datetime | None = None) -> Baglam:
    """`musteri`: the tenant row (its calendar settings are read from it)."""
    p = politika(musteri.pk)
    takvim = Takvim.musteriden(musteri) if p.mesai_icinde else None
    return Baglam(politika=p, takvim=takvim, simdi=simdi or timezone.now())


# --- the clocks (called by tickets.services on the locked row, before its save) ------------------
ALANLAR = [
    "sla_oncelik", "ilk_operator_yaniti", "sla_vade", "sla_uyari", "sla_ihlal",
    *(f"sla_{s}_{a}" for s in SAATLER for a in ("durum", "vade", "uyari")),
    "sla_sonraki_baslangic", "sla_cozum_baslangic", "sla_cozum_gecen_sn", "sla_cozum_kalan_sn",
]


def _baslat(t: Ticket, b: Baglam, saat: str, baslangic: datetime, onceden_sn: float = 0.0) -> None:
    dk = hedef_dk(b.politika, t.oncelik, saat)
    if dk is None:
        setattr(t, f"sla_{saat}_durum", "")
        setattr(t, f"sla_{saat}_vade", None)
        setattr(t, f"sla_{saat}_uyari", None)
        return
    vade = b.vade(baslangic, dk * 60 - onceden_sn)  # None: the calendar never opens (never due)
    gecti = vade is not None and vade <= b.simdi
    setattr(t, f"sla_{saat}_durum", GECIKTI if gecti else BEKLIYOR)
    setattr(t, f"sla_{saat}_vade", vade)
    setattr(t, f"sla_{saat}_uyari", None if gecti or vade is None else b.uyari(vade))


def _bitir(t: Ticket, b: Baglam, saat: str) -> None:
    durum = getattr(t, f"sla_{saat}_durum")
    if durum not in CALISAN:
        return
    vade = getattr(t, f"sla_{saat}_vade")
    gec = durum == GECIKTI or (vade is not None and vade < b.simdi)
    if durum == BEKLIYOR and gec:
        _ihlal_yayinla(t, saat)  # late and the sweep has not seen it yet: announced here, once
    setattr(t, f"sla_{saat}_durum", IHLAL if gec else KARSILANDI)
    setattr(t, f"sla_{saat}_uyari", None)


def _ozetle(t: Ticket, b: Baglam) -> None:
    vadeler = [getattr(t, f"sla_{s}_vade") for s in SAATLER
               if getattr(t, f"sla_{s}_durum") in CALISAN and getattr(t, f"sla_{s}_vade") is not None]
    t.sla_vade = min(vadeler) if vadeler else None
    t.sla_uyari = b.uyari(t.sla_vade) if t.sla_vade else None
    t.sla_ihlal = any(getattr(t, f"sla_{s}_durum") in (GECIKTI, IHLAL) for s in SAATLER) or (
        t.sla_cozum_durum == DURAKLATILDI and t.sla_ihlal)
    t.sla_oncelik = t.oncelik
    # A paused `cozum` keeps the time it had left (CONTRACT 17, wave 4): by the current target, as
    # its resumption would count it (negative: paused late).
    dk = hedef_dk(b.politika, t.oncelik, "cozum") if t.sla_cozum_durum == DURAKLATILDI else None
    t.sla_cozum_kalan_sn = None if dk is None else dk * 60 - t.sla_cozum_gecen_sn


def olusturuldu(t: Ticket, b: Baglam) -> None:
    """A new ticket (not saved yet): `ilk` and `cozum` start at its creation."""
    _baslat(t, b, "ilk", t.olusturulma)
    _baslat(t, b, "cozum", t.olusturulma)
    t.sla_cozum_baslangic = t.olusturulma if t.sla_cozum_durum else None
    t.sla_cozum_gecen_sn = 0
    _ozetle(t, b)


def operator_yanitladi(t: Ticket, b: Baglam) -> None:
    """An operator reply that is not a note: ends `ilk` (the first) and a running `sonraki` cycle."""
    if t.ilk_operator_yaniti is None:
        t.ilk_operator_yaniti = b.simdi
    _bitir(t, b, "ilk")
    _bitir(t, b, "sonraki")
    _ozetle(t, b)


def ziyaretci_yanitladi(t: Ticket, b: Baglam) -> None:
    """A visitor reply after an operator reply starts a `sonraki` cycle (one at a time)."""
    if t.ilk_operator_yaniti is not None and t.sla_sonraki_durum not in CALISAN and t.durum in (
            Ticket.Durum.ACIK, Ticket.Durum.BEKLEMEDE):
        t.sla_sonraki_baslangic = b.simdi
        _baslat(t, b, "sonraki", b.simdi)
    _ozetle(t, b)


def durum_degisti(t: Ticket, b: Baglam, onceki: str) -> None:
    """`t.durum` changed from `onceki`: `cozum` pauses on `beklemede`, ends on `cozuldu` /
    `kapandi`, and runs again (where it stopped) when the ticket is open again."""
    yeni = t.durum
    if yeni == onceki:
        return
    D = Ticket.Durum
    if t.sla_cozum_durum in CALISAN and yeni != D.ACIK:
        t.sla_cozum_gecen_sn += int(b.gecen(t.sla_cozum_baslangic, b.simdi))
        t.sla_cozum_baslangic = None
        if yeni == D.BEKLEMEDE:
            t.sla_ihlal = t.sla_ihlal or t.sla_cozum_durum == GECIKTI
            t.sla_cozum_durum, t.sla_cozum_vade, t.sla_cozum_uyari = DURAKLATILDI, None, None
        else:
            _bitir(t, b, "cozum")
    elif t.sla_cozum_durum == DURAKLATILDI and yeni in (D.COZULDU, D.KAPANDI):
        dk = hedef_dk_kayitli(t, b)
        t.sla_cozum_durum = IHLAL if dk is not None and t.sla_cozum_gecen_sn > dk * 60 else KARSILANDI
    elif yeni == D.ACIK and onceki in (D.BEKLEMEDE, D.COZULDU) and t.sla_cozum_durum in (
            DURAKLATILDI, KARSILANDI, IHLAL):
        _baslat(t, b, "cozum", b.simdi, onceden_sn=t.sla_cozum_gecen_sn)
        t.sla_cozum_baslangic = b.simdi if t.sla_cozum_durum else None
        if t.sla_cozum_durum == GECIKTI:
            t.sla_cozum_uyari = None
    if yeni in (D.COZULDU, D.KAPANDI):
        # Nothing is owed on a solved ticket: a running reply clock stops without a verdict
        # (late already: it stays breached).
        for saat in ("ilk", "sonraki"):
            if getattr(t, f"sla_{saat}_durum") == GECIKTI:
                setattr(t, f"sla_{saat}_durum", IHLAL)
            elif getattr(t, f"sla_{saat}_durum") == BEKLIYOR:
                vade = getattr(t, f"sla_{saat}_vade")
                _bitir(t, b, saat) if vade is not None and vade < b.simdi else _temizle(t, saat)
    _ozetle(t, b)


def _temizle(t: Ticket, saat: str) -> None:
    setattr(t, f"sla_{saat}_durum", "")
    setattr(t, f"sla_{saat}_vade", None)
    setattr(t, f"sla_{saat}_uyari", None)


def hedef_dk_kayitli(t: Ticket, b: Baglam) -> int | None:
    return hedef_dk(b.politika, t.oncelik, "cozum")


def oncelik_degisti(t: Ticket, b: Baglam) -> bool:
    """The priority changed (`t.oncelik` != `t.sla_oncelik`): running clocks take the new
    priority's targets from their own start. True when anything changed (the caller saves)."""
    if t.sla_oncelik == t.oncelik:
        return False
    acik = t.durum in (Ticket.Durum.ACIK, Ticket.Durum.BEKLEMEDE)
    if t.sla_ilk_durum in CALISAN or (acik and t.sla_ilk_durum == "" and t.ilk_operator_yaniti is None):
        _baslat(t, b, "ilk", t.olusturulma)
    if t.sla_sonraki_durum in CALISAN:
        _baslat(t, b, "sonraki", t.sla_sonraki_baslangic)
    if t.sla_cozum_durum in CALISAN or (t.sla_cozum_durum == "" and t.durum == Ticket.Durum.ACIK):
        _baslat(t, b, "cozum", t.sla_cozum_baslangic or b.simdi, onceden_sn=t.sla_cozum_gecen_sn)
        t.sla_cozum_baslangic = (t.sla_cozum_baslangic or b.simdi) if t.sla_cozum_durum else None
    _ozetle(t, b)
    return True


def politika_degisti(t: Ticket, b: Baglam) -> None:
    """An open ticket under a new policy (`b`): each clock that is owed runs by the new targets
    from its own start, the first response and the resolution from the ticket's creation; a clock
    that ended keeps its verdict. A ticket `beklemede` with no resolution clock yet is paused with
    the time from its creation to its last change counted."""
    if t.ilk_operator_yaniti is None and t.sla_ilk_durum not in (KARSILANDI, IHLAL):
        _baslat(t, b, "ilk", t.olusturulma)
    if t.sla_sonraki_durum in CALISAN:
        _baslat(t, b, "sonraki", t.sla_sonraki_baslangic)
    if t.durum == Ticket.Durum.ACIK and t.sla_cozum_durum in (*CALISAN, ""):
        if not t.sla_cozum_durum:
            t.sla_cozum_baslangic, t.sla_cozum_gecen_sn = t.olusturulma, 0
        _baslat(t, b, "cozum", t.sla_cozum_baslangic, onceden_sn=t.sla_cozum_gecen_sn)
        t.sla_cozum_baslangic = t.sla_cozum_baslangic if t.sla_cozum_durum else None
    elif t.durum == Ticket.Durum.BEKLEMEDE and not t.sla_cozum_durum and hedef_dk(b.politika, t.oncelik, "cozum"):
        t.sla_cozum_durum, t.sla_cozum_vade, t.sla_cozum_uyari = DURAKLATILDI, None, None
        t.sla_cozum_gecen_sn, t.sla_cozum_baslangic = int(b.gecen(t.olusturulma, t.guncellenme)), None
    _ozetle(t, b)


def oncelik_izle(t: Ticket, b: Baglam) -> bool:
    """`t` (locked, in its transaction, before its save) got a new priority: when its clocks were
    set for another one, move them (`oncelik_degisti`). True when the caller is to save `ALANLAR`
    with the priority (one UPDATE: `tickets.services.ticket_duzenle`)."""
    if not t.sla_oncelik or t.sla_oncelik == t.oncelik:
        return False
    return oncelik_degisti(t, b)


# --- the `sla` object ---------------------------------------------------------------------------------
def sla_verisi(t: Ticket, *, simdi: datetime | None = None) -> dict:
    """`{"ilk_yanit", "sonraki_yanit", "cozum"}` from the row alone (CONTRACT 17)."""
    simdi = simdi or timezone.now()
    sonuc = {}
    for saat in SAATLER:
        durum = getattr(t, f"sla_{saat}_durum", "")
        vade = getattr(t, f"sla_{saat}_vade", None)
        if not durum:
            sonuc[HEDEF_ADLARI[saat]] = None
            continue
        if durum == DURAKLATILDI:
            sonuc[HEDEF_ADLARI[saat]] = {"hedef": None, "durum": DURAKLATILDI, "kalan_sn": t.sla_cozum_kalan_sn}
            continue
        kalan = int((vade - simdi).total_seconds()) if durum in CALISAN and vade is not None else None
        gorunen = IHLAL if durum == GECIKTI or (durum == BEKLIYOR and kalan is not None and kalan <= 0) else durum
        sonuc[HEDEF_ADLARI[saat]] = {"hedef": utc_iso(vade), "durum": gorunen, "kalan_sn": kalan}
    return sonuc


# --- the list: filter and sort ----------------------------------------------------------------------
SIRA = ("sla_vade", "id")  # `siralama=sla`: keyset order, ascending


def listeye_uygula(qs: QuerySet[Ticket], *, sla: str | None = None, simdi: datetime | None = None) -> QuerySet[Ticket]:
    """`?sla=ihlal|yaklasan` on the operator ticket list, in its one query (indexed:
    `ticket_sla_vade_idx`, `ticket_sla_ihlal_idx`); `siralama=sla` pages by `sla_sayfala`."""
    simdi = simdi or timezone.now()
    if sla == "ihlal":
        qs = qs.filter(Q(sla_ihlal=True) | Q(sla_vade__lte=simdi))
    elif sla == "yaklasan":
        qs = qs.filter(sla_uyari__lte=simdi, sla_vade__gt=simdi, sla_ihlal=False)
    return qs


SIRA_SONRA = ("guncellenme", "id")  # then the tickets without a running clock, newest first
_SONRA_IMI = "s"


def _imlec_parcasi(imlec: str | None) -> str | None:
    """The part of an `siralama=sla` cursor that continues the tickets without a clock (None: it
    continues those with one)."""
    if not imlec:
        return None
    try:
        ham = json.loads(base64.urlsafe_b64decode((imlec + "=" * (-len(imlec) % 4)).encode()).decode())
    except (ValueError, UnicodeDecodeError):
        return None  # not ours: the first part's decoding answers 400
    if isinstance(ham, list) and len(ham) == 2 and ham[0] == _SONRA_IMI and isinstance(ham[1], str):
        return ham[1]
    return None


def sla_sayfala(qs: QuerySet[Ticket], params) -> tuple[list[Ticket], str | None]:
    """`siralama=sla` (CONTRACT 17): the tickets with a running clock, nearest due time first
    (keyset `SIRA`, ascending), then the others in `guncellenme` order (keyset `SIRA_SONRA`, newest
    first): a sort never filters. A page may end in the first part and go on in the second; the
    second part's cursor carries its own (`["s", cursor]`)."""
    limit = sayfa_boyutu(params)
    imlec = params.get("cursor") or params.get("sonraki")
    sonra_imleci = _imlec_parcasi(imlec)
    satirlar: list[Ticket] = []
    if sonra_imleci is None:
        satirlar, sonraki = sayfala(qs.filter(sla_vade__isnull=False), params, alanlar=SIRA)
        if sonraki is not None:
            return satirlar, sonraki
        sonra_imleci = ""
    kalan = limit - len(satirlar)
    digerleri = qs.filter(sla_vade__isnull=True)
    if kalan == 0:
        return satirlar, (imlec_yap([_SONRA_IMI, ""]) if digerleri.exists() else None)
    ek, sonraki = sayfala(digerleri, {"limit": kalan, "cursor": sonra_imleci}, alanlar=SIRA_SONRA, azalan=True)
    return satirlar + ek, (None if sonraki is None else imlec_yap([_SONRA_IMI, sonraki]))


# --- the sweep ----------------------------------------------------------------------------------------
PARTI = 500


def _ihlal_yayinla(t: Ticket, saat: str) -> None:
    yayinla("sla_ihlal", musteri_id=t.musteri_id, veri=_olay_verisi(t, saat, getattr(t, f"sla_{saat}_vade")))


def _olay_verisi(t: Ticket, saat: str, son_zaman: datetime) -> dict:
    return {"ticket_id": t.id, "musteri_id": t.musteri_id, "hedef": HEDEF_ADLARI[saat],
            "son_zaman": utc_iso(son_zaman), "operator_id": t.operator_id,
            "etiketler": etiket_adlari(t),  # CONTRACT 16: a ticket event carries its label names
            "ekip_id": t.ekip_id}  # CONTRACT 22: and its team


_TARAMA_ALANLARI = ("id", "musteri_id", "operator_id", "ekip_id", "sla_ilk_vade", "sla_sonraki_vade", "sla_cozum_vade",
                    "sla_vade", "sla_ilk_durum", "sla_sonraki_durum", "sla_cozum_durum")


def tara(*, simdi: datetime | None = None, parti: int = PARTI) -> dict:
    """One run of the sweep: every warning due (`sla_uyari`) and every breach due (`sla_ihlal`),
    each announced once. Batches of `parti` rows, each its own transaction; rows another sweep
    holds are skipped (it announces them)."""
    simdi = simdi or timezone.now()
    sayilar = {"uyari": 0, "ihlal": 0}
    for saat in SAATLER:
        while (n := _uyari_partisi(saat, simdi, parti)):
            sayilar["uyari"] += n
        while (n := _ihlal_partisi(saat, simdi, parti)):
            sayilar["ihlal"] += n
    return sayilar


def _uyari_partisi(saat: str, simdi: datetime, parti: int) -> int:
    uyari = f"sla_{saat}_uyari"
    with transaction.atomic():
        rows = list(Ticket.objects.select_for_update(skip_locked=True, of=("self",))
                    .filter(**{f"{uyari}__lte": simdi, f"sla_{saat}_durum": BEKLIYOR, f"sla_{saat}_vade__gt": simdi})
                    .only(*_TARAMA_ALANLARI).order_by(uyari)[:parti])
        if not rows:
            return 0
        Ticket.objects.filter(pk__in=[t.pk for t in rows]).update(**{uyari: None})
        for t in rows:
            yayinla("sla_uyari", musteri_id=t.musteri_id, veri=_olay_verisi(t, saat, getattr(t, f"sla_{saat}_vade")))
            # CONTRACT 23: the tenant's rules for the warning, in the sweep's transaction.
            kurallari_calistir("sla_uyari", musteri_id=t.musteri_id, tur="ticket", nesne_id=t.pk)
    return len(rows)


def _ihlal_partisi(saat: str, simdi: datetime, parti: int) -> int:
    vade = f"sla_{saat}_vade"
    with transaction.atomic():
        rows = list(Ticket.objects.select_for_update(skip_locked=True, of=("self",))
                    .filter(**{f"{vade}__lte": simdi, f"sla_{saat}_durum": BEKLIYOR})
                    .only(*_TARAMA_ALANLARI).order_by(vade)[:parti])
        if not rows:
            return 0
        Ticket.objects.filter(pk__in=[t.pk for t in rows]).update(
            **{f"sla_{saat}_durum": GECIKTI, f"sla_{saat}_uyari": None}, sla_ihlal=True)
        for t in rows:
            _ihlal_yayinla(t, saat)
    return len(rows)

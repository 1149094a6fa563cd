"""The rules' engine (CONTRACT 23), called by the chat and ticket actions in their own transaction
(`supportdesk.core.kurallar.kurallari_calistir`).

For event `olay` on one chat or ticket, the tenant's active rules for it (this process's compiled
copy under the tenant's rules generation, `onbellek`: no query) run in `sira` order: the conditions
are checked (each compiled once into a predicate, `kosul_derle`; the event's fields folded once per
event, `Baglam.katli`: Turkish folding both ways; the rules sharing their first condition's field
and `esit`/`icerir`/`baslar` tested as one group first, `kosullar.OlayKurallari`), and when all
hold, the actions run one by one, each in a savepoint of its own, so a refused one (its service's
400/404/409) is recorded and undone alone while the rest still run. Every run is
recorded (`_kaydet`: `KuralCalismasi` per rule that ran its actions; the runs whose conditions
did not hold as one `TutmayanCalismalar` row per event, written after the commit, many events' in
one statement, `biriktir`).

Chains: an action is a change like any other and may trigger rules again; the rules running on
this call stack are kept in a context variable (`_zincir`): a rule never runs inside itself, and
nothing runs deeper than `DERINLIK` rules."""
from collections.abc import Sequence
from contextvars import ContextVar

from django.db import transaction
from django.utils import timezone

from chat.models import Oturum
from context.models import SayfaGoruntuleme
from supportdesk.core.exceptions import ApiHatasi
from supportdesk.core.katlama import katla
from tenants.ayarlar import takvim
from tenants.models import Etiket, Musteri
from tickets.models import Ticket

from . import biriktir, eylemler, onbellek, sorgular
from .kosullar import OlayKurallari, kosul_derle
from .models import KuralCalismasi

DERINLIK = 3
_zincir: ContextVar[tuple[int, ...]] = ContextVar("kural_zinciri", default=())
_SATIR_ALANLARI = ("kanal", "dil", "email", "ekip_id", "ziyaretci_id")


class OnDegerlendirme:
    """`supportdesk.core.kurallar.kurallari_on_degerlendir`'s answer."""

    __slots__ = ("kurallar", "hedef", "musteri_id", "eslesen")

    def __init__(self, *, kurallar: OlayKurallari, baglam: "Baglam", hedef: str):
        self.kurallar, self.hedef, self.musteri_id = kurallar, hedef, baglam.musteri_id
        self.eslesen = kurallar.biri_tutar(baglam)

    def kaydet(self) -> None:
        # `idler`: the rules' ids as compiled (a tuple, shared by every event: nothing built per message).
        _kaydet([], kosul_tutmadi=self.kurallar.idler, hedef=self.hedef, musteri_id=self.musteri_id)


def _kaydet(kayitlar: list[KuralCalismasi], *, kosul_tutmadi: Sequence[int], hedef: str, musteri_id: int) -> None:
    """The runs of one event. The rules whose conditions did not hold: one row for the event naming
    them (`TutmayanCalismalar`), noted and written after the commit with other events'
    (`biriktir`), or, with `KURAL_BIRIKTIRME_SANIYE=0`, by one short statement here
    (`sorgular.kosul_tutmadi_yaz`). The rest (`uygulandi`, `hata`): one INSERT through the ORM's
    `_insert`, not `bulk_create` (outside a transaction that wraps its statement in BEGIN/COMMIT,
    two more round trips; the rows' ids are never read back)."""
    if kosul_tutmadi:
        zaman = timezone.now()
        if biriktir.biriktiriliyor():
            biriktir.kaydet(kural_idleri=kosul_tutmadi, hedef=hedef, zaman=zaman, musteri_id=musteri_id)
        else:
            sorgular.kosul_tutmadi_yaz([(kosul_tutmadi, hedef, zaman, musteri_id)])
    if kayitlar:
        alanlar = [f for f in KuralCalismasi._meta.concrete_fields if not f.primary_key]
        KuralCalismasi.objects._insert(kayitlar, fields=alanlar)  # type: ignore[attr-defined]


def on_degerlendir(olay: str, *, musteri_id: int, tur: str, nesne_id: int, metin: str | None = None):
    if _zincir.get():
        return None  # only for a change made by a request, not inside a rule's own actions
    kurallar = onbellek.olay_kurallari(musteri_id, olay)
    if not kurallar:
        return None
    baglam = Baglam(musteri_id=musteri_id, tur=tur, nesne_id=nesne_id, metin=metin, etiket=None, nesne=None)
    return OnDegerlendirme(kurallar=kurallar, baglam=baglam, hedef=f"{tur}:{nesne_id}")


class Baglam:
    """What the conditions read of one chat or ticket, each read at most once and only when a
    condition asks for it (the text of the event and the object the caller holds cost nothing)."""

    def __init__(self, *, musteri_id: int, tur: str, nesne_id: int, metin: str | None, etiket: str | None, nesne):
        self.musteri_id, self.tur, self.nesne_id = musteri_id, tur, nesne_id
        self.metin, self.etiket, self.nesne = metin, etiket, nesne
        self._satir: dict | None = None
        self._okunan: dict[str, object] = {}
        self.etiket_adlari: list[str] | None = None  # the labels when the caller read them already
        self._katli: dict[str, list[str]] = {}

    def katli(self, alan: str) -> list[str]:
        """The field's value(s) folded (`katla`), once per event whatever number of conditions read it."""
        katli = self._katli.get(alan)
        if katli is None:
            deger = self.deger(alan)
            katli = self._katli[alan] = [katla(str(d)) for d in (
                deger if isinstance(deger, list) else [] if deger is None else [deger])]
        return katli

    def _model(self):
        return Oturum if self.tur == "chat" else Ticket

    def satir(self) -> dict:
        if self._satir is None:
            alanlar = (*_SATIR_ALANLARI, "konu", "oncelik") if self.tur == "ticket" else _SATIR_ALANLARI
            if self.nesne is not None:
                self._satir = {a: getattr(self.nesne, a) for a in alanlar}
            else:
                self._satir = (self._model().objects.kapsamda([self.musteri_id]).filter(pk=self.nesne_id)
                               .values(*alanlar).first() or {})
        return self._satir

    def _etiket_yolu(self) -> str:
        return "oturumlar__id" if self.tur == "chat" else "ticketlar__id"

    def deger(self, alan: str):
        if alan not in self._okunan:
            self._okunan[alan] = self._oku(alan)
        return self._okunan[alan]

    def _oku(self, alan: str):
        if alan in ("kanal", "dil", "ekip_id"):
            return self.satir().get(alan)
        if alan == "ziyaretci_email":
            return self.satir().get("email")
        if alan == "oncelik":
            return self.satir().get("oncelik") if self.tur == "ticket" else None
        if alan == "metin":
            if self.metin is not None:
                return self.metin
            return self.satir().get("konu", "") if self.tur == "ticket" else ""
        if alan == "etiket":
            adlar = self.etiket_adlari if self.etiket_adlari is not None else list(
                Etiket.objects.filter(**{self._etiket_yolu(): self.nesne_id}).values_list("ad", flat=True))
            return [*adlar, self.etiket] if self.etiket and self.etiket not in adlar else adlar
        if alan == "sayfa_url":
            return (SayfaGoruntuleme.objects.kapsamda([self.musteri_id])
                    .filter(ziyaretci__ziyaretci_id=self.satir().get("ziyaretci_id"))
                    .order_by("-zaman", "-id").values_list("url", flat=True).first())
        if alan == "mesai":
            musteri = Musteri.objects.get(pk=self.musteri_id)
            return "acik" if takvim(musteri).acik_mi(timezone.now()) else "kapali"
        return None


def kosul_tutar(kosul: dict, baglam: Baglam) -> bool:
    return kosul_derle(kosul)(baglam.katli(kosul["alan"]))


def kosullar_tutar(kosullar: list[dict], baglam: Baglam) -> bool:
    """Uncompiled conditions (the portal's preview): compiled here, then as an event's."""
    return all(kosul_tutar(k, baglam) for k in kosullar)


def calistir(olay: str, *, musteri_id: int, tur: str, nesne_id: int, metin: str | None = None,
             etiket: str | None = None, nesne=None) -> bool:
    zincir = _zincir.get()
    if len(zincir) >= DERINLIK:
        return False
    kurallar = onbellek.olay_kurallari(musteri_id, olay)
    if not kurallar:
        return False
    baglam = Baglam(musteri_id=musteri_id, tur=tur, nesne_id=nesne_id, metin=metin, etiket=etiket, nesne=nesne)
    hedef = f"{tur}:{nesne_id}"
    kayitlar: list[KuralCalismasi] = []
    tutmadi: list[int] = []
    for kural, tutar in kurallar.degerlendir(baglam, haric=zincir):  # the rules on this stack left out
        if not tutar:
            tutmadi.append(kural.id)
            continue
        token = _zincir.set((*zincir, kural.id))
        try:
            ayrinti = [_eylem_calistir(e, tur=tur, nesne_id=nesne_id, musteri_id=musteri_id) for e in kural.eylemler]
        finally:
            _zincir.reset(token)
        hatali = any(a["sonuc"] == "hata" for a in ayrinti)
        kayitlar.append(KuralCalismasi(kural_id=kural.id, hedef=hedef, ayrinti=ayrinti,
                                       sonuc=KuralCalismasi.Sonuc.HATA if hatali else KuralCalismasi.Sonuc.UYGULANDI))
    _kaydet(kayitlar, kosul_tutmadi=tutmadi, hedef=hedef, musteri_id=musteri_id)
    return bool(kayitlar)


def _eylem_calistir(eylem: dict, *, tur: str, nesne_id: int, musteri_id: int) -> dict:
    try:
        with transaction.atomic():
            eylemler.uygula(eylem, tur=tur, nesne_id=nesne_id, musteri_id=musteri_id)
    except ApiHatasi as hata:
        return {"tur": eylem["tur"], "sonuc": "hata", "kod": hata.kod, "mesaj": str(hata.mesaj)}
    return {"tur": eylem["tur"], "sonuc": "uygulandi"}

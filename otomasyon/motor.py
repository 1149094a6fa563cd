"""The rules' engine (CONTRACT 23), called by the chat and ticket actions in their own transaction
(`supportdesk.core.kurallar.kurallari_calistir`).

For event `olay` on one chat or ticket, the tenant's active rules for it (from the cache: no
query) run in `sira` order: the conditions are checked (`kosul_tutar`, Turkish folding both ways),
and when all hold, the actions run one by one, each in a savepoint of its own, so a refused one
(its service's 400/404/409) is recorded and undone alone while the rest still run. Every run is
recorded (`KuralCalismasi`, one INSERT for all the rules of one event).

Chains: an action is a change like any other and may trigger rules again; the rules running on
this call stack are kept in a context variable (`_zincir`): a rule never runs inside itself, and
nothing runs deeper than `DERINLIK` rules."""
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

from . import eylemler, onbellek
from .models import KuralCalismasi

DERINLIK = 3
_zincir: ContextVar[tuple[int, ...]] = ContextVar("kural_zinciri", default=())
_SATIR_ALANLARI = ("kanal", "dil", "email", "ekip_id", "ziyaretci_id")


class OnDegerlendirme:
    """`supportdesk.core.kurallar.kurallari_on_degerlendir`'s answer."""

    def __init__(self, *, kurallar: list[dict], baglam: "Baglam", hedef: str):
        self.kurallar, self.hedef = kurallar, hedef
        self.eslesen = any(kosullar_tutar(k["kosullar"], baglam) for k in kurallar)

    def kaydet(self) -> None:
        _kaydet([KuralCalismasi(kural_id=k["id"], hedef=self.hedef, sonuc=KuralCalismasi.Sonuc.KOSUL_TUTMADI)
                 for k in self.kurallar])


def _kaydet(kayitlar: list[KuralCalismasi]) -> None:
    """The runs of one event, one INSERT. Not `bulk_create`: outside a transaction (the visitor's
    message whose rules did not hold) it wraps its statement in BEGIN/COMMIT, two more round trips
    on the hottest path; the rows' ids are never read back."""
    if kayitlar:
        alanlar = [f for f in KuralCalismasi._meta.concrete_fields if not f.primary_key]
        KuralCalismasi.objects._insert(kayitlar, fields=alanlar)  # type: ignore[attr-defined]


def on_degerlendir(olay: str, *, musteri_id: int, tur: str, nesne_id: int, metin: str | None = None):
    if _zincir.get():
        return None  # only for a change made by a request, not inside a rule's own actions
    kurallar = [k for k in onbellek.kurallar(musteri_id) if k["olay"] == olay]
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
    deger = baglam.deger(kosul["alan"])
    degerler = [katla(str(d)) for d in (deger if isinstance(deger, list) else [] if deger is None else [deger])]
    aranan = katla(str(kosul["deger"]))
    islem = kosul["islem"]
    if islem == "esit":
        return aranan in degerler
    if islem == "esit_degil":
        return aranan not in degerler
    if islem == "icerir":
        return any(aranan in d for d in degerler)
    if islem == "icermez":
        return not any(aranan in d for d in degerler)
    return any(d.startswith(aranan) for d in degerler)  # baslar


def kosullar_tutar(kosullar: list[dict], baglam: Baglam) -> bool:
    return all(kosul_tutar(k, baglam) for k in kosullar)


def calistir(olay: str, *, musteri_id: int, tur: str, nesne_id: int, metin: str | None = None,
             etiket: str | None = None, nesne=None) -> bool:
    zincir = _zincir.get()
    if len(zincir) >= DERINLIK:
        return False
    kurallar = [k for k in onbellek.kurallar(musteri_id) if k["olay"] == olay and k["id"] not in zincir]
    if not kurallar:
        return False
    baglam = Baglam(musteri_id=musteri_id, tur=tur, nesne_id=nesne_id, metin=metin, etiket=etiket, nesne=nesne)
    hedef = f"{tur}:{nesne_id}"
    kayitlar = []
    for kural in kurallar:
        if not kosullar_tutar(kural["kosullar"], baglam):
            kayitlar.append(KuralCalismasi(kural_id=kural["id"], hedef=hedef, sonuc=KuralCalismasi.Sonuc.KOSUL_TUTMADI))
            continue
        token = _zincir.set((*zincir, kural["id"]))
        try:
            ayrinti = [_eylem_calistir(e, tur=tur, nesne_id=nesne_id, musteri_id=musteri_id) for e in kural["eylemler"]]
        finally:
            _zincir.reset(token)
        hatali = any(a["sonuc"] == "hata" for a in ayrinti)
        kayitlar.append(KuralCalismasi(kural_id=kural["id"], hedef=hedef, ayrinti=ayrinti,
                                       sonuc=KuralCalismasi.Sonuc.HATA if hatali else KuralCalismasi.Sonuc.UYGULANDI))
    _kaydet(kayitlar)
    return any(k.sonuc != KuralCalismasi.Sonuc.KOSUL_TUTMADI for k in kayitlar)


def _eylem_calistir(eylem: dict, *, tur: str, nesne_id: int, musteri_id: int) -> dict:
    try:
        with transaction.atomic():
            eylemler.uygula(eylem, tur=tur, nesne_id=nesne_id, musteri_id=musteri_id)
    except ApiHatasi as hata:
        return {"tur": eylem["tur"], "sonuc": "hata", "kod": hata.kod, "mesaj": str(hata.mesaj)}
    return {"tur": eylem["tur"], "sonuc": "uygulandi"}

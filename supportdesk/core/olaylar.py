"""Domain events: the one way a change travels from the service that made it to everyone who cares.

A service states what happened, once, inside its transaction:

    yayinla("chat_kapandi", musteri_id=oturum.musteri_id, veri={...})

and knows nothing of who listens. Core knows no domain app either: each concern registers its
listeners in one module of its own app (`<app>/dinleyiciler.py`, imported by its
`AppConfig.ready()`), so "what happens when a membership is removed?" is answered by reading the
listeners of `uyelik_silindi`:

- `@dinle(ad, ..., islem_icinde=True)`: runs now, inside the publishing transaction; it may write,
  and an exception rolls the whole change back. The webhooks outbox (CONTRACT 7: the row commits
  or rolls back with the change) and the cache generations ("now and again after commit") are here.
- `@dinle(ad, ...)`: runs once the outermost transaction has committed, in commit order, never
  after a rollback; an exception is logged and does not reach the caller (the change is saved).
  The sockets and mail are here.

Every listener gets the same `YayinlananOlay`; its `id` is the event's identity everywhere (the
webhook's `X-Webhook-Id`, the socket frame's de-duplication). `veri` is the event's declared type
(`VERI_TIPLERI`, below) and may hold model objects as the service committed them: only a webhook
event's body leaves the process (the outbox row, without its in-process keys: `webhook_govdesi`).
Zulip's `send_event_on_commit` and Chatwoot's dispatcher with `app/listeners/*.rb` are the shape.
"""
import logging
import textwrap
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NotRequired, TypedDict

from django.conf import settings
from django.db import transaction
from django.utils import timezone

logger = logging.getLogger("supportdesk.olaylar")

# --- what each event carries (issue 40: the event list is a contract) ---------------------------
# One TypedDict per event, beside its name: `yayinla` checks `veri` against it (a missing or unknown
# key is a TypeError) where `OLAY_VERISI_DENETLE` is on (DEBUG, the tests), and the listener tests
# publish each event with a payload of exactly its type. Core knows no domain app, so a model object
# is `Any` with its model named. The actor (who did it) is always `aktor_id`, never the subject's
# `kullanici_id`; None for the system or when the request's user is meant (supportdesk.core.eylemci).


# The webhook bodies (CONTRACT 7): what an endpoint receives as `veri`. Outward: never rename a key.
class YeniChatGovdesi(TypedDict):
    oturum_id: int
    musteri_id: int
    ziyaretci_adi: str
    kanal: str
    etiketler: list[str]
    ekip_id: NotRequired[int | None]  # CONTRACT 22: the chat's or ticket's team (always sent by the services)


class YeniTicketGovdesi(TypedDict):
    ticket_id: int
    musteri_id: int
    ziyaretci_id: str
    konu: str
    oncelik: str
    etiketler: list[str]
    ekip_id: NotRequired[int | None]  # CONTRACT 22: the chat's or ticket's team (always sent by the services)


class ChatKapandiGovdesi(TypedDict):
    oturum_id: int
    musteri_id: int
    kapatan: str
    sure_saniye: int
    etiketler: list[str]
    ekip_id: NotRequired[int | None]  # CONTRACT 22: the chat's or ticket's team (always sent by the services)


class TicketCozulduGovdesi(TypedDict):
    ticket_id: int
    musteri_id: int
    operator_id: int | None
    etiketler: list[str]
    ekip_id: NotRequired[int | None]  # CONTRACT 22: the chat's or ticket's team (always sent by the services)


class MemnuniyetPuanGovdesi(TypedDict):
    oturum_id: int
    musteri_id: int
    puan: int
    yorum: str | None
    etiketler: list[str]
    ekip_id: NotRequired[int | None]  # CONTRACT 22: the chat's or ticket's team (always sent by the services)


class OperatorCevrimdisiGovdesi(TypedDict):
    operator_id: int
    musteri_id: int
    email: str


class ChatAtandiGovdesi(TypedDict):
    oturum_id: int
    musteri_id: int
    operator_id: int | None
    neden: str
    etiketler: list[str]
    ekip_id: NotRequired[int | None]  # CONTRACT 22: the chat's or ticket's team (always sent by the services)


class SlaGovdesi(TypedDict):
    ticket_id: int
    musteri_id: int
    hedef: str
    son_zaman: str
    operator_id: int | None
    etiketler: list[str]
    ekip_id: NotRequired[int | None]  # CONTRACT 22: the chat's or ticket's team (always sent by the services)


class ChatSlaGovdesi(TypedDict):
    """A chat's first-response target (CONTRACT 17, 24): due soon or breached (chat/sla.py). A
    webhook of its own name: the tickets' `sla_uyari` / `sla_ihlal` keep their `ticket_id` body."""
    oturum_id: int
    musteri_id: int
    hedef: str
    son_zaman: str | None
    operator_id: int | None
    etiketler: list[str]
    ekip_id: NotRequired[int | None]  # CONTRACT 22: the chat's or ticket's team (always sent by the services)


# A webhook event may carry more for the listeners in this process; those keys are dropped from
# the outbox row (`webhook_govdesi`), so the body stays the contract's.
class YeniTicket(YeniTicketGovdesi):
    ticket: Any  # tickets.models.Ticket as committed (the sockets' `ticket_yeni`, the search index)


class ChatKapandi(ChatKapandiGovdesi):
    sira_degisti: bool  # it was waiting: the places of the chats behind it changed (CONTRACT 11)


# The events no webhook sees.
class OturumOlayi(TypedDict):
    oturum_id: int


class SiraOlayi(TypedDict):
    oturum_id: int
    sira_degisti: bool  # the chat entered or left the queue


class MesajOlayi(TypedDict):
    mesaj: Any  # chat.models.Mesaj
    oturum: NotRequired[Any]  # chat.models.Oturum with only its id, tenant, visitor, state, operator
    # The message's predecessors (any message, one the visitor sees) when the writer read them.
    onceki_idleri: NotRequired[tuple[int | None, int | None]]


class MesajIdOlayi(TypedDict):
    mesaj_id: int


class HazirYanitlarDegisti(TypedDict):
    musteri_id: int
    islem: str  # olusturuldu | degisti | silindi | yuklendi
    hazir_yanit_id: NotRequired[int]
    kisayol: NotRequired[str]
    degerler: NotRequired[dict]  # {field: [old, new]}; the text is named, not copied
    sayi: NotRequired[int]  # an import's count


class Bahsedilme(TypedDict):
    musteri_id: int
    kullanici_idleri: list[int]  # the mentioned members
    aktor_id: int | None  # who wrote the note
    mesaj: NotRequired[Any]  # chat.models.Mesaj (a note in a chat) ...
    oturum_id: NotRequired[int]
    yanit: NotRequired[Any]  # ... or tickets.models.TicketYanit (a note on a ticket)
    ticket_id: NotRequired[int]


class TicketGuncellendi(TypedDict):
    ticket: Any  # tickets.models.Ticket as committed
    yalniz_operator: NotRequired[bool]  # nothing the visitor sees changed (a note, labels)


class YanitIdOlayi(TypedDict):
    yanit_id: int


class ErtelemeDegisti(TypedDict):
    """A chat or ticket was snoozed, or woke (CONTRACT 24)."""
    tur: str  # oturum | ticket
    musteri_id: int
    operator_id: int | None  # whom it is with: the `ertelemeden_dondu` frame's addressee; None: the queue
    uyandi: bool  # False: snoozed (again); True: back in the views
    neden: str  # operator (snoozed or woken by hand) | ziyaretci (the visitor wrote) | zaman (its `kadar` came)
    aktor_id: int | None
    oturum_id: NotRequired[int]
    ticket_id: NotRequired[int]


class AyarDegisti(TypedDict):
    musteri_id: int
    aktor_id: int | None
    ip: str | None
    alanlar: list[str]
    degerler: NotRequired[dict]  # {field: [old, new]}: the CONTRACT 15 settings, an SLA policy's fields and targets


class EtiketOlayi(TypedDict):
    etiket_id: int
    musteri_id: int
    ad: str
    renk: str
    aktor_id: int | None
    ip: str | None
    eski_ad: NotRequired[str]  # etiket_degisti
    alanlar: NotRequired[list[str]]  # etiket_degisti


class EkipDegisti(TypedDict):
    ekip_id: int
    musteri_id: int
    ad: str
    islem: str  # olusturuldu | degisti | silindi
    alanlar: list[str]  # degisti: which of ad, uyeler, atama_modu, widgetta_secilir
    aktor_id: int | None
    ip: str | None


class EtiketlerAyarlandi(TypedDict):
    tur: str  # oturum | ticket
    musteri_id: int
    etiketler: list[str]
    aktor_id: int | None
    ip: str | None
    oturum_id: NotRequired[int]
    ticket_id: NotRequired[int]


class KuralDegisti(TypedDict):
    kural_id: int
    musteri_id: int
    islem: str  # olusturuldu | degisti | silindi
    ad: str
    alanlar: list[str]
    aktor_id: int | None
    ip: str | None


class OperatorDurumu(TypedDict):
    operator_id: int
    durum: str
    neden: str  # kendisi | erisilemez


class KullaniciDegisti(TypedDict):
    kullanici: Any  # tenants.models.Kullanici as saved
    alanlar: frozenset[str] | None  # None: every field


class KullaniciOlayi(TypedDict):
    kullanici_id: int  # the subject: the user or member the event is about


class UyelikOlayi(TypedDict):
    kullanici_id: int  # the member
    rol: str
    onceki_rol: str | None
    max_chat_per_tenant: int | None
    onceki_max_chat_per_tenant: NotRequired[int | None]


class UyelikSilindi(TypedDict):
    kullanici_id: int  # the member
    kademeli: bool  # with its tenant or user, not a member leaving


class MusteriDegisti(TypedDict):
    api_keyler: tuple[str, str]  # (now, before)
    aktif: bool
    olusturuldu: bool
    alanlar: frozenset[str] | None
    silindi: bool
    ham: bool


class MusteriSiliniyor(TypedDict):
    musteri: Any  # tenants.models.Musteri


class Giris(TypedDict):
    kullanici_id: int  # who logged in (subject and actor alike)
    kanal: str  # portal | konsol | api | admin


class GirisBasarisiz(TypedDict):
    kullanici_id: int | None  # None: no such account
    email: str
    kanal: str


class GirisKilitlendi(GirisBasarisiz):
    ip: str | None


class ZiyaretciProfili(TypedDict):
    ziyaretci_id: str
    ad: str
    email: str


class WebhookDegisti(TypedDict):
    endpoint_id: int
    islem: str
    url: str
    aktif: bool
    alanlar: NotRequired[list[str]]


class MakaleOlayi(TypedDict):
    makale_id: int
    baslik: str


class ZiyaretciDisaAktarildi(TypedDict):
    ziyaretci_id: str
    aktor_id: int | None
    oturum: int
    ticket: int
    dosya: int


class ZiyaretciSilindi(TypedDict):
    ziyaretci_id: str
    aktor_id: int | None
    oturum_idleri: list[int]
    ticket_idleri: list[int]
    silinen: dict[str, int]


class KisiBirlesti(TypedDict):
    kisi_id: int  # the contact that stays
    birlesen_kisi_id: int  # the contact merged into it, now gone
    ziyaretci_idleri: list[str]  # the visitor ids that moved
    aktor_id: int | None
    ip: str | None


# CONTRACT 7: the webhook events ("Emitted by"); endpoints subscribe to these names, and each is
# written to the outbox in its transaction (webhooks/dinleyiciler.py). Outward names: never rename.
OLAYLAR = (
    "yeni_chat",  # a visitor started a new chat
    "yeni_ticket",  # a ticket was created (also the sockets' `ticket_yeni` frame)
    "chat_kapandi",  # a chat was closed, by anyone (also the sockets' `chat_guncellendi`)
    "ticket_cozuldu",  # a ticket's status became `cozuldu`
    "memnuniyet_puan",  # a visitor rated a chat
    "operator_cevrimdisi",  # an operator went offline (one per tenant of the operator)
    "chat_atandi",  # a chat's operator changed: accept, transfer, automatic, re-routing (CONTRACT 15)
    "sla_uyari",  # a ticket's SLA target is due within `uyari_dk` (CONTRACT 17)
    "sla_ihlal",  # a ticket's SLA target passed its due time unmet (CONTRACT 17)
    "chat_sla_uyari",  # a chat's first-response target is due within `uyari_dk` (CONTRACT 17, 24)
    "chat_sla_ihlal",  # a chat's first-response target passed unmet (CONTRACT 17, 24)
)

# What else happens, by name. No webhook ever sees these (they are not in OLAYLAR). Where a name
# is also a socket frame's `tip` or an audit `eylem`, canli/yayin.py and denetim/kayit.py map it.
ALAN_OLAYLARI = (
    # chats and messages (chat)
    "chat_kabul_edildi",  # a waiting chat was accepted or claimed by an operator's answer
    "chat_aktarildi",  # an active chat was handed to a colleague or back to the queue
    "chat_okundu",  # an operator read a chat: its unread count dropped to 0, or its read mark moved
    "mesaj",  # a message was written and is to be shown
    "mesaj_kaydedildi",  # a message row was written, by any path
    "oturum_kaydedildi",  # a chat row was saved or deleted, by any path
    "chat_operator_mesaji",  # an operator wrote in a chat
    "hazir_yanitlar_degisti",  # a tenant's canned responses changed
    "bahsedilme",  # a note mentioned members
    # tickets (tickets)
    "ticket_guncellendi",  # a ticket was replied to, or its status, owner, priority or labels changed
    "ticket_operator_yaniti",  # an operator replied to a ticket
    "sla_degisti",  # a tenant's SLA policy changed
    # labels (tenants; CONTRACT 16)
    "etiket_olusturuldu",
    "etiket_degisti",  # renamed or recoloured
    "etiket_silindi",
    "etiketler_ayarlandi",  # a chat's or ticket's labels were set
    # teams (tenants; CONTRACT 22)
    "ekip_degisti",  # a team was created, changed or deleted
    # views and snooze (CONTRACT 24)
    "erteleme_degisti",  # a chat or ticket was snoozed or woke
    # automation (otomasyon; CONTRACT 23)
    "kural_degisti",  # a rule was created, changed or deleted
    # tenants, operators, memberships (tenants)
    "operator_durumu",  # an operator's status changed
    "kullanici_degisti",  # a user row was saved, by any path
    "kullanici_silindi",  # a user was deleted
    "uyelik_eklendi",  # a membership was created
    "uyelik_guncellendi",  # a membership's order, role, cap or muting changed
    "uyelik_silindi",  # a membership was removed
    "musteri_degisti",  # a tenant was saved or deleted
    "musteri_siliniyor",  # a tenant is being deleted: before the cascade, in its transaction
    # what the audit log records (CONTRACT 18; denetim/dinleyiciler.py)
    "giris",  # a portal, console or API login succeeded
    "giris_basarisiz",  # a login failed for an existing account or an unknown one
    "giris_kilitlendi",  # failures locked a pair of account and address
    "ayar_degisti",  # a tenant's CONTRACT 15 settings changed
    # visitors (context)
    "ziyaretci_profili_kaydedildi",  # customer-info stored a visitor's name or e-mail
    "webhook_degisti",  # a webhook endpoint was added, changed or removed
    "makale_yayinlandi",  # a knowledge-base article was saved published
    "makale_silindi",  # a knowledge-base article was deleted
    # privacy (gizlilik)
    "ziyaretci_disa_aktarildi",  # a visitor's data was exported
    "ziyaretci_silindi",  # a visitor's data was erased
    # contacts (kisiler; CONTRACT 25)
    "kisi_birlesti",  # a contact was merged into another
)
TUM_OLAYLAR = frozenset(OLAYLAR + ALAN_OLAYLARI)

VERI_TIPLERI: dict[str, type] = {
    "yeni_chat": YeniChatGovdesi,
    "yeni_ticket": YeniTicket,
    "chat_kapandi": ChatKapandi,
    "ticket_cozuldu": TicketCozulduGovdesi,
    "memnuniyet_puan": MemnuniyetPuanGovdesi,
    "operator_cevrimdisi": OperatorCevrimdisiGovdesi,
    "chat_atandi": ChatAtandiGovdesi,
    "sla_uyari": SlaGovdesi,
    "sla_ihlal": SlaGovdesi,
    "chat_kabul_edildi": SiraOlayi,
    "chat_aktarildi": SiraOlayi,
    "chat_okundu": OturumOlayi,
    "mesaj": MesajOlayi,
    "mesaj_kaydedildi": OturumOlayi,
    "oturum_kaydedildi": OturumOlayi,
    "chat_operator_mesaji": MesajIdOlayi,
    "hazir_yanitlar_degisti": HazirYanitlarDegisti,
    "bahsedilme": Bahsedilme,
    "chat_sla_uyari": ChatSlaGovdesi,
    "chat_sla_ihlal": ChatSlaGovdesi,
    "ticket_guncellendi": TicketGuncellendi,
    "ticket_operator_yaniti": YanitIdOlayi,
    "sla_degisti": AyarDegisti,
    "etiket_olusturuldu": EtiketOlayi,
    "etiket_degisti": EtiketOlayi,
    "etiket_silindi": EtiketOlayi,
    "etiketler_ayarlandi": EtiketlerAyarlandi,
    "ekip_degisti": EkipDegisti,
    "erteleme_degisti": ErtelemeDegisti,
    "kural_degisti": KuralDegisti,
    "operator_durumu": OperatorDurumu,
    "kullanici_degisti": KullaniciDegisti,
    "kullanici_silindi": KullaniciOlayi,
    "uyelik_eklendi": UyelikOlayi,
    "uyelik_guncellendi": UyelikOlayi,
    "uyelik_silindi": UyelikSilindi,
    "musteri_degisti": MusteriDegisti,
    "musteri_siliniyor": MusteriSiliniyor,
    "giris": Giris,
    "giris_basarisiz": GirisBasarisiz,
    "giris_kilitlendi": GirisKilitlendi,
    "ayar_degisti": AyarDegisti,
    "ziyaretci_profili_kaydedildi": ZiyaretciProfili,
    "webhook_degisti": WebhookDegisti,
    "makale_yayinlandi": MakaleOlayi,
    "makale_silindi": MakaleOlayi,
    "ziyaretci_disa_aktarildi": ZiyaretciDisaAktarildi,
    "ziyaretci_silindi": ZiyaretciSilindi,
    "kisi_birlesti": KisiBirlesti,
}
if VERI_TIPLERI.keys() != TUM_OLAYLAR:
    raise ImportError(f"Veri tipi eksik ya da fazla: {VERI_TIPLERI.keys() ^ TUM_OLAYLAR}")

# The keys of a webhook event's `veri` that stay in the process (not written to the outbox).
_IC_ANAHTARLAR: dict[str, frozenset[str]] = {
    "yeni_ticket": YeniTicket.__required_keys__ - YeniTicketGovdesi.__required_keys__,
    "chat_kapandi": ChatKapandi.__required_keys__ - ChatKapandiGovdesi.__required_keys__,
}


def veri_denetle(olay: str, veri: dict) -> None:
    """TypeError unless `veri` has every key of `olay`'s type and no other (the values' types are
    mypy's to check where a publisher builds them)."""
    tip = VERI_TIPLERI[olay]
    eksik = tip.__required_keys__ - veri.keys()  # type: ignore[attr-defined]
    fazla = veri.keys() - tip.__required_keys__ - tip.__optional_keys__  # type: ignore[attr-defined]
    if eksik or fazla:
        raise TypeError(f"'{olay}' olayının verisi {tip.__name__} değil: eksik {sorted(eksik)}, fazla {sorted(fazla)}")


def webhook_govdesi(olay: "YayinlananOlay") -> dict:
    """What the outbox writes for a webhook event: its `veri` without the in-process keys."""
    ic = _IC_ANAHTARLAR.get(olay.olay)
    return olay.veri if not ic else {k: v for k, v in olay.veri.items() if k not in ic}


@dataclass(frozen=True)
class YayinlananOlay:
    """One published event, as every listener sees it."""

    musteri_id: int | None
    olay: str
    veri: dict
    id: uuid.UUID = field(default_factory=uuid.uuid4)
    zaman: datetime = field(default_factory=timezone.now)


Dinleyici = Callable[[YayinlananOlay], None]

_islem_icinde: dict[str, list[Dinleyici]] = {ad: [] for ad in TUM_OLAYLAR}
_commit_sonrasi: dict[str, list[Dinleyici]] = {ad: [] for ad in TUM_OLAYLAR}


def dinle(*adlar: str, islem_icinde: bool = False) -> Callable[[Dinleyici], Dinleyici]:
    """Register the decorated function for these events: inside the publishing transaction
    (`islem_icinde=True`) or after its commit. Registering it again does nothing."""
    bilinmeyen = [ad for ad in adlar if ad not in TUM_OLAYLAR]
    if bilinmeyen or not adlar:
        raise ValueError(f"Bilinmeyen olay: {bilinmeyen}")

    def kaydet(fonksiyon: Dinleyici) -> Dinleyici:
        tablo = _islem_icinde if islem_icinde else _commit_sonrasi
        for ad in adlar:
            if fonksiyon not in tablo[ad]:
                tablo[ad].append(fonksiyon)
        return fonksiyon

    return kaydet


def dinlemeyi_birak(fonksiyon: Dinleyici) -> None:
    """Unregister `fonksiyon` from every event (tests)."""
    for tablo in (_islem_icinde, _commit_sonrasi):
        for liste in tablo.values():
            if fonksiyon in liste:
                liste.remove(fonksiyon)


def dinleyiciler(ad: str) -> tuple[tuple[Dinleyici, ...], tuple[Dinleyici, ...]]:
    """(in-transaction listeners, after-commit listeners) of event `ad`, in registration order."""
    return tuple(_islem_icinde[ad]), tuple(_commit_sonrasi[ad])


def yayinla(olay: str, *, musteri_id: int | None, veri: dict | None = None) -> YayinlananOlay:
    """State that `olay` happened (to tenant `musteri_id`; None for an event of several tenants,
    which name them in `veri`), from inside the service's transaction.

    In-transaction listeners run now; after-commit listeners once the caller's outermost
    transaction has committed (at once outside a transaction). A rollback drops the event for
    every after-commit listener. An unknown name is a programming error (ValueError); so is a
    webhook event with no in-transaction listener (RuntimeError): it would be lost without a trace,
    and, where `OLAY_VERISI_DENETLE` is on, a `veri` that is not the event's type (TypeError).
    """
    if olay not in TUM_OLAYLAR:
        raise ValueError(f"Bilinmeyen olay: {olay}")
    if veri is None:
        veri = {}
    if settings.OLAY_VERISI_DENETLE:
        veri_denetle(olay, veri)
    simdi, sonra = tuple(_islem_icinde[olay]), tuple(_commit_sonrasi[olay])
    if olay in OLAYLAR and not simdi:
        raise RuntimeError(f"'{olay}' olayı için kayıtlı alıcı yok (webhooks uygulaması yüklenmemiş mi?).")
    kayit = YayinlananOlay(musteri_id=musteri_id, olay=olay, veri=veri)
    if olay in OLAYLAR:
        # savepoint=False: inside the caller's block this adds no SAVEPOINT queries; called on
        # its own it still keeps what the outbox writes together.
        with transaction.atomic(savepoint=False):
            _calistir(kayit, simdi, sonra)
    else:
        _calistir(kayit, simdi, sonra)
    return kayit


def _calistir(kayit: YayinlananOlay, simdi: tuple[Dinleyici, ...], sonra: tuple[Dinleyici, ...]) -> None:
    for dinleyici in simdi:
        dinleyici(kayit)
    if sonra:
        transaction.on_commit(lambda: _commit_sonrasi_calistir(kayit, sonra))


def _commit_sonrasi_calistir(kayit: YayinlananOlay, fonksiyonlar: tuple[Dinleyici, ...]) -> None:
    for fonksiyon in fonksiyonlar:
        try:
            fonksiyon(kayit)
        except Exception:
            logger.exception("Olay %s (%s) commit sonrası işlenemedi: %s", kayit.id, kayit.olay, fonksiyon)


def diyagram() -> str:
    """Every event with its listeners, as registered (docs/architecture.md shows this text, and
    supportdesk/tests/test_dinleyiciler.py keeps the two equal): the name, `[webhook]` for a
    CONTRACT 7 event, then the listeners in the transaction and after the commit, in the order they
    run. Call it once the apps are ready."""
    satirlar = []
    for ad in (*OLAYLAR, *ALAN_OLAYLARI):
        simdi, sonra = dinleyiciler(ad)
        satirlar.append(f"{ad}  ({VERI_TIPLERI[ad].__name__}){'  [webhook]' if ad in OLAYLAR else ''}")
        for baslik, liste in (("in the transaction", simdi), ("after the commit", sonra)):
            if liste:
                satirlar += textwrap.wrap(", ".join(f"{f.__module__}.{f.__qualname__}" for f in liste), width=100,
                                          initial_indent=f"    {baslik}: ", subsequent_indent=" " * 8,
                                          break_on_hyphens=False)
        if not simdi and not sonra:
            satirlar.append("    (no listener)")
    return "\n".join(satirlar) + "\n"

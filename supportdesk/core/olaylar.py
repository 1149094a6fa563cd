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
webhook's `X-Webhook-Id`, the socket frame's de-duplication). `veri` may hold model objects as the
service committed them: only the webhook events' `veri` leaves the process (as the outbox row).
Zulip's `send_event_on_commit` and Chatwoot's dispatcher with `app/listeners/*.rb` are the shape.
"""
import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction
from django.utils import timezone

logger = logging.getLogger("supportdesk.olaylar")

# CONTRACT 7: the webhook events ("Emitted by"); endpoints subscribe to these names, and each is
# written to the outbox in its transaction (webhooks/dinleyiciler.py).
OLAYLAR = (
    "yeni_chat",  # a visitor started a new chat
    "yeni_ticket",  # a ticket was created
    "chat_kapandi",  # a chat was closed, by anyone
    "ticket_cozuldu",  # a ticket's status became `cozuldu`
    "memnuniyet_puan",  # a visitor rated a chat
    "operator_cevrimdisi",  # an operator went offline (one per tenant of the operator)
    "chat_atandi",  # a chat's operator changed: accept, transfer, automatic, re-routing (CONTRACT 15)
    "sla_uyari",  # a ticket's SLA target is due within `uyari_dk` (CONTRACT 17)
    "sla_ihlal",  # a ticket's SLA target passed its due time unmet (CONTRACT 17)
)

# What else happens, by name. No webhook ever sees these (they are not in OLAYLAR).
ALAN_OLAYLARI = (
    # chats and messages (chat)
    "chat_kabul_edildi",  # a waiting chat was accepted or claimed by an operator's answer (oturum_id, sira_degisti)
    "chat_aktarildi",  # an active chat was handed to a colleague or back to the queue (oturum_id, sira_degisti)
    "chat_guncellendi",  # a chat was closed: the sockets' side of `chat_kapandi` (oturum_id, sira_degisti)
    "chat_okundu",  # an operator read a chat: its unread count dropped to 0, or its read mark moved (oturum_id)
    "mesaj",  # a message was written and is to be shown (mesaj, [oturum])
    "mesaj_kaydedildi",  # a message row was written, by any path (oturum_id)
    "oturum_kaydedildi",  # a chat row was saved or deleted, by any path (oturum_id)
    "chat_operator_mesaji",  # an operator wrote in a chat (mesaj_id)
    "hazir_yanitlar_degisti",  # a tenant's canned responses changed (musteri_id)
    "bahsedilme",  # a note mentioned members (mesaj or yanit, musteri_id, oturum_id or ticket_id, kullanici_idleri)
    # tickets (tickets)
    "ticket_yeni",  # a ticket was created (ticket)
    "ticket_guncellendi",  # a ticket was replied to or its status changed (ticket)
    "ticket_operator_yaniti",  # an operator replied to a ticket (yanit_id)
    "sla_degisti",  # a tenant's SLA policy changed (musteri_id, kullanici_id, ip, alanlar, degerler)
    "ticket_duzenlendi",  # a ticket's owner or priority changed (ticket_id, musteri_id, alanlar, operator_id,
    #                       oncelik, kullanici_id, ip)
    # labels (tenants; CONTRACT 16): veri etiket_id, musteri_id, ad, renk, kullanici_id, ip
    "etiket_olusturuldu",
    "etiket_degisti",  # renamed or recoloured (+ eski_ad, alanlar)
    "etiket_silindi",
    "etiketler_ayarlandi",  # a chat's or ticket's labels were set (tur, oturum/ticket, musteri_id, etiketler,
    #                         kullanici_id, ip)
    # tenants, operators, memberships (tenants)
    "operator_durumu",  # an operator's status changed (operator_id, durum, neden: kendisi | erisilemez)
    "kullanici_degisti",  # a user row was saved, by any path (kullanici_id, alanlar)
    "kullanici_silindi",  # a user was deleted (kullanici_id)
    "uyelik_eklendi",  # a membership was created (kullanici_id)
    "uyelik_guncellendi",  # a membership's order, role, cap or muting changed (kullanici_id)
    "uyelik_silindi",  # a membership was removed (kullanici_id, kademeli: with its tenant or user)
    "musteri_degisti",  # a tenant was saved or deleted (api_keyler, aktif, olusturuldu, alanlar, silindi, ham)
    "musteri_siliniyor",  # a tenant is being deleted: before the cascade, in its transaction (musteri)
    # what the audit log records (CONTRACT 18; denetim/dinleyiciler.py). Who did it and from where
    # is `veri["kullanici_id"]` / `veri["ip"]` when the publisher knows, else the request's
    # (supportdesk.core.eylemci); None for the system.
    "giris",  # a portal, console or API login succeeded (kullanici_id, kanal)
    "giris_basarisiz",  # a login failed for an existing account (kullanici_id, kanal) or an unknown one (email)
    "giris_kilitlendi",  # failures locked a pair of account and address (kullanici_id or None, email, kanal, ip)
    "ayar_degisti",  # a tenant's CONTRACT 15 settings changed (musteri_id, kullanici_id, ip, alanlar)
    # visitors (context)
    "ziyaretci_profili_kaydedildi",  # customer-info stored a visitor's name or e-mail (ziyaretci_id, ad, email)
    "webhook_degisti",  # a webhook endpoint was added, changed or removed (endpoint_id, islem)
    "makale_yayinlandi",  # a knowledge-base article was saved published (makale_id, baslik)
    "makale_silindi",  # a knowledge-base article was deleted (makale_id, baslik)
    # privacy (gizlilik)
    "ziyaretci_disa_aktarildi",  # a visitor's data was exported (ziyaretci_id, kullanici_id)
    "ziyaretci_silindi",  # a visitor's data was erased (ziyaretci_id, oturum_idleri, ticket_idleri, silinen)
)
TUM_OLAYLAR = frozenset(OLAYLAR + ALAN_OLAYLARI)


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
    webhook event with no in-transaction listener (RuntimeError): it would be lost without a trace.
    """
    if olay not in TUM_OLAYLAR:
        raise ValueError(f"Bilinmeyen olay: {olay}")
    simdi, sonra = tuple(_islem_icinde[olay]), tuple(_commit_sonrasi[olay])
    if olay in OLAYLAR and not simdi:
        raise RuntimeError(f"'{olay}' olayı için kayıtlı alıcı yok (webhooks uygulaması yüklenmemiş mi?).")
    kayit = YayinlananOlay(musteri_id=musteri_id, olay=olay, veri={} if veri is None else veri)
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

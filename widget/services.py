"""Writes of the widget composed above the apps they span: visitor tokens (CONTRACT 2a), from
tenants (the binding) and context (signed identity); a waiting chat turned into a ticket, from chat
and tickets (neither imports the other)."""
from django.db import transaction
from django.utils.translation import gettext as _

from chat import selectors as chat_selectors
from chat import services as chat_services
from context.imza import imza_dogrula, imza_kullan
from kisiler.services import kisi_kimlik_bagla
from supportdesk.core.exceptions import GecersizIstek
from tenants.models import Musteri
from tenants.ziyaretci import (
    ZiyaretciTokenGerekli,
    widget_kimligi_mi,
    ziyaretci_bagli_mi,
    ziyaretci_token_gecerli_mi,
    ziyaretci_token_ver,
)
from tickets import services as ticket_services

from .selectors import ziyaretci_verisi_var


@transaction.atomic
def ziyaretci_token_iste(
    *, musteri: Musteri, ziyaretci_id: str, token: str | None, email=None, timestamp=None, signature=None,
    govde: dict | None = None, simdi: float | None = None,
) -> str:
    """A token for the visitor (CONTRACT 2a), or `ZiyaretciTokenGerekli`.

    Signed (spec 5.3, the site vouching for the visitor): always, binding the visitor if needed; a
    bound visitor gets a further token (a second device). Unsigned: the presented token again when
    it is valid; a new binding only for an id the widget made for itself (`z_` + 32 hex digits)
    that is not bound and has no data yet, on a tenant that does not require signed identity.
    `govde` is the whole request body: a signature is accepted for one body (CONTRACT 2a, wave 4).
    """
    if signature is not None:
        if email is not None and not isinstance(email, str):
            raise GecersizIstek(alanlar={"email": _("Metin olmalı.")})
        imza_dogrula(api_secret=musteri.api_secret, ziyaretci_id=ziyaretci_id, email=email or "",
                     timestamp=timestamp, signature=signature, simdi=simdi)
        imza_kullan(musteri=musteri, amac="init", signature=signature, timestamp=timestamp,
                    govde=_imzali_init_govdesi(govde or {}, ziyaretci_id=ziyaretci_id, email=email, timestamp=timestamp))
        # A signed identity makes the visitor's contact and joins the one with its e-mail (CONTRACT 25).
        kisi_kimlik_bagla(musteri_id=musteri.id, ziyaretci_id=ziyaretci_id, email=email or "")
        return ziyaretci_token_ver(musteri=musteri, ziyaretci_id=ziyaretci_id, imzali=True)
    if token and ziyaretci_token_gecerli_mi(musteri=musteri, ziyaretci_id=ziyaretci_id, token=token):
        return token
    if not widget_kimligi_mi(ziyaretci_id) or ziyaretci_bagli_mi(musteri=musteri, ziyaretci_id=ziyaretci_id) or \
            ziyaretci_verisi_var(musteri=musteri, ziyaretci_id=ziyaretci_id):
        raise ZiyaretciTokenGerekli()
    return ziyaretci_token_ver(musteri=musteri, ziyaretci_id=ziyaretci_id, imzali=False)


def _imzali_init_govdesi(govde: dict, *, ziyaretci_id: str, email, timestamp) -> dict:
    """What a signed init's signature is spent on (CONTRACT 2a, wave 4: one signature, one body):
    every field of the request but the signature itself, so the same signature with `token_iste`,
    `ad`, `dil` or any unknown field added or changed is refused. Spellings that mean the same
    (`email` absent, null or ""; `token_iste` absent or false) are one body, so a retried request
    of the embedded widget answers as the first did."""
    alanlar = {ad: deger for ad, deger in govde.items() if ad != "signature"}
    if not alanlar.get("token_iste"):
        alanlar.pop("token_iste", None)
    return {**alanlar, "ziyaretci_id": ziyaretci_id, "email": email or "", "timestamp": str(timestamp)}


def oturumu_ticketa_donustur(*, musteri, ziyaretci_id: str, oturum_id, konu: str | None = None,
                             mesaj: str | None = None, ad: str | None = None, email: str | None = None):
    """A waiting chat becomes a ticket (issue 13): the ticket is created with the chat's transcript,
    name and e-mail as defaults for what the visitor left out, then the chat is closed by `sistem`
    naming the ticket. One transaction: `yeni_ticket` and `chat_kapandi`, or neither.
    Returns (ticket, chat)."""
    with transaction.atomic():
        oturum = chat_services.chat_ticketa_donusecek(musteri=musteri, ziyaretci_id=ziyaretci_id, oturum_id=oturum_id)
        taslak = chat_selectors.ticket_taslagi(oturum=oturum)
        ticket = ticket_services.ticket_olustur(
            musteri=musteri, ziyaretci_id=ziyaretci_id, konu=konu or taslak["konu"], mesaj=mesaj or taslak["mesaj"],
            ad=ad if ad is not None else taslak["ad"], email=email if email is not None else taslak["email"],
            dil=oturum.dil,  # CONTRACT 19: the ticket keeps its chat's language
            oturum_id=oturum.id,  # linked both ways, as an operator's conversion (CONTRACT 24)
        )
        oturum = chat_services.chat_ticketa_donustu(oturum=oturum, ticket_id=ticket.id)
    return ticket, oturum

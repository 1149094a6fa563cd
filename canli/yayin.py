"""The socket fan-out (CONTRACT 11): turns each socket-only event into frames for the groups that
may see it, once its transaction has committed.

An after-commit listener of the socket events (canli/dinleyiciler.py), so it runs in the process
and thread that committed, in commit order. `data` is built by the same functions and
serializers as the REST answers (chat's `oturum_verisi`, `widget_oturum_verisi`, `mesaj_verisi`,
tickets' `TicketSerializer`, and `TicketDetaySerializer` for the visitor), from the rows as they
are right after the commit: a frame and a REST read of the same object are equal.
"""
import json
import logging

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

from chat import selectors as chat_selectors
from chat.api.serializers import mesaj_verisi, oturum_verisi, widget_oturum_verisi
from chat.models import Oturum
from supportdesk.core.girdi import AYRILMIS_ZIYARETCI_ONEKLERI
from supportdesk.core.kosucu import kosucu
from supportdesk.core.olaylar import YayinlananOlay
from tenants.models import Kullanici
from tenants.selectors import kullanici_musteri_idleri
from tickets import selectors as ticket_selectors
from tickets.api.serializers import OperatorTicketSerializer, TicketDetaySerializer, YanitSerializer

from . import dogrudan, gruplar

logger = logging.getLogger("supportdesk.canli")

Gonderim = tuple[str, str, dict]  # (group, frame type, data)


def cerceve_metni(tip: str, data: dict) -> str:
    return json.dumps({"tip": tip, "data": data}, ensure_ascii=False, separators=(",", ":"))


def _widget_oturum(oturum: Oturum) -> dict:
    return widget_oturum_verisi(
        oturum,
        sira_no=chat_selectors.sira_no(oturum=oturum),
        cevrimici_operator=chat_selectors.cevrimici_operator_var(musteri_id=oturum.musteri_id, oturum=oturum),
    )


def _ziyaretci_grubu(oturum: Oturum) -> str:
    return gruplar.ziyaretci(oturum.musteri_id, oturum.ziyaretci_id)


def operator_gruplari(oturum: Oturum) -> list[str]:
    """Who among operators follows this chat: every member while it waits, else its operator."""
    if oturum.durum == Oturum.Durum.BEKLIYOR or oturum.operator_id is None:
        return [gruplar.operator_musteri(oturum.musteri_id)]
    return [gruplar.operator_kullanici(oturum.operator_id)]


def _chat_yeni(olay: YayinlananOlay) -> list[Gonderim]:
    oturum = chat_selectors.oturum_yayin_icin(oturum_id=olay.veri["oturum_id"])
    if oturum is None:
        return []
    return [(gruplar.operator_musteri(oturum.musteri_id), "chat_yeni", {"oturum": oturum_verisi(oturum)})]


def _chat_guncellendi(olay: YayinlananOlay) -> list[Gonderim]:
    oturum = chat_selectors.oturum_yayin_icin(oturum_id=olay.veri["oturum_id"])
    if oturum is None:
        return []
    # Every member's queue (a chat taken by a colleague leaves it), and the visitor's tabs.
    sonuc = [
        (gruplar.operator_musteri(oturum.musteri_id), "chat_guncellendi", {"oturum": oturum_verisi(oturum)}),
        (_ziyaretci_grubu(oturum), "oturum", {"oturum": _widget_oturum(oturum)}),
    ]
    if olay.veri.get("sira_degisti"):
        for arkadaki in chat_selectors.arkadaki_bekleyenler(oturum=oturum):
            sonuc.append((_ziyaretci_grubu(arkadaki), "oturum", {"oturum": _widget_oturum(arkadaki)}))
    return sonuc


def _mesaj(olay: YayinlananOlay) -> list[Gonderim]:
    mesaj = olay.veri["mesaj"]
    # The writer may tell who follows the chat (chat.services: the visitor's one-statement write).
    oturum = olay.veri.get("oturum") or Oturum.objects.only("id", "musteri_id", "ziyaretci_id", "durum", "operator_id").filter(
        pk=mesaj.oturum_id
    ).first()
    if oturum is None:
        return []
    veri = mesaj_verisi(mesaj)
    # `onceki_id`: the message before this one as each audience sees the chat (docs/api.md), so a
    # frame that overtook its predecessor (another process published first) is seen as a gap.
    # The visitor's write and a note's return them from the chat's row (issue 41); others read them.
    onceki, gorunur_onceki = olay.veri.get("onceki_idleri") or chat_selectors.onceki_mesaj_idleri(mesaj=mesaj)
    # An internal note (CONTRACT 16) goes to operators only, never to the visitor's sockets.
    sonuc = [] if mesaj.ozel else [(_ziyaretci_grubu(oturum), "mesaj", {"mesaj": veri, "onceki_id": gorunur_onceki})]
    sonuc += [(g, "mesaj", {"mesaj": veri, "musteri_id": oturum.musteri_id, "onceki_id": onceki})
              for g in operator_gruplari(oturum)]
    return sonuc


# The frame's `tip` of an event whose frame is named otherwise (CONTRACT 11's names are outward).
CERCEVE_TIPLERI = {"yeni_ticket": "ticket_yeni", "ticket_guncellendi": "ticket_guncellendi",
                   "sla_uyari": "sla_uyari", "sla_ihlal": "sla_ihlal",
                   "chat_sla_uyari": "sla_uyari", "chat_sla_ihlal": "sla_ihlal"}


def _ticket(olay: YayinlananOlay) -> list[Gonderim]:
    ticket = olay.veri["ticket"]
    sonuc = [(gruplar.operator_musteri(ticket.musteri_id), CERCEVE_TIPLERI[olay.olay],
              {"ticket": OperatorTicketSerializer(ticket).data})]
    # `yalniz_operator`: a change the visitor has nothing of (a note, labels: CONTRACT 16).
    if olay.olay == "ticket_guncellendi" and not olay.veri.get("yalniz_operator"):
        sonuc += _ziyaretci_ticketi(ticket)
    return sonuc


def _etiketler_ayarlandi(olay: YayinlananOlay) -> list[Gonderim]:
    # A chat's labels changed: the operators' consoles get the chat (its operator shape carries
    # them) as `chat_guncellendi`; the visitor's sockets hear nothing. Tickets send their own
    # `ticket_guncellendi` (operators only).
    if olay.veri["tur"] != "oturum":
        return []
    oturum = chat_selectors.oturum_yayin_icin(oturum_id=olay.veri["oturum_id"])
    if oturum is None:
        return []
    return [(gruplar.operator_musteri(oturum.musteri_id), "chat_guncellendi", {"oturum": oturum_verisi(oturum)})]


def _erteleme_degisti(olay: YayinlananOlay) -> list[Gonderim]:
    # CONTRACT 24: every member's views change (the item left them or came back): the chat or
    # ticket again, as `chat_guncellendi` / `ticket_guncellendi` (operators only; the visitor
    # sees nothing of a snooze). A wake also tells whom the item is with: `ertelemeden_dondu` to
    # its operator, or to every member when it has none (it is back in the queue).
    veri = olay.veri
    if veri["tur"] == "oturum":
        oturum = chat_selectors.oturum_yayin_icin(oturum_id=veri["oturum_id"])
        if oturum is None:
            return []
        musteri_id, operator_id = oturum.musteri_id, oturum.operator_id
        tip, data = "chat_guncellendi", {"oturum": oturum_verisi(oturum)}
        donen = {"tur": "chat", "oturum": data["oturum"]}
    else:
        ticket = ticket_selectors.ticket_yayin_icin(ticket_id=veri["ticket_id"])
        if ticket is None:
            return []
        musteri_id, operator_id = ticket.musteri_id, ticket.operator_id
        tip, data = "ticket_guncellendi", {"ticket": OperatorTicketSerializer(ticket).data}
        donen = {"tur": "ticket", "ticket": data["ticket"]}
    if veri["uyandi"]:
        grup = gruplar.operator_kullanici(operator_id) if operator_id else gruplar.operator_musteri(musteri_id)
        # Its own publication (an id of its own): the operator's socket is in both groups, and one
        # event reaches a socket once (`coklu`), so as one event it would get only the first frame.
        gruba_gonder(f"{olay.id}:donus", [(grup, "ertelemeden_dondu", donen)])
    return [(gruplar.operator_musteri(musteri_id), tip, data)]


def _bahsedilme(olay: YayinlananOlay) -> list[Gonderim]:
    # Each mentioned member's own sockets (CONTRACT 16): the note and where it is.
    veri = olay.veri
    if "yanit" in veri:
        data = {"yanit": YanitSerializer(veri["yanit"]).data, "musteri_id": veri["musteri_id"],
                "ticket_id": veri["ticket_id"]}
    else:
        data = {"mesaj": mesaj_verisi(veri["mesaj"]), "musteri_id": veri["musteri_id"], "oturum_id": veri["oturum_id"]}
    return [(gruplar.operator_kullanici(k), "bahsedilme", data) for k in veri["kullanici_idleri"]]


def _ziyaretci_ticketi(ticket) -> list[Gonderim]:
    # The visitor's open ticket view follows a reply or a state change (CONTRACT 11): the ticket
    # as `GET /widget/ticket/{id}` answers it, replies included, to that visitor's sockets only.
    # A visitor of the e-mail channel never holds a socket (its id is refused there).
    if ticket.ziyaretci_id.startswith(AYRILMIS_ZIYARETCI_ONEKLERI):
        return []
    widget = ticket_selectors.ziyaretci_ticket_yayin_icin(ticket=ticket)
    if widget is None:
        return []
    return [(gruplar.ziyaretci(ticket.musteri_id, ticket.ziyaretci_id), "ticket_guncellendi",
             {"ticket": TicketDetaySerializer(widget).data})]


def _sla(olay: YayinlananOlay) -> list[Gonderim]:
    # CONTRACT 17: to the ticket's owner, or every member when it has none; the ticket as read now.
    ticket = ticket_selectors.ticket_yayin_icin(ticket_id=olay.veri["ticket_id"])
    if ticket is None:
        return []
    grup = (gruplar.operator_kullanici(ticket.operator_id) if ticket.operator_id
            else gruplar.operator_musteri(ticket.musteri_id))
    return [(grup, CERCEVE_TIPLERI[olay.olay], {"ticket": OperatorTicketSerializer(ticket).data})]


def _chat_sla(olay: YayinlananOlay) -> list[Gonderim]:
    # CONTRACT 24: a chat's first-response target as a ticket's (`sla_uyari` / `sla_ihlal`), with
    # the chat as read now: to its operator, or every member while it waits.
    oturum = chat_selectors.oturum_yayin_icin(oturum_id=olay.veri["oturum_id"])
    if oturum is None:
        return []
    return [(g, CERCEVE_TIPLERI[olay.olay], {"oturum": oturum_verisi(oturum)}) for g in operator_gruplari(oturum)]


def _operator_durumu(olay: YayinlananOlay) -> list[Gonderim]:
    kullanici = Kullanici(pk=olay.veri["operator_id"])
    musteri_idleri = kullanici_musteri_idleri(kullanici=kullanici)
    data = {"operator_id": kullanici.pk, "durum": olay.veri["durum"], "musteri_idleri": musteri_idleri}
    # A colleague in two of these tenants is in both groups; its socket drops the repeat (same event id).
    return [(gruplar.operator_musteri(m), "operator_durumu", data) for m in musteri_idleri]


def _hazir_yanitlar_degisti(olay: YayinlananOlay) -> list[Gonderim]:
    # Only that something changed (docs/api.md): each console re-reads the list it may see.
    return [(gruplar.operator_musteri(olay.musteri_id), "hazir_yanitlar_degisti", {"musteri_id": olay.musteri_id})]


# Event -> its frames. A chat started is `chat_yeni`; accepted or claimed, transferred, rated or
# closed (`chat_kapandi`, the webhook event itself) is `chat_guncellendi`; a ticket created
# (`yeni_ticket`) is `ticket_yeni`.
_CEVIRICILER = {
    "yeni_chat": _chat_yeni,
    "chat_kabul_edildi": _chat_guncellendi,
    "chat_aktarildi": _chat_guncellendi,
    "memnuniyet_puan": _chat_guncellendi,
    "chat_kapandi": _chat_guncellendi,
    "mesaj": _mesaj,
    "yeni_ticket": _ticket,
    "ticket_guncellendi": _ticket,
    "sla_uyari": _sla,
    "sla_ihlal": _sla,
    "chat_sla_uyari": _chat_sla,
    "chat_sla_ihlal": _chat_sla,
    "operator_durumu": _operator_durumu,
    "hazir_yanitlar_degisti": _hazir_yanitlar_degisti,
    "etiketler_ayarlandi": _etiketler_ayarlandi,
    "bahsedilme": _bahsedilme,
    "erteleme_degisti": _erteleme_degisti,
}


def dagit(olay: YayinlananOlay) -> None:
    """After-commit handler of every socket-only event."""
    gonderimler = _CEVIRICILER[olay.olay](olay)
    if gonderimler:
        gruba_gonder(str(olay.id), gonderimler)


YAYIN_SIRASI = "canli-yayin"


def gruba_gonder(olay_id: str, gonderimler: list[Gonderim]) -> None:
    """Send from sync code (a service's after-commit hook). A dead channel layer (Redis down) is
    logged, never raised: the change is saved and clients re-read it by polling."""
    _yayinla(olay_id, [(grup, _cerceve_mesaji(olay_id, len(gonderimler) > 1, tip, data))
                       for grup, tip, data in gonderimler])


def _yayinla(etiket: str, mesajlar: list[tuple[str, dict]]) -> None:
    """Send layer messages `[(group, message), ...]` (one publication) from sync code: on the Redis
    pub/sub layer from this thread, in one round trip (`canli.dogrudan`); otherwise by the layer's
    `group_send` on this process's runner loop, in its ordered line (supportdesk/core/kosucu.py),
    where the layer keeps its connection, or, for `make run`'s in-memory layer, on the server's own
    loop, where the sockets' queues live."""
    try:
        katman = get_channel_layer()
        yayinci = dogrudan.yayinci(katman)
        if yayinci is not None:
            yayinci.yayinla(mesajlar)
        elif isinstance(katman, InMemoryChannelLayer):
            async_to_sync(_agonder)(mesajlar)
        else:
            kosucu().sirala(YAYIN_SIRASI, etiket, _agonder, mesajlar)
    except Exception:
        logger.warning("Canlı olay %s gönderilemedi; istemciler yoklamayla alacak.", etiket, exc_info=True)


async def _agonder(mesajlar: list[tuple[str, dict]]) -> None:
    katman = get_channel_layer()
    for grup, mesaj in mesajlar:
        await katman.group_send(grup, mesaj)


def _cerceve_mesaji(olay_id: str, coklu: bool, tip: str, data: dict) -> dict:
    """One layer message per group: the frame's JSON text (built here, once per event and group;
    each socket process encodes it once and writes it to its members of the group, `canli.dagitim`)
    and whether the event goes to more than one group (`coklu`: a socket in two of them gets it once)."""
    return {"type": "cerceve", "olay_id": olay_id, "coklu": coklu, "metin": cerceve_metni(tip, data)}


async def agruba_gonder(olay_id: str, gonderimler: list[Gonderim]) -> None:
    """`gruba_gonder` from async code (a socket's own frames), through the layer."""
    coklu = len(gonderimler) > 1
    await _agonder([(grup, _cerceve_mesaji(olay_id, coklu, tip, data)) for grup, tip, data in gonderimler])


# --- membership changes: an operator socket's tenants are re-read at once ---------------------
def uyelik_degisti_bildir(*adlar: str) -> None:
    """Tell the operator sockets in these groups to re-read their user's tenants now
    (`OperatorSoketi.uyelik_degisti`), without waiting for the next token re-check."""
    _yayinla("uyelik.degisti", [(ad, {"type": "uyelik.degisti"}) for ad in adlar])

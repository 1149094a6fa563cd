"""The portal's preview of a rule (CONTRACT 23 task): which of the tenant's latest 100 chats or
tickets its conditions match now. Read only: conditions are evaluated (`motor.kosullar_tutar`),
nothing runs and nothing is recorded. A chat's text is its visitor's first message, a ticket's its
subject and description; labels are read in one query per kind; `mesai` is the tenant's hours now."""
from django.db.models import OuterRef, Subquery

from chat.models import Mesaj, Oturum
from tickets.models import Ticket, TicketYanit

from .motor import Baglam, kosullar_tutar

SON = 100
CHAT_OLAYLARI = ("chat_baslatildi", "ziyaretci_mesaji", "etiket_eklendi")
TICKET_OLAYLARI = ("ticket_olusturuldu", "ziyaretci_mesaji", "etiket_eklendi", "sla_uyari")


def _etiketli(qs):
    return qs.prefetch_related("etiketler")


def onizle(*, musteri_id: int, olay: str, kosullar: list[dict]) -> dict:
    """`{"chat": [(chat, matched)], "ticket": [...]}`: the latest 100 of the kinds `olay` is about."""
    sonuc: dict[str, list] = {"chat": [], "ticket": []}
    if olay in CHAT_OLAYLARI:
        ilk = Mesaj.objects.filter(oturum_id=OuterRef("pk"), gonderen=Mesaj.Gonderen.ZIYARETCI).order_by("id")
        oturumlar = _etiketli(Oturum.objects.kapsamda([musteri_id]).annotate(_ilk=Subquery(ilk.values("icerik")[:1]))
                              .order_by("-baslangic", "-id"))[:SON]
        sonuc["chat"] = [o for o in oturumlar if _tutar(o, "chat", kosullar, o._ilk or "")]
    if olay in TICKET_OLAYLARI:
        ilk = TicketYanit.objects.filter(ticket_id=OuterRef("pk")).order_by("id")
        ticketlar = _etiketli(Ticket.objects.kapsamda([musteri_id]).annotate(_ilk=Subquery(ilk.values("icerik")[:1]))
                              .order_by("-olusturulma", "-id"))[:SON]
        sonuc["ticket"] = [t for t in ticketlar if _tutar(t, "ticket", kosullar, f"{t.konu}\n{t._ilk or ''}")]
    return sonuc


def _tutar(nesne, tur: str, kosullar: list[dict], metin: str) -> bool:
    baglam = Baglam(musteri_id=nesne.musteri_id, tur=tur, nesne_id=nesne.pk, metin=metin, etiket=None, nesne=nesne)
    baglam.etiket_adlari = [e.ad for e in nesne.etiketler.all()]
    return kosullar_tutar(kosullar, baglam)

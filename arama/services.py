"""Writes of the search index (`AramaKaydi`): a chat's or ticket's row is rebuilt from the
document whenever a domain event says it changed (`arama.dinleyiciler`), removed with it (the
foreign keys cascade), and rebuilt for everything by `manage.py arama_dizini`.

A rebuild reads the whole document (its messages or replies) under the document's row lock, so
two writers to one chat leave a row holding both messages whatever their order: every writer
locks the chat (or ticket) row before it writes, and the rebuild reads after taking that lock.
"""
from django.contrib.postgres.search import SearchVector
from django.db import connection, transaction
from django.db.models import Case, DateTimeField, F, TextField, Value, When
from django.db.models.expressions import CombinedExpression
from django.db.models.functions import Concat, Greatest

from chat.models import Mesaj, Oturum
from tickets.models import Ticket, TicketYanit

from . import metin
from .models import AramaBekleyen, AramaKaydi, AramaZiyaretci

_BASLIK_MAX = AramaKaydi._meta.get_field("baslik").max_length


def _vektor(katli_ust: str, katli_govde: str):
    """The tsvector of the folded words (PostgreSQL), header A, body B; `simple`: no stemming and
    no stop words, the stems are the query's business (`arama.metin`)."""
    if connection.vendor != "postgresql":
        return None
    return (SearchVector(Value(katli_ust), config="simple", weight="A")
            + SearchVector(Value(katli_govde), config="simple", weight="B"))


def _yaz(*, anahtar: dict, musteri_id: int, tur: str, belge_id: int, ziyaretci_id: str, baslik: str,
         ust: list[str], govde: list[str], zaman, son_mesaj_id: int | None = None) -> None:
    ust_metin, govde_metin = " · ".join(p for p in ust if p), "\n".join(govde)
    katli_ust, katli_govde = metin.katli_metin(*ust), metin.katli_metin(*govde)
    alanlar = dict(
        musteri_id=musteri_id, tur=tur, belge_id=belge_id, ziyaretci_id=ziyaretci_id, baslik=baslik[:_BASLIK_MAX],
        ust_metin=ust_metin, govde_metin=govde_metin, katli_ust=katli_ust, katli_govde=katli_govde,
        vektor=_vektor(katli_ust, katli_govde), zaman=zaman, son_mesaj_id=son_mesaj_id,
    )
    # The document's row lock is held: nobody else inserts this row meanwhile.
    if not AramaKaydi.objects.filter(**anahtar).update(**alanlar):
        AramaKaydi.objects.create(**anahtar, **alanlar)


def chat_kaydi_yenile(*, oturum_id: int) -> None:
    """Rebuild (or create, or drop) the row of chat `oturum_id`: visitor name, e-mail and id in
    the header; every message and note in the body (system lines like "chat closed" are not
    searched)."""
    with transaction.atomic(savepoint=False):
        oturum = Oturum.objects.select_for_update().filter(pk=oturum_id).first()
        if oturum is None:
            AramaKaydi.objects.filter(oturum_id=oturum_id).delete()
            return
        tum = list(Mesaj.objects.filter(oturum_id=oturum_id).order_by("id").values_list("id", "gonderen", "icerik",
                                                                                      "zaman"))
        mesajlar = [(m, z) for _, g, m, z in tum if g != Mesaj.Gonderen.SISTEM]
        zamanlar = [oturum.baslangic, oturum.bitis_zamani, *(z for _, z in mesajlar[-1:])]
        ad, email = _profil(oturum.musteri_id, oturum.ziyaretci_id)
        _yaz(anahtar={"oturum_id": oturum_id}, musteri_id=oturum.musteri_id, tur=AramaKaydi.Tur.CHAT,
             belge_id=oturum_id, ziyaretci_id=oturum.ziyaretci_id,
             baslik=oturum.ziyaretci_adi or ad or oturum.email or email or oturum.ziyaretci_id,
             ust=_tekil(oturum.ziyaretci_adi, ad, oturum.email, email, oturum.ziyaretci_id),
             govde=[m for m, _ in mesajlar], zaman=max(z for z in zamanlar if z is not None),
             son_mesaj_id=tum[-1][0] if tum else 0)


def chat_mesajlari_ekle(*, oturum_id: int) -> None:
    """Append the chat's messages newer than its row's `son_mesaj_id` to the row (issue 41): the
    work of one message, whatever the chat's length (three statements: the row's lock, the new
    messages by `mesaj_oturum_idx`, one UPDATE that concatenates in the database). The same row as
    `chat_kaydi_yenile` would write (tests compare them). No row yet, or one from before the field:
    the whole rebuild.

    Nothing is missed: a chat's message ids are in commit order (every writer holds the chat's
    row lock while it inserts, chat.selectors.onceki_mesaj_idleri), so once a message is
    committed, none with a smaller id can commit later; and the row's lock orders two appends, or
    an append and a rebuild (which locks the chat, then updates this row)."""
    with transaction.atomic(savepoint=False):
        kayit = (AramaKaydi.objects.select_for_update().filter(oturum_id=oturum_id)
                 .values_list("pk", "son_mesaj_id").first())
        if kayit is None or kayit[1] is None:
            chat_kaydi_yenile(oturum_id=oturum_id)
            return
        yeni = list(Mesaj.objects.filter(oturum_id=oturum_id, id__gt=kayit[1]).order_by("id")
                    .values_list("id", "gonderen", "icerik", "zaman"))
        if not yeni:
            return
        AramaKaydi.objects.filter(pk=kayit[0]).update(son_mesaj_id=yeni[-1][0], **_ekleme_alanlari(
            [(m, z) for _, g, m, z in yeni if g != Mesaj.Gonderen.SISTEM]))


def _ekleme_alanlari(mesajlar: list[tuple[str, object]]) -> dict:
    """The UPDATE's expressions that append `mesajlar` ((text, time), in order) to a chat's row as
    `_yaz` lays it out: body lines joined by a newline, folded words one space apart with a space
    at each end (an empty body is ` ` or, rebuilt, two spaces), the tsvector's body part (weight B)."""
    if not mesajlar:
        return {}
    govde = "\n".join(m for m, _ in mesajlar)
    kelimeler = metin.katli_metin(*(m for m, _ in mesajlar)).strip()
    metin_alani: TextField = TextField()
    alanlar: dict = {
        "govde_metin": Case(When(govde_metin="", then=Value(govde)),
                            default=Concat(F("govde_metin"), Value("\n" + govde), output_field=metin_alani),
                            output_field=metin_alani),
        "zaman": Greatest(F("zaman"), Value(mesajlar[-1][1], output_field=DateTimeField())),
    }
    if kelimeler:
        alanlar["katli_govde"] = Case(When(katli_govde__in=[" ", "  "], then=Value(f" {kelimeler} ")),
                                      default=Concat(F("katli_govde"), Value(f"{kelimeler} "), output_field=metin_alani),
                                      output_field=metin_alani)
        if connection.vendor == "postgresql":
            alanlar["vektor"] = CombinedExpression(
                F("vektor"), "||", SearchVector(Value(f" {kelimeler} "), config="simple", weight="B"))
    return alanlar


def ticket_kaydi_yenile(*, ticket_id: int) -> None:
    """Rebuild (or create, or drop) the row of ticket `ticket_id`: subject, visitor name, e-mail
    and id in the header; every reply and note in the body."""
    with transaction.atomic(savepoint=False):
        ticket = Ticket.objects.select_for_update().filter(pk=ticket_id).first()
        if ticket is None:
            AramaKaydi.objects.filter(ticket_id=ticket_id).delete()
            return
        yanitlar = list(TicketYanit.objects.filter(ticket_id=ticket_id).order_by("zaman", "id")
                        .values_list("icerik", flat=True))
        ad, email = _profil(ticket.musteri_id, ticket.ziyaretci_id)
        _yaz(anahtar={"ticket_id": ticket_id}, musteri_id=ticket.musteri_id, tur=AramaKaydi.Tur.TICKET,
             belge_id=ticket_id, ziyaretci_id=ticket.ziyaretci_id, baslik=ticket.konu,
             ust=_tekil(ticket.konu, ticket.ad, ad, ticket.email, email, ticket.ziyaretci_id), govde=yanitlar,
             zaman=ticket.guncellenme)


def _profil(musteri_id: int, ziyaretci_id: str) -> tuple[str, str]:
    """The visitor's name and e-mail as customer-info last gave them, or blanks."""
    satir = (AramaZiyaretci.objects.kapsamda([musteri_id]).filter(ziyaretci_id=ziyaretci_id)
             .values_list("ad", "email").first())
    return satir or ("", "")


def _tekil(*parcalar: str) -> list[str]:
    return [p for p in dict.fromkeys(parcalar) if p]


def ziyaretci_profili_kaydet(*, musteri_id: int, ziyaretci_id: str, ad: str, email: str) -> None:
    """Keep the visitor's name and e-mail from customer-info and rebuild its chats' and tickets'
    rows, which search by them too."""
    with transaction.atomic(savepoint=False):
        AramaZiyaretci.objects.update_or_create(musteri_id=musteri_id, ziyaretci_id=ziyaretci_id,
                                                defaults={"ad": ad[:201], "email": email[:254]})
        for oturum_id in Oturum.objects.ziyaretcinin(musteri=musteri_id, ziyaretci_id=ziyaretci_id).values_list(
                "pk", flat=True):
            chat_kaydi_yenile(oturum_id=oturum_id)
        for ticket_id in Ticket.objects.ziyaretcinin(musteri=musteri_id, ziyaretci_id=ziyaretci_id).values_list(
                "pk", flat=True):
            ticket_kaydi_yenile(ticket_id=ticket_id)


def bekleyen_ekle(*, musteri_id: int, tur: str, belge_id: int | None = None, ziyaretci_id: str = "",
                  ad: str = "", email: str = "") -> None:
    """Note a rebuild that could not be handed to a worker (`arama.dinleyiciler`), for the sweep."""
    AramaBekleyen.objects.create(musteri_id=musteri_id, tur=tur, belge_id=belge_id, ziyaretci_id=ziyaretci_id,
                                 ad=ad[:201], email=email[:254])


def bekleyenleri_dizinle(*, parti: int = 200) -> int:
    """Do the noted rebuilds, oldest first, each document once per batch; returns how many notes
    were done. A note is deleted only after its rebuild, and only the notes read: one written
    meanwhile waits for the next run. Two sweeps at once only repeat an idempotent rebuild."""
    yapilan = 0
    while bekleyenler := list(AramaBekleyen.objects.order_by("id")[:parti]):
        gorulen = set()
        for b in bekleyenler:
            if b.tur == AramaBekleyen.Tur.ZIYARETCI:  # every profile in order: the newest wins
                ziyaretci_profili_kaydet(musteri_id=b.musteri_id, ziyaretci_id=b.ziyaretci_id, ad=b.ad, email=b.email)
            elif (b.tur, b.belge_id) not in gorulen:
                gorulen.add((b.tur, b.belge_id))
                if b.tur == AramaBekleyen.Tur.CHAT:
                    chat_kaydi_yenile(oturum_id=b.belge_id)
                else:
                    ticket_kaydi_yenile(ticket_id=b.belge_id)
        AramaBekleyen.objects.filter(pk__in=[b.pk for b in bekleyenler]).delete()
        yapilan += len(bekleyenler)
    return yapilan


def unut(*, musteri_id: int, ziyaretci_id: str) -> int:
    """Remove every search row of one visitor of one tenant (privacy erasure, CONTRACT 18);
    returns how many. Deleting the visitor's chats and tickets removes their rows already (the
    foreign keys cascade): this is for callers that erase otherwise, and is safe to repeat."""
    AramaZiyaretci.objects.kapsamda([musteri_id]).filter(ziyaretci_id=ziyaretci_id).delete()
    AramaBekleyen.objects.kapsamda([musteri_id]).filter(ziyaretci_id=ziyaretci_id).delete()
    silinen, _ = AramaKaydi.objects.kapsamda([musteri_id]).filter(ziyaretci_id=ziyaretci_id).delete()
    return silinen


def dizini_yeniden_olustur(*, musteri_id: int | None = None, parti: int = 500, yaz=None) -> tuple[int, int]:
    """Rebuild every chat's and ticket's row (of one tenant, or all); returns (chats, tickets).
    Idempotent; safe while the service runs (each row is rebuilt under its document's lock, in
    its own transaction)."""
    sayilar = []
    for model, yenile, anahtar in ((Oturum, chat_kaydi_yenile, "oturum_id"), (Ticket, ticket_kaydi_yenile, "ticket_id")):
        qs = model.objects.all() if musteri_id is None else model.objects.kapsamda([musteri_id])
        sayi, son = 0, 0
        while idler := list(qs.filter(pk__gt=son).order_by("pk").values_list("pk", flat=True)[:parti]):
            for belge_id in idler:
                yenile(**{anahtar: belge_id})
            sayi, son = sayi + len(idler), idler[-1]
            if yaz:
                yaz(f"{model._meta.verbose_name_plural}: {sayi}")
        sayilar.append(sayi)
    return sayilar[0], sayilar[1]

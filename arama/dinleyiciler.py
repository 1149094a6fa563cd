"""What the search index does with domain events (supportdesk.core.olaylar).

A chat's or ticket's row is rebuilt **after the commit, off the request** (a Celery task, or this
process's runner without a broker: `supportdesk.core.kosucu`): the visitor's message stays one
statement in its request (issue 12), and the rebuild reads the committed document under its row
lock, so the last rebuild of a chat holds every message whatever order they came in. A chat's new
messages are appended to its row instead (issue 41: the work of the new messages, not of the
whole chat), the messages of one interval together (`biriktir`). Deleting a
chat or ticket removes its row by the foreign key's cascade; `ziyaretci_silindi` (privacy erasure)
removes what is left inside the erasure's own transaction."""
from django.conf import settings

from supportdesk.core import kosucu
from supportdesk.core.olaylar import YayinlananOlay, dinle

from . import biriktir, services, tasks


# A rebuild the broker did not take (Redis unreachable at the commit) is noted in the database,
# which just committed the change, and the beat sweep `arama-bekleyenler` does it later
# (services.bekleyen_ekle / bekleyenleri_dizinle): nothing stays unsearchable until it changes again.
@dinle("oturum_kaydedildi")
def oturum(olay: YayinlananOlay) -> None:
    # A chat saved (created, visitor name or e-mail known, closed, deleted), by any path: its row
    # is rebuilt (rare: a handful of times in a chat's life).
    if not kosucu.gorev_gonder(tasks.chat_dizinle, olay.veri["oturum_id"], yerel=settings.ARAMA_YEREL_ISCI):
        services.bekleyen_ekle(musteri_id=olay.musteri_id, tur="chat", belge_id=olay.veri["oturum_id"])


@dinle("mesaj_kaydedildi")
def mesaj(olay: YayinlananOlay) -> None:
    # A message or note written, by any path: appended to the chat's row (issue 41), the chat's
    # messages of one interval together (`biriktir`), or each at its commit when the interval is 0.
    oturum_id = olay.veri["oturum_id"]
    if settings.ARAMA_BIRIKTIRME_SANIYE > 0:
        biriktir.not_al(musteri_id=olay.musteri_id, oturum_id=oturum_id)
    elif not kosucu.gorev_gonder(tasks.chat_mesajlari_ekle, [oturum_id], yerel=settings.ARAMA_YEREL_ISCI):
        services.bekleyen_ekle(musteri_id=olay.musteri_id, tur="chat", belge_id=oturum_id)


@dinle("yeni_ticket", "ticket_guncellendi")
def ticket(olay: YayinlananOlay) -> None:
    # A ticket created, replied to (reply or note), or changed.
    if not kosucu.gorev_gonder(tasks.ticket_dizinle, olay.veri["ticket"].pk, yerel=settings.ARAMA_YEREL_ISCI):
        services.bekleyen_ekle(musteri_id=olay.musteri_id, tur="ticket", belge_id=olay.veri["ticket"].pk)


@dinle("ziyaretci_profili_kaydedildi")
def ziyaretci_profili(olay: YayinlananOlay) -> None:
    # The visitor's name or e-mail became known (customer-info).
    veri = olay.veri
    if not kosucu.gorev_gonder(tasks.ziyaretci_dizinle, olay.musteri_id, veri["ziyaretci_id"], veri["ad"],
                               veri["email"], yerel=settings.ARAMA_YEREL_ISCI):
        services.bekleyen_ekle(musteri_id=olay.musteri_id, tur="ziyaretci", ziyaretci_id=veri["ziyaretci_id"],
                               ad=veri["ad"], email=veri["email"])


@dinle("ziyaretci_silindi", islem_icinde=True)
def ziyaretci_silindi(olay: YayinlananOlay) -> None:
    services.unut(musteri_id=olay.musteri_id, ziyaretci_id=olay.veri["ziyaretci_id"])

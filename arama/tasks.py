"""Thin Celery tasks of the search index: ids in, a service call (HOUSE-STYLE 11). A task whose
chat or ticket is gone removes its row (if any) and stops. A rebuild the database aborts to break a
deadlock (an erasure of the same visitor racing it, CONTRACT 18 wave 4) runs again
(`kilitlenmede_yinele`), so the visitor's last write is still indexed, or its row gone."""
from celery import shared_task

from supportdesk.core.yinele import kilitlenmede_yinele

from . import services


@shared_task(name="arama.chat_dizinle", ignore_result=True, acks_late=True)
def chat_dizinle(oturum_id: int) -> None:
    kilitlenmede_yinele(services.chat_kaydi_yenile, oturum_id=oturum_id)


@shared_task(name="arama.chat_mesajlari_ekle", ignore_result=True, acks_late=True)
def chat_mesajlari_ekle(oturum_idleri: list[int]) -> None:
    # The chats that got messages in one interval (arama.biriktir): each row gets its new messages.
    for oturum_id in oturum_idleri:
        kilitlenmede_yinele(services.chat_mesajlari_ekle, oturum_id=oturum_id)


@shared_task(name="arama.ticket_dizinle", ignore_result=True, acks_late=True)
def ticket_dizinle(ticket_id: int) -> None:
    kilitlenmede_yinele(services.ticket_kaydi_yenile, ticket_id=ticket_id)


@shared_task(name="arama.ziyaretci_dizinle", ignore_result=True, acks_late=True)
def ziyaretci_dizinle(musteri_id: int, ziyaretci_id: str, ad: str, email: str) -> None:
    kilitlenmede_yinele(services.ziyaretci_profili_kaydet, musteri_id=musteri_id, ziyaretci_id=ziyaretci_id, ad=ad,
                        email=email)


@shared_task(name="arama.bekleyenleri_dizinle", ignore_result=True)
def bekleyenleri_dizinle() -> None:
    # Beat (`arama-bekleyenler`): the rebuilds the broker did not take when their change committed.
    services.bekleyenleri_dizinle()

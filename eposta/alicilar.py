"""Where domain changes become mails: after-commit handlers of `olaylar` (webhook events) and
`bildirimler` (notices that are not webhook events). They only write rows and queue tasks."""
from supportdesk.core.olaylar import YayinlananOlay

from . import services


def olay_geldi(olay: YayinlananOlay) -> None:
    if olay.olay == "yeni_ticket":
        services.ticket_alindi_gonder(ticket_id=olay.veri["ticket_id"])
        services.yeni_ticket_ekibe_gonder(ticket_id=olay.veri["ticket_id"])
    elif olay.olay == "ticket_cozuldu":
        services.ticket_cozuldu_gonder(ticket_id=olay.veri["ticket_id"])


def ticket_operator_yaniti(*, yanit_id: int) -> None:
    services.ticket_yaniti_gonder(yanit_id=yanit_id)


def chat_operator_mesaji(*, mesaj_id: int) -> None:
    services.cevrimdisi_yanit_gonder(mesaj_id=mesaj_id)

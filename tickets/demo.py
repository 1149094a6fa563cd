# ceviri: dosya yok (demo data, Turkish on purpose: CONTRACT 10)
"""Demo tickets (CONTRACT 10) for the first tenant, created through the services once."""
from .models import Ticket
from .services import ticket_durum_ayarla, ticket_olustur, ticket_operator_yanitla

ZIYARETCI = "demo-ziyaretci-1"
TICKETLAR = [
    ("Faturam görünmüyor", "Merhaba, geçen ayın faturası hesabımda görünmüyor.", "yuksek", None),
    ("İade talebim ne durumda?", "Geçen hafta iade ettiğim ürünün ücreti henüz yatmadı.", "normal",
     "İade işleminiz onaylandı, 3 iş günü içinde hesabınıza yansıyacak."),
]


def yukle(*, musteriler, operatorler) -> None:
    musteri, operator = musteriler[0], operatorler[0]
    if Ticket.objects.ziyaretcinin(musteri=musteri, ziyaretci_id=ZIYARETCI).exists():
        return
    for konu, mesaj, oncelik, yanit in TICKETLAR:
        ticket = ticket_olustur(musteri=musteri, ziyaretci_id=ZIYARETCI, konu=konu, mesaj=mesaj, oncelik=oncelik,
                                ad="Demo Ziyaretçi", email="ziyaretci@ornek.com")
        if yanit:
            ticket_operator_yanitla(ticket=ticket, kullanici=operator, icerik=yanit)
            ticket_durum_ayarla(ticket=ticket, durum=Ticket.Durum.COZULDU, kullanici=operator)

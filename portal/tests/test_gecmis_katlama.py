"""Issue 24: /portal/gecmis finds "Öztürk" when "ozturk" is typed (and "şifre" for "SIFRE"), in
names, e-mails and message text, for chats and tickets, on SQLite as on PostgreSQL."""
import pytest

from chat.models import Mesaj, Oturum
from supportdesk.testing.fixtures import operator_yap
from tickets.models import Ticket, TicketYanit

from .yardimci import giris_yapmis

pytestmark = pytest.mark.django_db
GECMIS = "/portal/gecmis"


@pytest.fixture
def sahip(musteri, diger_musteri):
    o = Oturum.objects.create(musteri=musteri, ziyaretci_id="z-ayse", ziyaretci_adi="Ayşe Öztürk", email="a@ornek.com")
    Mesaj.objects.create(musteri=musteri, oturum=o, gonderen="ziyaretci", icerik="ŞİFREMİ unuttum")
    Oturum.objects.create(musteri=musteri, ziyaretci_id="z-diger", ziyaretci_adi="Can Yıldız", email="c@ornek.com")
    Oturum.objects.create(musteri=diger_musteri, ziyaretci_id="z-yabanci", ziyaretci_adi="Öztürk Yabancı")
    t = Ticket.objects.create(musteri=musteri, ziyaretci_id="z-ayse", konu="Giriş sorunu", ad="AYŞE ÖZTÜRK")
    TicketYanit.objects.create(ticket=t, gonderen="ziyaretci", icerik="Şifre sıfırlama e-postası gelmiyor")
    Ticket.objects.create(musteri=musteri, ziyaretci_id="z-diger", konu="Kargo", ad="Can")
    return giris_yapmis(operator_yap(musteri, rol="sahip"))


def _bul(sahip, q, tur="sohbet"):
    res = sahip.get(GECMIS, {"q": q, "tur": tur})
    assert res.status_code == 200, res.content
    return sorted(str(s.ziyaretci_id) for s in res.context["satirlar"])


@pytest.mark.parametrize("q", ["ozturk", "Öztürk", "ÖZTÜRK", "OZTURK", "ayse ozt", "sifremi", "şifremi", "SIFREMI"])
def test_chats_found_whatever_the_turkish_letters(sahip, q):
    assert _bul(sahip, q) == ["z-ayse"]


@pytest.mark.parametrize("q", ["ozturk", "ayse", "giris", "GİRİŞ", "sifirlama", "ŞİFRE"])
def test_tickets_found_whatever_the_turkish_letters(sahip, q):
    assert _bul(sahip, q, tur="ticket") == ["z-ayse"]


def test_like_characters_are_plain_text(sahip):
    assert _bul(sahip, "%") == [] and _bul(sahip, "_") == []

"""CONTRACT 24, views: `?gorunum=` on the chat and ticket lists (combined with the other filters;
a snoozed item leaves every view but `ertelenen`) and `GET /operator/gorunumler`, one counting
query per kind whatever the number of items."""
from datetime import timedelta

import pytest
from django.utils import timezone

from chat.models import Oturum
from chat.tests.yardimci import CHATS, ok, operator_istemcisi
from supportdesk.testing.factories import MusteriFactory
from tenants.etiketler import etiket_olustur
from tickets.models import Ticket

pytestmark = pytest.mark.django_db
TICKETS = "/api/v1/operator/tickets"
GORUNUMLER = "/api/v1/operator/gorunumler"
SONRA = timezone.now() + timedelta(days=1)


def hata(res, status: int, kod: str) -> dict:
    assert res.status_code == status, res.content
    body = res.json()
    assert body["basarili"] is False and body["hata"]["kod"] == kod, body
    return body["hata"]


def _sohbet(musteri, ziyaretci_id, *, operator=None, **alanlar):
    durum = Oturum.Durum.AKTIF if operator else Oturum.Durum.BEKLIYOR
    return Oturum.objects.create(musteri=musteri, ziyaretci_id=ziyaretci_id, operator=operator,
                                 durum=alanlar.pop("durum", durum), **alanlar)


def _ticket(musteri, *, operator=None, **alanlar):
    return Ticket.objects.create(musteri=musteri, ziyaretci_id="z", konu="K", operator=operator, **alanlar)


@pytest.fixture
def ortam(musteri, diger_musteri):
    ben, client = operator_istemcisi(musteri)
    meslektas, _ = operator_istemcisi(musteri)
    s = {
        "bekleyen": _sohbet(musteri, "z1"),
        "benim": _sohbet(musteri, "z2", operator=ben),
        "meslektas": _sohbet(musteri, "z3", operator=meslektas),
        "ertelenen_bekleyen": _sohbet(musteri, "z4", ertelendi_ziyaretci=True),
        "ertelenen_benim": _sohbet(musteri, "z5", operator=ben, ertelendi_kadar=SONRA),
        "kapandi": _sohbet(musteri, "z6", durum=Oturum.Durum.KAPANDI),
        "baska": _sohbet(diger_musteri, "z7"),  # another tenant's: in no view of the caller
    }
    t = {
        "sahipsiz": _ticket(musteri),
        "benim": _ticket(musteri, operator=ben, durum=Ticket.Durum.BEKLEMEDE),
        "meslektas": _ticket(musteri, operator=meslektas),
        "ertelenen": _ticket(musteri, operator=ben, ertelendi_kadar=SONRA),
        "cozuldu": _ticket(musteri, durum=Ticket.Durum.COZULDU),
        "baska": _ticket(diger_musteri),
    }
    return ben, client, s, t


def _idler(client, yol, **params) -> list[int]:
    anahtar = "oturumlar" if yol == CHATS else "ticketlar"
    return sorted(x["id"] for x in ok(client.get(yol, params))[anahtar])


def test_chat_views(ortam):
    _, client, s, _ = ortam
    beklenen = {
        "acik": ["bekleyen", "benim", "meslektas"],
        "atanmamis": ["bekleyen"],
        "benim": ["benim"],
        "ertelenen": ["ertelenen_bekleyen", "ertelenen_benim"],
    }
    for gorunum, adlar in beklenen.items():
        assert _idler(client, CHATS, gorunum=gorunum) == sorted(s[a].id for a in adlar), gorunum


def test_ticket_views(ortam):
    _, client, _, t = ortam
    beklenen = {
        "acik": ["sahipsiz", "benim", "meslektas"],
        "atanmamis": ["sahipsiz"],
        "benim": ["benim"],
        "ertelenen": ["ertelenen"],
    }
    for gorunum, adlar in beklenen.items():
        assert _idler(client, TICKETS, gorunum=gorunum) == sorted(t[a].id for a in adlar), gorunum


def test_a_view_combines_with_the_other_filters(ortam, musteri, diger_musteri):
    ben, client, s, t = ortam
    etiket = etiket_olustur(musteri_id=musteri.id, ad="VIP")
    s["meslektas"].etiketler.add(etiket)
    t["benim"].etiketler.add(etiket)
    assert _idler(client, CHATS, gorunum="acik", etiket_id=etiket.id) == [s["meslektas"].id]
    assert _idler(client, CHATS, gorunum="acik", durum="aktif") == sorted([s["benim"].id, s["meslektas"].id])
    assert _idler(client, CHATS, gorunum="acik", musteri_id=musteri.id, q="z1") == [s["bekleyen"].id]
    assert _idler(client, TICKETS, gorunum="acik", etiket_id=etiket.id) == [t["benim"].id]
    assert _idler(client, TICKETS, gorunum="acik", durum="beklemede") == [t["benim"].id]
    assert _idler(client, TICKETS, gorunum="benim", oncelik="acil") == []
    # Another tenant's id in a filter is a 404, view or not.
    hata(client.get(CHATS, {"gorunum": "acik", "musteri_id": diger_musteri.id}), 404, "BULUNAMADI")


def test_a_chat_view_pages_with_its_cursor(musteri):
    _, client = operator_istemcisi(musteri, MusteriFactory())
    for i in range(5):
        _sohbet(musteri, f"z{i}")
    sayfa = ok(client.get(CHATS, {"gorunum": "atanmamis", "limit": 3}))
    assert len(sayfa["oturumlar"]) == 3 and sayfa["sonraki"]
    kalan = ok(client.get(CHATS, {"gorunum": "atanmamis", "limit": 3, "cursor": sayfa["sonraki"]}))
    assert len(kalan["oturumlar"]) == 2 and kalan["sonraki"] is None
    assert len({o["id"] for o in sayfa["oturumlar"] + kalan["oturumlar"]}) == 5


@pytest.mark.parametrize("yol", [CHATS, TICKETS])
@pytest.mark.parametrize("deger", ["hepsi", "ACIK", "ertelendi"])
def test_an_unknown_view_is_a_400_with_its_field(ortam, yol, deger):
    _, client, _, _ = ortam
    assert "gorunum" in hata(client.get(yol, {"gorunum": deger}), 400, "GECERSIZ_ISTEK")["alanlar"]


def test_counts(ortam):
    _, client, _, _ = ortam
    assert ok(client.get(GORUNUMLER)) == {"gorunumler": {
        "chat": {"acik": 3, "atanmamis": 1, "benim": 1, "ertelenen": 2},
        "ticket": {"acik": 3, "atanmamis": 1, "benim": 1, "ertelenen": 1},
    }}


def test_counts_need_a_login(api):
    hata(api.get(GORUNUMLER), 401, "KIMLIK_GEREKLI")


@pytest.mark.parametrize("adet", [0, 1, 30])
def test_counts_are_one_query_per_kind(musteri, adet, django_assert_num_queries):
    ben, client = operator_istemcisi(musteri, MusteriFactory())
    for i in range(adet):
        _sohbet(musteri, f"z{i}", operator=ben if i % 2 else None, ertelendi_ziyaretci=i % 3 == 0)
        _ticket(musteri, operator=ben if i % 2 else None)
    # user, revocation check, the caller's tenants; then one count of chats and one of tickets.
    with django_assert_num_queries(5):
        data = ok(client.get(GORUNUMLER))
    assert sum(data["gorunumler"]["chat"][g] for g in ("acik", "ertelenen")) == adet
    assert data["gorunumler"]["ticket"]["acik"] == adet

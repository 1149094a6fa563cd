"""`GET /operator/ara` (CONTRACT 16, issue 27), through HTTP, on whichever database the suite
runs (PostgreSQL by default; `test_sqlite.py` runs this module on SQLite too)."""
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from arama.models import AramaKaydi, AramaZiyaretci
from chat.models import Mesaj, Oturum
from supportdesk.celery import app as celery_app
from supportdesk.core.olaylar import yayinla
from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import giris_yap, operator_yap, widget_client
from tickets.models import Ticket, TicketYanit

ARA = "/api/v1/operator/ara"
pytestmark = pytest.mark.django_db
_YAKALA = []


@pytest.fixture(autouse=True)
def _dizin_commit_sonrasi(django_capture_on_commit_callbacks):
    """The index is rebuilt by a task after the commit (arama.dinleyiciler): here each write's
    commit callbacks run at the end of its `_commit()` block, and the task inside the caller."""
    onceki = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    _YAKALA[:] = [django_capture_on_commit_callbacks]
    yield
    celery_app.conf.task_always_eager = onceki


def _commit():
    return _YAKALA[0](execute=True)


def _ok(res, status=200):
    assert res.status_code == status, res.content
    body = res.json()
    assert body["basarili"] is True, body
    return body["data"]


def _hata(res, status, kod):
    assert res.status_code == status, res.content
    body = res.json()
    assert body["basarili"] is False and body["hata"]["kod"] == kod, body
    return body["hata"]


def _istemci(*musteriler, rol="operator"):
    user = operator_yap(*musteriler, rol=rol)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(client, user)}")
    return user, client


def _chat(musteri, ziyaretci_id, *mesajlar, ad="", email=""):
    with _commit():
        return _chat_yaz(musteri, ziyaretci_id, *mesajlar, ad=ad, email=email)


def _chat_yaz(musteri, ziyaretci_id, *mesajlar, ad="", email=""):
    widget = widget_client(musteri)
    govde = {"ziyaretci_id": ziyaretci_id, "ad": ad, "email": email}
    if mesajlar:
        govde["mesaj"] = mesajlar[0]
    oturum = _ok(widget.post("/api/v1/widget/chat/start", govde, format="json"), 201)["oturum"]
    for m in mesajlar[1:]:
        _ok(widget.post("/api/v1/widget/chat/message", {"ziyaretci_id": ziyaretci_id, "oturum_id": oturum["id"],
                                                        "icerik": m}, format="json"), 201)
    return oturum["id"]


def _ticket(musteri, ziyaretci_id, konu, mesaj, **kw):
    widget = widget_client(musteri)
    govde = {"ziyaretci_id": ziyaretci_id, "konu": konu, "mesaj": mesaj, **kw}
    with _commit():
        return _ok(widget.post("/api/v1/widget/ticket/create", govde, format="json"), 201)["ticket"]["id"]


def _ara(client, **params):
    return _ok(client.get(ARA, params))


def _idler(data):
    return [(s["tur"], s["id"]) for s in data["sonuclar"]]


@pytest.fixture
def musteri(db):
    return MusteriFactory(firma_adi="Anadolu Yazılım")


@pytest.fixture
def client(musteri):
    return _istemci(musteri)[1]


@pytest.mark.parametrize("q, metin", [
    ("sifre", "Şifremi unuttum"),
    ("ŞİFRE", "şifre sıfırlama çalışmıyor"),
    ("faturamı", "fatura gelmedi"),
    ("fatura", "faturamı göremiyorum"),
    ("IĞDIR", "ığdır şubesi"),
    ("igdir", "Iğdır şubesi"),
])
def test_turkish_folding_both_ways_in_messages(musteri, client, q, metin):
    oturum_id = _chat(musteri, "z-1", metin)
    _chat(musteri, "z-2", "başka bir konu")
    data = _ara(client, q=q)
    assert _idler(data) == [("chat", oturum_id)], data
    sonuc = data["sonuclar"][0]
    assert sonuc["musteri_id"] == musteri.id and sonuc["zaman"].endswith("+00:00")
    assert "«" in sonuc["parca"] and "»" in sonuc["parca"], sonuc


def test_visitor_name_email_and_id_are_found(musteri, client):
    oturum_id = _chat(musteri, "ziy-7781", "Merhaba", ad="Ayşe Öztürk", email="ayse@ornek.com.tr")
    for q in ("ozturk", "ÖZTÜRK", "Ayse", "ayse@ornek.com.tr", "ornek", "7781"):
        data = _ara(client, q=q)
        assert _idler(data) == [("chat", oturum_id)], (q, data)
    sonuc = _ara(client, q="ozturk")["sonuclar"][0]
    assert sonuc["baslik"] == "Ayşe Öztürk"
    assert "«Öztürk»" in sonuc["parca"], sonuc


def test_tickets_subject_and_replies(musteri, client):
    ticket_id = _ticket(musteri, "z-1", "İade talebi", "Ürünü geri göndermek istiyorum", ad="Cem Işık")
    with _commit():
        _ok(client.post(f"/api/v1/operator/ticket/{ticket_id}/reply", {"icerik": "Kargo kodunuz ektedir"},
                        format="json"), 201)
    for q in ("iade", "İADE", "gonder", "kargo", "isik"):
        assert _idler(_ara(client, q=q)) == [("ticket", ticket_id)], q
    sonuc = _ara(client, q="iade")["sonuclar"][0]
    assert sonuc["baslik"] == "İade talebi" and sonuc["parca"].startswith("«İade»"), sonuc


def test_every_word_must_match(musteri, client):
    iki = _chat(musteri, "z-1", "fatura ödemesi", ad="Ali Öztürk")
    _chat(musteri, "z-2", "fatura ödemesi", ad="Veli Kaya")
    assert _idler(_ara(client, q="öztürk faturası")) == [("chat", iki)]
    assert _ara(client, q="öztürk zzzz")["sonuclar"] == []


def test_notes_are_searchable_by_operators(musteri, client):
    oturum_id = _chat(musteri, "z-1", "Merhaba")
    # Notes are written by the notes endpoint (CONTRACT 16); any path that writes a message row
    # states `mesaj_kaydedildi`, and a ticket change `ticket_guncellendi`.
    ticket_id = _ticket(musteri, "z-2", "Soru", "Bir sorum var")
    ticket = Ticket.objects.get(pk=ticket_id)
    with _commit():
        Mesaj.objects.create(musteri=musteri, oturum_id=oturum_id, gonderen=Mesaj.Gonderen.OPERATOR,
                             icerik="Müşteri VIP", ozel=True)
        TicketYanit.objects.create(ticket=ticket, gonderen=TicketYanit.Gonderen.OPERATOR, icerik="Muhasebeye sor",
                                   ozel=True)
        yayinla("ticket_guncellendi", musteri_id=musteri.id, veri={"ticket": ticket})
    assert _idler(_ara(client, q="vip")) == [("chat", oturum_id)]
    assert _idler(_ara(client, q="muhasebe")) == [("ticket", ticket_id)]


def test_best_match_first(musteri, client):
    govdede_bir = _chat(musteri, "z-1", "kargo nerede")
    govdede_uc = _chat(musteri, "z-2", "kargo gelmedi", "kargo takip", "kargo iade")
    konuda = _ticket(musteri, "z-3", "Kargo gecikmesi", "Bekliyorum")
    adda = _chat(musteri, "z-4", "merhaba", ad="Kargocu Mehmet")
    sonuclar = _idler(_ara(client, q="kargo"))
    assert set(sonuclar[:2]) == {("ticket", konuda), ("chat", adda)}, sonuclar
    assert sonuclar[2:] == [("chat", govdede_uc), ("chat", govdede_bir)], sonuclar


def test_snippet_marks_every_match_in_a_window(musteri, client):
    uzun = "Merhaba. " + "bir iki üç dört beş " * 20 + "Şifremi unuttum, yeni şifre istiyorum. " + "son " * 60
    _chat(musteri, "z-1", uzun)
    parca = _ara(client, q="sifre")["sonuclar"][0]["parca"]
    assert "«Şifremi»" in parca and "«şifre»" in parca, parca
    assert parca.startswith("… ") and parca.endswith(" …") and len(parca) < 200, parca


def test_snippet_text_cannot_fake_markers(musteri, client):
    _chat(musteri, "z-1", "«sahte» fatura")
    parca = _ara(client, q="fatura")["sonuclar"][0]["parca"]
    assert parca == '"sahte" «fatura»', parca


def test_other_tenants_never_appear_and_musteri_id_narrows(musteri, client):
    diger = MusteriFactory()
    ikinci = MusteriFactory()
    _chat(diger, "z-1", "gizli fatura")
    benim = _chat(musteri, "z-1", "benim faturam")
    user, cok = _istemci(musteri, ikinci)
    onun = _chat(ikinci, "z-1", "ikinci fatura")
    assert _idler(_ara(client, q="fatura")) == [("chat", benim)]
    assert {i for _, i in _idler(_ara(cok, q="fatura"))} == {benim, onun}
    assert _idler(_ara(cok, q="fatura", musteri_id=ikinci.id)) == [("chat", onun)]
    _hata(client.get(ARA, {"q": "fatura", "musteri_id": diger.id}), 404, "BULUNAMADI")
    _hata(client.get(ARA, {"q": "fatura", "musteri_id": 999999}), 404, "BULUNAMADI")


def test_tur_filter(musteri, client):
    chat_id = _chat(musteri, "z-1", "fatura")
    ticket_id = _ticket(musteri, "z-1", "Fatura", "fatura")
    assert _idler(_ara(client, q="fatura", tur="chat")) == [("chat", chat_id)]
    assert _idler(_ara(client, q="fatura", tur="ticket")) == [("ticket", ticket_id)]


def test_pagination_by_cursor(musteri, client):
    idler = {_chat(musteri, f"z-{i}", "kargo " * (i % 3 + 1)) for i in range(7)}
    gorulen, cursor, sayfalar = [], None, 0
    while True:
        params = {"q": "kargo", "limit": 3, **({"cursor": cursor} if cursor else {})}
        data = _ara(client, **params)
        gorulen += [i for _, i in _idler(data)]
        sayfalar += 1
        cursor = data["sonraki"]
        if cursor is None:
            break
    assert sayfalar == 3 and len(gorulen) == 7 and set(gorulen) == idler
    assert gorulen == [i for _, i in _idler(_ara(client, q="kargo"))]


@pytest.mark.parametrize("params, alan", [
    ({}, "q"),
    ({"q": "a"}, "q"),
    ({"q": " a "}, "q"),
    ({"q": "x" * 201}, "q"),
    ({"q": "fatura", "tur": "makale"}, "tur"),
    ({"q": "fatura", "cursor": "bozuk"}, "cursor"),
    ({"q": "fatura", "cursor": "WzEsMiwzXQ"}, "cursor"),  # [1,2,3]: no time
    ({"q": "fatura", "musteri_id": "x"}, "musteri_id"),
    ({"q": "fatura", "limit": "0"}, "limit"),
])
def test_bad_input_is_400(client, params, alan):
    hata = _hata(client.get(ARA, params), 400, "GECERSIZ_ISTEK")
    assert alan in hata["alanlar"], hata


def test_query_without_words_finds_nothing(musteri, client):
    _chat(musteri, "z-1", "fatura")
    assert _ara(client, q="!!?") == {"sonuclar": [], "sonraki": None}


def test_needs_an_operator(musteri):
    _hata(APIClient().get(ARA, {"q": "fatura"}), 401, "KIMLIK_GEREKLI")
    _hata(widget_client(musteri).get(ARA, {"q": "fatura"}), 401, "KIMLIK_GEREKLI")


def test_deleting_chats_and_tickets_removes_them(musteri, client):
    oturum_id = _chat(musteri, "z-1", "fatura")
    ticket_id = _ticket(musteri, "z-1", "Fatura", "fatura")
    Oturum.objects.filter(pk=oturum_id).delete()
    Ticket.objects.filter(pk=ticket_id).delete()
    assert _ara(client, q="fatura")["sonuclar"] == []


def test_erasure_event_forgets_the_visitor(musteri, client):
    _chat(musteri, "z-1", "fatura")
    kalan = _chat(musteri, "z-2", "fatura")
    yayinla("ziyaretci_silindi", musteri_id=musteri.id, veri={"ziyaretci_id": "z-1", "aktor_id": None, "oturum_idleri": [],
                                                                "ticket_idleri": [], "silinen": {}})
    assert _idler(_ara(client, q="fatura")) == [("chat", kalan)]


@pytest.mark.parametrize("adet", [0, 1, 25])
def test_query_count_is_flat(musteri, client, adet):
    for i in range(adet):
        _chat(musteri, f"z-{i}", f"fatura {i}", ad=f"Ziyaretçi {i}")
        _ticket(musteri, f"z-{i}", "Fatura", "fatura")
    with CaptureQueriesContext(connection) as sorgular:
        data = _ara(client, q="fatura", limit=200)
    assert len(data["sonuclar"]) == 2 * adet
    # The user, its token not revoked, its tenants, one page.
    tablolar = [q["sql"].split(" FROM ")[1].split()[0].strip('"`') for q in sorgular]
    assert tablolar == ["tenants_kullanici", "tenants_iptaledilentoken", "tenants_uyelik", "arama_aramakaydi"], tablolar


def test_rebuild_command_restores_the_index(musteri, client):
    oturum_id = _chat(musteri, "z-1", "fatura", ad="Ayşe Öztürk")
    ticket_id = _ticket(musteri, "z-2", "Kargo", "nerede")
    AramaKaydi.objects.all().delete()
    assert _ara(client, q="ozturk")["sonuclar"] == []
    cikti = StringIO()
    call_command("arama_dizini", stdout=cikti)
    assert "1 sohbet, 1 ticket" in cikti.getvalue()
    call_command("arama_dizini", musteri=musteri.id, stdout=StringIO())  # again: the same rows
    assert _idler(_ara(client, q="ozturk")) == [("chat", oturum_id)]
    assert _idler(_ara(client, q="kargo")) == [("ticket", ticket_id)]
    assert AramaKaydi.objects.count() == 2


def test_visitor_name_and_email_from_customer_info_are_found(musteri, client):
    widget = widget_client(musteri)
    # Told before the chat starts (the usual order: the page loads, then the visitor writes) ...
    with _commit():
        _ok(widget.post("/api/v1/context/customer-info", {"ziyaretci_id": "z-1", "ad": "Şükrü", "soyad": "Öztürk",
                                                          "email": "sukru@firma.com.tr"}, format="json"))
    oturum_id = _chat(musteri, "z-1", "merhaba")
    ticket_id = _ticket(musteri, "z-1", "Soru", "bir sorum var")
    assert set(_idler(_ara(client, q="sukru ozturk"))) == {("chat", oturum_id), ("ticket", ticket_id)}
    sonuc = _ara(client, q="sukru", tur="chat")["sonuclar"][0]
    assert sonuc["baslik"] == "Şükrü Öztürk" and "«Şükrü»" in sonuc["parca"], sonuc
    # ... and changed afterwards.
    with _commit():
        _ok(widget.post("/api/v1/context/customer-info", {"ziyaretci_id": "z-1", "soyad": "Yılmaz"}, format="json"))
    assert _ara(client, q="ozturk")["sonuclar"] == []
    assert len(_ara(client, q="yilmaz")["sonuclar"]) == 2
    yayinla("ziyaretci_silindi", musteri_id=musteri.id, veri={"ziyaretci_id": "z-1", "aktor_id": None, "oturum_idleri": [],
                                                                "ticket_idleri": [], "silinen": {}})
    assert not AramaZiyaretci.objects.exists() and not AramaKaydi.objects.exists()

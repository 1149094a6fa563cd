"""CONTRACT 16: an internal note never reaches the visitor, by any path. One test per path (the
sockets' paths are in canli/tests/test_ic_not.py), and the rules of a note: it changes no state,
claims no chat, is allowed on closed chats and tickets, moves nothing a visitor sees; mentions
must be members (404) and get a mail when their alerts are on."""
import pytest
from django.test.utils import CaptureQueriesContext  # noqa: F401

from chat.models import Mesaj, Oturum
from eposta.models import GidenEposta
from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import giris_yap, operator_yap, ulasilabilir_yap, widget_client
from tickets.models import Ticket, TicketYanit
from webhooks.models import Olay

pytestmark = pytest.mark.django_db

API = "/api/v1"
NOT = "GİZLİ-NOT-METNİ: müşteri zor biri"
ZIYARETCI = "ayse@ornek.com"


def ok(res, status=200):
    assert res.status_code == status, res.content
    return res.json()["data"]


def hata(res, status, kod):
    assert res.status_code == status, res.content
    assert res.json()["hata"]["kod"] == kod, res.content


def istemci(user):
    from rest_framework.test import APIClient

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(client, user)}")
    return client


@pytest.fixture
def commit(django_capture_on_commit_callbacks):
    def calistir(fonksiyon, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return fonksiyon(*args, **kwargs)
    return calistir


@pytest.fixture
def ortam(musteri):
    class Ortam:
        m = musteri
        op = operator_yap(musteri)
        sahip = operator_yap(musteri, rol="sahip")
        yabanci = operator_yap(MusteriFactory())
        widget = widget_client(musteri)
    Ortam.client = istemci(Ortam.op)
    ulasilabilir_yap(Ortam.op)  # online: a started chat waits for it, no ticket offer line (CONTRACT 15)
    return Ortam


def _sohbet(o, **govde):
    return ok(o.widget.post(f"{API}/widget/chat/start", {"ziyaretci_id": "z1", "email": ZIYARETCI, **govde},
                            format="json"), 201)["oturum"]


def _not(o, oturum_id, **govde):
    return o.client.post(f"{API}/operator/chat/{oturum_id}/message", {"icerik": NOT, "ozel": True, **govde},
                         format="json")


def _ticket(o):
    return ok(o.widget.post(f"{API}/widget/ticket/create", {"ziyaretci_id": "z1", "konu": "Konu", "mesaj": "Metin",
                                                             "email": ZIYARETCI}, format="json"), 201)["ticket"]


def _ticket_notu(o, ticket_id, **govde):
    return o.client.post(f"{API}/operator/ticket/{ticket_id}/reply", {"icerik": NOT, "ozel": True, **govde},
                         format="json")


# --- the rules of a note ---------------------------------------------------------------------
def test_sohbet_notu_sohbeti_ustlenmez_durumu_ve_onizlemeyi_degistirmez(ortam):
    oturum = _sohbet(ortam, mesaj="Merhaba")
    once = Oturum.objects.get(pk=oturum["id"])
    mesaj = ok(_not(ortam, oturum["id"]), 201)["mesaj"]
    assert mesaj["ozel"] is True and mesaj["gonderen"] == "operator" and mesaj["icerik"] == NOT
    sonra = Oturum.objects.get(pk=oturum["id"])
    assert (sonra.durum, sonra.operator_id, sonra.son_mesaj, sonra.okunmamis) == (
        "bekliyor", None, once.son_mesaj, once.okunmamis)
    assert not Mesaj.objects.filter(oturum_id=oturum["id"], gonderen="sistem").exists()  # no accept line
    # The operators' read has it, every message carrying `ozel`.
    mesajlar = ok(ortam.client.get(f"{API}/operator/chat/{oturum['id']}/messages"))["mesajlar"]
    assert [(m["icerik"], m["ozel"]) for m in mesajlar] == [("Merhaba", False), (NOT, True)]


def test_kapali_sohbete_ve_kapali_tickete_not_yazilir(ortam):
    oturum = _sohbet(ortam)
    ok(ortam.client.post(f"{API}/operator/chat/{oturum['id']}/close"))
    ok(_not(ortam, oturum["id"]), 201)
    hata(ortam.client.post(f"{API}/operator/chat/{oturum['id']}/message", {"icerik": "x"}, format="json"), 409,
         "DURUM_CAKISMASI")
    ticket = _ticket(ortam)
    ok(ortam.client.put(f"{API}/operator/ticket/{ticket['id']}/status", {"durum": "kapandi"}, format="json"))
    once = Ticket.objects.get(pk=ticket["id"])
    yanit = ok(_ticket_notu(ortam, ticket["id"]), 201)["yanit"]
    assert yanit["ozel"] is True
    sonra = Ticket.objects.get(pk=ticket["id"])
    assert (sonra.durum, sonra.guncellenme) == ("kapandi", once.guncellenme)


def test_ticket_notu_durumu_ve_guncellenmeyi_degistirmez(ortam):
    ticket = _ticket(ortam)
    ok(ortam.client.put(f"{API}/operator/ticket/{ticket['id']}/status", {"durum": "cozuldu"}, format="json"))
    once = Ticket.objects.get(pk=ticket["id"])
    ok(_ticket_notu(ortam, ticket["id"]), 201)
    sonra = Ticket.objects.get(pk=ticket["id"])
    assert (sonra.durum, sonra.guncellenme) == ("cozuldu", once.guncellenme)
    yanitlar = ok(ortam.client.get(f"{API}/operator/ticket/{ticket['id']}"))["ticket"]["yanitlar"]
    assert [(y["icerik"], y["ozel"]) for y in yanitlar] == [("Metin", False), (NOT, True)]
    # A note with a status, or mentions without a note: 400, nothing stored.
    hata(_ticket_notu(ortam, ticket["id"], durum="acik"), 400, "GECERSIZ_ISTEK")
    hata(ortam.client.post(f"{API}/operator/ticket/{ticket['id']}/reply",
                           {"icerik": "x", "bahsedilenler": [ortam.sahip.id]}, format="json"), 400, "GECERSIZ_ISTEK")
    hata(_ticket_notu(ortam, ticket["id"], ozel="evet"), 400, "GECERSIZ_ISTEK")
    assert TicketYanit.objects.filter(ticket_id=ticket["id"]).count() == 2


def test_bahsedilen_uye_degilse_404_hicbir_sey_yazilmaz(ortam):
    oturum = _sohbet(ortam)
    ticket = _ticket(ortam)
    for res in (_not(ortam, oturum["id"], bahsedilenler=[ortam.yabanci.id]),
                _not(ortam, oturum["id"], bahsedilenler=[ortam.sahip.id, 10**12]),
                _ticket_notu(ortam, ticket["id"], bahsedilenler=[ortam.yabanci.id])):
        hata(res, 404, "BULUNAMADI")
    for govde in ({"bahsedilenler": "1"}, {"bahsedilenler": [True]}, {"bahsedilenler": [0]}):
        hata(_not(ortam, oturum["id"], **govde), 400, "GECERSIZ_ISTEK")
    hata(ortam.client.post(f"{API}/operator/chat/{oturum['id']}/message",
                           {"icerik": "x", "bahsedilenler": [ortam.sahip.id]}, format="json"), 400, "GECERSIZ_ISTEK")
    assert not Mesaj.objects.filter(ozel=True).exists() and not TicketYanit.objects.filter(ozel=True).exists()
    # Another tenant's operator cannot write a note at all.
    hata(istemci(ortam.yabanci).post(f"{API}/operator/chat/{oturum['id']}/message", {"icerik": "x", "ozel": True},
                                     format="json"), 404, "BULUNAMADI")


def test_bahsedilen_uyeye_bildirimi_aciksa_e_posta(ortam, commit):
    kapali = operator_yap(ortam.m)  # an operator: alerts off by default
    oturum = _sohbet(ortam)
    ticket = _ticket(ortam)
    commit(_not, ortam, oturum["id"], bahsedilenler=[ortam.sahip.id, kapali.id])
    commit(_ticket_notu, ortam, ticket["id"], bahsedilenler=[ortam.sahip.id, ortam.op.id])  # the writer: no mail
    epostalar = GidenEposta.objects.filter(tur=GidenEposta.Tur.BAHSEDILME)
    assert sorted(e.alici for e in epostalar) == [ortam.sahip.email, ortam.sahip.email]
    assert all(NOT in e.metin for e in epostalar)
    assert {f"sohbet #{oturum['id']}" in e.konu or f"talep #{ticket['id']}" in e.konu for e in epostalar} == {True}


# --- the matrix: one test per path to the visitor -------------------------------------------
def test_sizmaz_widget_mesajlar_ve_yoklama(ortam):
    oturum = _sohbet(ortam, mesaj="Merhaba")
    ilk = ok(ortam.widget.get(f"{API}/widget/chat/messages", {"ziyaretci_id": "z1", "oturum_id": oturum["id"]}))
    son_id = ilk["mesajlar"][-1]["id"]
    ok(_not(ortam, oturum["id"]), 201)
    for params in ({}, {"sonra": son_id}, {"sonra": 0}, {"limit": 1}):
        veri = ok(ortam.widget.get(f"{API}/widget/chat/messages",
                                   {"ziyaretci_id": "z1", "oturum_id": oturum["id"], **params}))
        assert NOT not in str(veri) and all(not m["ozel"] for m in veri["mesajlar"])
    assert ok(ortam.widget.get(f"{API}/widget/chat/messages", {"ziyaretci_id": "z1", "oturum_id": oturum["id"],
                                                               "sonra": son_id}))["mesajlar"] == []
    init = ok(ortam.widget.post(f"{API}/widget/init", {"ziyaretci_id": "z1"}, format="json"))
    assert NOT not in str(init)


def test_sizmaz_widget_ticket_gorunumleri(ortam):
    ticket = _ticket(ortam)
    ok(_ticket_notu(ortam, ticket["id"]), 201)
    detay = ok(ortam.widget.get(f"{API}/widget/ticket/{ticket['id']}", {"ziyaretci_id": "z1"}))["ticket"]
    assert [y["icerik"] for y in detay["yanitlar"]] == ["Metin"]
    liste = ok(ortam.widget.get(f"{API}/widget/ticket/list", {"ziyaretci_id": "z1"}))
    cevap = ok(ortam.widget.post(f"{API}/widget/ticket/{ticket['id']}/reply", {"ziyaretci_id": "z1", "icerik": "Ek"},
                                 format="json"), 201)
    assert NOT not in str(detay) + str(liste) + str(cevap)


def test_sizmaz_sohbetten_ticket_taslagi(ortam):
    oturum = _sohbet(ortam, mesaj="Merhaba")
    ok(_not(ortam, oturum["id"]), 201)
    taslak = ok(ortam.widget.get(f"{API}/widget/chat/ticket", {"ziyaretci_id": "z1", "oturum_id": oturum["id"]}))
    assert "Merhaba" in taslak["taslak"]["mesaj"] and NOT not in str(taslak)


def test_sizmaz_sohbet_dokumu_epostasi(ortam, commit):
    oturum = _sohbet(ortam, mesaj="Merhaba")
    ok(ortam.client.post(f"{API}/operator/chat/{oturum['id']}/accept"))
    ok(ortam.client.post(f"{API}/operator/chat/{oturum['id']}/message", {"icerik": "Buyrun"}, format="json"), 201)
    ok(_not(ortam, oturum["id"]), 201)
    ok(ortam.client.post(f"{API}/operator/chat/{oturum['id']}/close"))
    commit(lambda: ok(ortam.widget.post(f"{API}/widget/chat/transcript", {"ziyaretci_id": "z1", "oturum_id": oturum["id"]},
                                        format="json"), 201))
    dokum = GidenEposta.objects.get(tur=GidenEposta.Tur.SOHBET_DOKUMU)
    assert "Buyrun" in dokum.metin and NOT not in dokum.metin + dokum.html


def test_sizmaz_ticket_epostalari(ortam, commit):
    ticket = commit(_ticket, ortam)
    commit(_ticket_notu, ortam, ticket["id"])
    assert not GidenEposta.objects.filter(tur=GidenEposta.Tur.TICKET_YANITI).exists()
    # A status change after a note: its mail is sent (the note is no reply) and holds no note.
    commit(lambda: ok(ortam.client.put(f"{API}/operator/ticket/{ticket['id']}/status", {"durum": "cozuldu"},
                                       format="json")))
    commit(lambda: ok(ortam.client.post(f"{API}/operator/ticket/{ticket['id']}/reply", {"icerik": "Yanıtımız"},
                                        format="json"), 201))
    ziyaretciye = GidenEposta.objects.filter(alici=ZIYARETCI)
    assert {e.tur for e in ziyaretciye} == {"ticket_alindi", "ticket_cozuldu", "ticket_yaniti"}
    assert all(NOT not in e.metin + e.html for e in ziyaretciye)


def test_sizmaz_cevrimdisi_yanit_epostasi(ortam, commit, settings):
    settings.EPOSTA_ZIYARETCI_AYRILDI_SANIYE = 0  # the visitor counts as gone at once
    oturum = _sohbet(ortam, mesaj="Merhaba")
    ok(ortam.client.post(f"{API}/operator/chat/{oturum['id']}/accept"))
    commit(_not, ortam, oturum["id"])
    assert not GidenEposta.objects.filter(tur=GidenEposta.Tur.CEVRIMDISI_YANIT).exists()


def test_sizmaz_webhooklar(ortam):
    oturum = _sohbet(ortam, mesaj="Merhaba")
    ticket = _ticket(ortam)
    ok(_not(ortam, oturum["id"]), 201)
    ok(_ticket_notu(ortam, ticket["id"]), 201)
    ok(ortam.client.post(f"{API}/operator/chat/{oturum['id']}/close"))
    ok(ortam.client.put(f"{API}/operator/ticket/{ticket['id']}/status", {"durum": "cozuldu"}, format="json"))
    olaylar = list(Olay.objects.all())
    assert {o.olay for o in olaylar} >= {"yeni_chat", "yeni_ticket", "chat_kapandi", "ticket_cozuldu"}
    assert all(NOT not in str(o.veri) for o in olaylar)

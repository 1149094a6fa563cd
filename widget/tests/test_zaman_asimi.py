"""Waiting chats do not wait for ever, silent chats end (issue 13).

The periodic task `chat.zaman_asimlari` is called as beat would call it; everything is checked
through the widget and operator REST API and the event outbox."""
from datetime import timedelta

import pytest
from django.utils import timezone

from chat.models import Mesaj, Oturum
from chat.tasks import zaman_asimlari
from chat.tests.yardimci import W_MESAJ, W_MESAJLAR, baslat, ok, op_url, operator_istemcisi, widget_client
from tenants.tests.test_auth import hata
from webhooks.models import Olay

pytestmark = pytest.mark.django_db
TICKET = "/api/v1/widget/chat/ticket"


def _eskit(oturum_id, *, dakika: int, alan: str = "baslangic"):
    Oturum.objects.filter(pk=oturum_id).update(**{alan: timezone.now() - timedelta(minutes=dakika)})
    Mesaj.objects.filter(oturum_id=oturum_id).update(zaman=timezone.now() - timedelta(minutes=dakika))


def _yokla(widget, oturum_id, ziyaretci_id="z-1"):
    return ok(widget.get(W_MESAJLAR, {"ziyaretci_id": ziyaretci_id, "oturum_id": oturum_id}))


def test_kimse_yokken_bekleyen_sohbete_ticket_onerilir_ve_ticket_olunca_sistem_kapatir(musteri):
    assert musteri.bekleme_zaman_asimi_dk == 10
    # Someone is online when the chat starts (so it waits, CONTRACT 15), then goes offline.
    _, client = operator_istemcisi(musteri, durum="cevrimici")
    widget = widget_client(musteri)
    o = baslat(widget, ad="Ayşe", email="ayse@ornek.com", mesaj="Faturam iki kez kesildi")
    assert o["ticket_onerisi"] is False
    ok(client.post("/api/v1/operator/status", {"durum": "cevrimdisi"}, format="json"))
    ok(widget.post(W_MESAJ, {"ziyaretci_id": "z-1", "oturum_id": o["id"], "icerik": "Orada mısınız?"}, format="json"), 201)
    _eskit(o["id"], dakika=9)
    assert zaman_asimlari() == {"ticket_onerilen": 0, "sessiz_kapanan": 0}  # not yet 10 minutes
    assert _yokla(widget, o["id"])["oturum"]["ticket_onerisi"] is False
    _eskit(o["id"], dakika=11)
    assert zaman_asimlari()["ticket_onerilen"] == 1
    assert zaman_asimlari()["ticket_onerilen"] == 0  # offered once
    data = _yokla(widget, o["id"])
    assert data["oturum"]["ticket_onerisi"] is True and data["oturum"]["durum"] == "bekliyor"
    son = data["mesajlar"][-1]
    assert son["gonderen"] == "sistem" and "destek talebine" in son["icerik"]

    taslak = ok(widget.get(TICKET, {"ziyaretci_id": "z-1", "oturum_id": o["id"]}))["taslak"]
    assert (taslak["konu"], taslak["ad"], taslak["email"]) == ("Faturam iki kez kesildi", "Ayşe", "ayse@ornek.com")
    assert "Ayşe: Faturam iki kez kesildi" in taslak["mesaj"] and "Ayşe: Orada mısınız?" in taslak["mesaj"]
    # another visitor cannot read or convert it
    hata(widget.get(TICKET, {"ziyaretci_id": "baska", "oturum_id": o["id"]}), 404, "BULUNAMADI")
    hata(widget.post(TICKET, {"ziyaretci_id": "baska", "oturum_id": o["id"]}, format="json"), 404, "BULUNAMADI")

    res = ok(widget.post(TICKET, {"ziyaretci_id": "z-1", "oturum_id": o["id"]}, format="json"), 201)
    ticket, oturum = res["ticket"], res["oturum"]
    assert (ticket["konu"], ticket["email"], ticket["ad"]) == ("Faturam iki kez kesildi", "ayse@ornek.com", "Ayşe")
    assert ticket["yanitlar"][0]["icerik"] == taslak["mesaj"]
    assert ticket["oturum_id"] == o["id"]  # linked both ways (CONTRACT 24), as an operator's conversion
    assert (oturum["durum"], oturum["kapatan"], oturum["ticket_onerisi"]) == ("kapandi", "sistem", False)
    assert f"#{ticket['id']}" in _yokla(widget, o["id"])["mesajlar"][-1]["icerik"]
    [kapandi] = Olay.objects.filter(olay="chat_kapandi")
    assert kapandi.veri["kapatan"] == "sistem" and kapandi.veri["oturum_id"] == o["id"]
    assert Olay.objects.filter(olay="yeni_ticket", veri__ticket_id=ticket["id"]).count() == 1
    # the ticket is the visitor's, in its list; the chat cannot be converted twice
    assert [t["id"] for t in ok(widget.get("/api/v1/widget/ticket/list", {"ziyaretci_id": "z-1"}))["ticketlar"]] \
        == [ticket["id"]]
    hata(widget.post(TICKET, {"ziyaretci_id": "z-1", "oturum_id": o["id"]}, format="json"), 409, "DURUM_CAKISMASI")


def test_ziyaretci_konu_ve_metni_degistirebilir_kotu_girdi_bir_sey_saklamaz(musteri):
    widget = widget_client(musteri)
    o = baslat(widget, mesaj="Selam")
    hata(widget.post(TICKET, {"ziyaretci_id": "z-1", "oturum_id": o["id"], "email": "yok"}, format="json"),
         400, "GECERSIZ_ISTEK")
    hata(widget.post(TICKET, {"ziyaretci_id": "z-1", "oturum_id": o["id"], "konu": "x" * 201}, format="json"),
         400, "GECERSIZ_ISTEK")
    assert Oturum.objects.get(pk=o["id"]).durum == "bekliyor" and not Olay.objects.filter(olay="yeni_ticket").exists()
    res = ok(widget.post(TICKET, {"ziyaretci_id": "z-1", "oturum_id": o["id"], "konu": "İade", "mesaj": "Kısaca: iade",
                                  "email": "yeni@ornek.com"}, format="json"), 201)
    assert (res["ticket"]["konu"], res["ticket"]["email"]) == ("İade", "yeni@ornek.com")
    assert res["ticket"]["yanitlar"][0]["icerik"] == "Kısaca: iade"


def test_cevrimici_operator_varken_oneri_yok_aktif_sohbet_donusturulemez(musteri):
    user, client = operator_istemcisi(musteri)
    ok(client.post("/api/v1/operator/status", {"durum": "cevrimici"}, format="json"))
    widget = widget_client(musteri)
    o = baslat(widget, mesaj="Selam")
    _eskit(o["id"], dakika=60)
    assert zaman_asimlari()["ticket_onerilen"] == 0
    assert _yokla(widget, o["id"])["oturum"]["ticket_onerisi"] is False
    ok(client.post(op_url(o["id"], "accept")))
    hata(widget.post(TICKET, {"ziyaretci_id": "z-1", "oturum_id": o["id"]}, format="json"), 409, "DURUM_CAKISMASI")


def test_sessiz_aktif_sohbeti_sistem_kapatir(musteri):
    assert musteri.sessiz_kapatma_dk == 30
    user, client = operator_istemcisi(musteri)
    widget = widget_client(musteri)
    sessiz = baslat(widget, "sessiz", mesaj="Selam")
    canli = baslat(widget, "canli", mesaj="Selam")
    for o in (sessiz, canli):
        ok(client.post(op_url(o["id"], "accept")))
        _eskit(o["id"], dakika=45, alan="kabul_zamani")
    # a message a minute ago keeps `canli` open
    ok(widget.post(W_MESAJ, {"ziyaretci_id": "canli", "oturum_id": canli["id"], "icerik": "Hâlâ buradayım"},
                   format="json"), 201)
    assert zaman_asimlari() == {"ticket_onerilen": 0, "sessiz_kapanan": 1}
    data = _yokla(widget, sessiz["id"], "sessiz")
    assert (data["oturum"]["durum"], data["oturum"]["kapatan"]) == ("kapandi", "sistem")
    assert data["mesajlar"][-1]["gonderen"] == "sistem" and "Uzun süredir" in data["mesajlar"][-1]["icerik"]
    assert ok(client.get(op_url(canli["id"], "messages")))["oturum"]["durum"] == "aktif"
    [olay] = Olay.objects.filter(olay="chat_kapandi")
    assert (olay.veri["oturum_id"], olay.veri["kapatan"]) == (sessiz["id"], "sistem")
    # the visitor may still rate the chat the system closed
    ok(widget.post("/api/v1/widget/chat/rate", {"ziyaretci_id": "sessiz", "oturum_id": sessiz["id"], "puan": 4},
                   format="json"))


def test_beat_gorevi_tanimli(settings):
    gorev = settings.CELERY_BEAT_SCHEDULE["sohbet-zaman-asimlari"]
    assert gorev["task"] == "chat.zaman_asimlari" and gorev["schedule"] <= 60


@pytest.mark.parametrize("oturum_id", ["²", "٣", "9" * 5000, "-1", "1.0"])
def test_sohbet_ticket_taslagi_gecersiz_oturum_id_400_verir_500_degil(musteri, oturum_id):
    widget = widget_client(musteri)
    baslat(widget)
    hata(widget.get(TICKET, {"ziyaretci_id": "z-1", "oturum_id": oturum_id}), 400, "GECERSIZ_ISTEK")

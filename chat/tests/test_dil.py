"""A chat's language (CONTRACT 19): fixed when it starts (the widget's: the tenant's `dil`,
`otomatik` following the visitor's browser), and every `sistem` line is written in it when made,
whoever asks and in whatever language the request or the background task runs. Checked through
the widget's REST and the operator's API; the timed rules are called as beat calls them."""
from datetime import timedelta

import pytest
from django.utils import timezone, translation

from chat.models import Mesaj, Oturum
from chat.tasks import atama_taramasi, zaman_asimlari
from tenants.ayarlar import TICKET_TEKLIFI, kapali_metni
from tenants.tests.test_auth import hata

from .yardimci import W_BITIR, W_MESAJ, W_MESAJLAR, baslat, ok, op_url, operator_istemcisi, widget_client

pytestmark = pytest.mark.django_db
STATUS = "/api/v1/operator/status"
TICKET = "/api/v1/widget/chat/ticket"

EN = {
    "katildi": "Agent joined the chat.",
    "katildi_adli": "Deniz joined the chat.",
    "aktarildi": "The chat was transferred to another agent.",
    "aktarildi_adli": "The chat was transferred to Deniz.",
    "siraya_alindi": "The chat is back in the queue; the next available agent will reply to you.",
    "operator_kapatti": "The chat was ended by the agent.",
    "ziyaretci_kapatti": "The chat was ended by the visitor.",
    "ticket_onerisi": "No agents are online right now. Instead of waiting, you can turn this chat into a support "
                      "ticket and we'll get back to you by email.",
    "ticketa_donustu": "The chat was turned into support ticket #{id}.",
    "sessiz": "The chat was closed after a long period without messages. Write again to start a new chat.",
    "taslak": "Created from chat #{id}.",
}
TR = {
    "katildi": "Temsilci sohbete katıldı.",
    "katildi_adli": "Deniz sohbete katıldı.",
    "aktarildi": "Sohbet başka bir temsilciye aktarıldı.",
    "aktarildi_adli": "Sohbet Deniz adlı temsilciye aktarıldı.",
    "siraya_alindi": "Sohbet yeniden sıraya alındı; ilk uygun temsilci size yanıt verecek.",
    "operator_kapatti": "Sohbet temsilci tarafından sonlandırıldı.",
    "ziyaretci_kapatti": "Sohbet ziyaretçi tarafından sonlandırıldı.",
    "ticket_onerisi": "Şu an çevrimiçi temsilcimiz yok. Beklemek yerine bu sohbeti destek talebine dönüştürebilirsiniz; "
                      "size e-postayla döneriz.",
    "ticketa_donustu": "Sohbet #{id} numaralı destek talebine dönüştürüldü.",
    "sessiz": "Uzun süredir mesaj yazılmadığı için sohbet kapatıldı. Yeniden yazarak yeni bir sohbet başlatabilirsiniz.",
    "taslak": "Sohbet #{id} üzerinden oluşturuldu.",
}

# (tenant's `dil`, the visitor's browser, the chat's language)
DURUMLAR = [
    ("otomatik", "en-US,en;q=0.9", "en"),
    ("en", "tr-TR,tr;q=0.9", "en"),
    ("tr", "en-US,en;q=0.9", "tr"),
    ("otomatik", "de-DE,fr;q=0.8", "tr"),
]


def _proje(musteri, dil: str):
    musteri.dil = dil
    musteri.save(update_fields=["dil"])
    return musteri


def _ulasilabilir(musteri, *, ad: str = "", dil_basligi: str = "tr"):
    """An operator of `musteri` online through the API (so a new chat waits for it, CONTRACT 15).
    Its own requests say `dil_basligi`: the chat's lines must not follow the reader's language."""
    user, client = operator_istemcisi(musteri)
    if ad:
        user.ad = ad
        user.save(update_fields=["ad"])
    client.credentials(**client._credentials, HTTP_ACCEPT_LANGUAGE=dil_basligi)
    ok(client.post(STATUS, {"durum": "cevrimici"}, format="json"))
    return user, client


def _sistem_satirlari(data) -> list[str]:
    return [m["icerik"] for m in data["mesajlar"] if m["gonderen"] == "sistem"]


def _iki_yandan(widget, client, oturum_id, ziyaretci_id="z-1") -> list[str]:
    """The chat's `sistem` lines as the visitor's widget and as the operator's API serve them
    (the same stored text for both)."""
    widgettan = _sistem_satirlari(ok(widget.get(W_MESAJLAR, {"ziyaretci_id": ziyaretci_id, "oturum_id": oturum_id})))
    operatorden = _sistem_satirlari(ok(client.get(op_url(oturum_id, "messages"))))
    assert widgettan == operatorden
    return widgettan


@pytest.mark.parametrize(("proje_dili", "tarayici", "dil"), DURUMLAR)
def test_operator_moves_write_the_chats_language(musteri, proje_dili, tarayici, dil):
    _proje(musteri, proje_dili)
    metin = EN if dil == "en" else TR
    bir, bir_client = _ulasilabilir(musteri, dil_basligi="tr" if dil == "en" else "en")
    iki, iki_client = _ulasilabilir(musteri, ad="Deniz", dil_basligi="en")
    widget = widget_client(musteri, HTTP_ACCEPT_LANGUAGE=tarayici)
    o = baslat(widget, mesaj="Hello / Merhaba")
    assert (o["durum"], o["ticket_onerisi"]) == ("bekliyor", False)
    assert Oturum.objects.get(pk=o["id"]).dil == dil

    ok(bir_client.post(op_url(o["id"], "accept")))
    ok(bir_client.post(op_url(o["id"], "transfer"), {"operator_id": iki.id}, format="json"))
    ok(iki_client.post(op_url(o["id"], "transfer"), {"operator_id": None}, format="json"))
    ok(iki_client.post(op_url(o["id"], "accept")))
    ok(iki_client.post(op_url(o["id"], "close")))
    assert _iki_yandan(widget, bir_client, o["id"]) == [
        metin["katildi"], metin["aktarildi_adli"], metin["siraya_alindi"], metin["katildi_adli"], metin["operator_kapatti"]]

    # The visitor's own close, on a second chat.
    o2 = baslat(widget, "z-2", mesaj="Again / Yine")
    ok(bir_client.post(op_url(o2["id"], "accept")))
    ok(widget.post(W_BITIR, {"ziyaretci_id": "z-2", "oturum_id": o2["id"]}, format="json"))
    assert _iki_yandan(widget, bir_client, o2["id"], "z-2") == [metin["katildi"], metin["ziyaretci_kapatti"]]


@pytest.mark.parametrize(("proje_dili", "tarayici", "dil"), DURUMLAR[:3])
@pytest.mark.parametrize("kendi_metni", ["", "Bayramdayız, 2 Ocak'ta döneriz."])
def test_the_offer_at_a_start_outside_hours_is_made_in_the_chats_language(musteri, proje_dili, tarayici, dil,
                                                                          kendi_metni):
    """The closed text and the offer (tenants.ayarlar) as the chat's language makes them, not the
    request's; the tenant's own `mesai_disi_mesaji` is its text and stays as written."""
    musteri.calisma_saatleri, musteri.mesai_disi_mesaji = {}, kendi_metni  # closed, no opening ahead
    musteri.save(update_fields=["calisma_saatleri", "mesai_disi_mesaji"])
    _proje(musteri, proje_dili)
    widget = widget_client(musteri, HTTP_ACCEPT_LANGUAGE=tarayici)
    o = baslat(widget, mesaj="Merhaba")
    assert o["ticket_onerisi"] is True
    with translation.override(dil):
        beklenen = f"{kapali_metni(musteri)} {TICKET_TEKLIFI}"
    if kendi_metni:
        assert beklenen.startswith(kendi_metni + " ")
    _, client = operator_istemcisi(musteri)
    assert _iki_yandan(widget, client, o["id"]) == [beklenen]


@pytest.mark.parametrize(("proje_dili", "tarayici", "dil"), DURUMLAR)
def test_the_offer_at_a_start_inside_hours_with_nobody_reachable_is_made_in_the_chats_language(
        musteri, proje_dili, tarayici, dil):
    """CONTRACT 15 (nobody reachable, open) and 19: the "nobody online" line and the offer in the
    chat's language, whatever the request's."""
    _proje(musteri, proje_dili)  # always open (no hours), and no member online
    widget = widget_client(musteri, HTTP_ACCEPT_LANGUAGE=tarayici)
    o = baslat(widget, mesaj="Merhaba")
    assert (o["durum"], o["ticket_onerisi"]) == ("bekliyor", True)
    beklenen = {"en": "No agents are online right now. Instead of waiting, you can leave a support request and "
                      "we'll get back to you by email.",
                "tr": "Şu an çevrimiçi temsilcimiz yok. Beklemek yerine bir destek talebi bırakabilirsiniz; size "
                      "e-postayla döneriz."}[dil]
    _, client = operator_istemcisi(musteri)
    assert _iki_yandan(widget, client, o["id"]) == [beklenen]


def _eskit(oturum_id, *, dakika: int, alan: str = "baslangic"):
    Oturum.objects.filter(pk=oturum_id).update(**{alan: timezone.now() - timedelta(minutes=dakika)})
    Mesaj.objects.filter(oturum_id=oturum_id).update(zaman=timezone.now() - timedelta(minutes=dakika))


@pytest.mark.parametrize(("proje_dili", "tarayici", "dil"), DURUMLAR[:3])
@pytest.mark.parametrize("etkin_dil", ["tr", "en"])
def test_the_timed_ticket_offer_and_the_ticket_speak_the_chats_language(musteri, proje_dili, tarayici, dil, etkin_dil):
    _proje(musteri, proje_dili)
    metin = EN if dil == "en" else TR
    _, client = _ulasilabilir(musteri)
    widget = widget_client(musteri, HTTP_ACCEPT_LANGUAGE=tarayici)
    o = baslat(widget, ad="Ayşe", email="ayse@ornek.com", mesaj="Faturam / My invoice")
    assert o["ticket_onerisi"] is False
    ok(client.post(STATUS, {"durum": "cevrimdisi"}, format="json"))
    _eskit(o["id"], dakika=11)
    # Beat runs the rule with no request behind it, in whatever language its process has active.
    with translation.override(etkin_dil):
        assert zaman_asimlari()["ticket_onerilen"] == 1
    data = ok(widget.get(W_MESAJLAR, {"ziyaretci_id": "z-1", "oturum_id": o["id"]}))
    assert data["oturum"]["ticket_onerisi"] is True
    assert _sistem_satirlari(data) == [metin["ticket_onerisi"]]

    # The draft and the ticket made of it are the chat's language too.
    taslak = ok(widget.get(TICKET, {"ziyaretci_id": "z-1", "oturum_id": o["id"]}))["taslak"]
    assert taslak["mesaj"].startswith(metin["taslak"].format(id=o["id"]) + "\n\n")
    yeni = ok(widget.post(TICKET, {"ziyaretci_id": "z-1", "oturum_id": o["id"]}, format="json"), 201)
    ticket_id = yeni["ticket"]["id"]
    assert yeni["ticket"]["yanitlar"][0]["icerik"] == taslak["mesaj"]
    assert _iki_yandan(widget, client, o["id"]) == [metin["ticket_onerisi"], metin["ticketa_donustu"].format(id=ticket_id)]
    from tickets.models import Ticket

    assert Ticket.objects.get(pk=ticket_id).dil == dil


@pytest.mark.parametrize(("proje_dili", "tarayici", "dil"), DURUMLAR[:3])
@pytest.mark.parametrize("etkin_dil", ["tr", "en"])
def test_the_silent_close_of_the_periodic_task_writes_the_chats_language(musteri, proje_dili, tarayici, dil, etkin_dil):
    _proje(musteri, proje_dili)
    metin = EN if dil == "en" else TR
    _, client = _ulasilabilir(musteri, dil_basligi=etkin_dil)
    widget = widget_client(musteri, HTTP_ACCEPT_LANGUAGE=tarayici)
    o = baslat(widget, mesaj="Selam / Hi")
    ok(client.post(op_url(o["id"], "accept")))
    _eskit(o["id"], dakika=45, alan="kabul_zamani")
    with translation.override(etkin_dil):
        assert zaman_asimlari()["sessiz_kapanan"] == 1
    assert _iki_yandan(widget, client, o["id"]) == [metin["katildi"], metin["sessiz"]]


@pytest.mark.parametrize(("dil", "etkin_dil"), [("en", "tr"), ("tr", "en")])
def test_routing_lines_of_the_periodic_sweep_write_the_chats_language(musteri, dil, etkin_dil):
    """Automatic assignment (`sirayla`) and the sweep that takes a chat from an operator who is
    no longer reachable (a background task: no request, any active language)."""
    musteri.atama_modu = "sirayla"
    musteri.save(update_fields=["atama_modu"])
    _proje(musteri, dil)
    _, client = _ulasilabilir(musteri, dil_basligi=etkin_dil)
    widget = widget_client(musteri, HTTP_ACCEPT_LANGUAGE="en" if dil == "tr" else "tr")
    o = baslat(widget, mesaj="Selam / Hi")
    assert o["durum"] == "aktif"  # assigned at once
    ok(client.post(STATUS, {"durum": "cevrimdisi"}, format="json"))
    with translation.override(etkin_dil):
        atama_taramasi()
    satirlar = _sistem_satirlari(ok(widget.get(W_MESAJLAR, {"ziyaretci_id": "z-1", "oturum_id": o["id"]})))
    if dil == "en":
        assert satirlar == ["Agent joined the chat.", "The agent went offline; the chat is back in the queue and "
                                                      "the next available agent will reply to you."]
    else:
        assert satirlar == ["Temsilci sohbete katıldı.", "Temsilci çevrimdışı oldu; sohbet yeniden sıraya alındı, "
                                                         "ilk uygun temsilci size yanıt verecek."]


def test_a_later_change_of_the_tenants_language_rewrites_nothing(musteri):
    _proje(musteri, "en")
    _, client = _ulasilabilir(musteri)
    widget = widget_client(musteri)
    o = baslat(widget, mesaj="Hi")
    ok(client.post(op_url(o["id"], "accept")))
    _proje(musteri, "tr")
    # The chat keeps the language it started in, for its old lines and its new ones.
    ok(client.post(op_url(o["id"], "close")))
    assert _iki_yandan(widget, client, o["id"]) == [EN["katildi"], EN["operator_kapatti"]]
    # A chat started now speaks the new one.
    o2 = baslat(widget, "z-2", mesaj="Selam")
    ok(client.post(op_url(o2["id"], "accept")))
    assert _iki_yandan(widget, client, o2["id"], "z-2") == [TR["katildi"]]


def test_a_chat_started_by_the_tenants_server_speaks_the_tenants_language(musteri):
    """`kanal: api` (a start by the tenant's own server): the tenant's `dil` when tr or en, not the
    caller's header; `otomatik` is the default."""
    _, client = _ulasilabilir(musteri)
    sunucu = widget_client(musteri, HTTP_ACCEPT_LANGUAGE="en-US")
    for proje_dili, beklenen in (("en", "en"), ("otomatik", "tr"), ("tr", "tr")):
        _proje(musteri, proje_dili)
        o = baslat(sunucu, f"sunucu-{proje_dili}", kanal="api", mesaj="Merhaba")
        assert Oturum.objects.get(pk=o["id"]).dil == beklenen
        ok(client.post(op_url(o["id"], "accept")))
        assert _iki_yandan(sunucu, client, o["id"], f"sunucu-{proje_dili}") == [(EN if beklenen == "en" else TR)["katildi"]]


@pytest.mark.parametrize(("baslik", "kabul", "kapali", "eposta"), [
    ("en-US,en;q=0.9", "The chat is not waiting in the queue; it cannot be accepted.",
     "The chat is closed; no new messages can be sent.", "Must be a valid email address."),
    ("tr", "Sohbet sırada beklemiyor; kabul edilemez.", "Sohbet kapanmış; yeni mesaj gönderilemez.",
     "Geçerli bir e-posta adresi olmalı."),
])
def test_api_errors_follow_the_requests_language(musteri, baslik, kabul, kapali, eposta):
    """Errors are the reader's (Accept-Language), not the chat's: kod and field names never change."""
    _proje(musteri, "tr" if baslik.startswith("en") else "en")
    _, client = _ulasilabilir(musteri, dil_basligi=baslik)
    widget = widget_client(musteri, HTTP_ACCEPT_LANGUAGE=baslik)
    o = baslat(widget, mesaj="Selam")
    ok(client.post(op_url(o["id"], "accept")))
    assert hata(client.post(op_url(o["id"], "accept")), 409, "DURUM_CAKISMASI")["hata"]["mesaj"] == kabul
    ok(widget.post(W_BITIR, {"ziyaretci_id": "z-1", "oturum_id": o["id"]}, format="json"))
    yanit = widget.post(W_MESAJ, {"ziyaretci_id": "z-1", "oturum_id": o["id"], "icerik": "?"}, format="json")
    assert hata(yanit, 409, "DURUM_CAKISMASI")["hata"]["mesaj"] == kapali
    yanit = widget.post("/api/v1/widget/chat/start", {"ziyaretci_id": "z-3", "email": "yok"}, format="json")
    assert hata(yanit, 400, "GECERSIZ_ISTEK")["hata"]["alanlar"]["email"] == eposta


@pytest.mark.parametrize(("proje_dili", "tarayici", "dil"), DURUMLAR)
def test_the_closed_text_in_the_widgets_answers_is_the_widgets_language(musteri, proje_dili, tarayici, dil):
    """`data.mesai.mesaj` (init, start, the poll and its snapshot, the end) follows the widget's
    language (the tenant's; `otomatik`: the browser's), not the request's."""
    musteri.calisma_saatleri, musteri.mesai_disi_mesaji = {}, ""  # closed, the service's own text
    musteri.save(update_fields=["calisma_saatleri", "mesai_disi_mesaji"])
    _proje(musteri, proje_dili)
    with translation.override(dil):
        beklenen = kapali_metni(musteri)
    widget = widget_client(musteri, HTTP_ACCEPT_LANGUAGE=tarayici)
    assert ok(widget.post("/api/v1/widget/init", {"ziyaretci_id": "z-1"}, format="json"))["mesai"]["mesaj"] == beklenen
    basladi = ok(widget.post("/api/v1/widget/chat/start", {"ziyaretci_id": "z-1", "mesaj": "Selam"}, format="json"), 201)
    assert basladi["mesai"]["mesaj"] == beklenen
    sorgu = {"ziyaretci_id": "z-1", "oturum_id": basladi["oturum"]["id"]}
    son = _sistem_satirlari(ok(widget.get(W_MESAJLAR, sorgu)))
    for _ in range(2):  # the second idle poll is served from the chat's snapshot
        yoklama = ok(widget.get(W_MESAJLAR, {**sorgu, "sonra": 10**9}))
        assert yoklama["mesai"]["mesaj"] == beklenen and yoklama["mesajlar"] == []
    assert son and ok(widget.post(W_BITIR, sorgu, format="json"))["mesai"]["mesaj"] == beklenen

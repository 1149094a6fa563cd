"""A chat's first-response target in the operator shapes (CONTRACT 17, 24; chat/sla.py): `sla:
{"ilk_yanit"}` shaped as a ticket's, from the tenant's `chat_ilk_yanit_sn`; met by the first operator
message that is not a note (accepting is none); the sweep announces each warning and breach once."""
from datetime import timedelta

import pytest
from django.db.models import F

from chat import sla
from chat.models import Oturum
from eposta.models import GidenEposta
from supportdesk.core import olaylar
from supportdesk.core.fields import utc_iso
from webhooks.endpointler import webhook_endpoint_olustur
from webhooks.teslimat import teslimatlari_simdi_gonder

from .yardimci import CHATS, baslat, ok, op_url, operator_istemcisi, widget_client

pytestmark = pytest.mark.django_db


def _politika(op, musteri, **alanlar):
    govde = {"aktif": True, "mesai_icinde": False, "uyari_dk": 1, "chat_ilk_yanit_sn": 300, **alanlar}
    ok(op.put(f"/api/v1/operator/tenants/{musteri.id}/sla", govde, format="json"))


def _geri_al(oturum_id, saniye):
    fark = timedelta(seconds=saniye)
    Oturum.objects.filter(pk=oturum_id).update(**{a: F(a) - fark for a in ("baslangic", "sla_ilk_vade", "sla_ilk_uyari")})


def _satir(op, oturum_id):
    return next(o for o in ok(op.get(CHATS))["oturumlar"] if o["id"] == oturum_id)


@pytest.fixture
def yonetici(musteri):
    return operator_istemcisi(musteri, rol="yonetici")


def test_no_policy_no_target(musteri, yonetici):
    _, op = yonetici
    o = baslat(widget_client(musteri))
    assert _satir(op, o["id"])["sla"] == {"ilk_yanit": None}
    _politika(op, musteri, chat_ilk_yanit_sn=None)
    o2 = baslat(widget_client(musteri), ziyaretci_id="z-2")
    assert _satir(op, o2["id"])["sla"] == {"ilk_yanit": None}


def test_running_then_met_by_the_first_message_not_the_accept_nor_a_note(musteri, yonetici):
    _, op = yonetici
    _politika(op, musteri)
    o = baslat(widget_client(musteri))
    s = _satir(op, o["id"])["sla"]["ilk_yanit"]
    assert s["durum"] == "bekliyor" and 290 <= s["kalan_sn"] <= 300 and s["hedef"]
    ok(op.post(op_url(o["id"], "accept")))
    ok(op.post(op_url(o["id"], "message"), {"icerik": "not", "ozel": True}, format="json"), 201)
    assert _satir(op, o["id"])["sla"]["ilk_yanit"]["durum"] == "bekliyor"
    ok(op.post(op_url(o["id"], "message"), {"icerik": "Merhaba"}, format="json"), 201)
    s = ok(op.get(op_url(o["id"], "messages")))["oturum"]["sla"]["ilk_yanit"]
    assert s == {"hedef": s["hedef"], "durum": "karsilandi", "kalan_sn": None}


def test_late_shows_breached_and_a_late_answer_keeps_it_announcing_once(musteri, yonetici):
    _, op = yonetici
    _politika(op, musteri)
    o = baslat(widget_client(musteri))
    _geri_al(o["id"], 301)
    s = _satir(op, o["id"])["sla"]["ilk_yanit"]
    assert s["durum"] == "ihlal" and s["kalan_sn"] < 0
    duyulan = []

    def kaydet(olay):
        duyulan.append((olay.olay, olay.veri["oturum_id"]))

    olaylar.dinle("chat_sla_ihlal", "chat_sla_uyari", islem_icinde=True)(kaydet)
    try:
        ok(op.post(op_url(o["id"], "message"), {"icerik": "Geç kaldım"}, format="json"), 201)
        assert sla.tara() == {"uyari": 0, "ihlal": 0}
    finally:
        olaylar.dinlemeyi_birak(kaydet)
    assert duyulan == [("chat_sla_ihlal", o["id"])]
    assert _satir(op, o["id"])["sla"]["ilk_yanit"]["durum"] == "ihlal"


def test_the_sweep_warns_then_breaches_each_once(musteri, yonetici):
    _, op = yonetici
    _politika(op, musteri)
    o = baslat(widget_client(musteri))
    assert sla.tara() == {"uyari": 0, "ihlal": 0}
    _geri_al(o["id"], 250)  # 50 s left: within `uyari_dk` (1 min)
    assert sla.tara() == {"uyari": 1, "ihlal": 0}
    assert sla.tara() == {"uyari": 0, "ihlal": 0}
    _geri_al(o["id"], 60)
    assert sla.tara() == {"uyari": 0, "ihlal": 1}
    assert sla.tara() == {"uyari": 0, "ihlal": 0}
    assert _satir(op, o["id"])["sla"]["ilk_yanit"]["durum"] == "ihlal"


def test_a_chat_closed_unanswered_in_time_owes_nothing_and_is_not_swept(musteri, yonetici):
    _, op = yonetici
    _politika(op, musteri)
    o = baslat(widget_client(musteri))
    ok(op.post(op_url(o["id"], "close")))
    _geri_al(o["id"], 400)
    assert sla.tara() == {"uyari": 0, "ihlal": 0}
    kapali = ok(op.get(CHATS, {"durum": "kapandi"}))["oturumlar"][0]
    assert kapali["sla"] == {"ilk_yanit": None}


def test_the_widget_shape_carries_no_sla_nor_ticket(musteri, yonetici):
    _, op = yonetici
    _politika(op, musteri)
    o = baslat(widget_client(musteri))
    assert "sla" not in o and "ticket_id" not in o


def test_the_sweep_is_a_periodic_task_at_the_tickets_interval(settings):
    gorev, bilet = settings.CELERY_BEAT_SCHEDULE["sohbet-sla-tarama"], settings.CELERY_BEAT_SCHEDULE["sla-tarama"]
    assert gorev["task"] == "chat.sla_tara" and gorev["schedule"] == bilet["schedule"]


def test_a_snoozed_chat_s_clock_pauses_keeping_its_time_and_runs_again_on_wake(musteri, yonetici):
    _, op = yonetici
    _politika(op, musteri)
    w = widget_client(musteri)
    o = baslat(w)
    _geri_al(o["id"], 100)  # 200 s left
    ok(op.post(op_url(o["id"], "ertele"), {"kadar": None}, format="json"))
    s = ok(op.get(CHATS, {"gorunum": "ertelenen"}))["oturumlar"][0]["sla"]["ilk_yanit"]
    assert s["durum"] == "duraklatildi" and s["hedef"] is None and 190 <= s["kalan_sn"] <= 200
    _geri_al(o["id"], 3600)  # an hour snoozed: nothing is due, nothing announced
    assert sla.tara() == {"uyari": 0, "ihlal": 0}
    # The visitor writes: the chat wakes and its clock runs again with the time it had left.
    ok(w.post("/api/v1/widget/chat/message", {"ziyaretci_id": "z-1", "oturum_id": o["id"], "icerik": "Orada mısınız?"},
              format="json"), 201)
    s = _satir(op, o["id"])["sla"]["ilk_yanit"]
    assert s["durum"] == "bekliyor" and 185 <= s["kalan_sn"] <= 200
    # Snoozed again and woken by the operator (DELETE): the same; answered while snoozed: met.
    ok(op.post(op_url(o["id"], "ertele"), {"kadar": None}, format="json"))
    ok(op.delete(op_url(o["id"], "ertele")))
    assert _satir(op, o["id"])["sla"]["ilk_yanit"]["durum"] == "bekliyor"
    ok(op.post(op_url(o["id"], "ertele"), {"kadar": None}, format="json"))
    ok(op.post(op_url(o["id"], "message"), {"icerik": "Buradayım"}, format="json"), 201)
    s = ok(op.get(op_url(o["id"], "messages")))["oturum"]["sla"]["ilk_yanit"]
    assert s["durum"] == "karsilandi"


def test_a_late_chat_snoozed_stays_breached(musteri, yonetici):
    _, op = yonetici
    _politika(op, musteri)
    o = baslat(widget_client(musteri))
    _geri_al(o["id"], 400)
    ok(op.post(op_url(o["id"], "ertele"), {"kadar": None}, format="json"))
    s = ok(op.get(CHATS, {"gorunum": "ertelenen"}))["oturumlar"][0]["sla"]["ilk_yanit"]
    assert s["durum"] == "ihlal" and s["kalan_sn"] < 0
    assert sla.tara()["ihlal"] == 1


def test_a_chat_s_warning_and_breach_reach_webhooks_under_their_own_names_and_mail_nobody(musteri, yonetici,
                                                                                          webhook_alici):
    """CONTRACT 17 gives tickets' warnings and breaches a webhook; for chats it is silent, and an
    integrator expects the same news of a late chat: `chat_sla_uyari` / `chat_sla_ihlal`, the
    tickets' body with `oturum_id` (a receiver of `sla_ihlal` still gets only `ticket_id` bodies).
    No mail: a chat's target is seconds or minutes; the console's toast and sound are the alarm."""
    _, op = yonetici
    webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres("/sla"),
                             olaylar=["chat_sla_uyari", "chat_sla_ihlal", "sla_ihlal"])
    _politika(op, musteri)
    o = baslat(widget_client(musteri))
    vadeler = []
    for saniye, beklenen in ((250, {"uyari": 1, "ihlal": 0}), (60, {"uyari": 0, "ihlal": 1})):
        _geri_al(o["id"], saniye)
        vadeler.append(utc_iso(Oturum.objects.get(pk=o["id"]).sla_ilk_vade))
        assert sla.tara() == beklenen
    teslimatlari_simdi_gonder(musteri=musteri)
    gelen = sorted((i.json() for i in webhook_alici.bekle(2)), key=lambda g: g["olay"], reverse=True)
    assert [g["olay"] for g in gelen] == ["chat_sla_uyari", "chat_sla_ihlal"]
    for g, vade in zip(gelen, vadeler, strict=True):
        assert g["veri"] == {"oturum_id": o["id"], "musteri_id": musteri.id, "hedef": "ilk_yanit",
                             "son_zaman": vade, "operator_id": None, "etiketler": [], "ekip_id": None}
    assert not GidenEposta.objects.filter(tur=GidenEposta.Tur.SLA_IHLAL).exists()

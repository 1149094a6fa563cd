"""A chat's first response (CONTRACT 17): accepting is no response; the first operator message is,
kept once on the chat (`Oturum.ilk_yanit_zamani`) for the first-response target and the reports."""
import pytest

from chat.models import Mesaj, Oturum

from .yardimci import baslat, ok, op_url, operator_istemcisi, widget_client

pytestmark = pytest.mark.django_db


def test_accept_is_not_a_response_the_first_message_is_kept_once(musteri):
    _, op = operator_istemcisi(musteri)
    o = baslat(widget_client(musteri))
    ok(op.post(op_url(o["id"], "accept")))
    assert Oturum.objects.get(pk=o["id"]).ilk_yanit_zamani is None
    ok(op.post(op_url(o["id"], "message"), {"icerik": "Merhaba, nasıl yardımcı olabilirim?"}, format="json"), 201)
    ilk = Mesaj.objects.filter(oturum_id=o["id"], gonderen="operator").get()
    assert Oturum.objects.get(pk=o["id"]).ilk_yanit_zamani == ilk.zaman
    ok(op.post(op_url(o["id"], "message"), {"icerik": "Bir dakika."}, format="json"), 201)
    assert Oturum.objects.get(pk=o["id"]).ilk_yanit_zamani == ilk.zaman


def test_a_message_that_claims_a_waiting_chat_is_its_first_response(musteri):
    _, op = operator_istemcisi(musteri)
    o = baslat(widget_client(musteri))
    ok(op.post(op_url(o["id"], "message"), {"icerik": "Buradayım."}, format="json"), 201)
    ilk = Mesaj.objects.filter(oturum_id=o["id"], gonderen="operator").get()
    assert Oturum.objects.get(pk=o["id"]).ilk_yanit_zamani == ilk.zaman

"""Operators have names (issue 13): `operator_adi` on their messages, "X sohbete katıldı" on accept,
set from the portal's account page or `operator_olustur --ad`."""
import json
from io import StringIO

import pytest
from django.core.management import call_command

from portal.tests.yardimci import giris_yapmis
from tenants.models import Kullanici

from .yardimci import W_MESAJLAR, baslat, ok, op_url, operator_istemcisi, widget_client

pytestmark = pytest.mark.django_db


def _mesajlar(widget, oturum_id, ziyaretci_id="z-1"):
    return ok(widget.get(W_MESAJLAR, {"ziyaretci_id": ziyaretci_id, "oturum_id": oturum_id}))["mesajlar"]


def test_kabul_katildi_mesaji_ve_operator_adi(musteri):
    user, client = operator_istemcisi(musteri, durum="cevrimici")
    user.ad = "Ayşe Demir"
    user.save(update_fields=["ad"])
    widget = widget_client(musteri)
    o = baslat(widget, mesaj="Merhaba")
    ok(client.post(op_url(o["id"], "accept")))
    yanit = ok(client.post(op_url(o["id"], "message"), {"icerik": "Buyurun"}, format="json"), 201)["mesaj"]
    assert yanit["operator_adi"] == "Ayşe Demir"
    mesajlar = _mesajlar(widget, o["id"])
    assert [(m["gonderen"], m["operator_adi"], m["icerik"]) for m in mesajlar] == [
        ("ziyaretci", None, "Merhaba"),
        ("sistem", None, "Ayşe Demir sohbete katıldı."),
        ("operator", "Ayşe Demir", "Buyurun"),
    ]
    # the operator's own list has the same shape
    assert ok(client.get(op_url(o["id"], "messages")))["mesajlar"] == mesajlar


def test_adsiz_operator_temsilci_olarak_gorunur_e_postasi_asla(musteri):
    user, client = operator_istemcisi(musteri, durum="cevrimici")
    widget = widget_client(musteri)
    o = baslat(widget)
    ok(client.post(op_url(o["id"], "accept")))
    ok(client.post(op_url(o["id"], "message"), {"icerik": "Selam"}, format="json"), 201)
    mesajlar = _mesajlar(widget, o["id"])
    assert [m["icerik"] for m in mesajlar][0] == "Temsilci sohbete katıldı."
    assert mesajlar[-1]["operator_adi"] == "Temsilci"
    assert user.email.split("@")[0] not in json.dumps(mesajlar)


def test_portal_hesap_sayfasi_adi_ve_avatari_ayarlar(musteri):
    user, client = operator_istemcisi(musteri)
    t = giris_yapmis(user)
    res = t.get("/portal/hesap")
    assert res.status_code == 200 and "Görünen ad" in res.content.decode()
    res = t.post("/portal/hesap", {"ad": "Can", "avatar": "javascript:alert(1)"})
    assert res.status_code == 200 and "http(s)" in res.content.decode()
    assert Kullanici.objects.get(pk=user.pk).ad == ""  # bad input stores nothing
    res = t.post("/portal/hesap", {"ad": "  Can Öz ", "avatar": "https://ornek.com/can.png"})
    assert res.status_code == 302, res.content
    user.refresh_from_db()
    assert (user.ad, user.avatar) == ("Can Öz", "https://ornek.com/can.png")
    widget = widget_client(musteri)
    o = baslat(widget)
    ok(client.post(op_url(o["id"], "accept")))
    assert _mesajlar(widget, o["id"])[-1]["icerik"] == "Can Öz sohbete katıldı."


def test_operator_olustur_ad_verir(musteri):
    out = StringIO()
    call_command("operator_olustur", "--email", "yeni@ornek.com", "--sifre", "Uzun-Sifre-2026",
                 "--musteri", str(musteri.id), "--ad", "Elif Kaya", "--json", stdout=out)
    data = json.loads(out.getvalue())
    assert Kullanici.objects.get(pk=data["id"]).ad == "Elif Kaya"

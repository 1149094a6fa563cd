import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from tenants.models import Kullanici, Musteri

pytestmark = pytest.mark.django_db


def cmd_json(*args) -> dict:
    out = StringIO()
    call_command(*args, "--json", stdout=out)
    return json.loads(out.getvalue())


def test_musteri_olustur():
    data = cmd_json("musteri_olustur", "--firma-adi", "Deniz AŞ", "--izinli-origin", "https://Shop.Example.com",
                    "--kimlik-dogrulama-zorunlu")
    assert set(data) == {"id", "firma_adi", "api_key", "api_secret"}
    m = Musteri.objects.get(pk=data["id"])
    assert m.api_key == data["api_key"] and m.api_secret == data["api_secret"]
    assert m.izinli_originler == ["https://shop.example.com"]
    assert m.kimlik_dogrulama_zorunlu


@pytest.mark.parametrize("args", [["--firma-adi", "X", "--izinli-origin", "https://x.com/yol"],
                                  ["--firma-adi", "X", "--sahip", "not-an-email"], ["--firma-adi", "  "]])
def test_musteri_olustur_bad_args(args):
    with pytest.raises(CommandError):
        call_command("musteri_olustur", *args)
    assert not Musteri.objects.exists()


def test_operator_olustur_and_add_memberships():
    a = cmd_json("musteri_olustur", "--firma-adi", "A")["id"]
    b = cmd_json("musteri_olustur", "--firma-adi", "B")["id"]
    data = cmd_json("operator_olustur", "--email", "Op@Ornek.com", "--sifre", "Uzun-Sifre-2026", "--musteri", str(a),
                    "--max-chat", "2")
    assert data == {"id": data["id"], "email": "op@ornek.com", "musteri_idleri": [a]}
    again = cmd_json("operator_olustur", "--email", "op@ornek.com", "--sifre", "x", "--musteri", str(b))
    assert again == {"id": data["id"], "email": "op@ornek.com", "musteri_idleri": [a, b]}
    assert Kullanici.objects.count() == 1


@pytest.mark.parametrize("args", [["--email", "bad", "--sifre", "Uzun-Sifre-2026", "--musteri", "1"],
                                  ["--email", "a@b.com", "--sifre", "Uzun-Sifre-2026", "--musteri", "999"],
                                  ["--email", "a@b.com", "--sifre", "", "--musteri", "__A__"]])
def test_operator_olustur_bad_args(args):
    a = cmd_json("musteri_olustur", "--firma-adi", "A")["id"]
    args = [str(a) if x == "__A__" else x for x in args]
    with pytest.raises(CommandError):
        call_command("operator_olustur", *args)
    assert not Kullanici.objects.exists()


def test_demo_verisi_is_idempotent_and_logs_in(api):
    first = cmd_json("demo_verisi")
    second = cmd_json("demo_verisi")
    assert first == second
    op = first["operatorler"][0]
    assert len(op["musteri_idleri"]) == 2
    res = api.post("/api/v1/auth/login", {"email": op["email"], "sifre": op["sifre"]}, format="json")
    assert res.status_code == 200, res.content
    assert [m["id"] for m in res.json()["data"]["operator"]["musteriler"]] == op["musteri_idleri"]
    for m in first["musteriler"]:
        assert set(m) == {"id", "firma_adi", "api_key", "api_secret"}


def test_new_owner_gets_password_from_operator_olustur(api):
    data = cmd_json("musteri_olustur", "--firma-adi", "Sahipli", "--sahip", "Yeni@Sahip.com")
    owner = Kullanici.objects.get(email="yeni@sahip.com")
    assert not owner.has_usable_password()
    assert owner.uyelikler.get().rol == "sahip" and owner.musteri_id == data["id"]
    again = cmd_json("operator_olustur", "--email", "yeni@sahip.com", "--sifre", "sifre123", "--musteri", str(data["id"]))
    assert again["musteri_idleri"] == [data["id"]]
    assert owner.uyelikler.get().rol == "sahip"  # an existing membership keeps its role
    res = api.post("/api/v1/auth/login", {"email": "yeni@sahip.com", "sifre": "sifre123"}, format="json")
    assert res.status_code == 200, res.content

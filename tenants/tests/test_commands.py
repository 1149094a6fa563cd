import json
import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from eposta.models import GidenEposta
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


@pytest.mark.parametrize(("ortam", "beklenen", "olmayan"), [
    ({"LANG": "en_US.UTF-8"}, ["Demo data ready.", "owner     sahip@demo.local / Destek2026! projects [",
                               "widget key pk_", "operator console: /panel/"],
     ["hazır", "projeler", "anahtarı", "operatör", "sahip "]),
    ({"LANG": "C.UTF-8"}, ["Demo data ready.", "operator  operator@demo.local"], ["hazır", "operatör"]),
    ({}, ["Demo data ready."], ["hazır"]),
    ({"LANG": "en_US.UTF-8", "LANGUAGE": "tr:en"}, ["Demo verisi hazır."], ["Demo data"]),
    ({"LANG": "tr_TR.UTF-8"}, ["Demo verisi hazır.", "sahip     sahip@demo.local / Destek2026! projeler [",
                               "widget anahtarı pk_", "operatör  operator@demo.local", "operatör konsolu: /panel/"],
     ["Demo data", "projects", "widget key", "owner"]),
    ({"LANG": "en_GB.UTF-8", "LC_ALL": "tr_TR.UTF-8"}, ["Demo verisi hazır."], ["Demo data"]),
])
def test_demo_verisi_summary_follows_the_shells_language(monkeypatch, ortam, beklenen, olmayan):
    # `make run` prints it between the Makefile's own lines, which follow the shell's language the
    # same way (issue 39.9): Turkish under a tr_* locale, English otherwise. --json is unchanged.
    for ad in ("LC_ALL", "LANGUAGE", "LANG"):
        monkeypatch.delenv(ad, raising=False)
    for ad, deger in ortam.items():
        monkeypatch.setenv(ad, deger)
    cikti = StringIO()
    call_command("demo_verisi", stdout=cikti, no_color=True)
    metin = cikti.getvalue()
    for parca in beklenen:
        assert parca in metin, metin
    for parca in olmayan:
        assert parca not in metin, metin
    assert set(cmd_json("demo_verisi")) == {"operatorler", "musteriler"}


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


def test_json_output_is_one_object_and_nothing_else(capfd):
    # CONTRACT 10: automation reads stdout as one JSON object; a stray print or log line breaks it.
    call_command("demo_verisi", "--json")
    out, _ = capfd.readouterr()
    assert out.endswith("\n") and out.count("\n") == 1, out
    assert set(json.loads(out)) == {"operatorler", "musteriler"}


def test_bad_arguments_give_one_line_on_stderr():
    # argparse errors print a whole usage block by default; automation gets one line.
    import os
    import subprocess
    import sys

    from django.conf import settings

    env = {**os.environ, "DEBUG": "true", "DJANGO_SETTINGS_MODULE": "supportdesk.settings"}
    out = subprocess.run([sys.executable, "manage.py", "operator_olustur", "--email", "a@b.com", "--sifre", "x",
                          "--musteri", "abc", "--json"], cwd=settings.BASE_DIR, env=env, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode != 0 and out.stdout == ""
    assert len(out.stderr.strip().splitlines()) == 1 and "--musteri" in out.stderr, out.stderr
    # Errors found by the command itself are one-line CommandErrors (Django prints them as such).
    with pytest.raises(CommandError) as exc:
        call_command("operator_olustur", "--email", "a@b.com", "--sifre", "x", "--musteri", "9999")
    assert "\n" not in str(exc.value)

def test_operator_olustur_out_of_range_numbers_are_clean_errors():
    with pytest.raises(CommandError, match="9223372036854775808"):
        call_command("operator_olustur", "--email", "a@b.com", "--sifre", "x", "--musteri", "9223372036854775808")
    a = cmd_json("musteri_olustur", "--firma-adi", "A")["id"]
    with pytest.raises(CommandError, match="--max-chat"):
        call_command("operator_olustur", "--email", "a@b.com", "--sifre", "x", "--musteri", str(a), "--max-chat", "2147483648")
    assert not Kullanici.objects.exists()


@pytest.mark.parametrize(("dil", "beklenen"), [("en_US.UTF-8", "project #"), ("tr_TR.UTF-8", "proje #")])
def test_eposta_adresi_list_follows_the_shells_language(monkeypatch, musteri, dil, beklenen):
    # printed by `make run` under "Incoming mail addresses" / "Gelen e-posta adresleri"
    for ad in ("LC_ALL", "LANGUAGE"):
        monkeypatch.delenv(ad, raising=False)
    monkeypatch.setenv("LANG", dil)
    cikti = StringIO()
    call_command("eposta_adresi", stdout=cikti)
    satir = next(s for s in cikti.getvalue().splitlines() if f"#{musteri.id} " in s)
    assert satir.startswith(f"{beklenen}{musteri.id} {musteri.firma_adi}: "), satir
    assert "@" in satir


def test_demo_verisi_mails_link_to_the_site_url(settings, django_capture_on_commit_callbacks):
    # Issue 39.8: `make run` passes SITE_URL from PORT (supportdesk/tests/test_make_run.py); every
    # link in the mails the demo data writes (rendered when written, sent from the outbox) points
    # there, none to another port.
    settings.SITE_URL = "http://127.0.0.1:8123"
    with django_capture_on_commit_callbacks(execute=True):
        call_command("demo_verisi", stdout=StringIO())
    epostalar = list(GidenEposta.objects.values_list("metin", "html"))
    assert epostalar, "the demo data writes no mail: nothing to check"
    adresler = {a for metin, html in epostalar for a in re.findall(r"https?://[^/\s\"'<>]+", metin + html)}
    assert adresler == {"http://127.0.0.1:8123"}, adresler

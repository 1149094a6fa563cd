"""Backup and restore drill (`manage.py yedek_al` / `yedek_yukle`; docs/production.md, "Backups"):
a populated service (an operator, a chat with messages, a ticket with replies, an uploaded file,
all made over HTTP against a live gunicorn) is backed up, restored into a fresh database and an
empty media folder, and a gunicorn on the restored copy serves all of it: the login, the chat,
the ticket and the file's bytes. PostgreSQL and Redis only (CI has both)."""
import io
import json
import os
import re
import stat
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
import requests
from django.conf import settings
from django.core.cache import cache
from django.core.management import CommandError, call_command
from django.db import connection

from dosyalar.tests.yardimci import png_bayt
from supportdesk.testing.factories import TEST_SIFRE, MusteriFactory
from supportdesk.testing.fixtures import operator_yap
from supportdesk.testing.sunucu import gunicorn_sureci, http_cagri, psql, surec_ortami

pytestmark = [pytest.mark.django_db(transaction=True)]
KOK = Path(settings.BASE_DIR)


def _manage(ortam: dict, *args: str) -> str:
    sonuc = subprocess.run([sys.executable, "manage.py", *args], cwd=KOK, env=ortam, capture_output=True, text=True,
                           timeout=300)
    assert sonuc.returncode == 0, sonuc.stderr
    return sonuc.stdout


def _adressiz(ticket: dict) -> dict:
    return {**ticket, "yanitlar": [{**y, "ekler": [{k: v for k, v in e.items() if k != "url"} for e in y["ekler"]]}
                                   for y in ticket["yanitlar"]]}


@pytest.mark.slow
def test_yedek_alinir_bos_veritabanina_yuklenir_ve_http_ile_hepsi_orada(tmp_path):
    ortam = surec_ortami(MEDIA_ROOT=str(settings.MEDIA_ROOT))
    musteri = MusteriFactory(firma_adi="Yedek A.Ş.")
    operator = operator_yap(musteri)
    anahtar = {"X-API-Key": musteri.api_key}
    png = png_bayt()

    with gunicorn_sureci(ortam, tmp_path / "gunicorn-1.log") as url:
        api = f"{url}/api/v1"
        token = http_cagri("POST", f"{api}/auth/login", 200, json={"email": operator.email, "sifre": TEST_SIFRE})["token"]
        yetki = {"Authorization": f"Bearer {token}"}
        oturum = http_cagri("POST", f"{api}/widget/chat/start", 201, headers=anahtar,
                        json={"ziyaretci_id": "y1", "mesaj": "Siparişim nerede?"})["oturum"]
        http_cagri("POST", f"{api}/operator/chat/{oturum['id']}/accept", 200, headers=yetki, json={})
        cevap = http_cagri("POST", f"{api}/operator/chat/{oturum['id']}/message", 201, headers=yetki,
                       json={"icerik": "Kargoya verildi."})["mesaj"]
        ticket = http_cagri("POST", f"{api}/widget/ticket/create", 201, headers=anahtar,
                        json={"ziyaretci_id": "y1", "konu": "Fatura", "mesaj": "Faturam görünmüyor."})["ticket"]
        dosya = http_cagri("POST", f"{api}/widget/upload", 201, headers=anahtar, data={"ziyaretci_id": "y1"},
                       files={"dosya": ("fatura.png", png, "image/png")})["dosya"]
        http_cagri("POST", f"{api}/widget/ticket/{ticket['id']}/reply", 201, headers=anahtar,
               json={"ziyaretci_id": "y1", "icerik": "Ekran görüntüsü ekte.", "ek_idleri": [dosya["id"]]})
        http_cagri("POST", f"{api}/operator/ticket/{ticket['id']}/reply", 201, headers=yetki,
               json={"icerik": "Faturanızı yeniden gönderdik."})
        once = http_cagri("GET", f"{api}/operator/ticket/{ticket['id']}", 200, headers=yetki)["ticket"]

    yedek = tmp_path / "yedek"
    manifest = json.loads(_manage(ortam, "yedek_al", "--hedef", str(yedek), "--json"))
    assert manifest["dosyalar"]["adet"] == 1 and (yedek / "veritabani.dump").stat().st_size > 0
    _guvenilir_manifest(manifest, yedek)

    # a fresh database and an empty media folder
    parca = urlsplit(ortam["DATABASE_URL"])
    yonetim = urlunsplit(parca._replace(path="/postgres"))
    yeni_db = parca.path.strip("/") + "_geri"
    psql(yonetim, f'DROP DATABASE IF EXISTS "{yeni_db}" WITH (FORCE)')
    psql(yonetim, f'CREATE DATABASE "{yeni_db}"')
    try:
        geri = {**ortam, "DATABASE_URL": urlunsplit(parca._replace(path="/" + yeni_db)),
                "MEDIA_ROOT": str(tmp_path / "geri-medya")}
        yuklenen = json.loads(_manage(geri, "yedek_yukle", "--kaynak", str(yedek), "--json"))
        assert yuklenen["zaman"] == manifest["zaman"]
        # a second restore onto the now populated copy is refused without --uzerine-yaz
        ikinci = subprocess.run([sys.executable, "manage.py", "yedek_yukle", "--kaynak", str(yedek)], cwd=KOK, env=geri,
                                capture_output=True, text=True, timeout=120)
        assert ikinci.returncode != 0 and "boş değil" in ikinci.stderr
        cache.clear()  # nothing the first server cached may answer for the restored one

        with gunicorn_sureci(geri, tmp_path / "gunicorn-2.log") as url:
            api = f"{url}/api/v1"
            token = http_cagri("POST", f"{api}/auth/login", 200, json={"email": operator.email, "sifre": TEST_SIFRE})["token"]
            yetki = {"Authorization": f"Bearer {token}"}
            aktif = http_cagri("GET", f"{api}/operator/chats", 200, headers=yetki, params={"durum": "aktif"})["oturumlar"]
            assert [o["id"] for o in aktif] == [oturum["id"]]
            mesajlar = http_cagri("GET", f"{api}/operator/chat/{oturum['id']}/messages", 200, headers=yetki)["mesajlar"]
            assert [m["icerik"] for m in mesajlar if m["gonderen"] != "sistem"] == ["Siparişim nerede?", "Kargoya verildi."]
            assert cevap in mesajlar
            sonra = http_cagri("GET", f"{api}/operator/ticket/{ticket['id']}", 200, headers=yetki)["ticket"]
            assert _adressiz(sonra) == _adressiz(once)  # a file's link names the server it came from
            assert [y["icerik"] for y in sonra["yanitlar"]][-2:] == ["Ekran görüntüsü ekte.", "Faturanızı yeniden gönderdik."]
            ek = sonra["yanitlar"][-2]["ekler"][0]
            assert ek["id"] == dosya["id"] and ek["ad"] == "fatura.png"
            indirilen = requests.get(ek["url"] if ek["url"].startswith("http") else f"{url}{ek['url']}", timeout=15)
            assert indirilen.status_code == 200 and indirilen.content == png
            widget = http_cagri("GET", f"{api}/widget/ticket/{ticket['id']}", 200, headers=anahtar, params={"ziyaretci_id": "y1"})
            assert widget["ticket"]["id"] == ticket["id"]
    finally:
        psql(yonetim, f'DROP DATABASE IF EXISTS "{yeni_db}" WITH (FORCE)')


def _guvenilir_manifest(manifest: dict, yedek: Path) -> None:
    """What a restore relies on (issue 37): the version, the schema's migrations and the server's
    version are recorded, and nobody but the owner can read any part."""
    assert manifest["surum"] == 2 and manifest["servis_surumu"] == settings.SPECTACULAR_SETTINGS["VERSION"]
    with connection.cursor() as c:
        c.execute("SHOW server_version")
        assert manifest["postgresql"]["sunucu"] == c.fetchone()[0]
        c.execute("SELECT app, name FROM django_migrations")
        uygulanan = c.fetchall()
    assert sorted((app, ad) for app, adlar in manifest["goclar"].items() for ad in adlar) == sorted(uygulanan)
    assert {"chat", "tickets", "tenants"} <= set(manifest["goclar"])
    assert stat.S_IMODE(yedek.stat().st_mode) == 0o700
    parcalar = sorted(yedek.iterdir())
    assert {p.name for p in parcalar} >= {"yedek.json", "veritabani.dump"}
    for parca in parcalar:
        assert stat.S_IMODE(parca.stat().st_mode) == 0o600, parca


def _postgresql_ister():
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        pytest.skip("Yedekleme PostgreSQL ister.")


@pytest.mark.django_db
def test_manifest_surumu_goclari_ve_sunucuyu_kaydeder_dosyalar_yalniz_sahibine_acik(tmp_path):
    _postgresql_ister()
    eski = os.umask(0o022)  # a usual umask, which would leave the files readable by everyone
    try:
        manifest = json.loads(_komut("yedek_al", "--hedef", str(tmp_path / "y"), "--json"))
    finally:
        os.umask(eski)
    _guvenilir_manifest(manifest, tmp_path / "y")


def _komut(*args: str) -> str:
    cikti = io.StringIO()
    call_command(*args, stdout=cikti)
    return cikti.getvalue()


@pytest.mark.django_db  # the inserted migration row is rolled back with the test
def test_daha_yeni_semanin_yedegi_bayraksiz_yuklenmez(tmp_path):
    """A backup taken by a newer release (a migration this code does not have) is refused before
    anything is touched; `--yeni-sema` lets it through to the usual checks."""
    _postgresql_ister()
    with connection.cursor() as c:  # the newer release's migration, inside this test's transaction
        c.execute("INSERT INTO django_migrations (app, name, applied) VALUES ('chat', '9999_gelecek_surum', now())")
    call_command("yedek_al", "--hedef", str(tmp_path / "y"), stdout=io.StringIO())
    assert "9999_gelecek_surum" in json.loads((tmp_path / "y" / "yedek.json").read_text())["goclar"]["chat"]
    with pytest.raises(CommandError, match=r"daha yeni bir şemadan.*chat\.9999_gelecek_surum.*--yeni-sema"):
        call_command("yedek_yukle", "--kaynak", str(tmp_path / "y"), "--uzerine-yaz")
    # With the flag the schema check passes; the next guard (a database that is not empty) answers.
    with pytest.raises(CommandError, match="boş değil"):
        call_command("yedek_yukle", "--kaynak", str(tmp_path / "y"), "--yeni-sema")
    # A backup of this code's own schema is not refused for it.
    call_command("yedek_al", "--hedef", str(tmp_path / "z"), stdout=io.StringIO())
    manifest = json.loads((tmp_path / "z" / "yedek.json").read_text())
    manifest["goclar"]["chat"].remove("9999_gelecek_surum")
    (tmp_path / "z" / "yedek.json").write_text(json.dumps(manifest))
    with pytest.raises(CommandError, match="boş değil"):
        call_command("yedek_yukle", "--kaynak", str(tmp_path / "z"))


@pytest.mark.django_db
def test_zamanli_yedek_varsayilan_kapali_acikken_tarihli_klasor_ve_dondurme(tmp_path, settings):
    from supportdesk.core import tasks, yedek

    _postgresql_ister()
    tanim = settings.CELERY_BEAT_SCHEDULE["yedek-al"]
    assert tanim["task"] == tasks.zamanli_yedek.name
    assert settings.YEDEK_KLASORU == ""  # off by default
    tasks.zamanli_yedek.apply()
    assert list(tmp_path.iterdir()) == []

    settings.YEDEK_KLASORU = str(tmp_path / "yedekler")
    settings.YEDEK_SAKLA = 2
    tasks.zamanli_yedek.apply()  # beat's job, as a worker runs it
    [ilk] = list((tmp_path / "yedekler").iterdir())
    assert re.fullmatch(r"supportdesk-\d{8}-\d{6}", ilk.name) and (ilk / "yedek.json").exists()
    (tmp_path / "yedekler" / "baska-bir-sey").mkdir()  # not ours: never rotated away
    for gun in (1, 2):
        yedek.zamanli_yedek(simdi=datetime(2099, 1, gun, 3, 0, tzinfo=UTC))
    kalan = sorted(p.name for p in (tmp_path / "yedekler").iterdir())
    assert kalan == ["baska-bir-sey", "supportdesk-20990101-030000", "supportdesk-20990102-030000"]


def test_yedek_yukle_dolu_veritabanini_reddeder_ve_bozuk_yedegi_tanir(tmp_path):
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        with pytest.raises(CommandError, match="PostgreSQL"):
            call_command("yedek_al", "--hedef", str(tmp_path / "y"))
        return
    MusteriFactory()
    call_command("yedek_al", "--hedef", str(tmp_path / "y"))
    with pytest.raises(CommandError, match="boş değil"):
        call_command("yedek_al", "--hedef", str(tmp_path / "y"))  # every backup gets its own folder
    with pytest.raises(CommandError, match="boş değil"):
        call_command("yedek_yukle", "--kaynak", str(tmp_path / "y"))  # the test database is not empty
    with open(tmp_path / "y" / "veritabani.dump", "ab") as f:
        f.write(b"x")
    with pytest.raises(CommandError, match="sha256"):
        call_command("yedek_yukle", "--kaynak", str(tmp_path / "y"), "--uzerine-yaz")
    assert os.path.exists(tmp_path / "y" / "yedek.json")

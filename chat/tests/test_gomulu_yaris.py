"""Two plain operators answering one waiting chat at the same instant, against a live server of the
embedded default (`make run`: uvicorn on SQLite, no Redis) and of PostgreSQL (CONTRACT 3a, wave 4):
exactly one answer is stored, the other is 409 `DURUM_CAKISMASI`, on every database.

The server is its own process on its own throw-away database, filled as `make run` fills it
(`migrate`, here a copy of its result built once per set of migrations, then `demo_verisi`: two
plain operators of one project), so the race is the one two people meet at the console: real
HTTP requests, released together by a barrier.
"""
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import requests
from django.conf import settings
from django.db import connection

from supportdesk.testing.factories import TEST_SIFRE, MusteriFactory
from supportdesk.testing.fixtures import operator_yap
from supportdesk.testing.gomulu import gocmus_sqlite

KOK = Path(settings.BASE_DIR)
TUR = 6


def _ortam(db_url: str) -> dict:
    return {**os.environ, "DJANGO_SETTINGS_MODULE": "supportdesk.test_settings", "DATABASE_URL": db_url,
            "REDIS_URL": "", "WIDGET_RATE_LIMIT": "100000/min", "WEBHOOK_LOCAL_WORKER": "false", "GIRIS_KILIDI": "false",
            "LOG_LEVEL": "WARNING"}


def _komut(ortam: dict, *argumanlar: str) -> str:
    sonuc = subprocess.run([sys.executable, "manage.py", *argumanlar], cwd=KOK, env=ortam, capture_output=True,
                           text=True, timeout=300)
    assert sonuc.returncode == 0, sonuc.stdout[-2000:] + sonuc.stderr[-3000:]
    return sonuc.stdout


class _Sunucu:
    """`uvicorn supportdesk.asgi:application` as `make run` starts it (no reloader), on `ortam`."""

    def __init__(self, ortam: dict, log: Path):
        self.soket = socket.socket()
        self.soket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.soket.bind(("127.0.0.1", 0))
        self.soket.listen(128)
        self.url = f"http://127.0.0.1:{self.soket.getsockname()[1]}/api/v1"
        with open(log, "wb") as cikti:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "uvicorn", "supportdesk.asgi:application", "--fd", str(self.soket.fileno()),
                 "--log-level", "warning", "--lifespan", "off"],
                cwd=KOK, env=ortam, start_new_session=True, pass_fds=(self.soket.fileno(),), stdout=cikti,
                stderr=subprocess.STDOUT)
        bitis = time.monotonic() + 30
        while True:
            try:
                if requests.get(f"{self.url}/yok", timeout=1).status_code == 404:
                    return
            except requests.RequestException:
                pass
            if self.proc.poll() is not None or time.monotonic() > bitis:
                self.kapat()
                pytest.fail(f"uvicorn başlamadı:\n{log.read_text(errors='replace')[-3000:]}")
            time.sleep(0.1)

    def kapat(self):
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
        self.soket.close()


@pytest.fixture
def gomulu_sunucu(tmp_path):
    ortam = _ortam(gocmus_sqlite(tmp_path / "db.sqlite3"))  # `migrate`'s result, built once
    demo = json.loads(_komut(ortam, "demo_verisi", "--json"))
    sunucu = _Sunucu(ortam, tmp_path / "uvicorn.log")
    try:
        yield sunucu, demo
    finally:
        sunucu.kapat()


def _giris(url, email, sifre) -> dict:
    res = requests.post(f"{url}/auth/login", json={"email": email, "sifre": sifre}, timeout=10)
    assert res.status_code == 200, res.text
    return {"Authorization": f"Bearer {res.json()['data']['token']}"}


def _ayni_anda(isler) -> list:
    engel = threading.Barrier(len(isler))
    sonuclar = [None] * len(isler)

    def calis(i, is_):
        engel.wait(timeout=10)
        sonuclar[i] = is_()

    parcaciklar = [threading.Thread(target=calis, args=(i, is_)) for i, is_ in enumerate(isler)]
    for p in parcaciklar:
        p.start()
    for p in parcaciklar:
        p.join(timeout=30)
    return sonuclar


def _yaris(url: str, basliklar: list[dict], api_key: str) -> None:
    widget = {"X-API-Key": api_key}
    for tur in range(TUR):
        res = requests.post(f"{url}/widget/chat/start", headers=widget, timeout=10,
                            json={"ziyaretci_id": f"yaris-{tur}", "mesaj": "Merhaba"})
        assert res.status_code == 201, res.text
        oturum_id = res.json()["data"]["oturum"]["id"]
        mesaj_url = f"{url}/operator/chat/{oturum_id}/message"
        sonuclar = _ayni_anda([
            lambda b=b, i=i, u=mesaj_url: requests.post(u, headers=b, json={"icerik": f"Buyrun {i}"}, timeout=20)
            for i, b in enumerate(basliklar)])
        assert sorted(r.status_code for r in sonuclar) == [201, 409], [r.text for r in sonuclar]
        kaybeden = next(r for r in sonuclar if r.status_code == 409).json()
        assert kaybeden["basarili"] is False and kaybeden["hata"]["kod"] == "DURUM_CAKISMASI", kaybeden
        kazanan = basliklar[[r.status_code for r in sonuclar].index(201)]
        veri = requests.get(f"{url}/operator/chat/{oturum_id}/messages", headers=kazanan, timeout=10).json()["data"]
        # The claim's line, then the one answer (a ticket offer's `sistem` line may precede them).
        gonderenler = [m["gonderen"] for m in veri["mesajlar"] if m["gonderen"] != "sistem" or "katıl" in m["icerik"]]
        assert gonderenler == ["ziyaretci", "sistem", "operator"], veri["mesajlar"]
        assert veri["oturum"]["durum"] == "aktif"


@pytest.mark.slow
def test_gomulu_varsayilanda_iki_sade_operator_ayni_anda_yanitlar_tek_yanit_yazilir(gomulu_sunucu):
    sunucu, demo = gomulu_sunucu
    musteri = demo["musteriler"][0]
    # The demo's two plain operators of the first project (`sahip` may step in: not this race).
    sade = [o for o in demo["operatorler"] if o["email"] in ("operator@demo.local", "ikinci@demo.local")]
    assert len(sade) == 2 and all(musteri["id"] in o["musteri_idleri"] for o in sade)
    _yaris(sunucu.url, [_giris(sunucu.url, o["email"], o["sifre"]) for o in sade], musteri["api_key"])


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="canlı sunucu PostgreSQL ister")
def test_postgresqlde_iki_sade_operator_ayni_anda_yanitlar_tek_yanit_yazilir(canli_sunucu):
    musteri = MusteriFactory()
    sade = [operator_yap(musteri) for _ in range(2)]
    url = f"{canli_sunucu.url}/api/v1"
    _yaris(url, [_giris(url, u.email, TEST_SIFRE) for u in sade], musteri.api_key)

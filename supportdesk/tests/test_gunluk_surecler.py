"""Every log line in one format (issue 37): with LOG_FORMAT=json, each process kind of the Procfile,
started with the Procfile's own command (gunicorn with its access log on, uvicorn, a Celery worker
and beat), writes nothing but JSON objects, one per line, on stdout and stderr alike, from start to
shutdown: the servers' own lines, gunicorn's access log, Celery's start and shutdown notices,
Python's warnings. Each line names its process kind (`surec`) and a request's lines carry its id.
Before, 262 of 578 lines of such a run were plain text."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests
from django.conf import settings

from supportdesk.testing.sunucu import kapali_port, surec_ortami

from .test_paketleme import _procfile

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]
KOK = Path(settings.BASE_DIR)
SURE = 180  # seconds for the four processes to come up on a busy CI machine


class Surec:
    def __init__(self, tur: str, ortam: dict, tmp: Path):
        self.tur = tur
        self.cikti, self.hata = tmp / f"{tur}.out", tmp / f"{tur}.err"
        with open(self.cikti, "wb") as out, open(self.hata, "wb") as err:
            self.proc = subprocess.Popen(["sh", "-c", "exec " + _procfile()[tur]], cwd=KOK, env=ortam, stdout=out,
                                         stderr=err, start_new_session=True)

    def metin(self) -> str:
        return "".join(p.read_text(errors="replace") for p in (self.cikti, self.hata) if p.exists())

    def satirlar(self) -> list[str]:
        return [s for p in (self.cikti, self.hata) if p.exists() for s in p.read_text(errors="replace").splitlines()]

    def durdur(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)


def _bekle(kosul, aciklama: str, surecler) -> None:
    bitis = time.monotonic() + SURE
    while not kosul():
        if time.monotonic() > bitis or any(s.proc.poll() is not None for s in surecler):
            pytest.fail(f"{aciklama} olmadı:\n" + "\n".join(f"--- {s.tur}\n{s.metin()[-2000:]}" for s in surecler))
        time.sleep(0.3)


def _cevap(url: str, istek_id: str) -> requests.Response | None:
    try:
        return requests.get(url, headers={"X-Request-ID": istek_id}, timeout=5)
    except requests.RequestException:
        return None


def test_her_surec_turunun_her_satiri_json_ve_surecini_ve_istek_kimligini_tasir(tmp_path):
    web_port, soket_port = kapali_port(), kapali_port()
    ortak = surec_ortami(LOG_FORMAT="json", LOG_LEVEL="INFO", BIND_HOST="127.0.0.1", WEB_CONCURRENCY="1",
                         GUNICORN_ACCESS_LOG="-", SOCKET_WORKERS="1", CELERY_CONCURRENCY="1",
                         CELERY_HOSTNAME=f"gunluk-{os.getpid()}@%h",
                         CELERY_BEAT_SCHEDULE_FILE=str(tmp_path / "beat-schedule"), PYTHONWARNINGS="always")
    ortak.pop("SUREC_TURU", None)
    ortak["PATH"] = f"{Path(sys.executable).parent}:{ortak.get('PATH', '')}"  # the virtualenv's commands
    surecler = [Surec("web", {**ortak, "PORT": str(web_port)}, tmp_path),
                Surec("sockets", {**ortak, "PORT": str(soket_port)}, tmp_path),
                Surec("worker", ortak, tmp_path), Surec("beat", ortak, tmp_path)]
    web, soket, isci, beat = surecler
    try:
        _bekle(lambda: (_cevap(f"http://127.0.0.1:{web_port}/api/v1/saglik/canli", "gunluk-hazir") or
                        requests.Response()).status_code == 200, "gunicorn", surecler)
        _bekle(lambda: (_cevap(f"http://127.0.0.1:{soket_port}/api/v1/saglik/canli", "gunluk-soket") or
                        requests.Response()).status_code == 200, "uvicorn", surecler)
        cevap = _cevap(f"http://127.0.0.1:{web_port}/api/v1/operator/tenants", "gunluk-istek-1")
        assert cevap is not None and cevap.status_code == 401 and cevap.headers["X-Request-ID"] == "gunluk-istek-1"
        # the worker is up, and has run a task beat sent it (the routing sweep, every few seconds)
        _bekle(lambda: " ready." in isci.metin() and "succeeded" in isci.metin(), "Celery worker", surecler)
        _bekle(lambda: "Sending due task" in beat.metin(), "beat", surecler)
        _bekle(lambda: "gunluk-istek-1" in web.metin(), "the request's lines", surecler)
    finally:
        for s in surecler:
            s.durdur()

    for s in surecler:
        satirlar = s.satirlar()
        assert satirlar, s.tur
        kayitlar = []
        for satir in satirlar:
            try:
                kayit = json.loads(satir)
            except ValueError:
                pytest.fail(f"{s.tur}: JSON olmayan satır: {satir!r}\n{s.metin()[-3000:]}")
            assert isinstance(kayit, dict) and {"zaman", "seviye", "mesaj", "kaynak", "istek_id"} <= set(kayit), satir
            assert kayit["surec"] == s.tur, satir
            kayitlar.append(kayit)
        s.kayitlar = kayitlar

    kaynaklar = {s.tur: {k["kaynak"] for k in s.kayitlar} for s in surecler}
    assert "gunicorn.error" in kaynaklar["web"] and "gunicorn.access" in kaynaklar["web"], kaynaklar
    assert "uvicorn.error" in kaynaklar["sockets"] and "uvicorn.access" in kaynaklar["sockets"], kaynaklar
    assert any(k.startswith("celery") for k in kaynaklar["worker"]) and any(k.startswith("celery") for k in kaynaklar["beat"])
    # a request's lines carry its id: the service's closing line and gunicorn's access line
    istek = [k for k in web.kayitlar if k["istek_id"] == "gunluk-istek-1"]
    assert {k["kaynak"] for k in istek} >= {"supportdesk.istek", "gunicorn.access"}, istek
    erisim = next(k for k in istek if k["kaynak"] == "gunicorn.access")
    assert (erisim["yontem"], erisim["yol"], erisim["durum"]) == ("GET", "/api/v1/operator/tenants", 401), erisim
    assert any(k["istek_id"] == "gunluk-soket" and k["kaynak"] == "supportdesk.istek" for k in soket.kayitlar)
    # the worker's shutdown notice, printed by Celery from its signal handler, is a line like the rest
    assert any("shutdown" in k["mesaj"].lower() for k in isci.kayitlar), [k["mesaj"] for k in isci.kayitlar][-5:]

"""The runtime-lock stage's checks (.ci/runtime): run by the runtime virtualenv's own Python, so this
script too uses only what requirements/base.txt installs (requests, psycopg, redis).

Every process is started with the Procfile's own command (`sh -c "exec <command>"`), with the
runtime virtualenv first on PATH and a clean environment (nothing of the caller's but PATH, HOME
and the locale), production settings (DEBUG off), its own database and Redis db. On a failure the
tail of every process's log is printed and the exit status is 1.
"""
import hashlib
import hmac
import http.server
import json
import os
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import redis
import requests

KOK = Path(__file__).resolve().parent.parent
VENV = Path(os.environ["RUNTIME_VENV"])
DB_URL = os.environ["RUNTIME_DATABASE_URL"]
REDIS_URL = os.environ["RUNTIME_REDIS_URL"]
SURE = float(os.environ.get("RUNTIME_SURE", "60"))  # the longest wait for any one step


class Basarisiz(Exception):
    pass


def procfile() -> dict[str, str]:
    komutlar = {}
    for satir in (KOK / "Procfile").read_text().splitlines():
        if satir.strip() and not satir.lstrip().startswith("#"):
            ad, komut = satir.split(":", 1)
            komutlar[ad.strip()] = komut.strip()
    return komutlar


def bos_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Alici(http.server.BaseHTTPRequestHandler):
    """The webhook receiver on loopback: keeps every request, answers 204."""

    gelenler: list[tuple[dict, bytes]] = []

    def do_POST(self):
        govde = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        Alici.gelenler.append((dict(self.headers.items()), govde))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


class Asama:
    def __init__(self, dizin: Path):
        self.dizin = dizin
        self.komutlar = procfile()
        self.surecler: dict[str, subprocess.Popen] = {}
        self.metrics_token = uuid.uuid4().hex
        self.ortam = {
            "PATH": f"{VENV / 'bin'}:/usr/local/bin:/usr/bin:/bin",
            "HOME": os.environ.get("HOME", str(dizin)),
            "LANG": os.environ.get("LANG", "C.UTF-8"),
            "DJANGO_ENV_FILE": "/dev/null",
            "DEBUG": "false",
            "SECRET_KEY": "runtime-asamasi-" + uuid.uuid4().hex * 2,
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SECURE_SSL_REDIRECT": "false",
            "DATABASE_URL": DB_URL,
            "REDIS_URL": REDIS_URL,
            "EMAIL_URL": f"filemail://{dizin / 'eposta'}",
            "MEDIA_ROOT": str(dizin / "media"),
            "STATIC_ROOT": str(dizin / "static"),
            "PROMETHEUS_MULTIPROC_DIR": str(dizin / "prometheus"),
            "METRICS_TOKEN": self.metrics_token,
            "WEBHOOK_ALLOW_PRIVATE_TARGETS": "true",  # the receiver is on loopback
            "BIND_HOST": "127.0.0.1",
            "WEB_CONCURRENCY": "1",
            "CELERY_CONCURRENCY": "1",
            "CELERY_HOSTNAME": f"runtime-{uuid.uuid4().hex[:6]}@%h",
            "BEAT_ANAHTAR_ONEKI": "redbeat-runtime:",
            "PYTHONUNBUFFERED": "1",
        }

    # --- processes ---------------------------------------------------------------------------
    def log(self, ad: str) -> Path:
        return self.dizin / f"{ad}.log"

    def baslat(self, ad: str, **ek: str) -> None:
        with self.log(ad).open("wb") as cikti:
            self.surecler[ad] = subprocess.Popen(
                ["sh", "-c", "exec " + self.komutlar[ad]], cwd=KOK, env={**self.ortam, **ek},
                stdout=cikti, stderr=subprocess.STDOUT, start_new_session=True)

    def calistir(self, ad: str, komut: list[str] | str, **ek: str) -> str:
        """A one-shot command in the same environment; its output, or Basarisiz with it."""
        if isinstance(komut, list):
            komut = shlex.join(komut)
        sonuc = subprocess.run(["sh", "-c", "exec " + komut], cwd=KOK, env={**self.ortam, **ek},
                               capture_output=True, text=True, timeout=300)
        self.log(ad).write_text(sonuc.stdout + sonuc.stderr)
        if sonuc.returncode != 0:
            raise Basarisiz(f"{ad}: exit {sonuc.returncode}")
        return sonuc.stdout

    def bekle(self, ne: str, kosul) -> None:
        bitis = time.monotonic() + SURE
        while True:
            for ad, proc in self.surecler.items():
                if proc.poll() is not None:
                    raise Basarisiz(f"process {ad} exited (exit {proc.returncode}) while waiting for: {ne}")
            try:
                if kosul():
                    return
            except (requests.RequestException, ValueError, KeyError):
                pass
            if time.monotonic() > bitis:
                raise Basarisiz(f"not within {SURE:.0f} s: {ne}")
            time.sleep(0.3)

    def durdur(self) -> None:
        for proc in self.surecler.values():
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in self.surecler.values():
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=5)

    def loglari_yaz(self) -> None:
        for log in sorted(self.dizin.glob("*.log")):
            print(f"----- {log.name} (last lines) -----", file=sys.stderr)
            print("\n".join(log.read_text(errors="replace").splitlines()[-40:]), file=sys.stderr)

    # --- the checks --------------------------------------------------------------------------
    def calis(self) -> None:
        adim = time.monotonic()

        def sure() -> str:
            return f"{time.monotonic() - adim:.1f} s"

        self.calistir("release", self.komutlar["release"])
        print(f"runtime: release (migrate) done, {sure()}")

        web, soket = bos_port(), bos_port()
        self.baslat("web", PORT=str(web))
        self.baslat("sockets", PORT=str(soket))
        self.baslat("worker")
        self.baslat("beat")
        taban = f"http://127.0.0.1:{web}"

        def hazir() -> bool:
            res = requests.get(f"{taban}/api/v1/saglik/hazir", timeout=5)
            return res.status_code == 200 and res.json()["data"]["gocler"] == "ok"

        self.bekle("web: /api/v1/saglik/hazir 200", hazir)
        self.bekle("sockets: /api/v1/saglik/canli 200", lambda: requests.get(
            f"http://127.0.0.1:{soket}/api/v1/saglik/canli", timeout=5).status_code == 200)
        print(f"runtime: web and sockets ready, {sure()}")

        ad = self.ortam["CELERY_HOSTNAME"].replace("%h", socket.gethostname())

        def ping() -> bool:
            sonuc = subprocess.run(["celery", "-A", "supportdesk", "inspect", "ping", "--timeout", "3",
                                    "--destination", ad], cwd=KOK, env=self.ortam, capture_output=True,
                                   text=True, timeout=60)
            self.log("ping").write_text(sonuc.stdout + sonuc.stderr)
            return sonuc.returncode == 0 and "pong" in sonuc.stdout

        self.bekle(f"worker: celery inspect ping ({ad})", ping)
        print(f"runtime: the worker answered ping, {sure()}")

        self.bekle("beat: holds its lock and has sent a job", lambda: all(
            s in self.log("beat").read_text(errors="replace") for s in ("Acquired lock", "Sending due task")))
        print(f"runtime: beat holds its lock and sends, {sure()}")

        self.webhook(taban)
        print(f"runtime: a webhook delivered through the worker, {sure()}")

        # Readiness and metrics see the background work (its heartbeat reaches Redis within ~10 s).
        def isci_goruldu() -> bool:
            data = requests.get(f"{taban}/api/v1/saglik/hazir", timeout=5).json()["data"]
            return data["kuyruk"] == "ok" and data["isci"] == "ok" and data["isciler"] >= 1

        self.bekle("hazir: kuyruk ok, isci ok", isci_goruldu)
        metin = requests.get(f"{taban}/metrics", headers={"Authorization": f"Bearer {self.metrics_token}"},
                             timeout=10).text
        for satir in ("supportdesk_celery_workers 1.0", 'supportdesk_celery_queue_length{queue="celery"}',
                      "supportdesk_beat_last_run_timestamp_seconds{job=", "supportdesk_build_info{",
                      "supportdesk_process_cpu_seconds{pid="):
            if satir not in metin:
                raise Basarisiz(f"not in /metrics: {satir}\n{metin[-2000:]}")
        print(f"runtime: hazir and /metrics see the worker, the queue and beat, {sure()}")

    def webhook(self, taban: str) -> None:
        sunucu = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Alici)
        threading.Thread(target=sunucu.serve_forever, daemon=True).start()
        try:
            musteri = json.loads(self.calistir("musteri_olustur", ["python", "manage.py", "musteri_olustur",
                                                                    "--firma-adi", "Runtime", "--json"]))
            kanca = json.loads(self.calistir("webhook_ekle", [
                "python", "manage.py", "webhook_ekle", "--musteri", str(musteri["id"]),
                "--url", f"http://127.0.0.1:{sunucu.server_address[1]}/kanca", "--olay", "yeni_chat", "--json"]))
            res = requests.post(f"{taban}/api/v1/widget/chat/start", headers={"X-API-Key": musteri["api_key"]},
                                json={"ziyaretci_id": "z_" + uuid.uuid4().hex, "ad": "Runtime", "mesaj": "Merhaba"},
                                timeout=10)
            if res.status_code != 201:
                raise Basarisiz(f"widget/chat/start: {res.status_code} {res.text[:300]}")
            oturum_id = res.json()["data"]["oturum"]["id"]
            self.bekle("webhook yeni_chat reached the receiver", lambda: any(
                b.get("X-Webhook-Olay") == "yeni_chat" for b, _ in Alici.gelenler))
            basliklar, govde = next((b, g) for b, g in Alici.gelenler if b.get("X-Webhook-Olay") == "yeni_chat")
            beklenen = hmac.new(kanca["gizli_anahtar"].encode(), f"{basliklar['X-Webhook-Zaman']}.".encode() + govde,
                                hashlib.sha256).hexdigest()
            if basliklar.get("X-Webhook-Imza") != f"sha256={beklenen}":
                raise Basarisiz(f"webhook signature does not match: {basliklar}")
            if str(oturum_id) not in govde.decode():
                raise Basarisiz(f"webhook body does not name the chat: {govde[:300]!r}")
        finally:
            sunucu.shutdown()


def _hazirla() -> None:
    parca = urlsplit(DB_URL)
    ad = parca.path.strip("/")
    with psycopg.connect(urlunsplit(parca._replace(path="/postgres")), autocommit=True) as baglanti:
        baglanti.execute(f'DROP DATABASE IF EXISTS "{ad}" WITH (FORCE)')
        baglanti.execute(f'CREATE DATABASE "{ad}"')
    redis.Redis.from_url(REDIS_URL).flushdb()


def _temizle() -> None:
    parca = urlsplit(DB_URL)
    with psycopg.connect(urlunsplit(parca._replace(path="/postgres")), autocommit=True) as baglanti:
        baglanti.execute(f'DROP DATABASE IF EXISTS "{parca.path.strip("/")}" WITH (FORCE)')
    redis.Redis.from_url(REDIS_URL).flushdb()


def main() -> int:
    _hazirla()
    with tempfile.TemporaryDirectory(prefix="runtime-") as gecici:
        asama = Asama(Path(gecici))
        try:
            asama.calis()
        except (Basarisiz, subprocess.TimeoutExpired) as hata:
            print(f"runtime: FAILED: {hata}", file=sys.stderr)
            asama.durdur()
            asama.loglari_yaz()
            return 1
        finally:
            asama.durdur()
            _temizle()
    return 0


if __name__ == "__main__":
    sys.exit(main())

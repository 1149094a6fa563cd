"""Two hosts, simulated (issue 44, CONTRACT 26; slow): the whole topology twice, on 127.0.0.2 and
127.0.0.3, against a PostgreSQL primary with its streaming replica, S3 and a Redis Cluster.

Each "host" is a supervisord of its own (ops/supervisor.py, the Procfile's commands) with one web,
one socket process, one Celery worker and one beat, bound to its address (`BIND_HOST`), on the
same ports as the other, with a MEDIA_ROOT of its own: the two share nothing but the primary and
its replica (supportdesk.testing.replika; `DATABASE_REPLICA_URL`), the bucket (moto's S3 server on
loopback, supportdesk.testing.s3; `S3_*`), the cluster (`REDIS_URL`) and the plain Redis of the
channel layer and the broker. The migrations ran once, on the primary, as a release phase.

A chat passes both ways across them: the visitor on host A (REST and socket, and a file uploaded
there), the operator on host B. Then host A dies at once (SIGKILL of its supervisord and every
process group it started): the visitor moves to host B, as a proxy's health check would send it,
and finds every message and its file (in the bucket, not on A's disk); the chat goes on both ways;
another operator finds the chat by search on host B (a replica read; the index rebuilt by
whichever worker took the task); host B's beat, which only waited while A's held the lock, takes
over within a minute (BEAT_KILIT_SANIYE at its production default) and no periodic job was sent
by both at once.

Runs where REDIS_URL names a cluster (`.ci/kume`); skipped elsewhere.
"""
import json
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
import requests
from django.conf import settings

from canli.tests.yardimci import Soket
from dosyalar.tests.yardimci import png_bayt
from supportdesk.core.redis_adresi import kume_mi
from supportdesk.testing.replika import ReplikaliKume
from supportdesk.testing.s3 import S3Sunucusu
from supportdesk.testing.sunucu import http_cagri

pytestmark = [pytest.mark.slow]

SURE = 10.0
ADRESLER = ("127.0.0.2", "127.0.0.3")
PROGRAMLAR = ("web-1", "sockets-1", "worker-1", "beat-1")
DEVRALMA_SINIRI = 60.0  # CONTRACT 26: the other beat takes over within a minute


def _bos_port() -> int:
    import socket

    for _ in range(50):
        with socket.socket() as s:
            s.bind((ADRESLER[0], 0))
            port = s.getsockname()[1]
        if port > 60000:
            continue
        try:
            for adres in ADRESLER:
                for p in (port, port + 100):
                    with socket.socket() as s:
                        s.bind((adres, p))
        except OSError:
            continue
        return port
    raise AssertionError("boş port bulunamadı")


class Host:
    def __init__(self, ad: str, adres: str, port: int, tmp: Path, ortam: dict):
        self.ad, self.adres, self.port = ad, adres, port
        self.dizin = tmp / ad
        self.dizin.mkdir()
        self.log = tmp / f"{ad}.log"
        self.ortam = {**ortam, "BIND_HOST": adres, "MEDIA_ROOT": str(self.dizin / "media")}
        subprocess.run([sys.executable, "ops/supervisor.py", "--dizin", str(self.dizin), "--port", str(port),
                        "--web", "1", "--sockets", "1", "--worker", "1"], cwd=settings.BASE_DIR, env=self.ortam,
                       check=True, capture_output=True, timeout=60)
        with open(self.log, "wb") as cikti:
            self.proc = subprocess.Popen([str(Path(sys.executable).parent / "supervisord"), "-c",
                                          str(self.dizin / "supervisord.conf")], cwd=settings.BASE_DIR,
                                         env=self.ortam, start_new_session=True, stdout=cikti,
                                         stderr=subprocess.STDOUT)
        self.pidler: dict[str, int] = {}

    def url(self, tur: str) -> str:
        return f"http://{self.adres}:{self.port + (0 if tur == 'web' else 100)}"

    def ws(self) -> str:
        return self.url("sockets").replace("http://", "ws://")

    def log_metni(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def ctl(self, *args: str) -> str:
        return subprocess.run([str(Path(sys.executable).parent / "supervisorctl"), "-c",
                               str(self.dizin / "supervisord.conf"), *args],
                              capture_output=True, text=True, timeout=30).stdout.strip()

    def bekle_hazir(self, sure: float = 180) -> None:
        bitis = time.monotonic() + sure
        for taban in (self.url("web"), self.url("sockets")):
            while True:
                try:
                    if requests.get(f"{taban}/api/v1/saglik", timeout=2).status_code == 200:
                        break
                except requests.RequestException:
                    pass
                if self.proc.poll() is not None or time.monotonic() > bitis:
                    pytest.fail(f"{self.ad} başlamadı:\n{self.log_metni()[-4000:]}")
                time.sleep(0.3)
        while True:
            durum = self.ctl("status")
            if sum("RUNNING" in satir for satir in durum.splitlines()) == len(PROGRAMLAR):
                break
            assert time.monotonic() < bitis, durum
            time.sleep(0.5)
        self.pidler = {ad: int(self.ctl("pid", ad)) for ad in PROGRAMLAR}

    def oldur(self) -> None:
        """The host is gone at once: supervisord first (nothing restarts), then every process group."""
        for pid in (self.proc.pid, *self.pidler.values()):
            try:
                os.killpg(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        self.proc.wait(timeout=10)

    def kapat(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
        for pid in self.pidler.values():
            try:
                os.killpg(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass


def _gonderilen(log: str) -> list[str]:
    return re.findall(r"Sending due task (\S+)", log)


@pytest.fixture
def iki_host(tmp_path):
    db_url, redis_url = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    if not db_url.startswith("postgres") or not kume_mi(redis_url):
        pytest.skip("İki host testi PostgreSQL ve bir Redis Cluster ister (.ci/kume).")
    kapatilacak: list = []
    hostlar: list[Host] = []
    try:
        veritabani = ReplikaliKume()  # its primary migrated: the release phase, once for both hosts
        kapatilacak.append(veritabani)
        s3 = S3Sunucusu((tmp_path / "moto.log").open("wb"))
        kapatilacak.append(s3)
        kova = f"dosyalar-{uuid.uuid4().hex[:12]}"
        s3.istemci.create_bucket(Bucket=kova)
        ortam = {
            **{k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"},
            "PATH": f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}",
            "DATABASE_URL": veritabani.birincil_url,
            "DATABASE_REPLICA_URL": veritabani.replika_url,
            "REPLIKA_AZAMI_GECIKME": "300",
            "S3_BUCKET": kova, "S3_ENDPOINT_URL": s3.url, "S3_REGION": "us-east-1", "S3_ADDRESSING_STYLE": "path",
            "S3_ACCESS_KEY_ID": "test", "S3_SECRET_ACCESS_KEY": "test",
            "DJANGO_ENV_FILE": "/dev/null",
            "DEBUG": "false",
            "SECURE_SSL_REDIRECT": "false",
            "SECRET_KEY": "iki-host-testi-" + "x" * 40,  # one key: a token from one host is good on the other
            "WEB_CONCURRENCY": "1",
            "CELERY_CONCURRENCY": "1",
            "CONN_MAX_AGE": "0",
            "WIDGET_RATE_LIMIT": "100000/min",
            "EMAIL_URL": "filemail://" + str(tmp_path / "eposta"),
            "BEAT_ANAHTAR_ONEKI": f"redbeat-ikihost-{uuid.uuid4().hex[:6]}:",
        }
        port = _bos_port()
        yield lambda ad, adres: hostlar.append(Host(ad, adres, port, tmp_path, ortam)) or hostlar[-1], ortam
    finally:
        for h in hostlar:
            h.kapat()
        for k in reversed(kapatilacak):
            k.kapat()


def _operator_soketi(ws_url: str, token: str) -> Soket:
    s = Soket(f"{ws_url}/ws/v1/operator/")
    s.gonder("kimlik", {"token": token})
    s.bekle("hazir", sure=SURE)
    return s


def _widget_soketi(ws_url: str, api_key: str, ziyaretci_id: str) -> Soket:
    s = Soket(f"{ws_url}/ws/v1/widget/?api_key={api_key}&ziyaretci_id={ziyaretci_id}")
    s.gonder("ping")  # the answer to an unknown frame says the socket is subscribed
    assert s.bekle("hata", sure=SURE)["kod"] == "GECERSIZ_ISTEK"
    s.alinan.clear()
    s.bekleyen.clear()
    return s


def test_iki_host_sohbeti_iki_yonde_tasir_ve_biri_olunce_hicbir_sey_kaybolmaz(iki_host):
    yeni_host, ortam = iki_host
    # Host A first, so that its beat holds the lock; then host B, whose beat only waits.
    a = yeni_host("a", ADRESLER[0])
    a.bekle_hazir()
    bitis = time.monotonic() + 60
    while "Acquired lock" not in a.log_metni():
        assert time.monotonic() < bitis, a.log_metni()[-4000:]
        time.sleep(0.3)
    b = yeni_host("b", ADRESLER[1])
    b.bekle_hazir()

    demo = json.loads(subprocess.run([sys.executable, "manage.py", "demo_verisi", "--json"], cwd=settings.BASE_DIR,
                                     env=ortam, capture_output=True, text=True, check=True, timeout=300).stdout)
    op = demo["operatorler"][0]
    musteri = next(m for m in demo["musteriler"] if m["id"] in op["musteri_idleri"])
    baska_op = next(o for o in demo["operatorler"] if o is not op and musteri["id"] in o["musteri_idleri"])
    anahtar = {"X-API-Key": musteri["api_key"]}

    # The operator on host B (REST and socket), the visitor on host A.
    token = http_cagri("POST", f"{b.url('web')}/api/v1/auth/login", 200,
                       json={"email": op["email"], "sifre": op["sifre"]})["token"]
    yetki = {"Authorization": f"Bearer {token}"}
    operator = _operator_soketi(b.ws(), token)
    oturum = http_cagri("POST", f"{a.url('web')}/api/v1/widget/chat/start", 201, headers=anahtar,
                        json={"ziyaretci_id": "iki-host", "mesaj": "Merhaba"})["oturum"]
    ilk = operator.bekle("mesaj", sure=SURE, kosul=lambda d: d["mesaj"]["oturum_id"] == oturum["id"])["mesaj"]
    assert ilk["icerik"] == "Merhaba"
    ziyaretci = _widget_soketi(a.ws(), musteri["api_key"], "iki-host")
    http_cagri("POST", f"{b.url('web')}/api/v1/operator/chat/{oturum['id']}/accept", 200, headers=yetki, json={})
    cevap = http_cagri("POST", f"{b.url('web')}/api/v1/operator/chat/{oturum['id']}/message", 201, headers=yetki,
                       json={"icerik": "Buyrun"})["mesaj"]
    assert ziyaretci.bekle("mesaj", sure=SURE, kosul=lambda d: d["mesaj"]["id"] == cevap["id"])["mesaj"] == cevap
    son_a = http_cagri("POST", f"{a.url('web')}/api/v1/widget/chat/message", 201, headers=anahtar,
                       json={"ziyaretci_id": "iki-host", "oturum_id": oturum["id"], "icerik": "Bir sorum var"})["mesaj"]
    assert operator.bekle("mesaj", sure=SURE, kosul=lambda d: d["mesaj"]["id"] == son_a["id"])["mesaj"] == son_a
    png = png_bayt()
    dosya = http_cagri("POST", f"{a.url('web')}/api/v1/widget/upload", 201, headers=anahtar,
                       data={"ziyaretci_id": "iki-host"}, files={"dosya": ("ek.png", png, "image/png")})["dosya"]
    assert dosya["url"].startswith(ortam["S3_ENDPOINT_URL"]), dosya  # signed, in the bucket
    # Only host A's beat has sent anything while both ran.
    assert _gonderilen(a.log_metni()) and not _gonderilen(b.log_metni()), b.log_metni()[-3000:]

    # Host A dies at once.
    a.oldur()
    olum = time.monotonic()
    ziyaretci.kapat()
    ziyaretci = _widget_soketi(b.ws(), musteri["api_key"], "iki-host")  # the visitor comes back on B
    gecmis = http_cagri("GET", f"{b.url('web')}/api/v1/widget/chat/messages", 200, headers=anahtar,
                        params={"ziyaretci_id": "iki-host", "oturum_id": oturum["id"]})
    assert [m["id"] for m in gecmis["mesajlar"] if m["id"] in (ilk["id"], cevap["id"], son_a["id"])] == [
        ilk["id"], cevap["id"], son_a["id"]]
    soru = http_cagri("POST", f"{b.url('web')}/api/v1/widget/chat/message", 201, headers=anahtar,
                      json={"ziyaretci_id": "iki-host", "oturum_id": oturum["id"], "icerik": "Hâlâ orada mısınız?"})["mesaj"]
    assert operator.bekle("mesaj", sure=SURE, kosul=lambda d: d["mesaj"]["id"] == soru["id"])["mesaj"] == soru
    ikinci = http_cagri("POST", f"{b.url('web')}/api/v1/operator/chat/{oturum['id']}/message", 201, headers=yetki,
                        json={"icerik": "Evet, buradayım"})["mesaj"]
    assert ziyaretci.bekle("mesaj", sure=SURE, kosul=lambda d: d["mesaj"]["id"] == ikinci["id"])["mesaj"] == ikinci
    mesajlar = http_cagri("GET", f"{b.url('web')}/api/v1/operator/chat/{oturum['id']}/messages", 200, headers=yetki)
    assert {ilk["id"], cevap["id"], son_a["id"], soru["id"], ikinci["id"]} <= {m["id"] for m in mesajlar["mesajlar"]}
    # The file uploaded on A is in the bucket, not on A's disk: still there with A gone.
    indirilen = requests.get(dosya["url"], timeout=15)
    assert indirilen.status_code == 200 and indirilen.content == png
    # Another operator (no write of its own: the replica may answer) finds the chat on B by search.
    baska = http_cagri("POST", f"{b.url('web')}/api/v1/auth/login", 200,
                       json={"email": baska_op["email"], "sifre": baska_op["sifre"]})["token"]
    bitis = time.monotonic() + 30
    while True:
        sonuclar = http_cagri("GET", f"{b.url('web')}/api/v1/operator/ara", 200,
                              headers={"Authorization": f"Bearer {baska}"}, params={"q": "sorum"})["sonuclar"]
        if any(r["tur"] == "chat" and r["id"] == oturum["id"] for r in sonuclar):
            break
        assert time.monotonic() < bitis, sonuclar
        time.sleep(0.5)

    # Host B's beat takes over within a minute of the holder's death, and sends from then on.
    while "Acquired lock" not in b.log_metni():
        assert time.monotonic() - olum < DEVRALMA_SINIRI, b.log_metni()[-4000:]
        time.sleep(0.5)
    devralma = time.monotonic() - olum
    while not _gonderilen(b.log_metni()):
        assert time.monotonic() - olum < DEVRALMA_SINIRI + 15, b.log_metni()[-4000:]
        time.sleep(0.5)
    print(f"beat devralma: {devralma:.1f} sn")
    operator.kapat()
    ziyaretci.kapat()

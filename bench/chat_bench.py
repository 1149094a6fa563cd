#!/usr/bin/env python
"""Hot-path benchmark (issue 12): the widget's and the operator's hot paths against a bare view,
in one run, on gunicorn and PostgreSQL with the settings' production defaults.

  bos_kayit     POST /bench/bos-kayit                          bare DRF view, one INSERT (floor of P1)
  P1 chat_mesaj POST /api/v1/widget/chat/message               a visitor message
  bos_okuma     GET  /bench/bos-okuma?id=N                     bare DRF view, one SELECT by pk (floor of P2)
  P2 yoklama    GET  /api/v1/widget/chat/messages?...&sonra=<last id>   an idle poll (0 new messages)
  P4 kuyruk     GET  /api/v1/operator/chats                    operator of 3 tenants, 1,000 vs 20,000
                                                               waiting chats (page 1; page 2 at 20,000)

With `--tavan`, two more write scenarios join P1's rounds: the bare INSERT plus the widget limit's
Redis round trip (the service's own `pencere_kontrol`), through DRF and as a plain Django view: the
ceiling of any rate-limited write, which a visitor message cannot beat (it also does both).

P1/P2 and their floors run in interleaved rounds (bos_kayit, P1, bos_okuma, P2, repeated --tur
times), each client (--istemci, 16) its own visitor with its own open chat; the ratios are
P1 / bos_kayit and P2 / bos_okuma in requests per second. P4 alternates the two queue sizes
(--p4-tur rounds: seed to 1,000, measure; seed to 20,000, measure page 1 and page 2) with a few
clients (--p4-istemci, 4) and reports p50(20,000) / p50(1,000).

`--repo DIR` is the checkout served (default: the one this script is in), so the same script
measures an old commit and the new code. The bare views live in `bench/taban/` (this folder goes
on gunicorn's PYTHONPATH after DIR; DJANGO_SETTINGS_MODULE=taban.settings = the checkout's own
settings plus two routes). The served checkout's `manage.py migrate` runs on a dropped and
recreated database; tenants and the operator come from its own `musteri_olustur` and
`operator_olustur` commands, the chats of P1/P2 from its `POST /widget/chat/start`, and P4's
waiting chats from a `bulk_create` run in its own ORM (`manage.py shell -c`).

Server environment: a minimal one (PATH, HOME, LANG) plus DEBUG=false, SECRET_KEY,
SECURE_SSL_REDIRECT=false, DATABASE_URL, REDIS_URL, and WIDGET_RATE_LIMIT=100000/s: the widget
limit (default 120/min per key and client IP) would refuse a benchmark from one IP; the limiter
still runs its Redis get and set on every widget call. Nothing else is set, so CONN_MAX_AGE and
every other knob keep the settings' defaults (CONN_MAX_AGE=0: a new PostgreSQL connection per
request, for the bare views too).

Each request opens its own connection (gunicorn's sync workers close it after the answer); any
status other than the expected one (201, 200) or a connection error counts as an error.

Usage (from any directory):
    .venv/bin/python bench/chat_bench.py [--repo DIR] [--sure 30] [--tur 3] [--istemci 16]
        [--worker 4] [--p4-sure 12] [--p4-tur 2] [--p4-istemci 4] [--json sonuc.json]

Environment: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/sd_hot_bench; dropped
and created afresh), BENCH_REDIS_URL (default redis://127.0.0.1:6379/2; flushed: use a Redis
database of the benchmark's own).
"""
import argparse
import datetime as dt
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlencode, urlparse

BENCH_DIR = Path(__file__).resolve().parent
HOST = "127.0.0.1"
WIDGET_RATE_LIMIT = "100000/s"  # 1 s window: DRF's history list holds about one second of calls
P4_ILK = 1_000
P4_BUYUK = 20_000


# --- the served checkout -------------------------------------------------------------------------

def sunucu_ortami(repo: Path, database_url: str, redis_url: str, ek: dict) -> dict:
    """A minimal environment: nothing of the caller's shell (CONN_MAX_AGE, ...) leaks in."""
    env = {k: os.environ[k] for k in ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR") if k in os.environ}
    env.update({
        "PYTHONPATH": os.pathsep.join([str(repo), str(BENCH_DIR)]),
        "DJANGO_SETTINGS_MODULE": "taban.settings",
        "DEBUG": "false",
        "SECRET_KEY": "bench-only-" + "k" * 48,
        "SECURE_SSL_REDIRECT": "false",
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "WIDGET_RATE_LIMIT": WIDGET_RATE_LIMIT,
    })
    env.update(ek)
    return env


def manage(repo: Path, env: dict, *args: str) -> str:
    sonuc = subprocess.run([sys.executable, "manage.py", *args], cwd=repo, env=env, capture_output=True, text=True)
    if sonuc.returncode:
        raise SystemExit(f"manage.py {args[0]} failed ({sonuc.returncode}):\n{sonuc.stdout}\n{sonuc.stderr}")
    return sonuc.stdout


def pg(database_url: str):
    import psycopg

    return psycopg.connect(database_url, autocommit=True)


def veritabani_hazirla(repo: Path, env: dict, database_url: str, redis_url: str, okuma_satiri: int) -> None:
    import psycopg
    import redis

    url = urlparse(database_url)
    ad = url.path.lstrip("/")
    with psycopg.connect(url._replace(path="/postgres").geturl(), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{ad}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{ad}"')
    redis.Redis.from_url(redis_url).flushdb()
    manage(repo, env, "migrate", "--noinput", "-v", "0")
    sys.path.insert(0, str(BENCH_DIR))
    from taban.tablo import TABLO, TABLO_DDL

    with pg(database_url) as conn:
        conn.execute(TABLO_DDL)
        conn.execute(f"INSERT INTO {TABLO} (icerik) SELECT 'satır ' || i FROM generate_series(1, %s) i",
                     [okuma_satiri])
        conn.execute(f"VACUUM ANALYZE {TABLO}")


def sunucu_baslat(repo: Path, env: dict, port: int, worker: int) -> subprocess.Popen:
    gunicorn = Path(sys.executable).parent / "gunicorn"
    proc = subprocess.Popen(
        [str(gunicorn), "supportdesk.wsgi:application", "--workers", str(worker), "--bind", f"{HOST}:{port}",
         "--log-level", "warning", "--timeout", "60"],
        cwd=repo, env=env,
    )
    bitis = time.monotonic() + 60
    while time.monotonic() < bitis:
        if proc.poll() is not None:
            raise SystemExit(f"gunicorn exited (code {proc.returncode})")
        try:
            if http_istek(port, "GET", "/api/v1/saglik")[0] == 200:
                return proc
        except OSError:
            pass
        time.sleep(0.3)
    proc.terminate()
    raise SystemExit("gunicorn did not answer /api/v1/saglik within 60 s")


# --- HTTP ----------------------------------------------------------------------------------------

def http_istek(port: int, method: str, path: str, veri=None, headers: dict | None = None) -> tuple[int, dict]:
    """Set-up and checks (not timed): status and decoded JSON body."""
    headers = dict(headers or {})
    body = None
    if veri is not None:
        body = json.dumps(veri).encode()
        headers["Content-Type"] = "application/json"
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    try:
        conn.request(method, path, body=body, headers=headers)
        yanit = conn.getresponse()
        ham = yanit.read()
    finally:
        conn.close()
    try:
        return yanit.status, json.loads(ham) if ham else {}
    except ValueError:
        return yanit.status, {"ham": ham[:200].decode("utf-8", "replace")}


def ham_istek(method: str, path: str, veri=None, headers: dict | None = None) -> bytes:
    """A request written out once; the timed loop only sends these bytes."""
    body = json.dumps(veri).encode() if veri is not None else b""
    satirlar = [f"{method} {path} HTTP/1.1", f"Host: {HOST}", "Connection: close", "Accept: application/json"]
    for k, v in (headers or {}).items():
        satirlar.append(f"{k}: {v}")
    if veri is not None:
        satirlar += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
    return ("\r\n".join(satirlar) + "\r\n\r\n").encode() + body


def gonder(port: int, istek: bytes) -> int:
    """One connection, one request, read to EOF (the server closes); returns the status."""
    with socket.create_connection((HOST, port), timeout=30) as s:
        s.sendall(istek)
        ilk = s.recv(65536)
        while s.recv(65536):
            pass
    return int(ilk[9:12])


def calistir(port: int, istekler: list, beklenen: int, sure: float, isinma: float) -> dict:
    """Client i sends istekler[i] again and again; warm-up excluded. Latencies in seconds.
    An element may be a callable returning the request's bytes: called for each request (a body
    that must differ each time, such as a new visitor's chat start)."""
    sureler: list[list[float]] = [[] for _ in istekler]
    durumlar: list[dict] = [{} for _ in istekler]
    baslangic = time.monotonic() + isinma
    bitis = baslangic + sure

    def istemci(i: int) -> None:
        istek, kayit, sayac = istekler[i], sureler[i], durumlar[i]
        while (simdi := time.monotonic()) < bitis:
            t0 = time.perf_counter()
            try:
                durum = gonder(port, istek() if callable(istek) else istek)
            except (OSError, ValueError):
                durum = 0
            gecen = time.perf_counter() - t0
            if simdi >= baslangic:
                kayit.append(gecen)
                sayac[durum] = sayac.get(durum, 0) + 1

    threads = [threading.Thread(target=istemci, args=(i,)) for i in range(len(istekler))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    durum_sayilari: dict[int, int] = {}
    for d in durumlar:
        for k, v in d.items():
            durum_sayilari[k] = durum_sayilari.get(k, 0) + v
    return {"sureler": [x for s in sureler for x in s], "durumlar": durum_sayilari, "sure": sure,
            "hata": sum(v for k, v in durum_sayilari.items() if k != beklenen)}


def ozetle(olcumler: list[dict]) -> dict:
    tum = sorted(x for o in olcumler for x in o["sureler"])
    n = len(tum)
    toplam_sure = sum(o["sure"] for o in olcumler)
    durumlar: dict[int, int] = {}
    for o in olcumler:
        for k, v in o["durumlar"].items():
            durumlar[k] = durumlar.get(k, 0) + v
    return {
        "istek": n,
        "hata": sum(o["hata"] for o in olcumler),
        "durumlar": {str(k): v for k, v in sorted(durumlar.items())},
        "rps": round(n / toplam_sure, 1) if toplam_sure else None,
        "p50_ms": round(statistics.median(tum) * 1000, 2) if n else None,
        "p99_ms": round(tum[min(n - 1, int(n * 0.99))] * 1000, 2) if n else None,
        "tur_rps": [round(len(o["sureler"]) / o["sure"], 1) for o in olcumler],
    }


# --- scenarios -----------------------------------------------------------------------------------

def musteri_olustur(repo: Path, env: dict, ad: str) -> dict:
    return json.loads(manage(repo, env, "musteri_olustur", "--firma-adi", ad, "--json").strip().splitlines()[-1])


def kurallar_olustur(repo: Path, env: dict, musteri_id: int, adet: int) -> None:
    """`adet` rules for each of the two hot events, through the served checkout's own service."""
    kod = (
        "from otomasyon.services import kural_olustur\n"
        f"for olay in ('chat_baslatildi', 'ziyaretci_mesaji'):\n"
        f"    for i in range({adet}):\n"
        f"        kural_olustur(musteri_id={musteri_id}, aktor_id=None, veri={{'ad': f'K{{i}}', 'olay': olay,"
        " 'eylemler': [{'tur': 'kapat'}], 'kosullar': [{'alan': 'metin', 'islem': 'icerir', 'deger': f'yok-{i}'},"
        " {'alan': 'kanal', 'islem': 'esit', 'deger': 'widget'}]})\n"
    )
    manage(repo, env, "shell", "-c", kod)


def widget_hazirla(port: int, api_key: str, istemci: int) -> list[tuple[str, int]]:
    """One visitor and one open chat per client, through the served API."""
    sohbetler = []
    for i in range(istemci):
        ziyaretci = f"bench-{i}"
        durum, yanit = http_istek(port, "POST", "/api/v1/widget/chat/start",
                                  {"ziyaretci_id": ziyaretci, "ad": f"Ziyaretçi {i}", "mesaj": "Merhaba"},
                                  {"X-API-Key": api_key})
        if durum != 201:
            raise SystemExit(f"widget/chat/start: {durum} {yanit}")
        sohbetler.append((ziyaretci, yanit["data"]["oturum"]["id"]))
    return sohbetler


def son_mesaj_idleri(database_url: str, oturum_idleri: list[int]) -> dict[int, int]:
    with pg(database_url) as conn:
        return dict(conn.execute("SELECT oturum_id, max(id) FROM chat_mesaj WHERE oturum_id = ANY(%s) "
                                 "GROUP BY oturum_id", [oturum_idleri]).fetchall())


class P4Kuyruk:
    """The operator's tenants and their waiting chats; `boyut(n)` brings the queue to n chats."""

    def __init__(self, repo: Path, env: dict, database_url: str):
        self.repo, self.env, self.database_url = repo, env, database_url
        self.musteri_idleri = [musteri_olustur(repo, env, f"Bench P4 {h}")["id"] for h in "ABC"]
        self.email, self.sifre = "p4-operator@bench.example", "Bench-sifre-12345"
        args = ["operator_olustur", "--email", self.email, "--sifre", self.sifre, "--json"]
        for m in self.musteri_idleri:
            args += ["--musteri", str(m)]
        manage(repo, env, *args)
        # Queue order is by `baslangic`: chat i started at T0 + i s, so growing the queue adds to its tail.
        self.t0 = (dt.datetime.now(dt.UTC) - dt.timedelta(days=2)).replace(microsecond=0)
        self.sayi = 0

    def boyut(self, n: int) -> float:
        t = time.monotonic()
        if n > self.sayi:
            kod = (
                "import datetime as dt\n"
                "from chat.models import Oturum\n"
                f"t0 = dt.datetime.fromisoformat({self.t0.isoformat()!r})\n"
                f"m = {self.musteri_idleri!r}\n"
                "Oturum.objects.bulk_create([Oturum(musteri_id=m[i % 3], ziyaretci_id=f'p4-{i}', "
                "ziyaretci_adi=f'Ziyaretçi {i}', son_mesaj='Merhaba, siparişim nerede?', okunmamis=1, "
                f"baslangic=t0 + dt.timedelta(seconds=i)) for i in range({self.sayi}, {n})], batch_size=2000)\n"
            )
            manage(self.repo, self.env, "shell", "-c", kod)
        elif n < self.sayi:
            with pg(self.database_url) as conn:
                conn.execute("DELETE FROM chat_oturum WHERE musteri_id = ANY(%s) AND baslangic >= %s",
                             [self.musteri_idleri, self.t0 + dt.timedelta(seconds=n)])
        with pg(self.database_url) as conn:
            sayi = conn.execute("SELECT count(*) FROM chat_oturum WHERE musteri_id = ANY(%s) AND durum = 'bekliyor'",
                                [self.musteri_idleri]).fetchone()[0]
            if sayi != n:
                raise SystemExit(f"P4: {sayi} waiting chats, expected {n}")
            # Statistics as autovacuum would leave them on a settled table (and no autovacuum
            # running into a measurement).
            conn.execute("VACUUM ANALYZE chat_oturum")
        self.sayi = n
        return time.monotonic() - t


def giris(port: int, email: str, sifre: str) -> str:
    durum, yanit = http_istek(port, "POST", "/api/v1/auth/login", {"email": email, "sifre": sifre})
    if durum != 200:
        raise SystemExit(f"auth/login: {durum} {yanit}")
    return yanit["data"]["token"]


def kuyruk_sayfasi(port: int, yol: str, token: str) -> dict:
    durum, yanit = http_istek(port, "GET", yol, headers={"Authorization": f"Bearer {token}"})
    if durum != 200 or len(yanit["data"]["oturumlar"]) != 50 or not yanit["data"]["sonraki"]:
        raise SystemExit(f"{yol}: {durum}, expected a full page of 50 with a next cursor: {str(yanit)[:300]}")
    return yanit["data"]


# --- main ----------------------------------------------------------------------------------------

def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repo", type=Path, default=BENCH_DIR.parent, help="checkout to serve (default: this one)")
    parser.add_argument("--sure", type=float, default=30, help="measured seconds per A/B scenario, split into rounds")
    parser.add_argument("--tur", type=int, default=3, help="interleaved rounds of the A/B scenarios")
    parser.add_argument("--isinma", type=float, default=1, help="uncounted warm-up seconds before each measurement")
    parser.add_argument("--istemci", type=int, default=16, help="concurrent clients for P1/P2 and their floors")
    parser.add_argument("--worker", type=int, default=4, help="gunicorn sync workers")
    parser.add_argument("--p4-sure", type=float, default=12, help="measured seconds per P4 case, split into rounds")
    parser.add_argument("--p4-tur", type=int, default=2, help="rounds of P4 (1,000 then 20,000 each)")
    parser.add_argument("--p4-istemci", type=int, default=4, help="concurrent clients for P4")
    parser.add_argument("--tavan", action="store_true",
                        help="also measure the ceiling of a rate-limited write: the bare INSERT plus the "
                             "widget limit's Redis round trip, through DRF and as a plain Django view")
    parser.add_argument("--kural", type=int, default=0,
                        help="active automation rules (CONTRACT 23) of the widget's tenant, N each for a chat's "
                             "start and a visitor's message, none of whose conditions hold (the rules' cost alone)")
    parser.add_argument("--port", type=int, default=0, help="0: a free port")
    parser.add_argument("--json", type=Path, help="write the results here")
    parser.add_argument("--ortam", action="append", default=[], metavar="KEY=VALUE",
                        help="extra server environment, for diagnosis only (e.g. CONN_MAX_AGE=60): the "
                             "results are then NOT production defaults, and say so")
    args = parser.parse_args()

    repo = args.repo.resolve()
    if not (repo / "manage.py").exists():
        raise SystemExit(f"{repo}: no manage.py")
    commit = subprocess.run(["git", "-C", str(repo), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip() or "?"
    kirli = bool(subprocess.run(["git", "-C", str(repo), "status", "--porcelain", "--untracked-files=no"],
                                capture_output=True, text=True).stdout.strip())
    database_url = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/sd_hot_bench")
    redis_url = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/2")
    ek = dict(kv.split("=", 1) for kv in args.ortam)
    env = sunucu_ortami(repo, database_url, redis_url, ek)
    bas_zaman = dt.datetime.now(dt.UTC)
    yuk_bas = os.getloadavg()
    print(f"# served: {repo} @ {commit}{' (uncommitted changes)' if kirli else ''}; {os.cpu_count()} cores, "
          f"load {yuk_bas[0]:.2f} {yuk_bas[1]:.2f} {yuk_bas[2]:.2f}", flush=True)
    print(f"# WIDGET_RATE_LIMIT={WIDGET_RATE_LIMIT} (the limiter runs, never refuses); no other setting is "
          "changed: CONN_MAX_AGE etc. are the settings' defaults", flush=True)
    if ek:
        print(f"# !!! NOT production defaults: extra server environment {ek}", flush=True)

    veritabani_hazirla(repo, env, database_url, redis_url, okuma_satiri=1000)
    widget = musteri_olustur(repo, env, "Bench Widget")
    if args.kural:
        kurallar_olustur(repo, env, widget["id"], args.kural)
    kuyruk = P4Kuyruk(repo, env, database_url)

    if not args.port:
        with socket.socket() as s:
            s.bind((HOST, 0))
            args.port = s.getsockname()[1]
    port = args.port
    sunucu = sunucu_baslat(repo, env, port, args.worker)
    try:
        sohbetler = widget_hazirla(port, widget["api_key"], args.istemci)
        anahtar = {"X-API-Key": widget["api_key"]}
        bos_kayit = [ham_istek("POST", "/bench/bos-kayit", {"icerik": "Merhaba"}) for _ in sohbetler]
        bos_okuma = [ham_istek("GET", f"/bench/bos-okuma?id={i + 1}") for i in range(len(sohbetler))]
        mesaj = [ham_istek("POST", "/api/v1/widget/chat/message",
                           {"ziyaretci_id": z, "oturum_id": o, "icerik": "Siparişim nerede?"}, anahtar)
                 for z, o in sohbetler]
        tavan = {"sinirli_kayit": [ham_istek("POST", "/bench/sinirli-kayit", {"icerik": "Merhaba"})] * len(sohbetler),
                 "sinirli_kayit_django": [ham_istek("POST", "/bench/sinirli-kayit-django", {"icerik": "Merhaba"})]
                 * len(sohbetler)} if args.tavan else {}
        ab: dict[str, list[dict]] = {ad: [] for ad in ("bos_kayit", "chat_mesaj", "bos_okuma", "yoklama", *tavan)}
        tur_suresi = args.sure / args.tur
        for tur in range(args.tur):
            # Rounds interleave the scenarios: a change in the machine's load hits them all alike.
            ab["bos_kayit"].append(calistir(port, bos_kayit, 201, tur_suresi, args.isinma))
            ab["chat_mesaj"].append(calistir(port, mesaj, 201, tur_suresi, args.isinma))
            for ad, istekler in tavan.items():
                ab[ad].append(calistir(port, istekler, 201, tur_suresi, args.isinma))
            ab["bos_okuma"].append(calistir(port, bos_okuma, 200, tur_suresi, args.isinma))
            son = son_mesaj_idleri(database_url, [o for _, o in sohbetler])
            yollar = ["/api/v1/widget/chat/messages?" + urlencode({"ziyaretci_id": z, "oturum_id": o, "sonra": son[o]})
                      for z, o in sohbetler]
            durum, yanit = http_istek(port, "GET", yollar[0], headers=anahtar)
            if durum != 200 or yanit["data"]["mesajlar"]:
                raise SystemExit(f"idle poll is not idle: {durum} {str(yanit)[:300]}")
            ab["yoklama"].append(calistir(port, [ham_istek("GET", y, headers=anahtar) for y in yollar], 200,
                                          tur_suresi, args.isinma))
            print(f"# round {tur + 1}/{args.tur}: " + ", ".join(
                f"{ad} {len(o[-1]['sureler']) / o[-1]['sure']:.0f}/s" for ad, o in ab.items()), flush=True)

        p4: dict[str, list[dict]] = {"1000": [], "20000": [], "20000_sayfa2": []}
        token = None
        p4_tur_suresi = args.p4_sure / args.p4_tur
        tohum_suresi = []
        for tur in range(args.p4_tur):
            for n in (P4_ILK, P4_BUYUK):
                tohum_suresi.append(round(kuyruk.boyut(n), 1))
                token = token or giris(port, kuyruk.email, kuyruk.sifre)
                baslik = {"Authorization": f"Bearer {token}"}
                sayfa1 = kuyruk_sayfasi(port, "/api/v1/operator/chats", token)
                p4[str(n)].append(calistir(port, [ham_istek("GET", "/api/v1/operator/chats", headers=baslik)]
                                           * args.p4_istemci, 200, p4_tur_suresi, args.isinma))
                if n == P4_BUYUK:
                    yol2 = "/api/v1/operator/chats?" + urlencode({"cursor": sayfa1["sonraki"]})
                    kuyruk_sayfasi(port, yol2, token)
                    p4["20000_sayfa2"].append(calistir(port, [ham_istek("GET", yol2, headers=baslik)]
                                                       * args.p4_istemci, 200, p4_tur_suresi, args.isinma))
            print(f"# P4 round {tur + 1}/{args.p4_tur}: " + ", ".join(
                f"{ad} p50 {statistics.median(o[-1]['sureler']) * 1000:.1f} ms" for ad, o in p4.items()), flush=True)
    finally:
        sunucu.terminate()
        sunucu.wait(timeout=30)

    ab_ozet = {ad: ozetle(o) for ad, o in ab.items()}
    p4_ozet = {ad: ozetle(o) for ad, o in p4.items()}

    def oran(a, b):
        return round(a / b, 2) if a and b else None

    oranlar = {
        "P1_mesaj_bos_kayit": oran(ab_ozet["chat_mesaj"]["rps"], ab_ozet["bos_kayit"]["rps"]),
        "P2_yoklama_bos_okuma": oran(ab_ozet["yoklama"]["rps"], ab_ozet["bos_okuma"]["rps"]),
        "P4_p50_20000_1000": oran(p4_ozet["20000"]["p50_ms"], p4_ozet["1000"]["p50_ms"]),
        **{f"{ad}_bos_kayit": oran(ab_ozet[ad]["rps"], ab_ozet["bos_kayit"]["rps"]) for ad in tavan},
    }
    tur_oranlari = {
        "P1": [oran(a, b) for a, b in zip(ab_ozet["chat_mesaj"]["tur_rps"], ab_ozet["bos_kayit"]["tur_rps"], strict=True)],
        "P2": [oran(a, b) for a, b in zip(ab_ozet["yoklama"]["tur_rps"], ab_ozet["bos_okuma"]["tur_rps"], strict=True)],
        "P4": [oran(statistics.median(a["sureler"]), statistics.median(b["sureler"]))
               for a, b in zip(p4["20000"], p4["1000"], strict=True)],
    }
    yuk_son = os.getloadavg()
    sonuc = {
        "commit": commit, "kirli": kirli, "repo": str(repo),
        "tarih": bas_zaman.isoformat(timespec="seconds"),
        "sure_toplam_s": round((dt.datetime.now(dt.UTC) - bas_zaman).total_seconds()),
        "cpu": os.cpu_count(), "yuk_ortalamasi_bas": [round(x, 2) for x in yuk_bas],
        "yuk_ortalamasi_son": [round(x, 2) for x in yuk_son],
        "ayarlar": {"worker": args.worker, "istemci": args.istemci, "sure_s": args.sure, "tur": args.tur,
                    "isinma_s": args.isinma, "p4_istemci": args.p4_istemci, "p4_sure_s": args.p4_sure,
                    "p4_tur": args.p4_tur, "WIDGET_RATE_LIMIT": WIDGET_RATE_LIMIT, "ek_ortam": ek,
                    "kural": args.kural},
        "ab": ab_ozet, "p4": p4_ozet, "oranlar": oranlar, "tur_oranlari": tur_oranlari,
        "p4_tohum_s": tohum_suresi,
    }

    satirlar = [
        ("bos_kayit", "bare DRF view, one INSERT", "POST /bench/bos-kayit"),
        ("chat_mesaj", "P1 visitor message", "POST /api/v1/widget/chat/message"),
        ("bos_okuma", "bare DRF view, one SELECT by pk", "GET /bench/bos-okuma?id="),
        ("yoklama", "P2 idle poll (sonra=last id)", "GET /api/v1/widget/chat/messages"),
        *([("sinirli_kayit", "ceiling: limit round trip + one INSERT (DRF)", "POST /bench/sinirli-kayit"),
           ("sinirli_kayit_django", "ceiling: limit round trip + one INSERT (plain Django)",
            "POST /bench/sinirli-kayit-django")] if tavan else []),
    ]
    print()
    if ek:
        print(f"**NOT production defaults: {ek}**")
    if args.kural:
        print(f"**{args.kural} active rules each for a chat's start and a visitor's message (none holds)**")
    print(f"{commit} {sonuc['tarih']} · {os.cpu_count()} cores · load {yuk_bas[0]:.2f} → {yuk_son[0]:.2f} · "
          f"{args.worker} workers · {args.istemci} clients · {args.tur} × {tur_suresi:g} s")
    print()
    print("| scenario | requests | errors | req/s | p50 ms | p99 ms | req/s per round |")
    print("|---|---|---|---|---|---|---|")
    for ad, etiket, _ in satirlar:
        s = ab_ozet[ad]
        print(f"| {etiket} | {s['istek']} | {s['hata']} | {s['rps']} | {s['p50_ms']} | {s['p99_ms']} | "
              f"{', '.join(map(str, s['tur_rps']))} |")
    print()
    print(f"| P4 `GET /operator/chats`, {args.p4_istemci} clients | requests | errors | req/s | p50 ms | p99 ms |")
    print("|---|---|---|---|---|---|")
    for ad, etiket in (("1000", "1,000 waiting, page 1"), ("20000", "20,000 waiting, page 1"),
                       ("20000_sayfa2", "20,000 waiting, page 2")):
        s = p4_ozet[ad]
        print(f"| {etiket} | {s['istek']} | {s['hata']} | {s['rps']} | {s['p50_ms']} | {s['p99_ms']} |")
    print()
    print("| ratio | value | per round |")
    print("|---|---|---|")
    print(f"| P1 message ÷ bare insert (req/s) | {oranlar['P1_mesaj_bos_kayit']} | {tur_oranlari['P1']} |")
    print(f"| P2 idle poll ÷ bare read (req/s) | {oranlar['P2_yoklama_bos_okuma']} | {tur_oranlari['P2']} |")
    print(f"| P4 p50 at 20,000 ÷ at 1,000 | {oranlar['P4_p50_20000_1000']} | "
          f"{[round(x, 2) for x in tur_oranlari['P4']]} |")
    for ad in tavan:
        tur = [oran(a, b) for a, b in zip(ab_ozet[ad]["tur_rps"], ab_ozet["bos_kayit"]["tur_rps"], strict=True)]
        print(f"| {ad} ÷ bare insert (req/s) | {oranlar[f'{ad}_bos_kayit']} | {tur} |")
    if args.json:
        args.json.write_text(json.dumps(sonuc, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        print(f"\n# results: {args.json}")

    hatali = {ad: s["durumlar"] for ad, s in {**ab_ozet, **{f"p4_{k}": v for k, v in p4_ozet.items()}}.items()
              if s["hata"]}
    if hatali:
        print("\n" + "!" * 78 + f"\n!!! ERRORS: unexpected statuses (0 = connection error): {hatali}\n"
              "!!! The numbers above are not comparable until this is 0.\n" + "!" * 78, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

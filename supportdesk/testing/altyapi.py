"""Which database and Redis the test suite runs on (issue 25: `make test` runs what production runs).

`supportdesk.test_settings` calls `ortami_hazirla(os.environ)` before reading the settings: an
explicit DATABASE_URL or REDIS_URL wins (set REDIS_URL to an empty string for no Redis, and
DATABASE_URL to a `sqlite:///` address for SQLite); otherwise the machine's PostgreSQL
(127.0.0.1:5432, user postgres, database `supportdesk`, created if missing) and Redis
(127.0.0.1:6379, database 0) are used when they answer, as CI does (.ci/run), and SQLite and
in-memory stand-ins only where they do not. `ozet()` is the line the run prints in its summary.

Parallel runs (`make test` runs `pytest -n 2`, pytest-xdist): every test empties its Redis database
(conftest.py's `cache.clear()` is a FLUSHDB), so each worker process has a database of its own: worker
`gwK` uses the chosen database number plus K (`redis://…/4` gives gw0 4, gw1 5). The numbers from 12
up stay out of it: 12, 13 and 14 are the fixed databases of the background-work test, the beat test
and the CI runtime stage (ISCI_SINIRI); a base too high for the worker count is refused with that
reason. PostgreSQL needs nothing here: pytest-django gives each worker its own test database
(`test_<name>_gwK`). The worker's servers and Celery workers inherit the environment, with
ISCI_ISARETI naming the worker whose database REDIS_URL already is, so they never add K twice.
"""
import os
import socket
from urllib.parse import parse_qs, urlencode, urlsplit, urlunsplit

HOST = "127.0.0.1"
PG_PORT = 5432
REDIS_PORT = 6379
VARSAYILAN_VERITABANI = "supportdesk"
SURE = 1.0  # seconds per probe: a closed port answers at once, a filtered one costs at most this
ISCI_SINIRI = 12  # the first fixed Redis database of single tests (12 background work, 13 beat, 14 CI runtime)
ISCI_ISARETI = "SUPPORTDESK_TEST_REDIS_ISCISI"  # REDIS_URL is already this xdist worker's own database


def postgres_hazir_mi(host: str = HOST, port: int = PG_PORT, veritabani: str = VARSAYILAN_VERITABANI,
                      sure: float = SURE) -> bool:
    """Whether PostgreSQL answers on host:port (user postgres); creates `veritabani` if missing."""
    try:
        import psycopg
    except ImportError:
        return False
    try:
        with psycopg.connect(host=host, port=port, user="postgres", dbname="postgres", connect_timeout=max(1, int(sure)),
                             autocommit=True) as conn:
            if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [veritabani]).fetchone():
                try:
                    conn.execute(f'CREATE DATABASE "{veritabani}"')
                except psycopg.errors.DuplicateDatabase:
                    pass  # another run created it in between
    except psycopg.Error:
        return False
    return True


def redis_hazir_mi(host: str = HOST, port: int = REDIS_PORT, sure: float = SURE) -> bool:
    """Whether Redis answers PING on host:port (a raw socket: no client library needed)."""
    try:
        with socket.create_connection((host, port), timeout=sure) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def ortami_hazirla(ortam=None, *, pg_port: int = PG_PORT, redis_port: int = REDIS_PORT) -> dict:
    """Fill DATABASE_URL and REDIS_URL in `ortam` (os.environ by default) unless set; returns what
    was chosen and why: {"veritabani": url, "redis": url or "", "kaynak": {...}}."""
    ortam = os.environ if ortam is None else ortam
    kaynak = {}
    if "DATABASE_URL" in ortam:
        kaynak["veritabani"] = "ortam"
    elif postgres_hazir_mi(port=pg_port):
        ortam["DATABASE_URL"] = f"postgres://postgres@{HOST}:{pg_port}/{VARSAYILAN_VERITABANI}"
        kaynak["veritabani"] = "bulundu"
    else:
        kaynak["veritabani"] = "yok"
    if "REDIS_URL" in ortam:
        kaynak["redis"] = "ortam"
    elif redis_hazir_mi(port=redis_port):
        ortam["REDIS_URL"] = f"redis://{HOST}:{redis_port}/0"
        kaynak["redis"] = "bulundu"
    else:
        kaynak["redis"] = "yok"
    isci = ortam.get("PYTEST_XDIST_WORKER", "")
    if isci and ortam.get("REDIS_URL") and ortam.get(ISCI_ISARETI) != isci:
        ortam["REDIS_URL"] = isci_redis_url(ortam["REDIS_URL"], isci)
        ortam[ISCI_ISARETI] = isci
    secim = {"veritabani": ortam.get("DATABASE_URL", ""), "redis": ortam.get("REDIS_URL", ""), "kaynak": kaynak}
    ortam["SUPPORTDESK_TEST_ALTYAPI"] = f"{kaynak['veritabani']},{kaynak['redis']}"
    return secim


def isci_redis_url(redis_url: str, isci: str) -> str:
    """The Redis address of xdist worker `isci` (`gw3`): the database number plus the worker's index
    plus one, kept below ISCI_SINIRI. Never the given number itself: a connection that has not yet
    chosen a database (redis-py sends no SELECT for 0) is in database 0, so with REDIS_URL's usual /0
    the first worker would share its database with every other process's handshakes and readiness
    probes (HELLO, PING), which its Redis round-trip counts (MONITOR) then saw as its own."""
    if redis_url.startswith("redis+cluster://"):
        raise RuntimeError("REDIS_URL bir Redis Cluster: tek veritabanı var, testleri tek süreçte çalıştırın "
                           "(-p no:xdist; .ci/kume).")
    parca = urlsplit(redis_url)
    sorgu = parse_qs(parca.query)
    taban = int(sorgu["db"][0] if "db" in sorgu else (parca.path.strip("/") or "0"))
    sira = int(isci.removeprefix("gw"))
    numara = taban + sira + 1
    if numara >= ISCI_SINIRI:
        raise RuntimeError(
            f"REDIS_URL veritabanı {taban} + test işçisi {isci} = {numara}: {ISCI_SINIRI} ve sonrası tek testlerin "
            f"sabit veritabanları (12 arka plan, 13 beat, 14 CI runtime); daha küçük bir veritabanı ya da daha az "
            f"işçi (-n) seçin.")
    if "db" in sorgu:
        sorgu["db"] = [str(numara)]
        return urlunsplit(parca._replace(query=urlencode(sorgu, doseq=True)))
    return urlunsplit(parca._replace(path=f"/{numara}"))


def ozet(databases: dict, redis_url: str, ortam=None) -> str:
    """`veritabanı: postgresql (127.0.0.1:5432/supportdesk, bulundu), redis: redis://… (ortam)`."""
    ortam = os.environ if ortam is None else ortam
    kaynak_db, _, kaynak_redis = ortam.get("SUPPORTDESK_TEST_ALTYAPI", "ortam,ortam").partition(",")
    etiket = {"ortam": "DATABASE_URL/REDIS_URL", "bulundu": "bu makinede bulundu", "yok": "bulunamadı"}
    db = databases["default"]
    motor = db["ENGINE"].rsplit(".", 1)[-1]
    if motor == "sqlite3":
        yer = os.path.basename(str(db.get("NAME", ""))) or "bellek"
    else:
        yer = f"{db.get('HOST') or 'yerel'}:{db.get('PORT') or PG_PORT}/{db.get('NAME')}"
    if redis_url and redis_url.startswith("redis+cluster://"):
        redis = f"Redis Cluster ({redis_url.split('://', 1)[1]})"
    elif redis_url:
        u = urlsplit(redis_url)
        redis = f"{u.hostname}:{u.port or REDIS_PORT}{u.path or '/0'}"
    else:
        redis = "yok (bellek içi önbellek ve kanal katmanı, Celery eager)"
    return (f"veritabanı: {motor} ({yer}; {etiket.get(kaynak_db, kaynak_db)}), "
            f"redis: {redis} ({etiket.get(kaynak_redis, kaynak_redis)})")

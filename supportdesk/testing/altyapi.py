"""Which database and Redis the test suite runs on (issue 25: `make test` runs what production runs).

`supportdesk.test_settings` calls `ortami_hazirla(os.environ)` before reading the settings: an
explicit DATABASE_URL or REDIS_URL wins (set REDIS_URL to an empty string for no Redis, and
DATABASE_URL to a `sqlite:///` address for SQLite); otherwise the machine's PostgreSQL
(127.0.0.1:5432, user postgres, database `supportdesk`, created if missing) and Redis
(127.0.0.1:6379, database 0) are used when they answer, as CI does (.ci/run), and SQLite and
in-memory stand-ins only where they do not. `ozet()` is the line the run prints in its summary.
"""
import os
import socket
from urllib.parse import urlsplit

HOST = "127.0.0.1"
PG_PORT = 5432
REDIS_PORT = 6379
VARSAYILAN_VERITABANI = "supportdesk"
SURE = 1.0  # seconds per probe: a closed port answers at once, a filtered one costs at most this


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
    secim = {"veritabani": ortam.get("DATABASE_URL", ""), "redis": ortam.get("REDIS_URL", ""), "kaynak": kaynak}
    ortam["SUPPORTDESK_TEST_ALTYAPI"] = f"{kaynak['veritabani']},{kaynak['redis']}"
    return secim


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
    if redis_url:
        u = urlsplit(redis_url)
        redis = f"{u.hostname}:{u.port or REDIS_PORT}{u.path or '/0'}"
    else:
        redis = "yok (bellek içi önbellek ve kanal katmanı, Celery eager)"
    return (f"veritabanı: {motor} ({yer}; {etiket.get(kaynak_db, kaynak_db)}), "
            f"redis: {redis} ({etiket.get(kaynak_redis, kaynak_redis)})")

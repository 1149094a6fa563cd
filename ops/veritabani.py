"""Creates the service's PostgreSQL database when it does not exist yet (`make prod`, before
`migrate`; docs/production.md, "Without Docker"). (ceviri: dosya yok: an operator's tool.)

    DATABASE_URL=postgres://user:password@host:5432/name python ops/veritabani.py

Connects to the server's maintenance database (`postgres`, else `template1`) with the same
credentials and runs `CREATE DATABASE` when `name` is missing; a database that exists is left as it
is. A user without the right to create one gets a one-line message naming what to do, and exit 2.
"""
import os
import sys

import environ
import psycopg
from psycopg import sql


def _baglan(ayar: dict):
    son_hata = None
    for bakim in ("postgres", "template1"):
        try:
            return psycopg.connect(host=ayar["HOST"] or "127.0.0.1", port=ayar["PORT"] or 5432, user=ayar["USER"] or None,
                                   password=ayar["PASSWORD"] or None, dbname=bakim, autocommit=True, connect_timeout=10)
        except psycopg.OperationalError as hata:
            son_hata = hata
    raise SystemExit(f"veritabani: PostgreSQL sunucusuna bağlanılamadı: {son_hata}")


def olustur(url: str) -> bool:
    """True when the database was created, False when it was there already."""
    ayar = environ.Env.db_url_config(url)
    ad = ayar["NAME"]
    with _baglan(ayar) as baglanti:
        if baglanti.execute("SELECT 1 FROM pg_database WHERE datname = %s", (ad,)).fetchone():
            return False
        try:
            baglanti.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(ad)))
        except psycopg.errors.InsufficientPrivilege:
            print(f"veritabani: {ad} yok ve {ayar['USER']} onu oluşturamıyor: bir yönetici "
                  f"`CREATE DATABASE \"{ad}\" OWNER \"{ayar['USER']}\"` çalıştırsın.", file=sys.stderr)
            sys.exit(2)
        except psycopg.errors.DuplicateDatabase:  # made meanwhile by someone else: as good
            return False
    return True


def main() -> None:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        sys.exit("veritabani: DATABASE_URL=postgres://... gerekli")
    if olustur(url):
        print(f"veritabani: {environ.Env.db_url_config(url)['NAME']} oluşturuldu.")


if __name__ == "__main__":
    main()

"""Switches for `bench/karma_bench.py` only: turn one optimisation off in the served process, to
measure what it buys on the mixed load. Never part of the service (it lives in bench/).

`BENCH_KAPAT` is a comma-separated list of names:
  ozet         the poll snapshot (chat.yoklama): the poll reads no snapshot and writes none, as on
               SQLite (`okunacaklar` answers an empty list)
  hazir_sorgu  the compiled querysets (supportdesk.core.derlenmis_sorgu): each call builds and runs the
               builder's queryset, as on SQLite
  tek_ifade    the visitor message's one-statement write (chat.services, `connection.vendor`
               branch): the portable UPDATE + INSERT in a transaction, as on SQLite
"""
import os
import sys

from django.apps import AppConfig
from django.db import connection

ADLAR = ("ozet", "hazir_sorgu", "tek_ifade")


class _TasinabilirBaglanti:
    """`django.db.connection` as seen by chat.services, except that its vendor is not PostgreSQL."""

    vendor = "tasinabilir"

    def __getattr__(self, ad):
        return getattr(connection, ad)


def uygula(adlar) -> None:
    bilinmeyen = set(adlar) - set(ADLAR)
    if bilinmeyen:
        raise SystemExit(f"BENCH_KAPAT: unknown names {sorted(bilinmeyen)} (known: {', '.join(ADLAR)})")
    if "ozet" in adlar:
        from chat import yoklama

        yoklama.okunacaklar = lambda **_: []
    if "hazir_sorgu" in adlar:
        from supportdesk.core.derlenmis_sorgu import DerlenmisSorgu

        DerlenmisSorgu.__call__ = lambda self, **degerler: list(self._builder(**degerler))
    if "tek_ifade" in adlar:
        from chat import services

        services.connection = _TasinabilirBaglanti()


class KapatConfig(AppConfig):
    name = "taban"
    label = "taban_kapat"

    def ready(self):
        adlar = [a for a in os.environ.get("BENCH_KAPAT", "").split(",") if a]
        uygula(adlar)
        if adlar:
            print(f"# bench: turned off in pid {os.getpid()}: {', '.join(adlar)}", file=sys.stderr, flush=True)

#!/usr/bin/env python
"""Issue 42: the CPU the 50 non-matching rules of `bench/kural_bench.py` cost a visitor's message in
the request thread (no profiler): `motor.on_degerlendir` (context, evaluation) and `kaydet` (the
note after the commit), with the rules' generation given as the widget's pre-read gives it. On
the database a `kural_bench.py` run left ("Bench Widget"); run it for each checkout, alternating:

    BENCH_DATABASE_URL=... BENCH_REDIS_URL=... .venv/bin/python bench/kural_mikro.py /path/to/checkout
"""
import os
import statistics
import sys
import time


def main() -> None:
    repo = sys.argv[1]
    os.environ.update({"DEBUG": "false", "SECRET_KEY": "x" * 50, "SECURE_SSL_REDIRECT": "false",
                       "DATABASE_URL": os.environ["BENCH_DATABASE_URL"], "REDIS_URL": os.environ["BENCH_REDIS_URL"],
                       "DJANGO_SETTINGS_MODULE": "supportdesk.settings", "KURAL_BIRIKTIRME_SANIYE": "3600"})
    sys.path[:0] = [repo]
    os.chdir(repo)  # start-up puts the working directory first on sys.path: measure `repo`, not the caller's
    import django

    django.setup()
    from django.core.cache import cache

    from chat.models import Oturum
    from otomasyon import biriktir, motor
    from supportdesk.core import kurallar as kn
    from tenants.models import Musteri

    m = Musteri.objects.get(firma_adi="Bench Widget")
    o = Oturum.objects.filter(musteri=m).first()
    motor.on_degerlendir("ziyaretci_mesaji", musteri_id=m.pk, tur="chat", nesne_id=1, metin="x")
    kn.istek_nesli_ayarla(m.pk, cache.get(kn.nesil_anahtari(m.pk)))  # as the widget's pre-read leaves it

    def bir():
        on = motor.on_degerlendir("ziyaretci_mesaji", musteri_id=m.pk, tur="chat", nesne_id=o.pk,
                                  metin="Siparişim nerede?")
        on.kaydet()
        return on

    assert len(bir().kurallar) == 50
    n, sonuc = 2000, []
    for _ in range(15):
        t = time.process_time()
        for _ in range(n):
            bir()
        sonuc.append((time.process_time() - t) / n * 1e6)
        biriktir._biriktirici._bekleyen.clear()
    print(f"{repo} on_degerlendir+kaydet µs CPU/message: min {min(sonuc):.1f} median {statistics.median(sonuc):.1f}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python
"""Issue 42: what the runner's batched write of the runs whose conditions did not hold costs per
event (`otomasyon.sorgular.kosul_tutmadi_yaz`, as `otomasyon.biriktir` calls it once an interval):
a batch of `kac` events (default 125) of the tenant "Bench Widget" with its 50 `ziyaretci_mesaji`
rules, autocommit; per event, the process's CPU (Python and the driver) and the wall time (with
PostgreSQL's). On a database holding that tenant (`migrate`, then the tenant and its rules as
`bench/chat_bench.py`'s `kurallar_olustur` makes them); the rows written are deleted at the end.
Alternate the checkouts:

    BENCH_DATABASE_URL=... BENCH_REDIS_URL=... .venv/bin/python bench/kural_yazim.py /path/to/checkout [125]
"""
import os
import statistics
import sys
import time


def main() -> None:
    repo, kac = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 125
    os.environ.update({"DEBUG": "false", "SECRET_KEY": "x" * 50, "SECURE_SSL_REDIRECT": "false",
                       "DATABASE_URL": os.environ["BENCH_DATABASE_URL"], "REDIS_URL": os.environ["BENCH_REDIS_URL"],
                       "DJANGO_SETTINGS_MODULE": "supportdesk.settings"})
    sys.path[:0] = [repo]
    os.chdir(repo)  # start-up puts the working directory first on sys.path: measure `repo`, not the caller's
    import django

    django.setup()
    from django.utils import timezone

    from otomasyon import sorgular
    from otomasyon.models import Kural, TutmayanCalismalar
    from tenants.models import Musteri

    m = Musteri.objects.get(firma_adi="Bench Widget")
    idler = tuple(Kural.objects.filter(musteri=m, olay="ziyaretci_mesaji", aktif=True).order_by("sira", "id")
                  .values_list("id", flat=True))  # one tuple for every event, as the engine passes it
    assert len(idler) == 50
    once = TutmayanCalismalar.objects.order_by("-id").values_list("id", flat=True).first() or 0
    duvar, cpu = [], []
    for _ in range(20):
        z = timezone.now()
        olaylar = [(idler, f"chat:{i}", z, m.pk) for i in range(kac)]
        t, p = time.perf_counter(), time.process_time()
        sorgular.kosul_tutmadi_yaz(olaylar)
        duvar.append((time.perf_counter() - t) / kac * 1e6)
        cpu.append((time.process_time() - p) / kac * 1e6)
    TutmayanCalismalar.objects.filter(id__gt=once).delete()
    print(f"{repo}: {kac} events per batch, per event: wall median {statistics.median(duvar):.1f} µs "
          f"(min {min(duvar):.1f}), process CPU median {statistics.median(cpu):.1f} µs "
          f"(min {min(cpu):.1f}); load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()

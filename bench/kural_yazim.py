#!/usr/bin/env python
"""Issue 42: what recording one message's 50 non-matching runs costs PostgreSQL: the runner's
statement (`otomasyon.sorgular.kosul_tutmadi_yaz`) for a batch of events as written once a second,
autocommit, wall time per event. Both checkouts on one database migrated by the newer one (the old
table stays), with a tenant "Mikro" holding 50 `ziyaretci_mesaji` rules; alternate the checkouts:

    KURAL_YAZIM_DATABASE_URL=postgres://.../h42rmikro .venv/bin/python bench/kural_yazim.py /path/to/checkout [100]
"""
import os
import statistics
import sys
import time


def main() -> None:
    repo, kac = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 100
    os.environ.update({"DEBUG": "false", "SECRET_KEY": "x" * 50, "SECURE_SSL_REDIRECT": "false",
                       "DATABASE_URL": os.environ["KURAL_YAZIM_DATABASE_URL"],
                       "REDIS_URL": os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/4"),
                       "DJANGO_SETTINGS_MODULE": "supportdesk.settings"})
    sys.path[:0] = [repo]
    import django

    django.setup()
    from django.utils import timezone

    from otomasyon import sorgular
    from otomasyon.models import Kural
    from tenants.models import Musteri

    m = Musteri.objects.get(firma_adi="Mikro")
    idler = list(Kural.objects.filter(musteri=m).order_by("sira", "id").values_list("id", flat=True))
    assert len(idler) == 50
    yeni = "musteri_id" in sorgular._kosul_tutmadi_sql()  # one row per event (h42r) or per rule

    def parti():
        z = timezone.now()
        sorgular.kosul_tutmadi_yaz([(idler, f"chat:{i}", z, m.pk) if yeni else (idler, f"chat:{i}", z)
                                    for i in range(kac)])

    sonuc = []
    for _ in range(15):
        t = time.perf_counter()
        parti()
        sonuc.append((time.perf_counter() - t) / kac * 1e6)
    print(f"{'one row per event' if yeni else 'one row per rule'}: {kac} events per statement: median "
          f"{statistics.median(sonuc):.0f} µs, min {min(sonuc):.0f} µs per event (load {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()

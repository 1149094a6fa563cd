#!/usr/bin/env python
"""What `gc.freeze()` in supportdesk/asgi.py takes out of a full garbage collection (issue 32):
imports the socket application as a socket process does (which collects and freezes), times full
collections with the start-up objects frozen, then unfrozen. Run from the checkout's root with the
service's environment (DATABASE_URL, REDIS_URL, SECRET_KEY, DEBUG=false):
    PYTHONPATH=. .venv/bin/python bench/gc_dondurma.py
"""
import gc
import json
import os
import time

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "supportdesk.settings")
from supportdesk import asgi  # noqa: F401  (builds the app, then gc.collect(); gc.freeze())


def olc(n=5):
    s = []
    for _ in range(n):
        t = time.perf_counter()
        gc.collect()
        s.append((time.perf_counter() - t) * 1000)
    return round(min(s), 2), round(sorted(s)[n // 2], 2)


sonuc = {"dondurulan_nesne": gc.get_freeze_count(), "izlenen_nesne": len(gc.get_objects())}
sonuc["tam_gc_ms_dondurulmus(min,median)"] = olc()
gc.unfreeze()
sonuc["izlenen_nesne_coz"] = len(gc.get_objects())
sonuc["tam_gc_ms_dondurulmamis(min,median)"] = olc()
print(json.dumps(sonuc))

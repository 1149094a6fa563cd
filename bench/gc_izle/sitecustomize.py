"""Garbage-collection log of a benchmarked server process (bench/canli_bench.py puts this directory
on the socket processes' PYTHONPATH; Python imports `sitecustomize` at start-up). With
BENCH_GC_DOSYASI set, every collection's generation, start (time.time()) and duration go to that
file (with the process id appended), written at most once a second from the collector's callback
(uvicorn re-raises SIGTERM after its shutdown, so nothing at exit would run). Changes nothing else."""
import gc
import json
import os
import time

_dosya = os.environ.get("BENCH_GC_DOSYASI")
if _dosya:
    _kayitlar: list = []
    _durum = {"basla": 0.0, "yazildi": 0.0}

    def _izle(evre, bilgi):
        if evre == "start":
            _durum["basla"] = time.perf_counter()
            return
        simdi = time.time()
        _kayitlar.append((bilgi["generation"], simdi, (time.perf_counter() - _durum["basla"]) * 1000))
        if simdi - _durum["yazildi"] > 1:
            _durum["yazildi"] = simdi
            with open(f"{_dosya}.{os.getpid()}", "w") as f:
                json.dump(_kayitlar, f)

    gc.callbacks.append(_izle)

"""Garbage-collection log of a benchmarked server process (bench/canli_bench.py puts this directory
on the socket processes' PYTHONPATH; Python imports `sitecustomize` at start-up). With
BENCH_GC_DOSYASI set, every collection's generation, start (time.time()) and duration go to that
file (with the process id appended) when the process exits. Changes nothing else."""
import atexit
import gc
import json
import os
import time

_dosya = os.environ.get("BENCH_GC_DOSYASI")
if _dosya:
    _kayitlar: list = []
    _basla = [0.0]

    def _izle(evre, bilgi):
        if evre == "start":
            _basla[0] = time.perf_counter()
        else:
            _kayitlar.append((bilgi["generation"], time.time(), (time.perf_counter() - _basla[0]) * 1000))

    gc.callbacks.append(_izle)

    @atexit.register
    def _yaz():
        with open(f"{_dosya}.{os.getpid()}", "w") as f:
            json.dump(_kayitlar, f)

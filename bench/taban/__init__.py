"""The benchmark's bare views (`bos_kayit`, `bos_okuma`) served next to any checkout of the service.

Shipped with the benchmark, not with the served code: `bench/chat_bench.py --repo DIR` puts this
folder (`bench/`) on gunicorn's PYTHONPATH after DIR and sets DJANGO_SETTINGS_MODULE to
`taban.settings`, so the same floor is measured against the old and the new checkout.
"""

#!/usr/bin/env python
"""Redis memory per tenant (issue 44, docs/production.md "Sizing"): what an active tenant leaves in
Redis, measured as `used_memory` (INFO memory) before and after, on a Redis of the bench's own.

Seeds --musteri tenants (one operator each) in a scratch database, then for each: the operator logs
in and calls the API (login limits, presence), the widget opens (`widget/init`: the tenant's cache
entry, rate limits) and --ziyaretci visitors each start a chat and poll it (per-visitor limits, the
chat's poll snapshot). Reports bytes per tenant and per visitor, and the keys by their first word.
The socket side (presence per socket, the channel layer's groups) is `bench/canli_bench.py`'s
`redis_bayt_soket_basina`.

Usage: .venv/bin/python bench/redis_bellek_bench.py [--musteri 200] [--ziyaretci 5] [--json out.json]
Environment: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/sd_redis_bench; dropped and
created afresh), BENCH_REDIS_URL (default redis://127.0.0.1:6379/5; flushed: give it a server of its
own for a clean figure).
"""
import argparse
import collections
import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlparse

KOK = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(KOK))


def _hazirla(url: str) -> None:
    ad = urlparse(url).path.lstrip("/")
    yonetici = url.rsplit("/", 1)[0] + "/postgres"
    for sql in (f'DROP DATABASE IF EXISTS "{ad}"', f'CREATE DATABASE "{ad}"'):
        subprocess.run(["psql", yonetici, "-q", "-c", sql], check=True)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=KOK, check=True,
                   env={**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "supportdesk.test_settings"})


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--musteri", type=int, default=200)
    p.add_argument("--ziyaretci", type=int, default=5)
    p.add_argument("--json")
    a = p.parse_args()
    db_url = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/sd_redis_bench")
    redis_url = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/5")
    _hazirla(db_url)
    os.environ.update(DATABASE_URL=db_url, REDIS_URL=redis_url, DJANGO_SETTINGS_MODULE="supportdesk.test_settings",
                      WIDGET_RATE_LIMIT="100000/min", ALLOWED_HOSTS="*",
                      # tasks run in place: a queue waiting for a worker that never comes is not the tenant's footprint
                      CELERY_TASK_ALWAYS_EAGER="true")
    import django

    django.setup()
    import redis
    from django.test import Client

    from supportdesk.testing.factories import TEST_SIFRE, KullaniciFactory, MusteriFactory
    from tenants.services import uyelik_ekle
    from tenants.ziyaretci import TOKEN_BASLIGI as TOKEN_META

    r = redis.Redis.from_url(redis_url)
    ciftler = []
    for _ in range(a.musteri):
        musteri = MusteriFactory()
        operator = KullaniciFactory()
        uyelik_ekle(kullanici=operator, musteri=musteri, rol="operator")
        ciftler.append((musteri, operator))
    r.flushdb()
    bos = r.info("memory")["used_memory"]

    c = Client()
    ziyaretci_bayt = []
    for musteri, operator in ciftler:
        res = c.post("/api/v1/auth/login", {"email": operator.email, "sifre": TEST_SIFRE}, content_type="application/json")
        assert res.status_code == 200, res.content
        op = {"HTTP_AUTHORIZATION": f"Bearer {res.json()['data']['token']}"}
        assert c.get("/api/v1/operator/chats", **op).status_code == 200
        w = {"HTTP_X_API_KEY": musteri.api_key}
        once = r.info("memory")["used_memory"]
        for i in range(a.ziyaretci):
            zid = f"z_{musteri.id:016x}{i:016x}"
            res = c.post("/api/v1/widget/init", {"ziyaretci_id": zid, "token_iste": True}, content_type="application/json", **w)
            assert res.status_code == 200, res.content
            zw = {**w, TOKEN_META: res.json()["data"]["ziyaretci_token"]}
            res = c.post("/api/v1/widget/chat/start", {"ziyaretci_id": zid, "mesaj": "Merhaba"},
                         content_type="application/json", **zw)
            assert res.status_code == 201, res.content
            oturum = res.json()["data"]["oturum"]["id"]
            res = c.get(f"/api/v1/widget/chat/messages?ziyaretci_id={zid}&oturum_id={oturum}", **zw)
            assert res.status_code == 200, res.content
        ziyaretci_bayt.append((r.info("memory")["used_memory"] - once) / a.ziyaretci)
    dolu = r.info("memory")["used_memory"]
    anahtarlar = collections.Counter()
    for k in r.scan_iter(count=1000):
        ad = k.decode(errors="replace").split(":")
        anahtarlar[":".join(ad[:3]) if ad[0] == "" else ad[0]] += 1
    sonuc = {"musteri": a.musteri, "ziyaretci_musteri_basina": a.ziyaretci, "redis_bos_bayt": bos, "redis_dolu_bayt": dolu,
             "bayt_musteri_basina": round((dolu - bos) / a.musteri),
             "bayt_ziyaretci_basina": round(sum(ziyaretci_bayt) / len(ziyaretci_bayt)),
             "anahtar_sayisi": r.dbsize(), "anahtarlar": dict(anahtarlar.most_common(15))}
    cikti = json.dumps(sonuc, ensure_ascii=False, indent=2)
    print(cikti)
    if a.json:
        Path(a.json).write_text(cikti + "\n")


if __name__ == "__main__":
    main()

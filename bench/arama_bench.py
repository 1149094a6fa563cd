#!/usr/bin/env python
"""Search benchmark (issue 27): `GET /operator/ara` over a large history on PostgreSQL.

Generates (once, `--uret`) N messages (default 1,000,000) in chats of 10 messages over 200
tenants, plus 100 tickets with two replies per tenant, written with COPY; the search rows are
built from the same rows by the service's own text functions (`arama.metin`, as
`arama.services` does) and COPY, then their tsvectors in one UPDATE. Then measures (`--olc`)
p50 and p95 of the endpoint through the whole Django stack (middleware, bearer-token
authentication, view, query; Django's test client in this process, no network) for
common, medium and rare words, a visitor's surname, two words, with an operator of one tenant
and one of five tenants.

Message text: words drawn from a Turkish vocabulary with a Zipf-like weighting (the first words
appear in a large share of messages), a rare word (`zebercet…`) in about 1 message of 20,000,
visitor names from a list of common names and surnames.

Usage:
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/supportdesk_arama_bench \\
        .venv/bin/python bench/arama_bench.py --uret [--mesaj 1000000] --olc [--tekrar 200]
"""
import argparse
import io
import os
import random
import statistics
import sys
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "supportdesk.settings")
os.environ.setdefault("DEBUG", "false")
os.environ.setdefault("SECRET_KEY", "bench-only-" + "k" * 48)
os.environ.setdefault("SECURE_SSL_REDIRECT", "false")
os.environ.setdefault("ALLOWED_HOSTS", "testserver,127.0.0.1")

import django

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from rest_framework.test import APIClient  # noqa: E402

from arama import metin  # noqa: E402
from supportdesk.testing.factories import KullaniciFactory, MusteriFactory  # noqa: E402
from supportdesk.testing.fixtures import giris_yap  # noqa: E402
from tenants.models import Musteri  # noqa: E402
from tenants.services import uyelik_ekle  # noqa: E402

KELIMELER = ("merhaba siparişim kargo fatura iade ödeme şifre hesabım giriş yapamıyorum ürün teslimat adres değişikliği "
             "indirim kupon kodu çalışmıyor iptal talebi müşteri hizmetleri teşekkürler yardım lütfen bekliyorum "
             "sorun hata mesajı uygulama güncelleme kredi kartı havale abonelik paket yenileme fiyat garanti servis "
             "randevu mağaza stok beden renk değişim kutusu hasarlı eksik parça fatura adresi vergi numarası "
             "kurumsal bireysel sözleşme onay doğrulama telefon numarası e-posta bildirim kampanya puan hediye").split()
ADLAR = "Ayşe Fatma Mehmet Ali Mustafa Zeynep Emine Ahmet Hüseyin Hatice Elif Can Burak Cem Deniz Selin".split()
SOYADLAR = "Yılmaz Kaya Demir Şahin Çelik Yıldız Yıldırım Öztürk Aydın Özdemir Arslan Doğan Kılıç Aslan Çetin".split()
NADIR = "zebercet"
MUSTERI = 200
MESAJ_OTURUM = 10
TICKET_MUSTERI = 100


def _metin(rnd: random.Random, agirlik) -> str:
    kelimeler = rnd.choices(KELIMELER, weights=agirlik, k=rnd.randint(4, 14))
    if rnd.random() < 1 / 20_000:
        kelimeler.append(NADIR + str(rnd.randint(1, 9)))
    return " ".join(kelimeler).capitalize()


def _copy(tablo: str, sutunlar: list[str], satirlar) -> None:
    tampon = io.StringIO()
    for satir in satirlar:
        tampon.write("\t".join(_kacis(v) for v in satir) + "\n")
    with connection.cursor() as imlec:
        with imlec.cursor.copy(f"COPY {tablo} ({', '.join(sutunlar)}) FROM STDIN") as copy:
            copy.write(tampon.getvalue())


def _kacis(v) -> str:
    if v is None:
        return r"\N"
    if isinstance(v, bool):
        return "t" if v else "f"
    if isinstance(v, datetime):
        return v.isoformat()
    return str(v).replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def uret(mesaj_sayisi: int) -> None:
    basla = time.monotonic()
    call_command("migrate", verbosity=0)
    rnd = random.Random(27)
    agirlik = [1 / (i + 1) for i in range(len(KELIMELER))]
    musteriler = list(Musteri.objects.order_by("id")) or [MusteriFactory(firma_adi=f"Bench {i}") for i in range(MUSTERI)]
    oturum_sayisi = mesaj_sayisi // MESAJ_OTURUM
    simdi = datetime.now(UTC)
    with connection.cursor() as c:
        c.execute("SELECT coalesce(max(id), 0) FROM chat_oturum")
        ilk_oturum = c.fetchone()[0] + 1
        c.execute("SELECT coalesce(max(id), 0) FROM tickets_ticket")
        ilk_ticket = c.fetchone()[0] + 1
    parti = 10_000
    for bas in range(0, oturum_sayisi, parti):
        oturumlar, mesajlar, kayitlar = [], [], []
        for n in range(bas, min(bas + parti, oturum_sayisi)):
            oid, m = ilk_oturum + n, musteriler[n % len(musteriler)]
            ad = f"{rnd.choice(ADLAR)} {rnd.choice(SOYADLAR)}"
            email = f"ziyaretci{n}@ornek.com"
            zid = f"z-{n}"
            t0 = simdi - timedelta(minutes=oturum_sayisi - n)
            oturumlar.append((oid, m.id, zid, ad, email, "widget", "kapandi", t0, t0, "", 0))
            govde = []
            for k in range(MESAJ_OTURUM):
                icerik = _metin(rnd, agirlik)
                govde.append(icerik)
                mesajlar.append((m.id, oid, "ziyaretci" if k % 2 == 0 else "operator", icerik, t0 + timedelta(seconds=k),
                                 False))
            ust = [ad, email, zid]
            kayitlar.append((m.id, "chat", oid, None, oid, zid, ad, " · ".join(ust), "\n".join(govde),
                             metin.katli_metin(*ust), metin.katli_metin(*govde), t0 + timedelta(seconds=MESAJ_OTURUM)))
        _copy("chat_oturum", ["id", "musteri_id", "ziyaretci_id", "ziyaretci_adi", "email", "kanal", "durum", "baslangic",
                              "bitis_zamani", "puan_yorumu", "okunmamis"], oturumlar)
        _copy("chat_mesaj", ["musteri_id", "oturum_id", "gonderen", "icerik", "zaman", "ozel"], mesajlar)
        _copy("arama_aramakaydi", ["musteri_id", "tur", "oturum_id", "ticket_id", "belge_id", "ziyaretci_id", "baslik",
                                   "ust_metin", "govde_metin", "katli_ust", "katli_govde", "zaman"], kayitlar)
        print(f"  {min(bas + parti, oturum_sayisi) * MESAJ_OTURUM:,} mesaj  ({time.monotonic() - basla:.0f} s)", flush=True)
    tickets, yanitlar, kayitlar = [], [], []
    for n in range(len(musteriler) * TICKET_MUSTERI):
        tid, m = ilk_ticket + n, musteriler[n % len(musteriler)]
        konu = _metin(rnd, agirlik)[:60]
        ad, zid, t0 = f"{rnd.choice(ADLAR)} {rnd.choice(SOYADLAR)}", f"t-{n}", simdi - timedelta(minutes=n)
        tickets.append((tid, m.id, zid, konu, "acik", "normal", ad, "", t0, t0, "widget"))
        govde = [_metin(rnd, agirlik), _metin(rnd, agirlik)]
        yanitlar += [(tid, "ziyaretci", govde[0], t0, False), (tid, "operator", govde[1], t0, False)]
        ust = [konu, ad, zid]
        kayitlar.append((m.id, "ticket", None, tid, tid, zid, konu, " · ".join(ust), "\n".join(govde),
                         metin.katli_metin(*ust), metin.katli_metin(*govde), t0))
    _copy("tickets_ticket", ["id", "musteri_id", "ziyaretci_id", "konu", "durum", "oncelik", "ad", "email", "olusturulma",
                             "guncellenme", "kanal"], tickets)
    _copy("tickets_ticketyanit", ["ticket_id", "gonderen", "icerik", "zaman", "ozel"], yanitlar)
    _copy("arama_aramakaydi", ["musteri_id", "tur", "oturum_id", "ticket_id", "belge_id", "ziyaretci_id", "baslik",
                               "ust_metin", "govde_metin", "katli_ust", "katli_govde", "zaman"], kayitlar)
    with connection.cursor() as c:
        for tablo in ("chat_oturum", "tickets_ticket"):
            c.execute(f"SELECT setval(pg_get_serial_sequence('{tablo}', 'id'), (SELECT max(id) FROM {tablo}))")
        t = time.monotonic()
        # What `arama.services._vektor` writes, for every row at once.
        c.execute("UPDATE arama_aramakaydi SET vektor = setweight(to_tsvector('simple'::regconfig, katli_ust), 'A') "
                  "|| setweight(to_tsvector('simple'::regconfig, katli_govde), 'B') WHERE vektor IS NULL")
        print(f"  tsvector: {time.monotonic() - t:.0f} s", flush=True)
        c.execute("VACUUM ANALYZE arama_aramakaydi")
    print(f"üretim: {time.monotonic() - basla:.0f} s", flush=True)


def _operator(musteriler) -> APIClient:
    user = KullaniciFactory(email=f"bench-{uuid.uuid4().hex[:12]}@ornek.com")
    for m in musteriler:
        uyelik_ekle(kullanici=user, musteri=m, rol="operator")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(client, user)}")
    return client


def olc(tekrar: int) -> None:
    musteriler = list(Musteri.objects.order_by("id")[:5])
    istemciler = {"1 proje": _operator(musteriler[:1]), "5 proje": _operator(musteriler)}
    with connection.cursor() as c:
        c.execute("SELECT count(*), (SELECT count(*) FROM chat_mesaj) FROM arama_aramakaydi")
        satir, mesaj = c.fetchone()
    print(f"arama satırı: {satir:,}, mesaj: {mesaj:,}")
    sorgular = [("taban: /operator/tenants", None),
                ("yaygın", "merhaba"), ("yaygın (ek)", "siparişimi"), ("orta", "garanti"), ("nadir", NADIR),
                ("soyad", "ozturk"), ("iki kelime", "fatura iade"), ("sayfa 2", "merhaba")]
    print("| operatör | sorgu | q | sonuç (sayfa) | p50 ms | p95 ms |\n|---|---|---|---|---|---|")
    for ad, client in istemciler.items():
        for tur, q in sorgular:
            params, yol = {"q": q}, "/api/v1/operator/ara"
            if q is None:
                params, yol = {}, "/api/v1/operator/tenants"
            elif tur == "sayfa 2":
                params["cursor"] = client.get("/api/v1/operator/ara", params).json()["data"]["sonraki"]
            sureler = []
            for _ in range(tekrar):
                t = time.perf_counter()
                res = client.get(yol, params)
                sureler.append((time.perf_counter() - t) * 1000)
                assert res.status_code == 200, res.content
            adet = len(res.json()["data"].get("sonuclar", []))
            sureler.sort()
            p95 = sureler[int(len(sureler) * 0.95) - 1]
            print(f"| {ad} | {tur} | `{q}` | {adet} | {statistics.median(sureler):.1f} | {p95:.1f} |", flush=True)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--uret", action="store_true")
    ap.add_argument("--mesaj", type=int, default=1_000_000)
    ap.add_argument("--olc", action="store_true")
    ap.add_argument("--tekrar", type=int, default=200)
    a = ap.parse_args()
    if a.uret:
        uret(a.mesaj)
    if a.olc:
        olc(a.tekrar)

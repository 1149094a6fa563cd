"""The idle poll answered from Redis (chat.yoklama): a snapshot per chat, used only while the
generations it was built under are current. Every write path that changes a poll's answer must
make the very next poll see it; the snapshot must never answer another visitor or tenant, a
poll that has messages to get, or a request the ordinary path would refuse.

Needs Redis as the cache and PostgreSQL (CI has both); skipped otherwise, where the ordinary
path (tested everywhere else) is the only one."""
import ast
import threading
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from chat import sorgular, yoklama
from chat.api.serializers import widget_oturum_verisi
from chat.models import Oturum
from supportdesk.core import varlik
from supportdesk.testing.factories import MusteriFactory
from tenants.models import Kullanici, Uyelik
from tenants.tests.test_auth import hata

from .yardimci import (
    CHATS,
    W_BITIR,
    W_MESAJ,
    W_MESAJLAR,
    W_PUAN,
    baslat,
    giris_yap,
    ok,
    op_url,
    operator_istemcisi,
    operator_yap,
    widget_client,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _redis_ve_postgresql():
    if not isinstance(caches["default"], RedisCache) or connection.vendor != "postgresql":
        pytest.skip("Yoklama özeti Redis ve PostgreSQL ister (CI ikisini de kullanır).")


def yokla(widget, oturum_id, ziyaretci_id="z", sonra=10**9, **params):
    return widget.get(W_MESAJLAR, {"ziyaretci_id": ziyaretci_id, "oturum_id": oturum_id, "sonra": sonra, **params})


def ozetten(widget, oturum_id, django_assert_num_queries, **kw) -> dict:
    """A poll answered from the snapshot: no statement at all."""
    with django_assert_num_queries(0):
        return ok(yokla(widget, oturum_id, **kw))


def veritabanindan(widget, oturum_id, django_assert_num_queries, **kw) -> dict:
    """A poll the snapshot could not answer: the ordinary one statement."""
    with django_assert_num_queries(1):
        return ok(yokla(widget, oturum_id, **kw))


def beklenen(oturum_id, *, sira_no, cevrimici_operator) -> dict:
    oturum = widget_oturum_verisi(Oturum.objects.get(pk=oturum_id), sira_no=sira_no,
                                  cevrimici_operator=cevrimici_operator)
    return {"oturum": oturum, "sira_no": sira_no, "cevrimici_operator": cevrimici_operator, "mesajlar": [],
            "sonraki": None, "mesai": {"acik": True, "sonraki_acilis": None, "mesaj": ""}}


def test_the_second_idle_poll_needs_no_database_and_answers_the_same(musteri, django_assert_num_queries):
    widget = widget_client(musteri)
    baslat(widget, "once")
    o = baslat(widget, "z", ad="Ayşe")
    ilk = veritabanindan(widget, o["id"], django_assert_num_queries)
    ikinci = ozetten(widget, o["id"], django_assert_num_queries)
    assert ilk == ikinci == beklenen(o["id"], sira_no=2, cevrimici_operator=False)
    # A larger `sonra` and a valid `limit` are the same idle poll.
    assert ozetten(widget, o["id"], django_assert_num_queries, sonra=10**12, limit=5) == ilk
    # The same headers too, for a browser on the tenant's site (CORS) as for anyone.
    ozet_yok = widget.get(W_MESAJLAR, {"ziyaretci_id": "z", "oturum_id": o["id"], "sonra": 0}, HTTP_ORIGIN="https://a.example")
    ozetli = widget.get(W_MESAJLAR, {"ziyaretci_id": "z", "oturum_id": o["id"], "sonra": 10**9},
                        HTTP_ORIGIN="https://a.example")
    basliklar = {k: v for k, v in ozet_yok.headers.items() if k not in ("X-Request-ID", "Content-Length")}
    assert {k: v for k, v in ozetli.headers.items() if k not in ("X-Request-ID", "Content-Length")} == basliklar
    assert basliklar["Content-Type"] == "application/json" and basliklar["Allow"] == "GET, HEAD, OPTIONS", basliklar


def test_a_message_of_either_side_is_seen_by_the_next_poll(musteri, django_assert_num_queries):
    widget = widget_client(musteri)
    o = baslat(widget, "z")
    _, operator = operator_istemcisi(musteri)
    ok(operator.post(op_url(o["id"], "accept"), format="json"))
    son = ok(yokla(widget, o["id"], sonra=0))["mesajlar"][-1]["id"]
    veritabanindan(widget, o["id"], django_assert_num_queries, sonra=son)
    ozetten(widget, o["id"], django_assert_num_queries, sonra=son)

    ok(operator.post(op_url(o["id"], "message"), {"icerik": "Buyrun"}, format="json"), 201)
    data = ok(yokla(widget, o["id"], sonra=son))
    assert [m["icerik"] for m in data["mesajlar"]] == ["Buyrun"] and data["oturum"]["son_mesaj"] == "Buyrun"
    son = data["mesajlar"][-1]["id"]

    veritabanindan(widget, o["id"], django_assert_num_queries, sonra=son)
    ok(widget.post(W_MESAJ, {"ziyaretci_id": "z", "oturum_id": o["id"], "icerik": "Teşekkürler"}, format="json"), 201)
    data = ok(yokla(widget, o["id"], sonra=son))
    assert [m["icerik"] for m in data["mesajlar"]] == ["Teşekkürler"]
    assert data["oturum"]["son_mesaj"] == "Teşekkürler" and data["oturum"]["okunmamis"] == 1


def test_a_poll_asking_from_further_back_gets_its_messages(musteri, nobetci, django_assert_num_queries):
    widget = widget_client(musteri)
    o = baslat(widget, "z", mesaj="Merhaba")
    veritabanindan(widget, o["id"], django_assert_num_queries)
    ozetten(widget, o["id"], django_assert_num_queries)
    assert [m["icerik"] for m in ok(yokla(widget, o["id"], sonra=0))["mesajlar"]] == ["Merhaba"]
    assert [m["icerik"] for m in ok(yokla(widget, o["id"], sonra=""))["mesajlar"]] == ["Merhaba"]


def test_accept_read_transfer_close_and_rating_are_seen_by_the_next_poll(musteri, django_assert_num_queries):
    widget = widget_client(musteri)
    _, operator = operator_istemcisi(musteri)  # members first: a new member costs the next
    ikinci, _ = operator_istemcisi(musteri)  # presence read one statement (test_varlik_adaylari)
    o = baslat(widget, "z", mesaj="Merhaba")

    def sonraki_yoklama() -> dict:
        # The change made the snapshot unusable (one statement), and the poll built a new one.
        data = veritabanindan(widget, o["id"], django_assert_num_queries)
        assert ozetten(widget, o["id"], django_assert_num_queries) == data
        return data["oturum"]

    assert sonraki_yoklama()["okunmamis"] == 1
    ok(operator.post(op_url(o["id"], "accept"), format="json"))
    assert sonraki_yoklama()["durum"] == "aktif"
    ok(operator.get(op_url(o["id"], "messages")))  # the operator reads: unread back to 0
    assert sonraki_yoklama()["okunmamis"] == 0
    ok(operator.post(op_url(o["id"], "transfer"), {"operator_id": ikinci.pk}, format="json"))
    assert sonraki_yoklama()["operator_id"] == ikinci.pk
    ok(widget.post(W_BITIR, {"ziyaretci_id": "z", "oturum_id": o["id"]}, format="json"))
    assert sonraki_yoklama()["durum"] == "kapandi"
    ok(widget.post(W_PUAN, {"ziyaretci_id": "z", "oturum_id": o["id"], "puan": 4}, format="json"))
    assert sonraki_yoklama()["puan"] == 4


def test_the_queue_ahead_moving_changes_the_place(musteri, django_assert_num_queries):
    _, operator = operator_istemcisi(musteri)
    widget = widget_client(musteri)
    once = baslat(widget, "once")
    o = baslat(widget, "z")
    veritabanindan(widget, o["id"], django_assert_num_queries)
    assert ozetten(widget, o["id"], django_assert_num_queries)["sira_no"] == 2
    ok(operator.post(op_url(once["id"], "accept"), format="json"))  # a conditional UPDATE, no signal
    data = ok(yokla(widget, o["id"]))
    assert data["sira_no"] == data["oturum"]["sira_no"] == 1
    ozetten(widget, o["id"], django_assert_num_queries)
    ok(operator.post(op_url(o["id"], "close"), format="json"))
    data = ok(yokla(widget, o["id"]))
    assert data["sira_no"] is None and data["oturum"]["durum"] == "kapandi"


def test_operators_status_membership_activity_and_reachability(musteri, django_assert_num_queries):
    widget = widget_client(musteri)
    o = baslat(widget, "z")
    kullanici, operator = operator_istemcisi(musteri)

    def cevrimici() -> bool:
        data = ok(yokla(widget, o["id"]))
        assert ozetten(widget, o["id"], django_assert_num_queries)["cevrimici_operator"] is data["cevrimici_operator"]
        return data["cevrimici_operator"]

    assert cevrimici() is False
    ok(operator.post("/api/v1/operator/status", {"durum": "mesgul"}, format="json"))  # status: QuerySet.update()
    assert cevrimici() is True
    # Reachability is read live: the snapshot keeps only who is online by stored status.
    caches["default"]._cache.get_client(write=True).zrem(varlik.REST, kullanici.pk)  # a cluster's too
    assert ozetten(widget, o["id"], django_assert_num_queries)["cevrimici_operator"] is False
    varlik.sifirla()  # this process wrote the REST mark under a second ago: let the next call write it
    ok(operator.post("/api/v1/operator/status", {"durum": "cevrimici"}, format="json"))
    assert cevrimici() is True
    kullanici.refresh_from_db()  # its status was set through REST
    kullanici.is_active = False
    kullanici.save(update_fields=["is_active"])
    assert cevrimici() is False
    kullanici.is_active = True
    kullanici.save()
    assert cevrimici() is True
    Uyelik.objects.get(kullanici=kullanici, musteri=musteri).delete()
    assert cevrimici() is False


def test_an_operator_deleted_leaves_no_name_behind(musteri, django_assert_num_queries):
    widget = widget_client(musteri)
    kullanici, operator = operator_istemcisi(musteri)
    o = baslat(widget, "z")
    ok(operator.post(op_url(o["id"], "accept"), format="json"))
    veritabanindan(widget, o["id"], django_assert_num_queries)
    assert ozetten(widget, o["id"], django_assert_num_queries)["oturum"]["operator_id"] == kullanici.pk
    Kullanici.objects.filter(pk=kullanici.pk).delete()  # SET NULL on the chat: no signal of Oturum
    assert ok(yokla(widget, o["id"]))["oturum"]["operator_id"] is None


def test_a_login_or_a_profile_edit_does_not_throw_snapshots_away(musteri, django_assert_num_queries):
    kullanici = operator_yap(musteri)
    widget = widget_client(musteri)
    o = baslat(widget, "z")
    veritabanindan(widget, o["id"], django_assert_num_queries)
    giris_yap(APIClient(), kullanici)
    kullanici.ad = "Yeni Ad"
    kullanici.save(update_fields=["ad"])
    ozetten(widget, o["id"], django_assert_num_queries)


def test_never_someone_elses_chat(musteri, django_assert_num_queries):
    baska = MusteriFactory()  # first: a new tenant renews the tenant cache's generation
    widget = widget_client(musteri)
    o = baslat(widget, "z")
    veritabanindan(widget, o["id"], django_assert_num_queries)
    ozetten(widget, o["id"], django_assert_num_queries)
    hata(yokla(widget, o["id"], ziyaretci_id="baskasi"), 404, "BULUNAMADI")
    hata(yokla(widget_client(baska), o["id"]), 404, "BULUNAMADI")
    # The owner still gets it from the snapshot.
    ozetten(widget, o["id"], django_assert_num_queries)


def test_a_bound_visitor_still_needs_its_token(musteri, django_assert_num_queries):
    zid = "z_" + "7" * 32  # an id the widget made: an unsigned init binds it (CONTRACT 2a)
    izinsiz = APIClient()
    izinsiz.credentials(HTTP_X_API_KEY=musteri.api_key)
    res = izinsiz.post("/api/v1/widget/init", {"ziyaretci_id": zid, "token_iste": True}, format="json")
    token = ok(res)["ziyaretci_token"]
    widget = APIClient()
    widget.credentials(HTTP_X_API_KEY=musteri.api_key, HTTP_X_ZIYARETCI_TOKEN=token)
    o = baslat(widget, zid)
    ok(yokla(widget, o["id"], zid))
    assert ok(yokla(widget, o["id"], zid))["oturum"]["id"] == o["id"]
    hata(yokla(izinsiz, o["id"], zid), 401, "ZIYARETCI_TOKEN_GEREKLI")


@pytest.mark.parametrize("params, kod", [
    ({"limit": "abc"}, "GECERSIZ_ISTEK"),
    ({"limit": "0"}, "GECERSIZ_ISTEK"),
    ({"sonra": "²"}, "GECERSIZ_ISTEK"),
    ({"sonra": "-1"}, "GECERSIZ_ISTEK"),
    ({"sonra": "9" * 5000}, "GECERSIZ_ISTEK"),
    ({"oturum_id": "٣"}, "GECERSIZ_ISTEK"),
    ({"oturum_id": "9" * 5000}, "GECERSIZ_ISTEK"),
])
def test_bad_input_gets_the_same_error_with_a_snapshot_present(musteri, django_assert_num_queries, params, kod):
    widget = widget_client(musteri)
    o = baslat(widget, "z")
    veritabanindan(widget, o["id"], django_assert_num_queries)
    ozetten(widget, o["id"], django_assert_num_queries)
    sorgu = {"ziyaretci_id": "z", "oturum_id": o["id"], "sonra": 10**9, **params}
    res = widget.get(W_MESAJLAR, sorgu)
    assert res.status_code == 400, res.content
    assert res.json()["hata"]["kod"] == kod


def test_long_digit_strings_are_not_a_server_error(musteri):
    widget = widget_client(musteri)
    o = baslat(widget, "z")
    # 20 to 1,000 digits: a valid integer beyond every id, so nothing is newer.
    assert ok(yokla(widget, o["id"], sonra="9" * 30))["mesajlar"] == []
    hata(yokla(widget, "9" * 30), 404, "BULUNAMADI")


@pytest.mark.django_db(transaction=True)
def test_committed_writes_renew_after_their_commit(musteri):
    # Outside a test transaction the renewal also runs after the commit (on_commit): the next poll
    # sees the accept.
    widget = widget_client(musteri)
    o = baslat(widget, "z")
    ok(yokla(widget, o["id"]))
    assert ok(yokla(widget, o["id"]))["oturum"]["durum"] == "bekliyor"
    _, operator = operator_istemcisi(musteri)
    ok(operator.post(op_url(o["id"], "accept"), format="json"))
    assert ok(yokla(widget, o["id"]))["oturum"]["durum"] == "aktif"


# --- the write paths that send no signal ----------------------------------------------------
# Every QuerySet.update(), bulk write or raw statement on a model a poll's answer is read from,
# with what renews the snapshots after it. A new one fails here until it is handled and listed.
_MODELLER = {"Oturum", "Mesaj", "Kullanici", "Uyelik"}
_TOPLU = {"update", "bulk_create", "bulk_update"}
_BILINENLER = {
    ("chat/adimlar.py", "mesaj_ekle", "Oturum"): "the Mesaj created just before renews the chat (mesaj_kaydedildi)",
    ("chat/adimlar.py", "son_mesaj_kaydet", "Oturum"): "its callers' Mesaj created just before renews the chat "
                                                       "(mesaj_kaydedildi); `son_mesaj_no` is in no poll's answer",
    ("chat/services.py", "chat_ziyaretci_mesaj_gonder", "Oturum"): "the Mesaj created after it (SQLite path)",
    ("chat/adimlar.py", "kabul_kaydet", "Oturum"): "the chat_kabul_edildi event at its end",
    ("chat/services.py", "chat_okundu", "Oturum"): "the chat_okundu event right after it",
    ("chat/services.py", "chat_ziyaretci_okudu", "Oturum"): "its field is in no poll answer (operator's messages only)",
    ("chat/services.py", "chat_operator_okudu", "Oturum"): "the chat_okundu event right after it",
    ("tenants/services.py", "operator_durum_ayarla", "Kullanici"): "the operator_durumu event (chat/dinleyiciler.py)",
    ("tenants/services.py", "operator_cikis_yapti", "Kullanici"): "the operator_durumu event (chat/dinleyiciler.py)",
    ("tenants/services.py", "operator_erisilemez_yap", "Kullanici"): "the operator_durumu event (chat/dinleyiciler.py)",
    ("tenants/services.py", "uyelik_sirala", "Uyelik"): "`sira` (tab order) is not in a poll's answer",
    ("tenants/ekip.py", "uyelik_cikar", "Kullanici"): "`musteri_id` (active project) is not in a poll's answer",
    ("portal/services.py", "aktif_proje_sec", "Kullanici"): "`musteri_id` (active project) is not in a poll's answer",
    ("chat/demo.py", "*", "Oturum"): "demo data, written before any poll",
    ("tenants/atama.py", "atandi_isaretle", "Uyelik"): "`son_atama`/`son_ticket_atama` are in no poll's answer",
    ("chat/services.py", "ilk_yanit_kaydet", "Oturum"): "`ilk_yanit_zamani` (CONTRACT 17) is in no poll's answer",
    ("portal/services.py", "dil_tarayicidan_ogren", "Kullanici"): "`dil` (CONTRACT 19) is in no poll's answer",
    ("chat/sla.py", "_parti", "Oturum"): "the first-response clock (`sla_ilk_*`, CONTRACT 24) is in no poll's answer",
}


def _toplu_yazimlar() -> set[tuple[str, str, str]]:
    kok = Path(settings.BASE_DIR)
    bulunan = set()
    for dosya in kok.rglob("*.py"):
        goreli = dosya.relative_to(kok).as_posix()
        if goreli.startswith((".venv/", "bench/")) or "/tests/" in goreli or "/migrations/" in goreli:
            continue
        agac = ast.parse(dosya.read_text(encoding="utf-8"))
        for fonksiyon in [n for n in ast.walk(agac) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]:
            for cagri in [n for n in ast.walk(fonksiyon) if isinstance(n, ast.Call)]:
                if not (isinstance(cagri.func, ast.Attribute) and cagri.func.attr in _TOPLU):
                    continue
                zincir = ast.unparse(cagri.func.value)
                for model in _MODELLER:
                    if zincir.startswith(f"{model}.objects"):
                        bulunan.add((goreli, fonksiyon.name, model))
    return bulunan


def test_every_write_without_a_signal_is_handled():
    bulunan = _toplu_yazimlar()
    bilinmeyen = {b for b in bulunan if b not in _BILINENLER and (b[0], "*", b[2]) not in _BILINENLER}
    assert not bilinmeyen, f"Yoklama özetini geçersiz kılmayan toplu yazımlar (chat.yoklama): {sorted(bilinmeyen)}"
    # The raw visitor-message statement (PostgreSQL, no signal) is seen by the next poll through its
    # own event: test_a_message_of_either_side_is_seen_by_the_next_poll, not a line of its source.


def _ozetli_yoklama(musteri, django_assert_num_queries):
    widget = widget_client(musteri)
    o = baslat(widget, "z")
    veritabanindan(widget, o["id"], django_assert_num_queries)
    ozetten(widget, o["id"], django_assert_num_queries)
    return widget, o


@pytest.mark.parametrize("kabul", ["*/*", "application/json", "application/json, text/plain, */*",
                                   "application/json; indent=2", None])
def test_every_accept_gets_the_same_answer_and_headers(musteri, nobetci, django_assert_num_queries, kabul):
    widget, o = _ozetli_yoklama(musteri, django_assert_num_queries)
    ekstra = {"HTTP_ACCEPT": kabul} if kabul else {}
    ozetli = widget.get(W_MESAJLAR, {"ziyaretci_id": "z", "oturum_id": o["id"], "sonra": 10**9}, **ekstra)
    ozetsiz = widget.get(W_MESAJLAR, {"ziyaretci_id": "z", "oturum_id": o["id"], "sonra": 0}, **ekstra)
    assert ozetli.status_code == ozetsiz.status_code == 200
    assert ozetli.json() == ozetsiz.json()
    # Byte for byte, `; indent=` included (the snapshot is rendered compact, so it does not answer that).
    assert ozetli.content == ozetsiz.content

    def basliklar(res):
        return {k: v for k, v in res.headers.items() if k not in ("X-Request-ID", "Content-Length")}

    assert basliklar(ozetli) == basliklar(ozetsiz)


def test_a_snapshot_never_answers_a_refused_request(musteri, django_assert_num_queries, settings):
    widget, o = _ozetli_yoklama(musteri, django_assert_num_queries)
    sorgu = {"ziyaretci_id": "z", "oturum_id": o["id"], "sonra": 10**9}
    assert widget.get(W_MESAJLAR, sorgu, HTTP_ACCEPT="text/html").status_code == 406
    hata(widget.get(W_MESAJLAR, {**sorgu, "format": "xml"}), 406, "KABUL_EDILEMEZ")
    yanlis = APIClient()
    yanlis.credentials(HTTP_X_API_KEY="yanlis-anahtar")
    hata(yanlis.get(W_MESAJLAR, sorgu), 401, "GECERSIZ_API_ANAHTARI")
    hata(APIClient().get(W_MESAJLAR, sorgu), 401, "KIMLIK_GEREKLI")
    hata(widget.post(W_MESAJLAR, sorgu, format="json"), 405, "YONTEM_DESTEKLENMIYOR")
    musteri.izinli_originler = ["https://magaza.example.com"]
    musteri.save(update_fields=["izinli_originler"])
    hata(widget_client(musteri, HTTP_ORIGIN="https://kotu.example.com").get(W_MESAJLAR, sorgu), 403, "ORIGIN_IZINSIZ")
    izinli = widget_client(musteri, HTTP_ORIGIN="https://magaza.example.com")
    ok(izinli.get(W_MESAJLAR, sorgu))
    with django_assert_num_queries(0):
        ok(izinli.get(W_MESAJLAR, sorgu))
    settings.WIDGET_RATE_LIMIT = "2/min"
    baska_adres = widget_client(musteri, HTTP_ORIGIN="https://magaza.example.com", REMOTE_ADDR="10.9.8.7")
    ok(baska_adres.get(W_MESAJLAR, sorgu))
    ok(baska_adres.get(W_MESAJLAR, sorgu))
    res = baska_adres.get(W_MESAJLAR, sorgu)
    hata(res, 429, "LIMIT_ASILDI")
    assert 1 <= int(res["Retry-After"]) <= 61


def test_the_mixed_loads_other_requests_leave_a_chats_snapshot_current(musteri, django_assert_num_queries):
    # Issue 40 (docs/performance.md): most of the mixed load's requests are idle polls, and they
    # stay free of PostgreSQL only while what the rest of the load does leaves their chat's
    # snapshot current: another visitor's message in the same tenant, the operator's queue, and
    # the operator reading another chat. A message in the chat itself is news for its poll.
    widget = widget_client(musteri)
    o = baslat(widget, "z")
    diger = baslat(widget, "diger")
    _, operator = operator_istemcisi(musteri)
    ok(yokla(widget, o["id"]))  # builds the snapshot (and warms the tenant's key cache)
    ozetten(widget, o["id"], django_assert_num_queries)
    ok(widget.post(W_MESAJ, {"ziyaretci_id": "diger", "oturum_id": diger["id"], "icerik": "Merhaba"},
                   format="json"), 201)
    ozetten(widget, o["id"], django_assert_num_queries)
    assert {s["id"] for s in ok(operator.get(CHATS))["oturumlar"]} == {o["id"], diger["id"]}
    ozetten(widget, o["id"], django_assert_num_queries)
    assert [m["icerik"] for m in ok(operator.get(op_url(diger["id"], "messages")))["mesajlar"]][-1:] == ["Merhaba"]
    ozetten(widget, o["id"], django_assert_num_queries)
    ok(widget.post(W_MESAJ, {"ziyaretci_id": "z", "oturum_id": o["id"], "icerik": "Hâlâ bekliyorum"}, format="json"), 201)
    veritabanindan(widget, o["id"], django_assert_num_queries)
    # Within YAZIM_PAYI of a visitor's message its chat's polls store no snapshot (issue 41); after it, one does.
    time.sleep(yoklama.YAZIM_PAYI)
    ok(yokla(widget, o["id"]))
    ozetten(widget, o["id"], django_assert_num_queries)


@pytest.mark.skipif("settings.REDIS_KUME", reason="on a cluster the message renews after its commit, untimed "
                    "(the chat's key is on another node, whose clock differs): no margin")
def test_polls_within_the_margin_of_a_visitors_message_store_no_snapshot(musteri, django_assert_num_queries,
                                                                          monkeypatch):
    monkeypatch.setattr(yoklama, "YAZIM_PAYI", 600.0)
    widget = widget_client(musteri)
    o = baslat(widget, "z")
    ok(yokla(widget, o["id"]))
    ozetten(widget, o["id"], django_assert_num_queries)
    ok(widget.post(W_MESAJ, {"ziyaretci_id": "z", "oturum_id": o["id"], "icerik": "Merhaba"}, format="json"), 201)
    for _ in range(3):
        assert veritabanindan(widget, o["id"], django_assert_num_queries)["oturum"]["son_mesaj"] == "Merhaba"
    # Another write of the chat (the operator's accept) keeps the message's time on the generation.
    _, operator = operator_istemcisi(musteri)
    ok(operator.post(op_url(o["id"], "accept"), format="json"))
    assert ok(yokla(widget, o["id"]))["oturum"]["durum"] == "aktif"
    with CaptureQueriesContext(connection) as sorgular_:
        ok(yokla(widget, o["id"]))
    assert len(sorgular_) >= 1  # still not from a snapshot


@pytest.mark.django_db(transaction=True)
def test_a_message_stuck_before_its_commit_is_not_hidden_by_a_snapshot_taken_meanwhile(musteri, monkeypatch):
    # The guarantee (chat.yoklama): the visitor's next poll never reads a snapshot older than its
    # own answer. Here the message's statement waits (as behind the chat's lock) longer than
    # YAZIM_PAYI after its pre-read renewed the generation, and another poll of the chat stores a
    # snapshot without the message meanwhile: the writer must renew after its commit.
    monkeypatch.setattr(yoklama, "YAZIM_PAYI", 0.05)
    widget = widget_client(musteri)
    o = baslat(widget, "z")
    ok(widget.post(W_MESAJ, {"ziyaretci_id": "z", "oturum_id": o["id"], "icerik": "ilk"}, format="json"), 201)
    time.sleep(0.1)
    ok(yokla(widget, o["id"]))
    ozet_anahtari = yoklama.okunacaklar(oturum_id=o["id"], musteri_id=musteri.pk)[0]
    istemci = caches["default"]._cache.get_client(write=True)
    asil = sorgular.ziyaretci_mesaji_yaz
    arada = []

    def takilan(**kw):
        istemci.delete(ozet_anahtari)
        time.sleep(0.15)

        def yokla_ve_kapat():
            try:
                arada.append(ok(yokla(widget_client(musteri), o["id"]))["oturum"]["son_mesaj"])
            finally:
                connection.close()

        t = threading.Thread(target=yokla_ve_kapat)
        t.start()
        t.join()
        arada.append(istemci.get(ozet_anahtari) is not None)
        return asil(**kw)

    monkeypatch.setattr(sorgular, "ziyaretci_mesaji_yaz", takilan)
    ok(widget.post(W_MESAJ, {"ziyaretci_id": "z", "oturum_id": o["id"], "icerik": "ikinci"}, format="json"), 201)
    assert arada == ["ilk", True]  # the poll in between stored its snapshot (without the message)
    data = ok(yokla(widget, o["id"]))
    assert data["oturum"]["son_mesaj"] == "ikinci" and data["oturum"]["okunmamis"] == 2

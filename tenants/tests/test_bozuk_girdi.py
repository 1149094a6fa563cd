"""Hostile input through HTTP, as a fuzzer sends it: whatever arrives, the answer is the envelope
with a 4xx, never a 500, and a refused call stores nothing.

NUL (U+0000) matters on PostgreSQL, which refuses it in text and jsonb: the service refuses it
first (400), on every database alike.
"""
import json
from types import SimpleNamespace

import pytest
from django.apps import apps
from rest_framework.test import APIClient

from dosyalar.tests.yardimci import yuklenen_id
from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import giris_yap, modul_verisi, operator_yap
from tenants.tests.test_auth import hata

pytestmark = pytest.mark.django_db

Z = "z1"
PNG_DATA_URL = ("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABSK+kcQAAAABJRU5E"
                "rkJggg==")

# Every JSON endpoint with a body that is valid as it stands ({chat}, {ticket}, {ek} are filled in).
GOVDELER = {
    ("POST", "/api/v1/auth/login"): {"email": "yok@ornek.com", "sifre": "yanlis-sifre"},
    ("POST", "/api/v1/widget/init"): {"ziyaretci_id": Z},
    ("POST", "/api/v1/widget/chat/start"): {"ziyaretci_id": "z2", "ad": "Ayşe", "email": "a@ornek.com", "mesaj": "Merhaba",
                                            "kanal": "widget"},
    ("POST", "/api/v1/widget/chat/message"): {"ziyaretci_id": Z, "oturum_id": "{chat}", "icerik": "Selam"},
    ("POST", "/api/v1/widget/chat/end"): {"ziyaretci_id": Z, "oturum_id": "{chat}"},
    ("POST", "/api/v1/widget/chat/rate"): {"ziyaretci_id": Z, "oturum_id": "{chat}", "puan": 5, "yorum": "İyi"},
    ("POST", "/api/v1/widget/ticket/create"): {"ziyaretci_id": Z, "konu": "Fatura", "mesaj": "Yardım", "ad": "Ayşe",
                                               "email": "a@ornek.com", "oncelik": "normal", "ek_idleri": ["{ek}"]},
    ("POST", "/api/v1/widget/ticket/{ticket}/reply"): {"ziyaretci_id": Z, "icerik": "Ek bilgi"},
    ("POST", "/api/v1/context/customer-info"): {"ziyaretci_id": Z, "email": "a@ornek.com", "ad": "Ayşe", "soyad": "Y",
                                                "paket": "Pro", "kontor": 5, "ekstra": {"not": "x", "liste": ["y"]}},
    ("POST", "/api/v1/context/page-info"): {"ziyaretci_id": Z, "url": "https://ornek.com/a", "baslik": "Ana sayfa",
                                            "referrer": "https://google.com/"},
    ("POST", "/api/v1/context/error-log"): {"ziyaretci_id": Z, "mesaj": "TypeError", "kaynak": "app.js", "satir": 3,
                                            "stack": "at f()", "url": "https://ornek.com/", "tarayici": "Firefox"},
    ("POST", "/api/v1/context/screenshot"): {"ziyaretci_id": Z, "url": "https://ornek.com/", "gorsel": PNG_DATA_URL},
    ("POST", "/api/v1/operator/chat/{chat}/message"): {"icerik": "Buyrun"},
    ("POST", "/api/v1/operator/chat/{chat}/transfer"): {"operator_id": None},
    ("POST", "/api/v1/operator/ticket/{ticket}/reply"): {"icerik": "Bakıyoruz", "durum": "beklemede"},
    ("PUT", "/api/v1/operator/ticket/{ticket}/status"): {"durum": "cozuldu"},
    ("POST", "/api/v1/operator/status"): {"durum": "mesgul"},
    ("PUT", "/api/v1/operator/tenants/sira"): {"order": []},
    ("PUT", "/api/v1/operator/tenants/{musteri}/sessize"): {"sessize": True},
}

# What a refused call must not have written.
SAYILAN = ["chat.Oturum", "chat.Mesaj", "tickets.Ticket", "tickets.TicketYanit", "dosyalar.Dosya", "context.Ziyaretci",
           "context.SayfaGoruntuleme", "context.HataKaydi", "context.EkranGoruntusu"]


def _sayimlar() -> dict:
    return {etiket: apps.get_model(etiket).objects.count() for etiket in SAYILAN}


@pytest.fixture(scope="module")
def ortam(django_db_setup, django_db_blocker, tmp_path_factory):
    # One tenant, operator, chat, ticket and upload for the module's ~290 cases, none of which may
    # change them (each refused call runs and rolls back in its own test transaction).
    with modul_verisi(django_db_blocker, tmp_path_factory):
        yield _ortam_kur(MusteriFactory(firma_adi="Anadolu Yazılım"))


def _ortam_kur(musteri):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(client, operator_yap(musteri))}",
                       HTTP_X_API_KEY=musteri.api_key)
    res = client.post("/api/v1/widget/chat/start", {"ziyaretci_id": Z, "ad": "Ayşe", "mesaj": "Merhaba"}, format="json")
    assert res.status_code == 201, res.content
    chat = res.json()["data"]["oturum"]["id"]
    res = client.post("/api/v1/widget/ticket/create", {"ziyaretci_id": Z, "konu": "k", "mesaj": "m"}, format="json")
    assert res.status_code == 201, res.content
    ticket = res.json()["data"]["ticket"]["id"]
    degerler = {"chat": chat, "ticket": ticket, "ek": yuklenen_id(client, Z), "musteri": musteri.id}
    return SimpleNamespace(client=client, degerler=degerler)


def _doldur(ortam, deger):
    if isinstance(deger, str) and deger.startswith("{") and deger.endswith("}") and deger[1:-1] in ortam.degerler:
        return ortam.degerler[deger[1:-1]]
    if isinstance(deger, dict):
        return {k: _doldur(ortam, v) for k, v in deger.items()}
    if isinstance(deger, list):
        return [_doldur(ortam, v) for v in deger]
    return deger


def _gonder(ortam, method, yol, govde: bytes, content_type="application/json"):
    return ortam.client.generic(method, yol.format(**ortam.degerler), govde, content_type=content_type)


def _zarf(res, status, kod="GECERSIZ_ISTEK"):
    """The error envelope, with a body any JSON reader can read (no unencodable character)."""
    json.loads(res.content.decode("utf-8"))
    return hata(res, status, kod)


JSON_UCLARI = sorted(GOVDELER)


@pytest.mark.parametrize("govde", [b"[" * 100_000 + b"]" * 100_000, b'{"a":' * 100_000 + b"1" + b"}" * 100_000],
                         ids=["liste", "nesne"])
@pytest.mark.parametrize(("method", "yol"), JSON_UCLARI, ids=[f"{m} {y}" for m, y in JSON_UCLARI])
def test_deeply_nested_json_is_a_400(ortam, method, yol, govde):
    _zarf(_gonder(ortam, method, yol, govde), 400)


# Each string field of each body, with a value that is valid but for one NUL character.
def _nul_hali(alan: str, deger: str) -> str:
    if deger.startswith("http"):
        return deger + "\x00"
    if "@" in deger:
        return deger.replace("@", "\x00@")
    return deger + "\x00"


NUL_DURUMLARI = [
    (method, yol, alan)
    for (method, yol), govde in GOVDELER.items()
    for alan, deger in govde.items()
    if isinstance(deger, str) and not deger.startswith("{") and not deger.startswith("data:")
]


@pytest.mark.parametrize(("method", "yol", "alan"), NUL_DURUMLARI, ids=[f"{m} {y} {a}" for m, y, a in NUL_DURUMLARI])
def test_nul_in_every_string_field_is_a_400_and_stores_nothing(ortam, method, yol, alan):
    govde = _doldur(ortam, GOVDELER[(method, yol)])
    govde[alan] = _nul_hali(alan, govde[alan])
    once = _sayimlar()
    res = _gonder(ortam, method, yol, json.dumps(govde).encode())
    body = _zarf(res, 400)
    assert alan in body["hata"].get("alanlar", {}), body
    assert _sayimlar() == once


@pytest.mark.parametrize("ekstra", [{"a\x00": 1}, {"a": "b\x00"}, {"a": {"b": ["c", "\x00"]}}],
                         ids=["anahtar", "deger", "ic-ice"])
def test_nul_anywhere_in_ekstra_is_a_400_and_stores_nothing(ortam, ekstra):
    once = _sayimlar()
    res = ortam.client.post("/api/v1/context/customer-info", {"ziyaretci_id": "yeni", "ekstra": ekstra}, format="json")
    body = _zarf(res, 400)
    assert "ekstra" in body["hata"]["alanlar"], body
    assert _sayimlar() == once


def test_ekstra_nested_too_deep_is_a_400(ortam):
    # Deep enough to parse, far deeper than any banner data: every later context read would have
    # to write it out again.
    ekstra: dict = {}
    for _ in range(40):
        ekstra = {"a": ekstra}
    res = ortam.client.post("/api/v1/context/customer-info", {"ziyaretci_id": "yeni", "ekstra": ekstra}, format="json")
    body = _zarf(res, 400)
    assert "ekstra" in body["hata"]["alanlar"], body
    ekstra = {"a": {"b": {"c": [1, {"d": "ok"}]}}}
    res = ortam.client.post("/api/v1/context/customer-info", {"ziyaretci_id": "yeni", "ekstra": ekstra}, format="json")
    assert res.status_code == 200, res.content


ENUM_ALANLARI = [
    ("POST", "/api/v1/widget/chat/start", "kanal"),
    ("POST", "/api/v1/widget/ticket/create", "oncelik"),
    ("POST", "/api/v1/operator/ticket/{ticket}/reply", "durum"),
    ("PUT", "/api/v1/operator/ticket/{ticket}/status", "durum"),
    ("POST", "/api/v1/operator/status", "durum"),
]


@pytest.mark.parametrize(("method", "yol", "alan"), ENUM_ALANLARI, ids=[f"{m} {y} {a}" for m, y, a in ENUM_ALANLARI])
@pytest.mark.parametrize("deger", ["\ud800", "a\udfffb", "\U0001f600\udc00"], ids=["yuksek", "alcak", "yarim-cift"])
def test_lone_surrogate_echoed_in_an_error_is_still_a_400_envelope(ortam, method, yol, alan, deger):
    # The message names the refused value; a lone surrogate has no UTF-8 form, and once broke the answer.
    govde = _doldur(ortam, GOVDELER[(method, yol)])
    govde[alan] = deger
    res = _gonder(ortam, method, yol, json.dumps(govde).encode())
    body = _zarf(res, 400)
    assert alan in body["hata"]["alanlar"], body


@pytest.mark.parametrize("yol", ["/api/v1/widget/kb/article/a%00b?ziyaretci_id=z1",
                                 "/api/v1/widget/kb/article/%00?ziyaretci_id=z1",
                                 "/api/v1/operator/context/a%00b", "/api/v1/operator/context/%00",
                                 "/api/v1/operator/context/a%0Ab"])
def test_nul_in_a_path_segment_is_a_404(ortam, yol):
    _zarf(ortam.client.get(yol), 404, "BULUNAMADI")


@pytest.mark.parametrize("sorgu", ["ziyaretci_id=z%001", "ziyaretci_id=z1&cursor=%00", "ziyaretci_id=z1&limit=%00"])
def test_nul_in_a_query_string_is_a_400(ortam, sorgu):
    _zarf(ortam.client.get(f"/api/v1/widget/ticket/list?{sorgu}"), 400)


@pytest.mark.parametrize(("method", "yol"), [("POST", "/api/v1/widget/init"), ("POST", "/api/v1/widget/ticket/create"),
                                             ("PUT", "/api/v1/operator/ticket/{ticket}/status")])
def test_a_gzip_body_is_a_415_not_invalid_json(ortam, method, yol):
    import gzip

    govde = gzip.compress(json.dumps(_doldur(ortam, GOVDELER[(method, yol)])).encode())
    once = _sayimlar()
    res = ortam.client.generic(method, yol.format(**ortam.degerler), govde, content_type="application/json",
                               HTTP_CONTENT_ENCODING="gzip")
    _zarf(res, 415, "DESTEKLENMEYEN_ICERIK_TIPI")
    assert res["Accept-Encoding"] == "identity"
    assert _sayimlar() == once


def test_a_gzip_upload_stores_no_compressed_bytes(ortam):
    import gzip

    once = _sayimlar()
    sinir = "sinir"
    govde = (f"--{sinir}\r\nContent-Disposition: form-data; name=\"ziyaretci_id\"\r\n\r\n{Z}\r\n"
             f"--{sinir}\r\nContent-Disposition: form-data; name=\"dosya\"; filename=\"a.txt\"\r\n"
             f"Content-Type: text/plain\r\n\r\nmerhaba\r\n--{sinir}--\r\n").encode()
    res = ortam.client.generic("POST", "/api/v1/widget/upload", gzip.compress(govde),
                               content_type=f"multipart/form-data; boundary={sinir}", HTTP_CONTENT_ENCODING="gzip")
    _zarf(res, 415, "DESTEKLENMEYEN_ICERIK_TIPI")
    assert _sayimlar() == once


@pytest.mark.parametrize("parca", [
    b'Content-Disposition: form-data; name="dosya"; filename="' + b"a" * 5000 + b'.txt"\r\n\r\nmerhaba',
    b'Content-Disposition: form-data; name="dosya"; filename="a.txt"\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!',
], ids=["uzun-baslik", "bozuk-base64"])
def test_a_broken_multipart_body_is_a_400_that_does_not_speak_of_json(ortam, parca):
    once = _sayimlar()
    govde = (b"--s\r\nContent-Disposition: form-data; name=\"ziyaretci_id\"\r\n\r\n" + Z.encode() + b"\r\n--s\r\n"
             + parca + b"\r\n--s--\r\n")
    res = ortam.client.generic("POST", "/api/v1/widget/upload", govde, content_type="multipart/form-data; boundary=s")
    body = _zarf(res, 400)
    assert "JSON" not in body["hata"]["mesaj"], body
    assert _sayimlar() == once


def test_a_nul_that_reaches_postgresql_unchecked_is_a_400_not_a_500(ortam, monkeypatch):
    # The last line of defence (exceptions.exception_handler): PostgreSQL's refusal of NUL, as
    # psycopg raises it, means a bad request, whichever field no validation looked at.
    from django.db import DataError

    from knowledge.api import views

    def reddet(**kwargs):
        raise DataError("PostgreSQL text fields cannot contain NUL (0x00) bytes")

    monkeypatch.setattr(views.selectors, "kb_kategori_list", reddet)
    body = _zarf(ortam.client.get("/api/v1/widget/kb/categories?ziyaretci_id=z1"), 400)
    assert set(body["hata"]["alanlar"]) == {"genel"}


@pytest.mark.parametrize("anahtar", ["pk_\x00", "\x00", "pk_\x07abc", "pk_" + "a" * 200])
def test_a_nul_in_the_api_key_is_refused_not_a_500(ortam, anahtar):
    res = APIClient().get("/api/v1/widget/campaigns", HTTP_X_API_KEY=anahtar)
    _zarf(res, 401, "GECERSIZ_API_ANAHTARI")

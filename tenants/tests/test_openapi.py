"""The published OpenAPI schema (/api/v1/schema/) describes what the API really answers: each
real answer of a walk through every endpoint validates against the schema of its status, and
every status an endpoint of its kind can answer is listed, with the error envelope."""
import json
from datetime import timedelta

import jsonschema
import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from dosyalar.tests.yardimci import png_bayt
from knowledge.services import kampanya_kaydet, kb_kategori_kaydet, kb_makale_kaydet
from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import giris_yap, operator_yap

pytestmark = pytest.mark.django_db

ATLANAN = {"nullable", "readOnly", "writeOnly", "format", "example", "description", "title"}


def _json_semasi(sema, bilesenler):
    """OpenAPI 3.0 schema -> JSON Schema: `$ref` resolved, `nullable` as a null alternative."""
    if isinstance(sema, list):
        return [_json_semasi(s, bilesenler) for s in sema]
    if not isinstance(sema, dict):
        return sema
    if "$ref" in sema:
        return _json_semasi(bilesenler[sema["$ref"].rsplit("/", 1)[1]], bilesenler)
    sonuc = {}
    for anahtar, deger in sema.items():
        if anahtar in ATLANAN:
            continue
        if anahtar == "properties":
            sonuc[anahtar] = {ad: _json_semasi(s, bilesenler) for ad, s in deger.items()}
        else:
            sonuc[anahtar] = _json_semasi(deger, bilesenler)
    if sema.get("nullable"):
        return {"anyOf": [sonuc, {"type": "null"}]}
    return sonuc


@pytest.fixture
def sema(api):
    # Generated twice: the second schema must be the first (no state left behind by a generation).
    semalar = []
    for _ in range(2):
        res = api.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
        assert res.status_code == 200
        semalar.append(json.loads(res.content))
    assert semalar[0] == semalar[1]
    return semalar[1]


def _dogrula(sema, method, sablon, res):
    islem = sema["paths"][sablon][method.lower()]
    kod = str(res.status_code)
    assert kod in islem["responses"], f"{method} {sablon}: {kod} not documented ({sorted(islem['responses'])})"
    yanit = islem["responses"][kod]
    assert "content" in yanit, f"{method} {sablon}: {kod} has no body schema"
    yanit_semasi = yanit["content"]["application/json"]["schema"]
    jsonschema.validate(res.json(), _json_semasi(yanit_semasi, sema["components"]["schemas"]))


def test_every_answer_of_a_walk_through_the_api_matches_the_schema(sema):
    musteri, diger = MusteriFactory(), MusteriFactory()
    simdi = timezone.now()
    kategori = kb_kategori_kaydet(musteri=musteri, slug="odeme", ad="Ödeme", sira=1)
    kb_makale_kaydet(musteri=musteri, slug="fatura", baslik="Fatura indirme", icerik="<p>Fatura</p>", yayinda=True,
                     kategori=kategori)
    kampanya_kaydet(musteri=musteri, baslik="Kampanya", baslangic=simdi - timedelta(days=1),
                    bitis=simdi + timedelta(days=1))
    operator = operator_yap(musteri, diger)
    c = APIClient()
    token = giris_yap(c, operator)
    c.credentials(HTTP_AUTHORIZATION=f"Bearer {token}", HTTP_X_API_KEY=musteri.api_key)

    def cagir(method, sablon, yol=None, veri=None, durum=None, **kw):
        yol = "/api/v1" + (yol or sablon)
        if kw.get("format") is None and veri is not None and method != "GET":
            kw["format"] = "json"
        res = getattr(c, method.lower())(yol, veri, **kw)
        if durum is not None:
            assert res.status_code == durum, (method, yol, res.content)
        _dogrula(sema, method, "/api/v1" + sablon, res)
        return res.json().get("data", {})

    z = "ziyaretci-1"
    cagir("POST", "/auth/login", veri={"email": operator.email, "sifre": "yanlis"}, durum=401)
    cagir("POST", "/auth/login", veri={"email": 5, "sifre": []}, durum=400)
    cagir("POST", "/widget/init", veri={"ziyaretci_id": z}, durum=200)
    oturum = cagir("POST", "/widget/chat/start", veri={"ziyaretci_id": z, "ad": "Ayşe", "mesaj": "Merhaba"}, durum=201)
    oturum_id = oturum["oturum"]["id"]
    cagir("POST", "/widget/chat/start", veri={"ziyaretci_id": z}, durum=200)
    ek = cagir("POST", "/widget/upload", veri={"ziyaretci_id": z, "dosya": _dosya()}, format="multipart", durum=201)
    cagir("POST", "/widget/chat/message", veri={"ziyaretci_id": z, "oturum_id": oturum_id, "icerik": "Ek",
                                                "ek_id": ek["dosya"]["id"]}, durum=201)
    cagir("GET", "/widget/chat/messages", veri={"ziyaretci_id": z, "oturum_id": oturum_id}, durum=200)
    cagir("GET", "/widget/chat/messages", veri={"ziyaretci_id": z, "oturum_id": 10**6}, durum=404)
    ticket = cagir("POST", "/widget/ticket/create", veri={"ziyaretci_id": z, "konu": "Fatura", "mesaj": "Yardım",
                                                          "ek_idleri": [ek["dosya"]["id"]]}, durum=201)
    ticket_id = ticket["ticket"]["id"]
    cagir("POST", "/widget/ticket/create", veri={"ziyaretci_id": z}, durum=400)
    cagir("GET", "/widget/ticket/list", veri={"ziyaretci_id": z, "limit": 1}, durum=200)
    cagir("GET", "/widget/ticket/{ticket_id}", f"/widget/ticket/{ticket_id}", {"ziyaretci_id": z}, durum=200)
    cagir("GET", "/widget/ticket/{ticket_id}", f"/widget/ticket/{ticket_id}", {"ziyaretci_id": "baska"}, durum=404)
    cagir("POST", "/widget/ticket/{ticket_id}/reply", f"/widget/ticket/{ticket_id}/reply",
          {"ziyaretci_id": z, "icerik": "Ek bilgi"}, durum=201)
    cagir("GET", "/widget/kb/search", veri={"ziyaretci_id": z, "q": "fatura"}, durum=200)
    cagir("GET", "/widget/kb/search", veri={"ziyaretci_id": z, "limit": 0}, durum=400)
    cagir("GET", "/widget/kb/search", veri={"q": "fatura"}, durum=400)
    cagir("GET", "/widget/kb/categories", veri={"ziyaretci_id": z}, durum=200)
    cagir("GET", "/widget/kb/article/{slug}", "/widget/kb/article/fatura", {"ziyaretci_id": z}, durum=200)
    cagir("GET", "/widget/kb/article/{slug}", "/widget/kb/article/yok", {"ziyaretci_id": z}, durum=404)
    cagir("GET", "/widget/campaigns", veri={"ziyaretci_id": z}, durum=200)
    cagir("POST", "/context/customer-info", veri={"ziyaretci_id": z, "ad": "Ayşe", "kontor": 0,
                                                  "ekstra": {"depolama_kullanilan_gb": 45.5, "depolama_toplam_gb": 50}},
          durum=200)
    cagir("POST", "/context/customer-info", veri={"ziyaretci_id": z, "timestamp": 1, "signature": "0" * 64}, durum=401)
    cagir("POST", "/context/page-info", veri={"ziyaretci_id": z, "url": "https://ornek.com/"}, durum=201)
    cagir("POST", "/context/error-log", veri={"ziyaretci_id": z, "mesaj": "TypeError"}, durum=201)
    cagir("POST", "/context/screenshot", veri={"ziyaretci_id": z, "gorsel": _dosya()}, format="multipart", durum=201)
    cagir("GET", "/operator/context/{ziyaretci_id}", f"/operator/context/{z}", durum=200)
    cagir("GET", "/operator/chats", durum=200)
    cagir("GET", "/operator/chats", veri={"durum": "yok"}, durum=400)
    cagir("POST", "/operator/chat/{oturum_id}/accept", f"/operator/chat/{oturum_id}/accept", durum=200)
    cagir("POST", "/operator/chat/{oturum_id}/accept", f"/operator/chat/{oturum_id}/accept", durum=409)
    cagir("POST", "/operator/chat/{oturum_id}/message", f"/operator/chat/{oturum_id}/message", {"icerik": "Buyrun"},
          durum=201)
    cagir("GET", "/operator/chat/{oturum_id}/messages", f"/operator/chat/{oturum_id}/messages", durum=200)
    cagir("POST", "/operator/chat/{oturum_id}/transfer", f"/operator/chat/{oturum_id}/transfer", {"operator_id": None},
          durum=200)
    cagir("POST", "/operator/chat/{oturum_id}/close", f"/operator/chat/{oturum_id}/close", durum=200)
    cagir("POST", "/widget/chat/rate", veri={"ziyaretci_id": z, "oturum_id": oturum_id, "puan": 5}, durum=200)
    cagir("POST", "/widget/chat/end", veri={"ziyaretci_id": z, "oturum_id": oturum_id}, durum=409)
    cagir("GET", "/operator/tickets", durum=200)
    cagir("GET", "/operator/ticket/{ticket_id}", f"/operator/ticket/{ticket_id}", durum=200)
    cagir("POST", "/operator/ticket/{ticket_id}/reply", f"/operator/ticket/{ticket_id}/reply", {"icerik": "Tamam"},
          durum=201)
    cagir("PUT", "/operator/ticket/{ticket_id}/status", f"/operator/ticket/{ticket_id}/status", {"durum": "kapandi"},
          durum=200)
    cagir("PUT", "/operator/ticket/{ticket_id}/status", f"/operator/ticket/{ticket_id}/status", {"durum": "acik"},
          durum=409)
    cagir("GET", "/operator/dashboard", durum=200)
    cagir("GET", "/operator/canned-responses", durum=200)
    cagir("GET", "/operator/tenants", durum=200)
    cagir("PUT", "/operator/tenants/sira", veri={"order": [diger.id, musteri.id]}, durum=200)
    cagir("PUT", "/operator/tenants/{musteri_id}/sessize", f"/operator/tenants/{diger.id}/sessize", {"sessize": True},
          durum=200)
    cagir("POST", "/operator/status", veri={"durum": "mesgul"}, durum=200)
    cagir("GET", "/saglik", durum=200)
    cagir("POST", "/auth/logout", durum=200)
    cagir("GET", "/operator/tenants", durum=401)
    c.credentials(HTTP_X_API_KEY="pk_yanlis")
    cagir("GET", "/widget/campaigns", durum=401)


def _dosya():
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("ekran.png", png_bayt(), content_type="image/png")


def test_every_operation_lists_the_statuses_of_its_kind_with_the_error_envelope(sema):
    hata_ref = {"$ref": "#/components/schemas/HataYaniti"}
    for yol, yontemler in sema["paths"].items():
        for method, islem in yontemler.items():
            adi = f"{method.upper()} {yol}"
            yanitlar = islem["responses"]
            for kod, yanit in yanitlar.items():
                if kod.startswith("2") and "application/zip" in yanit.get("content", {}):
                    continue  # a file download (a visitor's export, CONTRACT 18): the archive itself
                sema_ = yanit["content"]["application/json"]["schema"]
                if kod.startswith("2"):
                    zarf = _json_semasi(sema_, sema["components"]["schemas"])
                    assert {"basarili", "data"} <= set(zarf["properties"]), adi
                else:
                    assert sema_ == hata_ref, (adi, kod)
            guvenlik = {ad for s in islem.get("security", []) for ad in s}
            beklenen = set()
            if "BearerAuth" in guvenlik or "ApiKeyAuth" in guvenlik:
                beklenen.add("401")
            if "ApiKeyAuth" in guvenlik:
                beklenen |= {"403", "429"}
            if any(p["in"] == "path" for p in islem.get("parameters", [])):
                beklenen |= {"400", "404"}
            if "requestBody" in islem:
                beklenen |= {"400", "415"}
            assert beklenen <= set(yanitlar), (adi, sorted(beklenen - set(yanitlar)))
            assert "What every /api/v1 endpoint" not in islem.get("description", ""), adi

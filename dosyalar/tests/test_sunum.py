"""User files are never served as pages of the service (issue 24): every one carries
`Content-Security-Policy: sandbox`, and all but images are attachments; locally (`/media/`) and
on S3 (stored on the object and asked for on the signed URL)."""
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from django.conf import settings

from .yardimci import akis_oku, jpeg_bayt, png_bayt, yukle

pytestmark = pytest.mark.django_db

# A PDF that runs JavaScript when a browser's viewer opens it.
JS_PDF = (b"%PDF-1.4\n1 0 obj << /Type /Catalog /OpenAction 2 0 R >> endobj\n"
          b"2 0 obj << /S /JavaScript /JS (app.alert(document.cookie)) >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")


@pytest.mark.parametrize(("ad", "icerik", "ek"), [
    ("fatura.pdf", JS_PDF, True),
    ("not.txt", "Merhaba, düz metin.\n".encode(), True),
    ("ekran.png", png_bayt(), False),
    ("foto.jpg", jpeg_bayt(), False),
])
def test_yuklenen_dosya_sandbox_ve_goruntu_degilse_ek_olarak_sunulur(widget, ad, icerik, ek):
    res = yukle(widget, "z1", ad, icerik, content_type="application/octet-stream")
    assert res.status_code == 201, res.content
    sunulan = widget.get(res.json()["data"]["dosya"]["url"])
    assert sunulan.status_code == 200
    assert akis_oku(sunulan) == icerik
    assert sunulan["Content-Security-Policy"] == "sandbox"
    assert sunulan["Content-Disposition"].startswith("attachment;" if ek else "inline;")
    assert sunulan["X-Content-Type-Options"] == "nosniff"


def test_logo_ve_ekran_goruntusu_de_sandbox(client):
    # Logos (a cleaned SVG among them) and screenshots are under the same /media/ view.
    for yol, icerik in (("logolar/logo.svg", b"<svg xmlns='http://www.w3.org/2000/svg'/>"),
                        ("context/ekran/abc.png", png_bayt())):
        dosya = Path(settings.MEDIA_ROOT) / yol
        dosya.parent.mkdir(parents=True, exist_ok=True)
        dosya.write_bytes(icerik)
        res = client.get(f"/media/{yol}")
        assert res.status_code == 200
        assert res["Content-Security-Policy"] == "sandbox" and res["Content-Disposition"].startswith("inline;")


# --- S3 (django-storages), against a stand-in bucket on loopback -------------------------------
class _Kova(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    yuklenen: dict[str, dict] = {}

    def log_message(self, *args):
        pass

    def _bos(self, durum, **basliklar):
        self.send_response(durum)
        for ad, deger in {"Content-Length": "0", **basliklar}.items():
            self.send_header(ad, deger)
        self.end_headers()

    def do_HEAD(self):
        self._bos(404)

    def do_PUT(self):
        if self.headers.get("Transfer-Encoding") == "chunked":
            while (boy := int(self.rfile.readline().split(b";")[0], 16)) > 0:
                self.rfile.read(boy + 2)
            self.rfile.readline()
        else:
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
        _Kova.yuklenen[urlsplit(self.path).path] = dict(self.headers)
        self._bos(200, ETag='"d41d8cd98f00b204e9800998ecf8427e"')


@pytest.fixture
def s3(settings, monkeypatch):
    sunucu = ThreadingHTTPServer(("127.0.0.1", 0), _Kova)
    threading.Thread(target=sunucu.serve_forever, daemon=True).start()
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "test")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "test")
    monkeypatch.setenv("AWS_REQUEST_CHECKSUM_CALCULATION", "when_required")
    _Kova.yuklenen = {}
    settings.STORAGES = {**settings.STORAGES, "default": {
        "BACKEND": "supportdesk.core.s3.KullaniciDosyalari",
        "OPTIONS": {"bucket_name": "kova", "endpoint_url": f"http://127.0.0.1:{sunucu.server_port}",
                    "region_name": "us-east-1", "addressing_style": "path", "querystring_auth": True,
                    "file_overwrite": False, "default_acl": None},
    }}
    yield _Kova
    sunucu.shutdown()
    sunucu.server_close()


@pytest.mark.parametrize(("ad", "icerik", "ek"), [("fatura.pdf", JS_PDF, True), ("ekran.png", png_bayt(), False)])
def test_s3_goruntu_olmayan_dosya_ek_olarak_saklanir_ve_imzalanir(widget, s3, ad, icerik, ek):
    res = yukle(widget, "z1", ad, icerik, content_type="application/octet-stream")
    assert res.status_code == 201, res.content
    url = urlsplit(res.json()["data"]["dosya"]["url"])
    [(yol, basliklar)] = s3.yuklenen.items()
    assert url.path == yol and yol.startswith("/kova/yuklemeler/")
    assert basliklar.get("Content-Disposition") == ("attachment" if ek else None)
    sorgu = parse_qs(url.query)
    assert {"Signature", "X-Amz-Signature"} & set(sorgu)  # signed (SigV2 or V4, by region)
    assert sorgu.get("response-content-disposition") == (["attachment"] if ek else None)


def test_pdf_onceki_kurala_gore_saklanmis_olsa_da_imzali_url_ek_ister(s3):
    # An object stored before the rule (no Content-Disposition of its own): the signed URL asks.
    from django.core.files.storage import default_storage
    assert "response-content-disposition=attachment" in default_storage.url("yuklemeler/2026/01/eski.pdf")
    assert "response-content-disposition" not in default_storage.url("yuklemeler/2026/01/eski.webp")

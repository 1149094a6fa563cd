"""`/panel/` as a page: a static shell under a strict policy, and the console's weight budget."""
import gzip
import re
from pathlib import Path

import pytest
from django.conf import settings

PANEL_DIZINI = Path(settings.BASE_DIR) / "static" / "panel"
BUTCE = 80 * 1024  # CONTRACT 12 / issue 15: the console's own JS+CSS under 80 KB gzipped


def test_konsol_sayfasi_statik_kabuk_siki_politika(client):
    res = client.get("/panel/")
    assert res.status_code == 200
    html = res.content.decode()
    assert '<html lang="tr">' in html and 'type="module"' in html and "/static/panel/uygulama.js" in html
    csp = res["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "style-src 'self'" in csp and "'unsafe-inline'" not in csp
    assert "frame-ancestors 'none'" in csp and "object-src 'none'" in csp
    # No inline script or style, no token, no password: the page holds nothing a script could steal.
    assert not re.search(r"<script(?![^>]*\bsrc=)", html) and "<style" not in html and " style=" not in html
    assert "sifre" not in html.lower() and "token" not in html.lower()


def test_konsol_yalniz_get(client):
    assert client.post("/panel/").status_code == 405


@pytest.mark.parametrize("yol", ["/panel", "/panel/"])
def test_konsol_adresi(client, yol):
    assert client.get(yol, follow=True).status_code == 200


def test_konsolun_js_ve_css_butcesi():
    dosyalar = sorted(PANEL_DIZINI.glob("*.js")) + sorted(PANEL_DIZINI.glob("*.css"))
    assert {d.name for d in dosyalar} >= {"uygulama.js", "api.js", "soket.js", "dom.js", "metinler.js", "panel.css"}
    toplam = sum(len(gzip.compress(d.read_bytes(), compresslevel=9)) for d in dosyalar)
    assert toplam < BUTCE, f"{toplam} bayt gzip"


def test_konsol_metinleri_tek_yerde_html_yok():
    """Turkish strings live in metinler.js; no module writes HTML from strings."""
    for d in PANEL_DIZINI.glob("*.js"):
        kod = "\n".join(satir for satir in d.read_text().splitlines() if not satir.lstrip().startswith("//"))
        assert "innerHTML" not in kod and "insertAdjacentHTML" not in kod and "outerHTML" not in kod, d.name
        assert "document.write" not in kod and "eval(" not in kod, d.name
    uygulama = (PANEL_DIZINI / "uygulama.js").read_text()
    # No Turkish letters in the logic modules' string literals: they come from M.
    for d in ("uygulama.js", "api.js", "soket.js", "dom.js", "etiketler.js", "arama.js", "profil.js", "yazma.js"):
        literaller = re.findall(r'"([^"\\n]*)"|`([^`]*)`', (PANEL_DIZINI / d).read_text())
        turkce = [x for pair in literaller for x in pair if re.search(r"[çğıöşüÇĞİÖŞÜ]", x)]
        assert not turkce, (d, turkce)
    assert "M." in uygulama

"""The quoted-history and signature stripper (`eposta.gelen.alintiyi_ayikla`)."""
import pytest

from eposta.gelen import alintiyi_ayikla, html_metne


@pytest.mark.parametrize(("metin", "beklenen"), [
    ("Tamam.\n\n23 Kas 2026 Pzt, 20:00 tarihinde Anadolu <destek@x> şunu yazdı:\n> eski", "Tamam."),
    ("Tamam.\n\n23 Kas 2026 Pzt, 20:00 tarihinde Anadolu Yazılım\n<destek@x> şunu yazdı:\n> eski", "Tamam."),
    ("Olur\n-----Original Message-----\nFrom: x", "Olur"),
    ("Olur\n\n-----Özgün İleti-----\nKimden: x", "Olur"),
    ("Evet\r\nKimden: Destek <d@x>\r\nGönderildi: Pazartesi\r\nKime: a@b", "Evet"),
    ("Geliyorum\n\nSent from my iPhone", "Geliyorum"),
    ("Geliyorum\n\niPhone'umdan gönderildi", "Geliyorum"),
    ("Ali\n-- \nAli Veli\n0555", "Ali"),
    ("> yalnızca alıntı\n> var", "> yalnızca alıntı\n> var"),  # nothing new: keep it all rather than lose it
    ("From the start: bu bir cümle\nDevamı", "From the start: bu bir cümle\nDevamı"),
])
def test_alintiyi_ayikla(metin, beklenen):
    assert alintiyi_ayikla(metin) == beklenen


def test_html_metne_drops_scripts_and_quotes():
    html = "<p>Bir</p><script>alert(1)</script><div>İki&nbsp;&amp; üç</div><blockquote>eski</blockquote>"
    assert html_metne(html) == "Bir\n\nİki & üç"

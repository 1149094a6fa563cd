"""Content per language in headless Chromium (issue 43, CONTRACT 19): a project whose article,
category and campaign have English versions shows them to an English browser (an `otomatik`
project), and its own Turkish text to a Turkish one."""
import re
from datetime import timedelta

from django.utils import timezone

from knowledge import services as kb
from supportdesk.testing.tarayici import TARAYICI_ISARETLERI

from .test_widget_dili_tarayici import baska_site, proje, sayfa_ac, tarayici, yukle  # noqa: F401 (fixtures)

pytestmark = TARAYICI_ISARETLERI


def _icerik(musteri):
    kategori = kb.kb_kategori_kaydet(musteri=musteri, slug="faturalama", ad="Faturalama", aciklama="Fatura soruları",
                                     ad_en="Billing", aciklama_en="Invoice questions")
    kb.kb_makale_kaydet(
        musteri=musteri, kategori=kategori, slug="fatura-indir", baslik="Fatura nasıl indirilir?", yayinda=True,
        icerik_markdown="**Hesabım** sayfasından indirin.", baslik_en="How do I download an invoice?",
        icerik_markdown_en="Open **My account** and download it.")
    simdi = timezone.now()
    kb.kampanya_kaydet(musteri=musteri, baslik="Kış indirimi", baslik_en="Winter sale", icerik="Yüzde 20",
                       icerik_en="20 percent off", baslangic=simdi - timedelta(hours=1), bitis=simdi + timedelta(days=1))


def test_an_english_browser_reads_the_english_article(sayfa_ac, baska_site):  # noqa: F811
    musteri = proje("otomatik")
    _icerik(musteri)
    sayfa = sayfa_ac("en-US")
    page = sayfa.page
    yukle(page, baska_site.sayfa("/icerik-en.html", musteri))
    page.get_by_role("complementary", name="Winter sale").wait_for()
    page.get_by_role("button", name="Open support window").click()
    page.get_by_role("tab", name="Help").click()
    page.get_by_role("button", name=re.compile("Billing")).click()
    page.get_by_role("button", name=re.compile("How do I download an invoice")).click()
    page.get_by_role("heading", name="How do I download an invoice?").wait_for()
    page.get_by_role("article").get_by_text("My account", exact=True).wait_for()
    assert page.get_by_text("Hesabım").count() == 0
    sayfa.ekran("widget-en-makale.png")
    assert not sayfa.hatalar and not sayfa.dialoglar


def test_a_turkish_browser_reads_the_project_s_own(sayfa_ac, baska_site):  # noqa: F811
    musteri = proje("otomatik")
    _icerik(musteri)
    sayfa = sayfa_ac("tr-TR")
    page = sayfa.page
    yukle(page, baska_site.sayfa("/icerik-tr.html", musteri))
    page.get_by_role("complementary", name="Kış indirimi").wait_for()
    page.get_by_role("button", name="Destek penceresini aç").click()
    page.get_by_role("tab", name="Yardım").click()
    page.get_by_role("button", name=re.compile("Faturalama")).click()
    page.get_by_role("button", name=re.compile("Fatura nasıl indirilir")).click()
    page.get_by_role("article").get_by_text("Hesabım", exact=True).wait_for()
    assert not sayfa.hatalar

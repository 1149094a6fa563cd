"""CONTRACT 19 in the portal's content, report, routing, SLA, webhook, widget and privacy pages: a
member whose language is English gets each page, its messages, dates, durations and numbers in
English; a Turkish member gets the Turkish pages as before."""
import csv
import io
import json
import re
from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from chat.models import Mesaj, Oturum
from chat.services import hazir_yanit_kaydet
from knowledge.models import Kampanya, KbKategori, KbMakale
from supportdesk.testing.fixtures import operator_yap
from tenants import etiketler
from tickets.models import Ticket, TicketYanit
from webhooks.endpointler import webhook_endpoint_olustur
from webhooks.models import Olay, Teslimat, TeslimatDenemesi

from .test_raporlar_gecmis import aralik, veri  # noqa: F401  (the report's seeded figures)
from .yardimci import giris_yapmis

pytestmark = pytest.mark.django_db
TURKCE_HARF = re.compile(r"[çğıöşüÇĞİÖŞÜ]")


def _uye(musteri, dil, rol="sahip"):
    user = operator_yap(musteri, rol=rol)
    user.dil = dil
    user.save(update_fields=["dil"])
    return giris_yapmis(user)


@pytest.fixture
def en(musteri):
    return _uye(musteri, "en")


@pytest.fixture
def tr(musteri):
    return _uye(musteri, "tr")


def _html(uye, url, status=200):
    res = uye.get(url)
    assert res.status_code == status, res.content.decode()[:2000]
    return res.content.decode()


def _ana(html: str) -> str:
    """The page's own part: the menu and the footer belong to templates/base.html and portal/_ust.html."""
    return html[html.index("<main"):html.index("</main>")]


def _an(yil, ay, gun, saat, dakika):
    return timezone.make_aware(datetime(yil, ay, gun, saat, dakika))


@pytest.fixture
def icerik(musteri):
    """One of everything the content pages list, with known dates."""
    kategori = KbKategori.objects.create(musteri=musteri, slug="fatura", ad="Fatura")
    makale = KbMakale.objects.create(musteri=musteri, slug="iade", baslik="İade", kategori=kategori, yayinda=True,
                                     icerik="<p>Metin</p>", goruntulenme=1)
    KbMakale.objects.filter(pk=makale.pk).update(guncellenme=_an(2026, 3, 5, 14, 7))
    kampanya = Kampanya.objects.create(musteri=musteri, baslik="Bahar", icerik="İndirim", baslangic=_an(2026, 3, 5, 9, 0),
                                       bitis=_an(2026, 4, 1, 9, 0))
    yanit = hazir_yanit_kaydet(musteri=musteri, hazir_yanit=None, kisayol="/selam", baslik="Selam", icerik="Merhaba!")
    etiket = etiketler.etiket_olustur(musteri_id=musteri.id, ad="VIP", renk="#2563EB", kullanici_id=None, ip=None)
    oturum = Oturum.objects.create(musteri=musteri, ziyaretci_id="z9", ziyaretci_adi="Ayşe", baslangic=_an(2026, 3, 5, 14, 7),
                                   durum="kapandi")
    Mesaj.objects.create(musteri=musteri, oturum=oturum, gonderen="ziyaretci", icerik="Merhaba", zaman=_an(2026, 3, 5, 14, 8))
    Mesaj.objects.create(musteri=musteri, oturum=oturum, gonderen="operator", icerik="Not", ozel=True,
                         zaman=_an(2026, 3, 5, 14, 9))
    ticket = Ticket.objects.create(musteri=musteri, ziyaretci_id="z9", konu="Kargo", olusturulma=_an(2026, 3, 5, 14, 7))
    TicketYanit.objects.create(ticket=ticket, gonderen="ziyaretci", icerik="Nerede?")
    endpoint = webhook_endpoint_olustur(musteri=musteri, url="https://hook.example.com/sd")
    endpoint.olusturulma = _an(2026, 3, 5, 14, 7)
    endpoint.save(update_fields=["olusturulma"])
    olay = Olay.objects.create(musteri=musteri, olay="yeni_chat", veri={})
    teslimat = Teslimat.objects.create(musteri=musteri, olay=olay, endpoint=endpoint, durum="basarisiz",
                                       son_durum_kodu=500, olusturulma=_an(2026, 3, 5, 14, 7))
    for numara in (1, 2):
        TeslimatDenemesi.objects.create(teslimat=teslimat, numara=numara, zaman=_an(2026, 3, 5, 14, 7 + numara),
                                        durum_kodu=500, sure_ms=12)
    return {"kategori": kategori, "makale": makale, "kampanya": kampanya, "yanit": yanit, "etiket": etiket,
            "oturum": oturum, "ticket": ticket, "endpoint": endpoint}


def _sayfalar(i) -> dict[str, tuple[list[str], list[str]]]:
    """url → (English words that must be there, their Turkish that must not)."""
    return {
        "/portal/widget": (["Widget settings", "Allowed origins", "Widget key", "API secret", "Signed identity",
                            "Visitor tokens", "Revoke tokens", "Revoke all of this visitor's tokens?", ">Copy<"],
                           ["Widget ayarları", "İzinli adresler", "Kopyala", "Anahtarları iptal et"]),
        "/portal/gorunum": (["Widget appearance", "Live preview", ">Save<"], ["Widget görünümü", "Canlı önizleme"]),
        "/portal/eposta": (["The project's inbound email address",
                            "New ticket emails", "Status:"], ["Projenin gelen e-posta adresi", "Durum:"]),
        "/portal/webhooks": (["Webhooks", "Endpoints", "New webhook", "Add webhook", "Delivery log", "Failed",
                              "2 attempts", "last 500", "Resend", "Mar 5 14:07:00"],
                             ["Webhook ekle", "Teslimat kaydı", "Başarısız", "2 deneme", "5 Mar"]),
        f"/portal/webhooks/{i['endpoint'].pk}": (["Send test event", "Signing secret", "Show secret", "Delete webhook",
                                                 "added March 5, 2026 14:07", "this endpoint", "Mar 5 14:08:00"],
                                                ["Test olayı gönder", "İmza anahtarı", "eklenme", "5 Mart 2026"]),
        "/portal/bilgi-bankasi": (["Knowledge base", "New article", "Articles", "Categories", "Add category",
                                   "Published", "March 5, 2026 14:07"], ["Yeni makale", "Kategori ekle", "5 Mart 2026"]),
        f"/portal/bilgi-bankasi/kategori/{i['kategori'].pk}": (["Delete category", "Its articles are not deleted"],
                                                              ["Kategoriyi sil"]),
        f"/portal/bilgi-bankasi/makale/{i['makale'].pk}": (["Live preview", "1 view ", "updated March 5, 2026 14:07",
                                                          "Delete article", "Delete “İade”?"],
                                                         ["Canlı önizleme", "görüntülenme", "Makaleyi sil"]),
        "/portal/bilgi-bankasi/makale/yeni": (["New article", ">Save<"], ["Yeni makale"]),
        "/portal/kampanyalar": (["Campaigns", "New campaign", "Mar 5, 2026 09:00 – Apr 1, 2026 09:00", "Ended"],
                                ["Kampanyalar", "Yeni kampanya", "Bitti"]),
        f"/portal/kampanyalar/{i['kampanya'].pk}": (["Campaigns", "Delete this campaign?"], ["Kampanya silinsin mi?"]),
        "/portal/hazir-yanitlar": (["Canned responses", "Shortcut", "New canned response"],
                                   ["Hazır yanıtlar", ">Kısayol</th>"]),
        f"/portal/hazir-yanitlar/{i['yanit'].pk}": (["Delete /selam?"], ["silinsin mi?"]),
        "/portal/etiketler": (["Labels", "New label", ">Edit<"], ["Etiketler", "Yeni etiket", "Düzenle"]),
        f"/portal/etiketler/{i['etiket'].pk}": (["The label is removed", "Delete VIP?"], ["Etiket, taşıyan"]),
        "/portal/gecmis": (["History", "Search", "Visitor", "Started", "Mar 5, 2026 14:07"],
                           [">Ziyaretçi</th>", ">Başlangıç</th>", "5 Mar 2026"]),
        "/portal/gecmis?tur=ticket": (["Subject", "Opened", "Mar 5, 2026 14:07"], [">Konu</th>", ">Açılış</th>"]),
        f"/portal/gecmis/sohbet/{i['oturum'].pk}": ([f"Chat #{i['oturum'].pk}", "Internal note", "Operator",
                                                     "March 5, 2026 14:07", "Mar 5 14:08"],
                                                    ["İç not", "5 Mart 2026"]),
        f"/portal/gecmis/ticket/{i['ticket'].pk}": ([f"Ticket #{i['ticket'].pk}", "Visitor", "March 5, 2026 14:07"],
                                                    [f"Talep #{i['ticket'].pk}", "Ziyaretçi"]),
        "/portal/ziyaretci/z9": (["chats and tickets", "Export data (ZIP)", "Delete visitor data", "Delete permanently",
                                  "Mar 5, 2026 14:07"], ["Ziyaretçinin verisini sil", "Kalıcı olarak sil"]),
        "/portal/sla": (["Service levels (SLA)", "Priority", "Urgent", "Low", "First response (min)", "SLA enabled"],
                        ["Öncelik", "Acil", "Düşük", "İlk yanıt (dk)"]),
        "/portal/gizlilik": (["Privacy", "Retention", "Visitor ID", "Audit log", "Filter", "Action", ">All<", "Start",
                              "Time", "What happened"],
                             ["Gizlilik", "Saklama süresi", "Denetim kaydı", "Süz", "Eylem", "Tümü"]),
        "/portal/yonlendirme": (["Routing and hours", "Time zone", "Assignment mode", "Working hours", "Monday",
                                 "Sunday", "Holidays", "Widget language", "Right now", "Next openings", "Always open."],
                                ["Saat dilimi", "Pazartesi", "Pazar", "Widget dili", "Sonraki açılışlar"]),
    }


def test_an_english_member_gets_every_page_in_english(en, icerik):
    for url, (ingilizce, turkce) in _sayfalar(icerik).items():
        html = _html(en, url)
        ana = _ana(html)
        for metin in ingilizce:
            assert metin in html, (url, metin)
        for metin in turkce:
            assert metin not in ana, (url, metin)
        if '<html lang="en">' not in html and '<html lang="tr">' in html:
            continue  # templates/base.html says the page's language once the base template follows it
        assert '<html lang="en">' in html, url


def test_a_turkish_member_gets_the_same_pages_in_turkish(tr, icerik):
    turkce = {
        "/portal/widget": ["Widget ayarları", "İzinli adresler", "Kopyala", "Anahtarları iptal et"],
        "/portal/webhooks": ["Webhook ekle", "Teslimat kaydı", "Başarısız", "2 deneme", "son 500", "5 Mar 14:07:00"],
        f"/portal/webhooks/{icerik['endpoint'].pk}": ["Test olayı gönder", "eklenme 5 Mart 2026 14:07"],
        f"/portal/bilgi-bankasi/makale/{icerik['makale'].pk}": ["1 görüntülenme", "güncellenme 5 Mart 2026 14:07"],
        "/portal/kampanyalar": ["Kampanyalar", "5 Mar 2026 09:00 – 1 Nis 2026 09:00", "Bitti"],
        f"/portal/gecmis/sohbet/{icerik['oturum'].pk}": [f"Sohbet #{icerik['oturum'].pk}", "İç not", "5 Mart 2026 14:07"],
        "/portal/sla": ["Hizmet seviyeleri (SLA)", "Acil", "İlk yanıt (dk)"],
        "/portal/yonlendirme": ["Yönlendirme ve mesai", "Pazartesi", "Widget dili", "Sonraki açılışlar"],
        "/portal/gizlilik": ["Gizlilik", "Saklama süresi", "Ziyaretçi kimliği", "Denetim kaydı", "Süz", "Tümü"],
    }
    for url, metinler in turkce.items():
        html = _ana(_html(tr, url))
        for metin in metinler:
            assert metin in html, (url, metin)
        for metin in ("Save", "Delete", "Search", "Status"):
            assert f">{metin}<" not in html, (url, metin)


def test_the_browsers_language_counts_when_the_member_has_not_chosen_one(musteri, icerik):
    uye = _uye(musteri, "")
    html = uye.get("/portal/etiketler", HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9").content.decode()
    assert "New label" in html and "Yeni etiket" not in html
    assert "Yeni etiket" in uye.get("/portal/etiketler").content.decode()


# --- messages and form errors -------------------------------------------------------------------
def test_flash_messages_follow_the_members_language(en, tr, musteri):
    res = en.post("/portal/etiketler", {"ad": "Acil", "renk": "#DC2626"}, follow=True)
    assert "Saved." in res.content.decode()
    res = tr.post("/portal/etiketler", {"ad": "Yavaş", "renk": "#DC2626"}, follow=True)
    assert "Kaydedildi." in res.content.decode()
    res = en.post("/portal/eposta", {"eposta_bildirimi": "0"}, follow=True)
    html = res.content.decode()
    assert "New ticket emails turned off." in html and ">Turn on<" in html.replace("\n", "").replace("  ", "")


def test_a_webhook_form_error_is_in_english(en):
    res = en.post("/portal/webhooks", {"url": ""})
    assert res.status_code == 200 and "This field is required." in res.content.decode()
    res = en.post("/portal/webhooks", {"url": "ftp://hook.example.com/x"})
    hata = res.context["form"].errors["url"][0]
    assert not TURKCE_HARF.search(hata), hata


def test_a_bad_routing_setting_is_refused_in_english(en, musteri):
    res = en.post("/portal/yonlendirme", {"saat_dilimi": "Europe/Istanbul", "atama_modu": "manuel", "her_zaman_acik": "1",
                                          "bekleme_zaman_asimi_dk": "0", "dil": "tr"})
    html = res.content.decode()
    assert res.status_code == 400 and "Not saved: correct the fields below." in html
    assert "Kaydedilmedi" not in html
    hata = re.search(r'data-hata="bekleme_zaman_asimi_dk">([^<]*)<', html).group(1)
    assert "1" in hata and "1440" in hata and not TURKCE_HARF.search(hata), hata


def test_the_widgets_language_is_set_on_the_routing_page_only_and_checked_by_the_shared_validator(en, musteri):
    assert 'name="dil"' in _html(en, "/portal/yonlendirme")
    assert 'name="dil"' not in _html(en, "/portal/widget")
    gecerli = {"saat_dilimi": "Europe/Istanbul", "atama_modu": "manuel", "her_zaman_acik": "1",
               "bekleme_zaman_asimi_dk": "10", "sessiz_kapatma_dk": "30"}
    res = en.post("/portal/yonlendirme", {**gecerli, "dil": "de"})
    assert res.status_code == 400 and 'data-hata="dil"' in res.content.decode()
    musteri.refresh_from_db()
    assert musteri.dil == "tr"
    res = en.post("/portal/yonlendirme", {**gecerli, "dil": "otomatik"}, follow=True)
    assert "Routing and hours settings saved." in res.content.decode()
    musteri.refresh_from_db()
    assert musteri.dil == "otomatik"


# --- the routing page's preview: weekday and date in the member's language ------------------------
def test_the_openings_preview_is_written_in_the_members_language(en, tr, musteri):
    musteri.calisma_saatleri = {"pzt": [["09:00", "17:00"]], "cum": [["22:00", "24:00"]], "cmt": [["00:00", "02:00"]]}
    musteri.save(update_fields=["calisma_saatleri"])
    acilis = re.compile(r'data-test="acilis">([^<]*)<')
    ingilizce = acilis.findall(_html(en, "/portal/yonlendirme"))
    turkce = acilis.findall(_html(tr, "/portal/yonlendirme"))
    assert len(ingilizce) == len(turkce) == 5
    for metin in ingilizce:
        assert re.fullmatch(r"(Mon|Fri) [A-Z][a-z]{2} \d{1,2}, \d{4} (09:00 – 17:00|22:00 – Sat [A-Z][a-z]{2} \d{1,2} 02:00)",
                            metin), metin
    for metin in turkce:
        assert re.fullmatch(r"(Pzt|Cum) \d\d\.\d\d\.\d{4} (09:00 – 17:00|22:00 – Cmt \d\d\.\d\d 02:00)", metin), metin


# --- reports: durations, numbers, dates; the spreadsheet tables; the machine CSV -----------------
def test_the_report_page_in_english(en, veri):  # noqa: F811
    html = _html(en, "/portal/raporlar?" + "&".join(f"{k}={v}" for k, v in aralik().items()))
    for metin in ("Median first response", "Median resolution time", "Average rating", "4 rated chats", "4 closed",
                  "Rating distribution", "Operators", "SLA targets", "Daily table (Excel)", "CSV (machine)",
                  "25 s", "2 min 30 s", "3.75", "50.0%", "25.0%", "For Excel / LibreOffice: comma-separated, decimal point"):
        assert metin in html, metin
    for metin in ("25 sn", "2 dk 30 sn", "%50,0", "puanlı sohbet", "kapandı", "Puan dağılımı"):
        assert metin not in html, metin
    bas = timezone.localdate() - timedelta(days=6)
    assert f">{bas:%b} {bas.day}</text>" in html
    dun = timezone.localdate() - timedelta(days=1)
    assert f"<title>{dun:%B} {dun.day}, {dun:%Y}: 3</title>" in html


def test_the_report_page_in_turkish_is_unchanged(tr, veri):  # noqa: F811
    html = _html(tr, "/portal/raporlar?" + "&".join(f"{k}={v}" for k, v in aralik().items()))
    for metin in ("Medyan ilk yanıt", "25 sn", "2 dk 30 sn", "3.75", "%50,0", "4 puanlı sohbet", "4 kapandı"):
        assert metin in html, metin


def _tablo(uye, tablo, ayirici):
    res = uye.get("/portal/raporlar", {**aralik(), "bicim": "excel", "tablo": tablo})
    assert res.status_code == 200 and res.content.startswith("\ufeff".encode())
    return list(csv.reader(io.StringIO(res.content.decode("utf-8-sig")), delimiter=ayirici))


def test_the_spreadsheet_tables_in_english_open_in_an_english_spreadsheet(en, veri):  # noqa: F811
    gunluk = _tablo(en, "gunluk", ",")
    assert gunluk[0] == ["Day", "Chats"] and all(len(s) == 2 for s in gunluk)
    dun = timezone.localdate() - timedelta(days=1)
    assert [f"{dun:%m/%d/%Y}", "3"] in gunluk
    ops = _tablo(en, "operator", ",")
    assert ops[0] == ["Operator", "Chats", "Closed", "Average rating", "Average first response (s)"]
    assert ["a@ekip.com", "2", "2", "4.5", "15.0"] in ops
    ozet = dict(_tablo(en, "ozet", ",")[1:])
    assert ozet["Average rating"] == "3.75" and ozet["Chats"] == "5" and ozet["1 star"] == "0" and ozet["4 stars"] == "2"


def test_the_machine_csv_is_the_same_in_every_language(en, tr, veri):  # noqa: F811
    sorgu = {**aralik(), "bicim": "csv"}
    ingilizce, turkce = en.get("/portal/raporlar", sorgu), tr.get("/portal/raporlar", sorgu)
    assert ingilizce.status_code == turkce.status_code == 200
    assert ingilizce.content == turkce.content
    assert ingilizce.content.decode("utf-8-sig").startswith("bolum,anahtar,deger")


# --- the look page: the page in the member's language, the widget's preview in the widget's -------
def _onizleme(t) -> dict:
    html = _html(t, "/portal/gorunum/onizleme")
    [json_metni] = re.findall(r'<script id="sd-onizleme" type="application/json">(.*?)</script>', html, re.S)
    return json.loads(json_metni)


def test_the_look_preview_speaks_the_widgets_language_and_the_page_the_members(en, tr, musteri):
    musteri.karsilama_metni, musteri.firma_adi = "", "Acme"
    musteri.save(update_fields=["karsilama_metni", "firma_adi"])
    assert "Widget appearance" in _html(en, "/portal/gorunum")  # a Turkish widget, an English member
    onizleme = _onizleme(en)
    assert onizleme["dil"] == "tr"
    assert onizleme["durumlar"]["mesai_disi"]["mesai"]["mesaj"] == "Şu an mesai saatlerimiz dışındayız."
    musteri.dil = "en"
    musteri.save(update_fields=["dil"])
    assert "Widget görünümü" in _html(tr, "/portal/gorunum")  # an English widget, a Turkish member
    onizleme = _onizleme(tr)
    assert onizleme["dil"] == "en"
    assert onizleme["durumlar"]["mesai_disi"]["mesai"]["mesaj"] == "We're currently outside our working hours."

"""/portal/webhooks: endpoints, delivery log with attempts, test event; tenant scoping and roles."""
import pytest
from django.utils import timezone

from supportdesk.core.olaylar import OLAYLAR, yayinla
from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import operator_yap
from webhooks.endpointler import webhook_endpoint_olustur
from webhooks.models import Teslimat, WebhookEndpoint
from webhooks.teslimat import teslimatlari_simdi_gonder

from .yardimci import giris_yapmis

pytestmark = pytest.mark.django_db
LISTE = "/portal/webhooks"


@pytest.fixture
def sahip(musteri):
    return giris_yapmis(operator_yap(musteri, rol="sahip"))


def detay(endpoint):
    return f"/portal/webhooks/{endpoint.pk}"


def test_add_endpoint_then_its_page_shows_the_signing_secret(sahip, musteri):
    res = sahip.post(LISTE, {"url": "https://hook.example.com/sd", "olaylar": ["yeni_chat", "yeni_ticket"]})
    endpoint = WebhookEndpoint.objects.get(musteri=musteri)
    assert res.status_code == 302 and res["Location"] == detay(endpoint)
    assert endpoint.url == "https://hook.example.com/sd" and endpoint.olaylar == ["yeni_chat", "yeni_ticket"]
    assert endpoint.aktif
    html = sahip.get(detay(endpoint)).content.decode()
    assert endpoint.gizli_anahtar in html
    assert "https://hook.example.com/sd" in sahip.get(LISTE).content.decode()


def test_no_events_selected_means_all(sahip, musteri):
    sahip.post(LISTE, {"url": "https://hook.example.com/sd"})
    assert WebhookEndpoint.objects.get(musteri=musteri).olaylar == []
    assert "Tüm olaylar" in sahip.get(LISTE).content.decode()


@pytest.mark.parametrize("veri", [
    {"url": ""}, {"url": "ftp://hook.example.com/x"}, {"url": "javascript:alert(1)"}, {"url": "hook.example.com"},
    {"url": "https://hook.example.com/x", "olaylar": ["uydurma"]}, {"url": "https://" + "a" * 600},
])
def test_bad_endpoint_input_is_a_form_error(sahip, musteri, veri):
    res = sahip.post(LISTE, veri)
    assert res.status_code == 200 and res.context["form"].errors
    assert 'class="alan-hata"' in res.content.decode()
    assert not WebhookEndpoint.objects.exists()


def test_private_targets_refused_when_the_setting_is_off(sahip, settings):
    settings.WEBHOOK_ALLOW_PRIVATE_TARGETS = False
    for url in ("http://127.0.0.1/hook", "http://169.254.169.254/latest", "http://localhost:8000/x"):
        res = sahip.post(LISTE, {"url": url})
        assert res.status_code == 200 and res.context["form"].errors["url"], url
    assert not WebhookEndpoint.objects.exists()


def test_edit_disable_enable_rotate_delete(sahip, musteri):
    endpoint = webhook_endpoint_olustur(musteri=musteri, url="https://a.example.com/h")
    eski_gizli = endpoint.gizli_anahtar
    res = sahip.post(detay(endpoint), {"islem": "guncelle", "url": "https://b.example.com/h", "olaylar": ["chat_kapandi"]})
    assert res.status_code == 302
    endpoint.refresh_from_db()
    assert (endpoint.url, endpoint.olaylar) == ("https://b.example.com/h", ["chat_kapandi"])
    res = sahip.post(detay(endpoint), {"islem": "guncelle", "url": "ftp://x"})
    assert res.status_code == 200 and res.context["form"].errors["url"]
    endpoint.refresh_from_db()
    assert endpoint.url == "https://b.example.com/h"
    sahip.post(detay(endpoint), {"islem": "devre_disi"})
    endpoint.refresh_from_db()
    assert endpoint.aktif is False
    sahip.post(detay(endpoint), {"islem": "etkinlestir"})
    endpoint.refresh_from_db()
    assert endpoint.aktif is True
    sahip.post(detay(endpoint), {"islem": "gizli_yenile"})
    endpoint.refresh_from_db()
    assert endpoint.gizli_anahtar != eski_gizli
    assert sahip.post(detay(endpoint), {"islem": "bilinmeyen"}).status_code == 400
    res = sahip.post(detay(endpoint), {"islem": "sil"})
    assert res.status_code == 302 and res["Location"] == LISTE
    assert not WebhookEndpoint.objects.exists()


def test_send_test_event_and_see_each_attempt_in_the_log(sahip, musteri, webhook_alici):
    endpoint = webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres("/hook"))
    webhook_alici.yanitla(500)
    assert sahip.post(detay(endpoint), {"islem": "test"}).status_code == 302
    teslimat = Teslimat.objects.get(endpoint=endpoint)
    teslimatlari_simdi_gonder(musteri=musteri)
    [istek] = webhook_alici.bekle(1)
    assert istek.headers["x-webhook-olay"] == "webhook_test"
    assert istek.headers["x-webhook-imza"].startswith("sha256=")
    html = sahip.get(detay(endpoint)).content.decode()
    assert "HTTP 500" in html and "webhook_test" in html
    teslimatlari_simdi_gonder(musteri=musteri)  # the retry, now answered 200
    webhook_alici.bekle(2)
    html = sahip.get(LISTE).content.decode()
    assert "Teslim edildi" in html and "HTTP 200" in html and "2 deneme" in html
    # "Send again" starts a finished delivery over.
    res = sahip.post(f"/portal/webhooks/teslimat/{teslimat.pk}/yeniden")
    assert res.status_code == 302
    teslimat.refresh_from_db()
    assert teslimat.durum == "bekliyor"


def test_log_shows_domain_events_too(sahip, musteri):
    webhook_endpoint_olustur(musteri=musteri, url="http://127.0.0.1:9/kapali")
    yayinla("yeni_chat", musteri_id=musteri.id, veri={"oturum_id": 1, "musteri_id": musteri.id,
                                                                 "ziyaretci_adi": "Ali", "kanal": "widget", "etiketler": []})
    html = sahip.get(LISTE).content.decode()
    assert "yeni_chat" in html and "Bekliyor" in html


def test_auto_disabled_endpoint_tells_the_owner_why(sahip, musteri):
    endpoint = webhook_endpoint_olustur(musteri=musteri, url="https://a.example.com/h")
    WebhookEndpoint.objects.filter(pk=endpoint.pk).update(
        aktif=False, devre_disi_nedeni="3 gündür her deneme başarısız.", devre_disi_zamani=timezone.now())
    assert "3 gündür her deneme başarısız." in sahip.get(LISTE).content.decode()
    assert "3 gündür her deneme başarısız." in sahip.get(detay(endpoint)).content.decode()


def test_another_projects_endpoints_and_deliveries_are_404_and_left_out(sahip, musteri, diger_musteri):
    yabanci = webhook_endpoint_olustur(musteri=diger_musteri, url="https://yabanci.example.com/h")
    yayinla("yeni_ticket", musteri_id=diger_musteri.id, veri={
        "ticket_id": 1, "musteri_id": diger_musteri.id, "ziyaretci_id": "z-1", "konu": "Yardım", "oncelik": "normal",
        "etiketler": [], "ticket": None})
    teslimat = Teslimat.objects.get(endpoint=yabanci)
    res = sahip.get(LISTE)
    assert "yabanci.example.com" not in res.content.decode()
    assert res.context["endpointler"] == [] and res.context["teslimatlar"] == []
    assert sahip.get(detay(yabanci)).status_code == 404
    assert sahip.get("/portal/webhooks/999999").status_code == 404
    for islem in ("guncelle", "test", "devre_disi", "gizli_yenile", "sil"):
        res = sahip.post(detay(yabanci), {"islem": islem, "url": "https://ele-gecir.example.com"})
        assert res.status_code == 404, islem
    assert sahip.post(f"/portal/webhooks/teslimat/{teslimat.pk}/yeniden").status_code == 404
    yabanci.refresh_from_db()
    assert yabanci.url == "https://yabanci.example.com/h" and yabanci.aktif
    assert Teslimat.objects.filter(endpoint=yabanci).count() == 1


def test_operator_member_sees_the_page_read_only(musteri):
    endpoint = webhook_endpoint_olustur(musteri=musteri, url="https://a.example.com/h")
    t = giris_yapmis(operator_yap(musteri, rol="operator"))
    for url in (LISTE, detay(endpoint)):
        res = t.get(url)
        assert res.status_code == 200
        assert endpoint.gizli_anahtar not in res.content.decode()
        assert 'name="islem"' not in res.content.decode()
    assert t.post(LISTE, {"url": "https://b.example.com/h"}).status_code == 403
    for islem in ("guncelle", "test", "devre_disi", "gizli_yenile", "sil"):
        assert t.post(detay(endpoint), {"islem": islem, "url": "https://c.example.com"}).status_code == 403
    assert WebhookEndpoint.objects.count() == 1 and not Teslimat.objects.exists()
    endpoint.refresh_from_db()
    assert endpoint.url == "https://a.example.com/h" and endpoint.aktif


def test_log_pages_with_a_cursor(sahip, musteri):
    endpoint = webhook_endpoint_olustur(musteri=musteri, url="http://127.0.0.1:9/kapali")
    for i in range(55):
        yayinla("yeni_chat", musteri_id=musteri.id, veri={"oturum_id": i, "musteri_id": musteri.id, "ziyaretci_adi": "",
                                                          "kanal": "widget", "etiketler": []})
    res = sahip.get(LISTE)
    assert len(res.context["teslimatlar"]) == 50 and res.context["sonraki"]
    res = sahip.get(LISTE, {"cursor": res.context["sonraki"]})
    assert len(res.context["teslimatlar"]) == 5 and res.context["sonraki"] is None
    assert len(sahip.get(LISTE, {"cursor": "bozuk!"}).context["teslimatlar"]) == 50
    assert sahip.get(detay(endpoint)).status_code == 200


@pytest.mark.parametrize("sayi", [0, 1, 12])
def test_webhooks_page_query_count_is_flat(sahip, musteri, sayi, django_assert_max_num_queries, webhook_alici):
    for i in range(sayi):
        webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres(f"/h{i}"))
    if sayi:
        yayinla("yeni_chat", musteri_id=musteri.id, veri={"oturum_id": 1, "musteri_id": musteri.id, "ziyaretci_adi": "",
                                                          "kanal": "widget", "etiketler": []})
        teslimatlari_simdi_gonder(musteri=musteri)
    MusteriFactory()
    sahip.get(LISTE)
    with django_assert_max_num_queries(7):
        res = sahip.get(LISTE)
    assert res.status_code == 200 and len(res.context["teslimatlar"]) == sayi


def test_switching_project_from_an_endpoint_page_lands_on_the_webhooks_list(musteri, diger_musteri):
    endpoint = webhook_endpoint_olustur(musteri=musteri, url="https://a.example.com/h")
    t = giris_yapmis(operator_yap(musteri, diger_musteri, rol="sahip"))
    t.post(f"/portal/projeler/sec/{musteri.id}")
    html = t.get(detay(endpoint)).content.decode()
    assert 'name="next" value="/portal/webhooks"' in html
    assert "no-store" in t.get(detay(endpoint))["Cache-Control"]


def test_every_event_in_the_form_has_a_name_in_both_languages(sahip):
    # A new webhook event must not show only its raw name in the form (it did for the chat SLA ones).
    tr = sahip.get(LISTE).content.decode()
    en = sahip.get(LISTE, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Sohbet SLA ihlali (chat_sla_ihlal)" in tr and "Chat SLA breach (chat_sla_ihlal)" in en
    for olay in OLAYLAR:
        assert f"({olay})" in tr
        assert f">{olay} ({olay})" not in tr, olay

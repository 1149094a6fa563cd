"""Endpoint services, URL targets, selectors, the webhook_ekle command and the admin."""
import ipaddress
import json
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from supportdesk.core.exceptions import Bulunamadi, GecersizIstek
from supportdesk.core.olaylar import yayinla
from supportdesk.testing.factories import KullaniciFactory
from webhooks.endpointler import (
    teslimat_yeniden_gonder,
    webhook_endpoint_guncelle,
    webhook_endpoint_olustur,
    webhook_endpoint_sil,
)
from webhooks.hedef import webhook_url_dogrula
from webhooks.kuyruk import vadesi_gelenleri_kuyruga_al
from webhooks.models import Olay, Teslimat, WebhookEndpoint
from webhooks.selectors import teslimat_get, teslimat_list, webhook_endpoint_get, webhook_endpoint_list
from webhooks.teslimat import teslimat_dene, teslimatlari_simdi_gonder

pytestmark = pytest.mark.django_db


@pytest.fixture
def ozel_hedef_kapali(settings):
    settings.WEBHOOK_ALLOW_PRIVATE_TARGETS = False


@pytest.mark.parametrize("url", [
    "ftp://ornek.com/hook", "http://127.0.0.1/hook", "http://169.254.169.254/latest/meta-data", "http://localhost:8000/x",
    "http://10.0.0.5/x", "http://192.168.1.1/x", "http://[::1]/x", "http://[::ffff:127.0.0.1]/x", "http://0.0.0.0/x",
    "http://2130706433/x", "javascript:alert(1)", "https://", "", "   ", None, 5, "http://ornek.com:99999/x",
    "https://ornek.com/" + "a" * 600,
])
def test_izinsiz_hedefler_reddedilir(ozel_hedef_kapali, musteri, url):
    with pytest.raises(GecersizIstek) as exc:
        webhook_endpoint_olustur(musteri=musteri, url=url)
    assert set(exc.value.alanlar) == {"url"} and exc.value.alanlar["url"]
    assert not WebhookEndpoint.objects.exists()


def test_genel_adres_ve_ip_kabul_edilir(ozel_hedef_kapali):
    assert webhook_url_dogrula(" https://93.184.215.14/hook ") == "https://93.184.215.14/hook"
    assert webhook_url_dogrula("http://8.8.8.8:8080/a?b=c") == "http://8.8.8.8:8080/a?b=c"


def test_gelistirmede_yerel_hedef_serbest(settings, musteri):
    settings.WEBHOOK_ALLOW_PRIVATE_TARGETS = True
    ep = webhook_endpoint_olustur(musteri=musteri, url="http://127.0.0.1:9/hook")
    assert ep.url == "http://127.0.0.1:9/hook"
    with pytest.raises(GecersizIstek):
        webhook_endpoint_olustur(musteri=musteri, url="ftp://127.0.0.1/hook")


def test_teslimat_aninda_da_hedef_kontrol_edilir(settings, musteri, webhook_alici):
    webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres())
    settings.WEBHOOK_ALLOW_PRIVATE_TARGETS = False
    yayinla("yeni_chat", musteri_id=musteri.id, veri={})
    teslimatlari_simdi_gonder()
    deneme = Teslimat.objects.get().denemeler.get()
    assert not deneme.basarili and deneme.durum_kodu is None and deneme.hata.startswith("Hedef izinsiz")
    assert webhook_alici.sessiz_mi(0.2, mevcut=0)


def test_baglanti_aninda_ozel_adres_reddedilir(settings, musteri, webhook_alici, monkeypatch):
    # A name that resolved to a public address when checked but connects to a private one
    # (DNS rebinding) is refused at the socket, before a byte of the event is sent.
    from webhooks import hedef

    webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres())
    settings.WEBHOOK_ALLOW_PRIVATE_TARGETS = False
    monkeypatch.setattr(hedef, "_host_adresleri", lambda host, port: [ipaddress.ip_address("93.184.215.14")])
    yayinla("yeni_chat", musteri_id=musteri.id, veri={})
    teslimatlari_simdi_gonder()
    deneme = Teslimat.objects.get().denemeler.get()
    assert not deneme.basarili and deneme.durum_kodu is None and deneme.hata.startswith("Hedef izinsiz"), deneme.hata
    assert webhook_alici.sessiz_mi(0.2, mevcut=0)


def test_denetli_baglanti_genel_adrese_teslim_eder(settings, musteri, webhook_alici, monkeypatch):
    # The same socket check lets an allowed address through (loopback stands in for a public one).
    from webhooks import hedef

    webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres())
    settings.WEBHOOK_ALLOW_PRIVATE_TARGETS = False
    monkeypatch.setattr(hedef, "_adres_izinsiz", lambda ip: False)
    yayinla("yeni_chat", musteri_id=musteri.id, veri={})
    assert teslimatlari_simdi_gonder() == 1
    assert len(webhook_alici.bekle(1)) == 1
    assert Teslimat.objects.get().durum == "teslim_edildi"


def test_yonlendirme_izlenmez(musteri, webhook_alici):
    webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres("/ilk"))
    webhook_alici.yanitla(302)
    yayinla("yeni_chat", musteri_id=musteri.id, veri={})
    teslimatlari_simdi_gonder()
    assert [i.path for i in webhook_alici.bekle(1)] == ["/ilk"]
    t = Teslimat.objects.get()
    assert t.durum == "bekliyor" and t.son_durum_kodu == 302


def test_olustur_varsayilanlar_ve_dogrulama(musteri):
    ep = webhook_endpoint_olustur(musteri=musteri, url="https://ornek.com/hook")
    assert ep.aktif and ep.olaylar == [] and ep.gizli_anahtar.startswith("whsec_") and len(ep.gizli_anahtar) > 40
    ep2 = webhook_endpoint_olustur(musteri=musteri, url="https://ornek.com/h2", olaylar=["yeni_chat", "yeni_chat"],
                                   gizli_anahtar="benim-gizli-anahtarim-123")
    assert ep2.olaylar == ["yeni_chat"] and ep2.gizli_anahtar == "benim-gizli-anahtarim-123"
    for kwargs, alan in [({"olaylar": ["bilinmeyen"]}, "olaylar"), ({"olaylar": "yeni_chat"}, "olaylar"),
                         ({"olaylar": ["webhook_test"]}, "olaylar"), ({"gizli_anahtar": "kisa"}, "gizli_anahtar"),
                         ({"gizli_anahtar": "bosluk iceren anahtar 123"}, "gizli_anahtar")]:
        with pytest.raises(GecersizIstek) as exc:
            webhook_endpoint_olustur(musteri=musteri, url="https://ornek.com/x", **kwargs)
        assert alan in exc.value.alanlar
    assert WebhookEndpoint.objects.count() == 2


def test_guncelle_ve_sil(musteri):
    ep = webhook_endpoint_olustur(musteri=musteri, url="https://ornek.com/hook")
    eski = ep.gizli_anahtar
    webhook_endpoint_guncelle(endpoint=ep, url="https://ornek.com/yeni", olaylar=["chat_kapandi"], gizli_anahtar=None)
    ep.refresh_from_db()
    assert (ep.url, ep.olaylar) == ("https://ornek.com/yeni", ["chat_kapandi"]) and ep.gizli_anahtar != eski
    with pytest.raises(GecersizIstek):
        webhook_endpoint_guncelle(endpoint=ep, url="ftp://x")
    with pytest.raises(GecersizIstek):
        webhook_endpoint_guncelle(endpoint=ep, aktif="evet")
    with pytest.raises(TypeError):
        webhook_endpoint_guncelle(endpoint=ep, musteri_id=99)
    ep.refresh_from_db()
    assert ep.url == "https://ornek.com/yeni"
    webhook_endpoint_sil(endpoint=ep)
    assert not WebhookEndpoint.objects.exists()


def test_uc_gun_boyunca_hata_veren_uc_nokta_kapanir_ve_yeniden_acilir(musteri, webhook_alici):
    ep = webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres())
    webhook_alici.varsayilan_durum = 500
    yayinla("yeni_chat", musteri_id=musteri.id, veri={})
    teslimatlari_simdi_gonder()
    ep.refresh_from_db()
    assert ep.aktif and ep.hata_baslangici is not None
    WebhookEndpoint.objects.filter(pk=ep.pk).update(hata_baslangici=timezone.now() - timedelta(days=3, minutes=1))
    teslimatlari_simdi_gonder()
    ep.refresh_from_db()
    assert not ep.aktif and ep.devre_disi_zamani and ep.devre_disi_nedeni
    # Pending work for a disabled endpoint is dropped, new events are not even queued for it.
    teslimatlari_simdi_gonder()
    t = Teslimat.objects.get()
    assert t.durum == "basarisiz" and t.deneme_sayisi == 2
    yayinla("yeni_chat", musteri_id=musteri.id, veri={})
    assert Teslimat.objects.count() == 1

    webhook_endpoint_guncelle(endpoint=ep, aktif=True)
    ep.refresh_from_db()
    assert ep.aktif and ep.hata_baslangici is None and ep.devre_disi_nedeni == ""


def test_basari_hata_serisini_sifirlar(musteri, webhook_alici):
    ep = webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres())
    webhook_alici.yanitla(500)
    yayinla("yeni_chat", musteri_id=musteri.id, veri={})
    teslimatlari_simdi_gonder()
    ep.refresh_from_db()
    assert ep.hata_baslangici is not None
    teslimatlari_simdi_gonder()
    ep.refresh_from_db()
    assert ep.hata_baslangici is None and ep.aktif


def test_talep_edilmis_ya_da_bitmis_teslimat_tekrar_gonderilmez(musteri, webhook_alici):
    webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres())
    yayinla("yeni_chat", musteri_id=musteri.id, veri={})
    t = Teslimat.objects.get()
    Teslimat.objects.filter(pk=t.pk).update(kilit_bitis=timezone.now() + timedelta(seconds=30))
    assert teslimat_dene(teslimat_id=t.pk) is None  # another worker holds the lease
    Teslimat.objects.filter(pk=t.pk).update(kilit_bitis=timezone.now() - timedelta(seconds=1))
    assert teslimat_dene(teslimat_id=t.pk) is not None  # an expired lease (killed worker) is taken over
    assert teslimat_dene(teslimat_id=t.pk) is None  # finished: a re-run does nothing
    assert teslimat_dene(teslimat_id=987654) is None  # gone: stops quietly
    assert len(webhook_alici.bekle(1)) == 1 and webhook_alici.sessiz_mi(0.2)

    teslimat_yeniden_gonder(teslimat=t)
    teslimatlari_simdi_gonder()
    t.refresh_from_db()
    assert t.durum == "teslim_edildi" and len(webhook_alici.istekler) == 2
    assert {i.headers["x-webhook-id"] for i in webhook_alici.istekler} == {str(t.olay_id)}


def test_supurme_yalnizca_vadesi_gecmis_ve_bos_olanlari_kuyruga_alir(musteri, settings,
                                                                   monkeypatch):
    from webhooks import tasks

    kuyruk = []
    monkeypatch.setattr(tasks.teslimat_gonder, "apply_async", lambda args, countdown=None: kuyruk.append(args[0]))
    settings.WEBHOOK_SWEEP_GRACE_SECONDS = 60
    webhook_endpoint_olustur(musteri=musteri, url="https://ornek.com/hook")
    yayinla("yeni_chat", musteri_id=musteri.id, veri={})
    t = Teslimat.objects.get()
    assert vadesi_gelenleri_kuyruga_al() == 0  # fresh: its own on-commit message handles it
    Teslimat.objects.filter(pk=t.pk).update(sonraki_deneme=timezone.now() - timedelta(minutes=2))
    assert vadesi_gelenleri_kuyruga_al() == 1 and kuyruk == [t.pk]
    assert vadesi_gelenleri_kuyruga_al() == 0  # queued just now: not again within the grace period
    Teslimat.objects.filter(pk=t.pk).update(kuyruga_alinma=timezone.now() - timedelta(minutes=2),
                                            kilit_bitis=timezone.now() + timedelta(seconds=30))
    assert vadesi_gelenleri_kuyruga_al() == 0  # being attempted right now


def test_broker_yokken_kuyruga_alma_hata_firlatmaz(musteri, monkeypatch, django_capture_on_commit_callbacks):
    from kombu.exceptions import OperationalError

    from webhooks import tasks

    def broker_yok(*a, **k):
        raise OperationalError("Connection refused")

    monkeypatch.setattr(tasks.teslimat_gonder, "apply_async", broker_yok)
    webhook_endpoint_olustur(musteri=musteri, url="https://ornek.com/hook")
    with django_capture_on_commit_callbacks(execute=True):
        yayinla("yeni_chat", musteri_id=musteri.id, veri={})
    Teslimat.objects.update(sonraki_deneme=timezone.now() - timedelta(hours=1))
    assert vadesi_gelenleri_kuyruga_al() == 0
    assert Teslimat.objects.get().kuyruga_alinma is None  # stays due for the next sweep


def test_bilinmeyen_olay_programlama_hatasi(musteri):
    with pytest.raises(ValueError):
        yayinla("webhook_test", musteri_id=musteri.id, veri={})
    assert not Olay.objects.exists()


# --- selectors ------------------------------------------------------------------------------
def test_secicilerde_kiraci_kapsami(musteri, diger_musteri):
    ep = webhook_endpoint_olustur(musteri=musteri, url="https://ornek.com/a")
    yabanci = webhook_endpoint_olustur(musteri=diger_musteri, url="https://ornek.com/b")
    yayinla("yeni_chat", musteri_id=diger_musteri.id, veri={})
    assert list(webhook_endpoint_list(musteri=musteri)) == [ep]
    assert webhook_endpoint_get(musteri=musteri, endpoint_id=ep.pk) == ep
    for bad in (yabanci.pk, 999999, "abc", None):
        with pytest.raises(Bulunamadi):
            webhook_endpoint_get(musteri=musteri, endpoint_id=bad)
    assert list(teslimat_list(musteri=musteri)) == []
    yabanci_teslimat = teslimat_list(musteri=diger_musteri).get()
    with pytest.raises(Bulunamadi):
        teslimat_get(musteri=musteri, teslimat_id=yabanci_teslimat.pk)
    assert teslimat_get(musteri=diger_musteri, teslimat_id=yabanci_teslimat.pk) == yabanci_teslimat


@pytest.mark.parametrize("adet", [0, 1, 15])
def test_teslimat_listesi_sorgu_sayisi_sabit(musteri, webhook_alici, django_assert_max_num_queries, adet):
    ep = webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres())
    webhook_alici.yanitla(*([500] * adet))
    for _ in range(adet):
        yayinla("yeni_chat", musteri_id=musteri.id, veri={})
    teslimatlari_simdi_gonder()
    teslimatlari_simdi_gonder()
    with django_assert_max_num_queries(2):
        satirlar = [(t.olay.olay, t.endpoint.url, [d.durum_kodu for d in t.denemeler.all()])
                    for t in teslimat_list(musteri=musteri, endpoint=ep)]
    assert len(satirlar) == adet
    assert all(kodlar == [500, 200] for _, _, kodlar in satirlar)


# --- command --------------------------------------------------------------------------------
def cmd_json(*args) -> dict:
    out = StringIO()
    call_command(*args, "--json", stdout=out)
    return json.loads(out.getvalue())


def test_webhook_ekle_komutu(musteri):
    data = cmd_json("webhook_ekle", "--musteri", str(musteri.id), "--url", "https://ornek.com/hook",
                    "--olay", "yeni_chat", "--olay", "chat_kapandi")
    assert set(data) == {"id", "url", "gizli_anahtar"}
    ep = WebhookEndpoint.objects.get(pk=data["id"])
    assert ep.musteri == musteri and ep.olaylar == ["yeni_chat", "chat_kapandi"] and ep.gizli_anahtar == data["gizli_anahtar"]
    # Idempotent: the same tenant and URL again updates the same endpoint.
    again = cmd_json("webhook_ekle", "--musteri", str(musteri.id), "--url", "https://ornek.com/hook",
                     "--gizli-anahtar", "sabit-anahtar-1234567890")
    assert again["id"] == data["id"] and again["gizli_anahtar"] == "sabit-anahtar-1234567890"
    assert WebhookEndpoint.objects.get().olaylar == []


@pytest.mark.parametrize("args", [
    ["--musteri", "999999", "--url", "https://ornek.com/x"],
    ["--url", "https://ornek.com/x"],
    ["--musteri", "MUSTERI", "--url", "ftp://ornek.com/x"],
    ["--musteri", "MUSTERI", "--url", "https://ornek.com/x", "--olay", "yok_boyle"],
    ["--musteri", "MUSTERI", "--url", "https://ornek.com/x", "--gizli-anahtar", "kisa"],
])
def test_webhook_ekle_hatali_argumanlar(musteri, args):
    args = [str(musteri.id) if a == "MUSTERI" else a for a in args]
    with pytest.raises(CommandError):
        call_command("webhook_ekle", *args)
    assert not WebhookEndpoint.objects.exists()


@pytest.mark.parametrize("args", [
    ["--musteri", "abc", "--url", "https://ornek.com/x"],
    ["--url", "https://ornek.com/x"],
    ["--musteri", "1"],
    ["--musteri", "1", "--url", "https://ornek.com/x", "--bilinmeyen"],
])
def test_webhook_ekle_arguman_hatasi_stderrde_tek_satir(capsys, args):
    from webhooks.management.commands.webhook_ekle import Command

    with pytest.raises(SystemExit) as exc:
        Command().run_from_argv(["manage.py", "webhook_ekle", *args, "--json"])
    assert exc.value.code != 0
    out, err = capsys.readouterr()
    assert out == ""
    assert len(err.strip().splitlines()) == 1, err
    assert not WebhookEndpoint.objects.exists()


# --- admin ----------------------------------------------------------------------------------
@pytest.fixture
def admin_client(client):
    user = KullaniciFactory(is_staff=True, is_superuser=True)
    client.force_login(user)
    return client


def test_admin_listeleri_ve_yeniden_gonder(admin_client, musteri, webhook_alici):
    ep = webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres())
    webhook_alici.varsayilan_durum = 500
    yayinla("yeni_chat", musteri_id=musteri.id, veri={})
    Teslimat.objects.update(durum="basarisiz")
    for url in ["/admin/webhooks/webhookendpoint/", f"/admin/webhooks/webhookendpoint/{ep.pk}/change/",
                "/admin/webhooks/teslimat/?durum__exact=basarisiz&olay__olay__exact=yeni_chat",
                f"/admin/webhooks/teslimat/?musteri__id__exact={musteri.id}", "/admin/webhooks/olay/"]:
        assert admin_client.get(url).status_code == 200, url
    t = Teslimat.objects.get()
    res = admin_client.post("/admin/webhooks/teslimat/", {"action": "yeniden_gonder", "_selected_action": [t.pk]})
    assert res.status_code == 302
    t.refresh_from_db()
    assert t.durum == "bekliyor" and t.deneme_sayisi == 0


def test_admin_formu_url_dogrular(admin_client, musteri, ozel_hedef_kapali):
    res = admin_client.post("/admin/webhooks/webhookendpoint/add/", {
        "musteri": musteri.pk, "url": "http://169.254.169.254/", "gizli_anahtar": "yeterince-uzun-anahtar-1", "aktif": "on",
    })
    assert res.status_code == 200 and "url" in res.context["adminform"].form.errors
    res = admin_client.post("/admin/webhooks/webhookendpoint/add/", {
        "musteri": musteri.pk, "url": "https://ornek.com/h", "gizli_anahtar": "yeterince-uzun-anahtar-1",
        "aktif": "on", "olaylar": ["yeni_ticket"],
    })
    assert res.status_code == 302, res.content[:2000]
    ep = WebhookEndpoint.objects.get()
    assert ep.olaylar == ["yeni_ticket"] and ep.musteri == musteri


def test_gonderim_sirasinda_silinen_uc_nokta_sessizce_biter(musteri, webhook_alici, monkeypatch):
    from webhooks import teslimat as teslimat_modulu

    ep = webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres())
    yayinla("yeni_chat", musteri_id=musteri.id, veri={})
    t = Teslimat.objects.get()
    gercek = teslimat_modulu._http_gonder

    def gonder_ve_sil(endpoint, olay):
        sonuc = gercek(endpoint, olay)
        webhook_endpoint_sil(endpoint=ep)
        return sonuc

    monkeypatch.setattr(teslimat_modulu, "_http_gonder", gonder_ve_sil)
    assert teslimat_dene(teslimat_id=t.pk) is None
    assert not Teslimat.objects.exists()


def test_eski_bitmis_olaylar_temizlenir_bekleyenler_kalir(musteri, webhook_alici):
    from webhooks.teslimat import eski_olaylari_temizle

    webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres())
    teslim = yayinla("yeni_chat", musteri_id=musteri.id, veri={})
    teslimatlari_simdi_gonder()
    bekleyen = yayinla("yeni_chat", musteri_id=musteri.id, veri={})
    abonesiz = Olay.objects.create(musteri=musteri, olay="yeni_ticket", veri={})
    yeni = yayinla("chat_kapandi", musteri_id=musteri.id, veri={})
    Olay.objects.exclude(pk=yeni.id).update(zaman=timezone.now() - timedelta(days=31))
    eski_olaylari_temizle()
    assert set(Olay.objects.values_list("pk", flat=True)) == {bekleyen.id, yeni.id}
    assert not Teslimat.objects.filter(olay_id__in=[teslim.id, abonesiz.pk]).exists()

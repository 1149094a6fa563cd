"""Delivery in-process (no worker): signing, headers, retries, attempt log, disabling."""
import hashlib
import hmac
import json
from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from supportdesk.core.olaylar import yayinla
from supportdesk.testing.factories import MusteriFactory
from webhooks.endpointler import webhook_endpoint_olustur, webhook_test_olayi_gonder
from webhooks.models import Teslimat, WebhookEndpoint
from webhooks.teslimat import teslimat_dene, teslimatlari_simdi_gonder

pytestmark = pytest.mark.django_db


def dogrula(istek, gizli_anahtar: str) -> dict:
    """The receiver's side, with nothing but the secret and the recipe of docs/webhooks.md."""
    zaman = istek.headers["x-webhook-zaman"]
    beklenen = hmac.new(gizli_anahtar.encode(), f"{zaman}.".encode() + istek.govde, hashlib.sha256).hexdigest()
    assert hmac.compare_digest(istek.headers["x-webhook-imza"], f"sha256={beklenen}")
    return json.loads(istek.govde)


def test_olay_imzali_ve_basliklariyla_ulasir(webhook_alici, musteri):
    ep = webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres("/hook"))
    olay = yayinla("yeni_chat", musteri_id=musteri.id,
                   veri={"oturum_id": 7, "musteri_id": musteri.id, "ziyaretci_adi": "Ayşe", "kanal": "widget"})
    assert teslimatlari_simdi_gonder() == 1
    [istek] = webhook_alici.bekle(1)
    assert istek.method == "POST" and istek.path == "/hook"
    govde = dogrula(istek, ep.gizli_anahtar)
    assert govde["olay"] == "yeni_chat"
    assert govde["veri"] == {"oturum_id": 7, "musteri_id": musteri.id, "ziyaretci_adi": "Ayşe", "kanal": "widget"}
    assert govde["zaman"].endswith("+00:00")
    assert istek.headers["x-webhook-id"] == str(olay.id)
    assert istek.headers["x-webhook-olay"] == "yeni_chat"
    assert istek.headers["content-type"].startswith("application/json")
    t = Teslimat.objects.get()
    assert t.durum == "teslim_edildi" and t.deneme_sayisi == 1 and t.son_durum_kodu == 200
    [deneme] = t.denemeler.all()
    assert deneme.basarili and deneme.durum_kodu == 200 and deneme.sure_ms >= 0


def test_geri_alinan_islem_olay_uretmez(webhook_alici, musteri):
    webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres())
    with pytest.raises(RuntimeError), transaction.atomic():
        yayinla("yeni_ticket", musteri_id=musteri.id, veri={})
        raise RuntimeError
    assert not Teslimat.objects.exists()
    assert teslimatlari_simdi_gonder() == 0


def test_abonelik_aktiflik_ve_kiraci_filtreleri(webhook_alici, musteri):
    diger = MusteriFactory()
    webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres("/ticket"), olaylar=["yeni_ticket"])
    pasif = webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres("/pasif"))
    WebhookEndpoint.objects.filter(pk=pasif.pk).update(aktif=False)
    webhook_endpoint_olustur(musteri=diger, url=webhook_alici.adres("/diger"))
    yayinla("yeni_chat", musteri_id=musteri.id, veri={})
    assert teslimatlari_simdi_gonder() == 0
    yayinla("yeni_ticket", musteri_id=musteri.id, veri={"ticket_id": 1})
    assert teslimatlari_simdi_gonder() == 1
    assert [i.path for i in webhook_alici.bekle(1)] == ["/ticket"]
    assert webhook_alici.sessiz_mi(0.2)


def test_500_sonra_200_ayni_olay_kimligi(webhook_alici, musteri):
    webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres())
    webhook_alici.yanitla(500, 500)
    olay = yayinla("chat_kapandi", musteri_id=musteri.id, veri={})
    for _ in range(3):
        teslimatlari_simdi_gonder()
    istekler = webhook_alici.bekle(3)
    assert {i.headers["x-webhook-id"] for i in istekler} == {str(olay.id)}
    t = Teslimat.objects.get()
    assert t.durum == "teslim_edildi" and t.deneme_sayisi == 3
    assert [(d.numara, d.durum_kodu, d.basarili) for d in t.denemeler.all()] == [
        (1, 500, False), (2, 500, False), (3, 200, True)]
    assert t.denemeler.first().hata == "HTTP 500"


def test_basarili_deneme_dort_sorgu(webhook_alici, musteri, django_assert_num_queries):
    # Claim, read (with event and endpoint), log the attempt, finish: nothing for a healthy endpoint.
    webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres())
    yayinla("chat_kapandi", musteri_id=musteri.id, veri={})
    t = Teslimat.objects.get()
    with django_assert_num_queries(6):  # the 4, and SAVEPOINT/RELEASE (the test runs in a transaction)
        assert teslimat_dene(teslimat_id=t.pk).durum == "teslim_edildi"


def test_hic_2xx_donmeyen_alici_8_denemede_basarisiz(webhook_alici, musteri):
    webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres())
    webhook_alici.varsayilan_durum = 503
    yayinla("chat_kapandi", musteri_id=musteri.id, veri={})
    t = Teslimat.objects.get()
    assert teslimat_dene(teslimat_id=t.pk) is not None
    t.refresh_from_db()
    # The first retry waits the backoff: a new attempt now does nothing.
    assert t.sonraki_deneme > timezone.now() + timedelta(seconds=30)
    assert teslimat_dene(teslimat_id=t.pk) is None
    for _ in range(10):
        teslimatlari_simdi_gonder()
    t.refresh_from_db()
    assert t.durum == "basarisiz" and t.deneme_sayisi == 8 and t.denemeler.count() == 8
    assert len(webhook_alici.istekler) == 8


def test_test_olayi_yalnizca_o_uc_noktaya(webhook_alici, musteri):
    ep = webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres("/a"), olaylar=["yeni_chat"])
    webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres("/b"))
    teslimat = webhook_test_olayi_gonder(endpoint=ep)
    assert teslimat.endpoint_id == ep.pk
    teslimatlari_simdi_gonder()
    [istek] = webhook_alici.bekle(1)
    assert istek.path == "/a" and dogrula(istek, ep.gizli_anahtar)["olay"] == "webhook_test"


def test_kilitli_veritabani_denemenin_kaydini_kaybettirmez(webhook_alici, musteri, monkeypatch):
    # The receiver got the event; a momentarily locked database while logging it must not leave
    # the delivery leased and sent a second time later.
    from django.db import OperationalError

    from webhooks import teslimat as teslimat_modulu

    webhook_endpoint_olustur(musteri=musteri, url=webhook_alici.adres())
    yayinla("yeni_chat", musteri_id=musteri.id, veri={})
    gercek, cagri = teslimat_modulu._sonucu_kaydet, []

    def ilk_seferde_kilitli(teslimat, sonuc):
        cagri.append(1)
        if len(cagri) == 1:
            teslimat.deneme_sayisi += 1  # as the real one does before its save fails
            raise OperationalError("database table is locked: webhooks_teslimat")
        return gercek(teslimat, sonuc)

    monkeypatch.setattr(teslimat_modulu, "_sonucu_kaydet", ilk_seferde_kilitli)
    t = Teslimat.objects.get()
    assert teslimat_dene(teslimat_id=t.pk) is not None
    t.refresh_from_db()
    assert t.durum == "teslim_edildi" and t.deneme_sayisi == 1 and t.kilit_bitis is None
    assert [d.numara for d in t.denemeler.all()] == [1]
    assert len(webhook_alici.bekle(1)) == 1 and webhook_alici.sessiz_mi(0.2)

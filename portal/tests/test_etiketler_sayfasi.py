"""/portal/etiketler (CONTRACT 16, 21): owners and `yonetici` create, rename, recolour and delete the
project's labels; `operator` members read only (403 on writes); other projects' labels 404; bad
input is a form error and changes nothing; what is saved is what operators get."""
import pytest

from supportdesk.testing.fixtures import operator_yap
from tenants.models import Etiket

from .yardimci import giris_yapmis

pytestmark = pytest.mark.django_db
URL = "/portal/etiketler"


@pytest.fixture
def sahip(musteri):
    return giris_yapmis(operator_yap(musteri, rol="sahip"))


def test_olustur_yeniden_adlandir_renklendir_sil(sahip, musteri, operator_client):
    sayfa = sahip.get(URL)
    assert sayfa.status_code == 200 and 'href="/portal/etiketler"' in sayfa.content.decode()  # the nav link
    assert sahip.post(URL, {"ad": "İade", "renk": "#ff0000"}).status_code == 302
    etiket = Etiket.objects.get(musteri=musteri)
    assert (etiket.ad, etiket.renk) == ("İade", "#FF0000")
    res = operator_client.get(f"/api/v1/operator/tenants/{musteri.id}/etiketler")
    assert [e["ad"] for e in res.json()["data"]["etiketler"]] == ["İade"]
    assert "İade" in sahip.get(URL).content.decode()
    assert sahip.post(f"{URL}/{etiket.id}", {"ad": "Geri ödeme", "renk": "#00ff00"}).status_code == 302
    etiket.refresh_from_db()
    assert (etiket.ad, etiket.renk) == ("Geri ödeme", "#00FF00")
    assert sahip.post(f"{URL}/{etiket.id}", {"islem": "sil"}).status_code == 302
    assert not Etiket.objects.exists()


@pytest.mark.parametrize("veri,alan", [({"ad": ""}, "ad"), ({"ad": "x" * 41}, "ad"), ({"ad": "iade"}, "ad"),
                                       ({"ad": "IADE"}, "ad"), ({"ad": "Yeni", "renk": "kırmızı"}, "renk")])
def test_gecersiz_girdi_form_hatasi(sahip, musteri, veri, alan):
    Etiket.objects.create(musteri=musteri, ad="İade", anahtar="iade")
    res = sahip.post(URL, veri)
    assert res.status_code == 200 and res.context["form"].errors[alan], res.context["form"].errors
    assert Etiket.objects.count() == 1


def test_operator_yazamaz_baska_projenin_etiketi_404(musteri, diger_musteri, sahip):
    kendi = Etiket.objects.create(musteri=musteri, ad="Bizim", anahtar="bizim")
    yabanci = Etiket.objects.create(musteri=diger_musteri, ad="Yabancı", anahtar="yabanci")
    op = giris_yapmis(operator_yap(musteri))
    assert op.get(URL).status_code == 200 and "Bizim" in op.get(URL).content.decode()
    assert op.post(URL, {"ad": "Y"}).status_code == 403
    assert op.post(f"{URL}/{kendi.id}", {"islem": "sil"}).status_code == 403
    assert op.post(f"{URL}/{kendi.id}", {"ad": "Z"}).status_code == 403
    url = f"{URL}/{yabanci.id}"
    assert sahip.get(url).status_code == 404 and sahip.post(url, {"islem": "sil"}).status_code == 404
    assert "Yabancı" not in sahip.get(URL).content.decode()
    assert set(Etiket.objects.values_list("ad", flat=True)) == {"Bizim", "Yabancı"}


def test_gecmiste_ic_notlar_isaretli(sahip, musteri):
    from chat.models import Mesaj, Oturum
    from tickets.models import Ticket, TicketYanit

    oturum = Oturum.objects.create(musteri=musteri, ziyaretci_id="z", durum="kapandi")
    Mesaj.objects.create(musteri=musteri, oturum=oturum, gonderen="operator", icerik="not metni", ozel=True)
    ticket = Ticket.objects.create(musteri=musteri, ziyaretci_id="z", konu="k")
    TicketYanit.objects.create(ticket=ticket, gonderen="operator", icerik="talep notu", ozel=True)
    sohbet = sahip.get(f"/portal/gecmis/sohbet/{oturum.id}").content.decode()
    talep = sahip.get(f"/portal/gecmis/ticket/{ticket.id}").content.decode()
    assert "not metni" in sohbet and "İç not" in sohbet
    assert "talep notu" in talep and "İç not" in talep

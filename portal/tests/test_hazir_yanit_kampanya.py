"""/portal/hazir-yanitlar and /portal/kampanyalar (CONTRACT 13): create, edit, delete, bad input,
roles and other projects; what is saved is what operators and the widget get."""
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from chat.models import HazirYanit
from dosyalar.models import Dosya
from knowledge.models import Kampanya
from knowledge.services import kampanya_kaydet
from supportdesk.testing.fixtures import operator_yap, widget_client

from .yardimci import giris_yapmis

pytestmark = pytest.mark.django_db
HY, KMP = "/portal/hazir-yanitlar", "/portal/kampanyalar"
PNG = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89"
       b"\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82")


@pytest.fixture
def sahip(musteri):
    return giris_yapmis(operator_yap(musteri, rol="sahip"))


def _yerel(delta: timedelta) -> str:
    return timezone.localtime(timezone.now() + delta).strftime("%Y-%m-%dT%H:%M")


def test_canned_response_create_edit_delete_reaches_operators(sahip, musteri, operator_client):
    assert sahip.post(HY, {"kisayol": "/selam", "baslik": "Selam", "icerik": "Merhaba, nasıl yardımcı olabilirim?"}
                      ).status_code == 302
    yanit = HazirYanit.objects.get(musteri=musteri)
    res = operator_client.get("/api/v1/operator/canned-responses", {"musteri_id": musteri.id})
    assert [y["kisayol"] for y in res.json()["data"]["hazir_yanitlar"]] == ["/selam"]
    assert sahip.post(f"{HY}/{yanit.id}", {"kisayol": "/merhaba", "baslik": "Merhaba", "icerik": "Selamlar"}
                      ).status_code == 302
    yanit.refresh_from_db()
    assert (yanit.kisayol, yanit.baslik, yanit.icerik) == ("/merhaba", "Merhaba", "Selamlar")
    assert sahip.post(f"{HY}/{yanit.id}", {"islem": "sil"}).status_code == 302
    assert not HazirYanit.objects.exists()


@pytest.mark.parametrize("veri,alan", [
    ({"kisayol": "", "baslik": "B", "icerik": "x"}, "kisayol"),
    ({"kisayol": "iki kelime", "baslik": "B", "icerik": "x"}, "kisayol"),
    ({"kisayol": "/var", "baslik": "B", "icerik": "x"}, "kisayol"),
    ({"kisayol": "var", "baslik": "B", "icerik": "x"}, "kisayol"),  # a duplicate once its `/` is added
    ({"kisayol": "/", "baslik": "B", "icerik": "x"}, "kisayol"),
    ({"kisayol": "x" * 50, "baslik": "B", "icerik": "x"}, "kisayol"),  # 51 with its `/`
    ({"kisayol": "/y", "baslik": "", "icerik": "x"}, "baslik"),
    ({"kisayol": "/y", "baslik": "B", "icerik": ""}, "icerik"),
    ({"kisayol": "/y", "baslik": "B", "icerik": "x" * 5001}, "icerik"),
])
def test_bad_canned_response_input_is_a_form_error(sahip, musteri, veri, alan):
    HazirYanit.objects.create(musteri=musteri, kisayol="/var", baslik="Var", icerik="eski")
    res = sahip.post(HY, veri)
    assert res.status_code == 200 and res.context["form"].errors[alan], res.context["form"].errors
    assert 'class="alan-hata"' in res.content.decode() and HazirYanit.objects.count() == 1


def test_shortcut_typed_without_its_slash_is_stored_with_it(sahip, musteri):
    assert sahip.post(HY, {"kisayol": "selam", "baslik": "Selam", "icerik": "Merhaba"}).status_code == 302
    yanit = HazirYanit.objects.get(musteri=musteri)
    assert yanit.kisayol == "/selam"
    assert sahip.post(f"{HY}/{yanit.id}", {"kisayol": " merhaba ", "baslik": "Selam", "icerik": "Merhaba"}
                      ).status_code == 302
    yanit.refresh_from_db()
    assert yanit.kisayol == "/merhaba"


def test_shortcut_unique_per_project_only(sahip, musteri, diger_musteri):
    HazirYanit.objects.create(musteri=diger_musteri, kisayol="/selam", baslik="Başka", icerik="x")
    assert sahip.post(HY, {"kisayol": "/selam", "baslik": "Benim", "icerik": "y"}).status_code == 302
    ikinci = HazirYanit.objects.create(musteri=musteri, kisayol="/iki", baslik="İki", icerik="z")
    res = sahip.post(f"{HY}/{ikinci.id}", {"kisayol": "/selam", "baslik": "İki", "icerik": "z"})
    assert res.status_code == 200 and res.context["form"].errors["kisayol"]
    ikinci.refresh_from_db()
    assert ikinci.kisayol == "/iki"


def test_campaign_with_uploaded_image_and_window_reaches_the_widget(sahip, musteri):
    res = sahip.post(KMP, {"baslik": "Kış indirimi", "icerik": "%20", "baslangic": _yerel(-timedelta(hours=1)),
                           "bitis": _yerel(timedelta(days=3)), "aktif": "on", "buton_metni": "Gör",
                           "buton_url": "https://shop.example.com/kis", "gorsel": SimpleUploadedFile("kis.png", PNG)})
    assert res.status_code == 302, res.content.decode()[:3000]
    kampanya = Kampanya.objects.get(musteri=musteri)
    assert kampanya.gorsel.mime_tipi == "image/png" and kampanya.gorsel.ziyaretci_id == ""
    data = widget_client(musteri).get("/api/v1/widget/campaigns", {"ziyaretci_id": "v"}).json()["data"]
    [k] = data["kampanyalar"]
    assert k["baslik"] == "Kış indirimi" and k["gorsel_url"] == f"http://testserver{kampanya.gorsel.dosya.url}"
    assert widget_client(musteri).get(k["gorsel_url"].removeprefix("http://testserver")).status_code == 200
    # Edit: the window moves to the future; the widget no longer shows it.
    res = sahip.post(f"{KMP}/{kampanya.id}", {"baslik": "Kış indirimi", "baslangic": _yerel(timedelta(days=1)),
                                              "bitis": _yerel(timedelta(days=2)), "aktif": "on"})
    assert res.status_code == 302
    assert widget_client(musteri).get("/api/v1/widget/campaigns", {"ziyaretci_id": "v"}).json()["data"]["kampanyalar"] == []
    kampanya.refresh_from_db()
    assert kampanya.gorsel_id  # kept when no new file is sent
    sahip.post(f"{KMP}/{kampanya.id}", {"baslik": "K", "baslangic": _yerel(timedelta(days=1)),
                                        "bitis": _yerel(timedelta(days=2)), "gorsel_kaldir": "on"})
    kampanya.refresh_from_db()
    assert kampanya.gorsel_id is None and kampanya.aktif is False
    assert sahip.post(f"{KMP}/{kampanya.id}", {"islem": "sil"}).status_code == 302
    assert not Kampanya.objects.exists()


@pytest.mark.parametrize("degisiklik,alan", [
    ({"baslik": ""}, "baslik"), ({"baslangic": "dün"}, "baslangic"), ({"bitis": _yerel(-timedelta(days=9))}, "bitis"),
    ({"buton_url": "javascript:alert(1)"}, "buton_url"), ({"gorsel_url": "ftp://x/y.png"}, "gorsel_url"),
    ({"gorsel": SimpleUploadedFile("a.pdf", b"%PDF-1.4\n%\xe2\xe3\n1 0 obj\n<<>>\nendobj\ntrailer<<>>\n%%EOF")}, "gorsel"),
    ({"gorsel": SimpleUploadedFile("x.png", b"<svg onload=alert(1)>")}, "gorsel"),
])
def test_bad_campaign_input_is_a_form_error(sahip, musteri, degisiklik, alan):
    veri = {"baslik": "K", "baslangic": _yerel(timedelta(0)), "bitis": _yerel(timedelta(days=1)), **degisiklik}
    res = sahip.post(KMP, veri)
    assert res.status_code == 200 and res.context["form"].errors[alan], res.context["form"].errors
    assert 'class="alan-hata"' in res.content.decode()
    assert not Kampanya.objects.exists() and not Dosya.objects.exists()


def test_operator_member_cannot_change_and_other_projects_are_404(musteri, diger_musteri, sahip):
    simdi = timezone.now()
    kendi = kampanya_kaydet(musteri=musteri, baslik="Bizim", baslangic=simdi, bitis=simdi + timedelta(days=1))
    yabanci = kampanya_kaydet(musteri=diger_musteri, baslik="Yabancı", baslangic=simdi, bitis=simdi + timedelta(days=1))
    yabanci_yanit = HazirYanit.objects.create(musteri=diger_musteri, kisayol="/x", baslik="X", icerik="x")
    op = giris_yapmis(operator_yap(musteri))
    assert op.get(KMP).status_code == 200 and op.get(HY).status_code == 200
    assert op.post(KMP, {"baslik": "Y"}).status_code == 403
    assert op.post(f"{KMP}/{kendi.id}", {"islem": "sil"}).status_code == 403
    assert op.post(HY, {"kisayol": "/a", "baslik": "a", "icerik": "a"}).status_code == 403
    for url in (f"{KMP}/{yabanci.id}", f"{HY}/{yabanci_yanit.id}"):
        assert sahip.get(url).status_code == 404 and sahip.post(url, {"islem": "sil"}).status_code == 404
    assert "Yabancı" not in sahip.get(KMP).content.decode()
    assert Kampanya.objects.count() == 2 and HazirYanit.objects.count() == 1

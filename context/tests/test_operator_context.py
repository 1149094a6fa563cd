import base64
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from chat.models import Oturum
from context import services
from context.models import SayfaGoruntuleme, Ziyaretci
from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import giris_yap, operator_yap, widget_client
from tenants.tests.test_auth import hata

from .yardimci import CUSTOMER_INFO, ERROR_LOG, PAGE_INFO, PNG, SCREENSHOT, imzali, ok

pytestmark = pytest.mark.django_db


def url(ziyaretci_id, musteri_id=None):
    base = f"/api/v1/operator/context/{ziyaretci_id}"
    return base if musteri_id is None else f"{base}?musteri_id={musteri_id}"


def oturum(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(client, user)}")
    return client


def profil(musteri, ziyaretci_id="z-1", **alanlar):
    ok(widget_client(musteri).post(CUSTOMER_INFO, {"ziyaretci_id": ziyaretci_id, **alanlar}, format="json"))


def kayitlar(musteri, ziyaretci_id="z-1", n=1):
    client = widget_client(musteri)
    for i in range(n):
        ok(client.post(PAGE_INFO, {"ziyaretci_id": ziyaretci_id, "url": f"https://s.example/{i}"}, format="json"), 201)
        ok(client.post(ERROR_LOG, {"ziyaretci_id": ziyaretci_id, "mesaj": f"hata {i}"}, format="json"), 201)
        gorsel = f"data:image/png;base64,{base64.b64encode(PNG).decode()}"
        ok(client.post(SCREENSHOT, {"ziyaretci_id": ziyaretci_id, "gorsel": gorsel}, format="json"), 201)


def test_full_context_shape(operator_client, musteri):
    # Days of the tenant's zone (the banner counts there), whatever the hour of the server's.
    bitis = (timezone.localdate(timezone=ZoneInfo(musteri.saat_dilimi)) + timedelta(days=2)).isoformat()
    ok(widget_client(musteri).post(CUSTOMER_INFO, imzali(
        musteri, ad="Ayşe", soyad="Yılmaz", paket="Pro", kontor=0,
        ekstra={"trial_bitis": bitis, "depolama_kullanilan_gb": 45.5, "depolama_toplam_gb": 50, "ozel": [1]}),
        format="json"))
    kayitlar(musteri, n=2)
    res = ok(operator_client.get(url("z-1")))
    data = res["data"]
    assert {"ziyaretci_id", "musteri_id", "musteri", "banner", "identity_dogrulandi", "ekstra", "sayfalar", "hatalar",
            "ekran_goruntuleri"} <= set(data)
    assert (data["ziyaretci_id"], data["musteri_id"], data["identity_dogrulandi"]) == ("z-1", musteri.id, True)
    assert data["musteri"] == {"ad": "Ayşe", "soyad": "Yılmaz", "email": "ayse@ornek.com", "paket": "Pro", "kontor": 0}
    assert data["ekstra"]["ozel"] == [1]
    assert data["banner"] == [
        {"tip": "paket", "icon": "📦", "label": "Paket", "deger": "Pro", "kritik": False},
        {"tip": "kontor", "icon": "💰", "label": "Kontör", "deger": "0", "kritik": True},
        {"tip": "trial", "icon": "⏳", "label": "Deneme süresi", "deger": "2 gün kaldı", "kritik": True},
        {"tip": "depolama", "icon": "⚠️", "label": "Depolama", "deger": "45.5 / 50 GB (%91)", "kritik": True},
    ]
    # Newest first.
    assert [s["url"] for s in data["sayfalar"]] == ["https://s.example/1", "https://s.example/0"]
    assert [h["mesaj"] for h in data["hatalar"]] == ["hata 1", "hata 0"]
    assert len(data["ekran_goruntuleri"]) == 2
    assert data["ekran_goruntuleri"][0]["id"] > data["ekran_goruntuleri"][1]["id"]
    assert data["ekran_goruntuleri"][0]["gorsel_url"].startswith("http://testserver/media/")
    assert musteri.api_secret not in str(res)


def test_visitor_known_only_from_page_info_has_an_empty_profile(operator_client, musteri):
    ok(widget_client(musteri).post(PAGE_INFO, {"ziyaretci_id": "z-9", "url": "https://s.example/"}, format="json"), 201)
    data = ok(operator_client.get(url("z-9")))["data"]
    assert data["musteri"] == {"ad": "", "soyad": "", "email": "", "paket": "", "kontor": None}
    assert (data["banner"], data["ekstra"], data["identity_dogrulandi"]) == ([], {}, False)
    assert len(data["sayfalar"]) == 1 and data["hatalar"] == [] and data["ekran_goruntuleri"] == []


def test_lists_are_bounded_to_the_newest_50(operator_client, musteri):
    client = widget_client(musteri)
    for i in range(55):
        ok(client.post(PAGE_INFO, {"ziyaretci_id": "z-1", "url": f"https://s.example/{i}"}, format="json"), 201)
    sayfalar = ok(operator_client.get(url("z-1")))["data"]["sayfalar"]
    assert [s["url"] for s in sayfalar] == [f"https://s.example/{i}" for i in range(54, 4, -1)]


def test_unknown_visitor_and_another_tenants_visitor_are_404(operator_client, musteri, diger_musteri):
    profil(diger_musteri, "yabanci", ad="Gizli")
    hata(operator_client.get(url("yok")), 404, "BULUNAMADI")
    body = hata(operator_client.get(url("yabanci")), 404, "BULUNAMADI")
    assert "Gizli" not in str(body)
    hata(operator_client.get(url("yabanci", diger_musteri.id)), 404, "BULUNAMADI")
    # The visitor exists in the caller's tenant too: the other tenant's row still stays out of reach.
    profil(musteri, "yabanci", ad="Benim")
    assert ok(operator_client.get(url("yabanci")))["data"]["musteri"]["ad"] == "Benim"
    hata(operator_client.get(url("yabanci", diger_musteri.id)), 404, "BULUNAMADI")


def test_visitor_in_two_of_the_callers_tenants_needs_musteri_id(musteri, diger_musteri):
    user = operator_yap(musteri, diger_musteri)
    client = oturum(user)
    profil(musteri, ad="Bir")
    profil(diger_musteri, ad="İki")
    body = hata(client.get(url("z-1")), 400, "GECERSIZ_ISTEK")
    assert "musteri_id" in body["hata"]["alanlar"]
    for m in (musteri, diger_musteri):
        assert str(m.id) in body["hata"]["mesaj"] and m.firma_adi in body["hata"]["mesaj"]
    assert ok(client.get(url("z-1", musteri.id)))["data"]["musteri"]["ad"] == "Bir"
    assert ok(client.get(url("z-1", diger_musteri.id)))["data"]["musteri"]["ad"] == "İki"
    third = MusteriFactory()
    hata(client.get(url("z-1", third.id)), 404, "BULUNAMADI")


def test_visitor_in_one_tenant_of_a_multi_tenant_operator_needs_no_musteri_id(musteri, diger_musteri):
    client = oturum(operator_yap(musteri, diger_musteri))
    profil(diger_musteri, ad="İki")
    data = ok(client.get(url("z-1")))["data"]
    assert (data["musteri_id"], data["musteri"]["ad"]) == (diger_musteri.id, "İki")


@pytest.mark.parametrize("musteri_id", ["abc", "1.5", "-1", "0", "99999999999999999999999"])
def test_bad_musteri_id_is_400(operator_client, musteri, musteri_id):
    profil(musteri)
    hata(operator_client.get(url("z-1", musteri_id)), 400, "GECERSIZ_ISTEK")


def test_visitor_ids_with_odd_characters(operator_client, musteri):
    for zid in ("a/b", "ş ğ ü", "x" * 128):
        profil(musteri, zid, ad=zid[:10])
        from urllib.parse import quote

        assert ok(operator_client.get(url(quote(zid, safe=""))))["data"]["ziyaretci_id"] == zid
    hata(operator_client.get(url("x" * 129)), 404, "BULUNAMADI")


def test_needs_a_bearer_token(api, musteri):
    profil(musteri)
    hata(api.get(url("z-1")), 401, "KIMLIK_GEREKLI")
    hata(api.get(url("z-1"), HTTP_AUTHORIZATION="Bearer bozuk"), 401, "GECERSIZ_TOKEN")
    # The widget key is not an operator credential.
    hata(widget_client(musteri).get(url("z-1")), 401, "KIMLIK_GEREKLI")


def test_logged_out_token_is_refused(musteri):
    client = oturum(operator_yap(musteri))
    profil(musteri)
    ok(client.get(url("z-1")))
    ok(client.post("/api/v1/auth/logout"))
    hata(client.get(url("z-1")), 401, "GECERSIZ_TOKEN")


@pytest.mark.parametrize("n", [0, 1, 30])
def test_query_count_is_flat(operator_client, musteri, n, django_assert_max_num_queries):
    profil(musteri, ad="Ayşe", email="ayse@ornek.com", paket="Pro", kontor=5,
           ekstra={"depolama_kullanilan_gb": 1, "depolama_toplam_gb": 2})
    kayitlar(musteri, n=n)
    # user + revoked-token check + memberships + visitor + pages + errors + screenshots, whatever n is
    with django_assert_max_num_queries(7):
        data = ok(operator_client.get(url("z-1")))["data"]
    assert len(data["sayfalar"]) == len(data["hatalar"]) == len(data["ekran_goruntuleri"]) == n


@pytest.mark.parametrize("n", [0, 1, 30])
def test_query_count_with_a_profile_missing_name_and_email(operator_client, musteri, n, django_assert_num_queries):
    # A profile without name or e-mail looks them up in the visitor's chats and tickets: two
    # value lists more (issue 13), whatever the number of chats.
    kayitlar(musteri, n=1)
    for i in range(n):
        Oturum.objects.create(musteri=musteri, ziyaretci_id="z-1", ziyaretci_adi=f"Ad {i}", durum="kapandi")
    with django_assert_num_queries(9):
        data = ok(operator_client.get(url("z-1")))["data"]
    assert data["musteri"]["ad"] == ("" if n == 0 else f"Ad {n - 1}")


def _sohbet(musteri, ziyaretci_id, ad):
    res = widget_client(musteri).post("/api/v1/widget/chat/start", {"ziyaretci_id": ziyaretci_id, "ad": ad, "mesaj": "Merhaba"},
                                      format="json")
    assert res.status_code in (200, 201), res.content


def test_visitor_known_only_from_a_chat_or_ticket_gets_an_empty_context(operator_client, musteri, diger_musteri):
    _sohbet(musteri, "sohbetci", "Can Öz")
    data = ok(operator_client.get(url("sohbetci")))["data"]
    assert (data["musteri_id"], data["musteri"]["ad"], data["identity_dogrulandi"]) == (musteri.id, "Can Öz", False)
    assert data["banner"] == [] and data["sayfalar"] == [] and data["hatalar"] == [] and data["ekran_goruntuleri"] == []
    res = widget_client(musteri).post("/api/v1/widget/ticket/create", {
        "ziyaretci_id": "ticketci", "konu": "Fatura", "mesaj": "Yardım", "ad": "Ece", "email": "ece@ornek.com"}, format="json")
    assert res.status_code == 201, res.content
    assert ok(operator_client.get(url("ticketci")))["data"]["musteri"]["email"] == "ece@ornek.com"
    # Reading creates nothing; a chat in another tenant stays out of reach.
    from context.models import Ziyaretci

    assert not Ziyaretci.objects.exists()
    _sohbet(diger_musteri, "yabanci-sohbet", "Gizli")
    hata(operator_client.get(url("yabanci-sohbet")), 404, "BULUNAMADI")
    hata(operator_client.get(url("yabanci-sohbet", diger_musteri.id)), 404, "BULUNAMADI")


def test_chat_only_visitor_in_two_tenants_needs_musteri_id(musteri, diger_musteri):
    client = oturum(operator_yap(musteri, diger_musteri))
    _sohbet(musteri, "iki", "Bir")
    _sohbet(diger_musteri, "iki", "İki")
    hata(client.get(url("iki")), 400, "GECERSIZ_ISTEK")
    assert ok(client.get(url("iki", diger_musteri.id)))["data"]["musteri"]["ad"] == "İki"


def test_visitor_with_context_in_one_tenant_and_a_chat_in_another_needs_musteri_id(musteri, diger_musteri):
    # The id exists in both of the caller's tenants (context here, a chat there): the caller picks.
    client = oturum(operator_yap(musteri, diger_musteri))
    profil(musteri, "karisik", ad="Bağlamlı")
    _sohbet(diger_musteri, "karisik", "Sohbetçi")
    body = hata(client.get(url("karisik")), 400, "GECERSIZ_ISTEK")
    assert str(musteri.id) in body["hata"]["mesaj"] and str(diger_musteri.id) in body["hata"]["mesaj"]
    assert ok(client.get(url("karisik", musteri.id)))["data"]["musteri"]["ad"] == "Bağlamlı"
    assert ok(client.get(url("karisik", diger_musteri.id)))["data"]["musteri"]["ad"] == "Sohbetçi"
    # An operator of only the chat's tenant sees that one without choosing.
    assert ok(oturum(operator_yap(diger_musteri)).get(url("karisik")))["data"]["musteri_id"] == diger_musteri.id


def test_kapsam_yontemleri_kiraciyi_ve_ziyaretciyi_ayirir(musteri, diger_musteri):
    # HOUSE-STYLE 21: the one place each context model is scoped (operator and visitor side).
    services.sayfa_ekle(musteri=musteri, ziyaretci_id="z1", url="https://a.example/1")
    services.sayfa_ekle(musteri=musteri, ziyaretci_id="z2", url="https://a.example/2")
    services.sayfa_ekle(musteri=diger_musteri, ziyaretci_id="z1", url="https://b.example/1")
    assert set(Ziyaretci.objects.kapsamda([musteri.id]).values_list("ziyaretci_id", flat=True)) == {"z1", "z2"}
    assert [z.musteri_id for z in Ziyaretci.objects.ziyaretcinin(musteri=diger_musteri, ziyaretci_id="z1")] == [
        diger_musteri.id]
    assert [s.url for s in SayfaGoruntuleme.objects.ziyaretcinin(musteri=musteri, ziyaretci_id="z1")] == [
        "https://a.example/1"]
    assert SayfaGoruntuleme.objects.kapsamda([diger_musteri.id]).count() == 1


# --- issue 13: what the visitor typed in the widget reaches the operator's context ---------------
def test_name_and_email_typed_at_chat_start_show_in_the_context(operator_client, musteri):
    """The widget always sends page-info first, so the visitor has a profile row; its empty name
    and e-mail are filled from chat/start (docs/context.md section 5)."""
    kayitlar(musteri, "ziy-7")
    w = widget_client(musteri)
    ok(w.post("/api/v1/widget/chat/start", {"ziyaretci_id": "ziy-7", "ad": "Deniz Ak", "email": "deniz@ornek.com",
                                              "mesaj": "Merhaba"}, format="json"), 201)
    data = ok(operator_client.get(url("ziy-7")))["data"]
    assert (data["musteri"]["ad"], data["musteri"]["email"]) == ("Deniz Ak", "deniz@ornek.com")
    assert data["identity_dogrulandi"] is False
    assert Ziyaretci.objects.get(ziyaretci_id="ziy-7").ad == ""  # a read writes nothing


def test_customer_info_wins_over_what_the_visitor_typed(operator_client, musteri):
    profil(musteri, "ziy-8", ad="Site Adı", email="site@ornek.com")
    ok(widget_client(musteri).post("/api/v1/widget/chat/start", {
        "ziyaretci_id": "ziy-8", "ad": "Yazılan", "email": "yazilan@ornek.com"}, format="json"), 201)
    data = ok(operator_client.get(url("ziy-8")))["data"]
    assert (data["musteri"]["ad"], data["musteri"]["email"]) == ("Site Adı", "site@ornek.com")


def test_a_verified_profile_never_gets_a_typed_email(operator_client, musteri):
    # Signed with no e-mail: the name may be filled, the e-mail stays as signed (empty).
    ok(widget_client(musteri).post(CUSTOMER_INFO, imzali(musteri, "ziy-9", email=""), format="json"))
    ok(widget_client(musteri).post("/api/v1/widget/chat/start", {
        "ziyaretci_id": "ziy-9", "ad": "Ece", "email": "baskasi@ornek.com"}, format="json"), 201)
    data = ok(operator_client.get(url("ziy-9")))["data"]
    assert (data["musteri"]["ad"], data["musteri"]["email"], data["identity_dogrulandi"]) == ("Ece", "", True)

"""/portal/widget: origins (CONTRACT 8, spec 2.3, 5.2), keys, api_secret, kimlik_dogrulama_zorunlu; roles."""
import time

import pytest

from context.imza import imza_hesapla
from supportdesk.testing.fixtures import operator_yap, widget_client
from tenants.tests.test_auth import hata

from .yardimci import giris_yapmis

pytestmark = pytest.mark.django_db
WIDGET = "/portal/widget"
INIT = "/api/v1/widget/init"
ZID = "z_" + "18" * 16  # an id the widget made for itself: an unsigned init binds it (CONTRACT 2a)


@pytest.fixture
def sahip(musteri):
    return giris_yapmis(operator_yap(musteri, rol="sahip"))


def widget_init(musteri, origin):
    return widget_client(musteri).post(INIT, {"ziyaretci_id": "z-1"}, format="json", HTTP_ORIGIN=origin)


@pytest.mark.parametrize("girdi, kayit", [
    ("https://shop.example.com", "https://shop.example.com"),
    ("http://localhost:8080", "http://localhost:8080"),
    ("HTTPS://Shop.Example.com:443", "https://shop.example.com"),
    ("https://shop.example.com/", "https://shop.example.com"),
])
def test_origin_entries_accepted(sahip, musteri, girdi, kayit):
    res = sahip.post(WIDGET, {"islem": "origin_ekle", "origin": girdi})
    assert res.status_code == 302 and res["Location"] == WIDGET
    musteri.refresh_from_db()
    assert musteri.izinli_originler == [kayit]
    assert kayit in sahip.get(WIDGET).content.decode()


@pytest.mark.parametrize("girdi", [
    "https://shop.example.com/path", "ftp://x", "shop.example.com", "javascript:alert(1)",
    "https://shop.example.com?q=1", "https://shop.example.com#x", "https://user@shop.example.com", "", "  ",
    "https://shop example.com", "http://", "https://" + "a" * 300,
])
def test_origin_entries_refused_with_a_form_error(sahip, musteri, girdi):
    res = sahip.post(WIDGET, {"islem": "origin_ekle", "origin": girdi})
    assert res.status_code == 200
    assert res.context["origin_form"].errors["origin"]
    assert 'class="alan-hata"' in res.content.decode()
    musteri.refresh_from_db()
    assert musteri.izinli_originler == []


def test_a_bare_origin_field_adds_it(sahip, musteri):
    assert sahip.post(WIDGET, {"origin": "https://a.example.com"}).status_code == 302
    musteri.refresh_from_db()
    assert musteri.izinli_originler == ["https://a.example.com"]


def test_adding_twice_keeps_one_entry(sahip, musteri):
    for _ in range(2):
        sahip.post(WIDGET, {"islem": "origin_ekle", "origin": "https://a.example.com"})
    musteri.refresh_from_db()
    assert musteri.izinli_originler == ["https://a.example.com"]


def test_the_list_is_what_the_widget_whitelist_applies(sahip, musteri):
    assert widget_init(musteri, "https://any.example.org").status_code == 200  # empty list: every origin
    sahip.post(WIDGET, {"islem": "origin_ekle", "origin": "https://shop.example.com"})
    sahip.post(WIDGET, {"islem": "origin_ekle", "origin": "http://localhost:8080"})
    assert widget_init(musteri, "https://shop.example.com").status_code == 200
    assert widget_init(musteri, "http://localhost:8080").status_code == 200
    hata(widget_init(musteri, "https://evil.example.com"), 403, "ORIGIN_IZINSIZ")
    hata(widget_init(musteri, "http://localhost:8081"), 403, "ORIGIN_IZINSIZ")
    hata(widget_init(musteri, "https://shop.example.com.evil.io"), 403, "ORIGIN_IZINSIZ")
    # Removing an entry takes effect at once; an empty list accepts every origin again.
    sahip.post(WIDGET, {"islem": "origin_sil", "origin": "https://shop.example.com"})
    hata(widget_init(musteri, "https://shop.example.com"), 403, "ORIGIN_IZINSIZ")
    sahip.post(WIDGET, {"islem": "origin_sil", "origin": "http://localhost:8080"})
    musteri.refresh_from_db()
    assert musteri.izinli_originler == []
    assert widget_init(musteri, "https://shop.example.com").status_code == 200


def test_removing_an_unknown_origin_changes_nothing(sahip, musteri):
    musteri.izinli_originler = ["https://a.example.com"]
    musteri.save()
    assert sahip.post(WIDGET, {"islem": "origin_sil", "origin": "https://b.example.com"}).status_code == 302
    musteri.refresh_from_db()
    assert musteri.izinli_originler == ["https://a.example.com"]


def test_api_secret_only_after_a_deliberate_click(sahip, musteri):
    html = sahip.get(WIDGET).content.decode()
    assert musteri.api_secret not in html and musteri.api_key in html
    res = sahip.post(WIDGET, {"islem": "gizli_goster"})
    assert res.status_code == 200 and musteri.api_secret in res.content.decode()
    assert "no-store" in res["Cache-Control"]
    assert musteri.api_secret not in sahip.get(WIDGET).content.decode()


def test_admin_may_see_and_change_settings(musteri):
    t = giris_yapmis(operator_yap(musteri, rol="yonetici"))
    assert musteri.api_secret in t.post(WIDGET, {"islem": "gizli_goster"}).content.decode()
    assert t.post(WIDGET, {"islem": "origin_ekle", "origin": "https://a.example.com"}).status_code == 302


def test_widget_key_rotation(sahip, musteri):
    eski = musteri.api_key
    assert sahip.post(WIDGET, {"islem": "anahtar_yenile"}).status_code == 302
    musteri.refresh_from_db()
    assert musteri.api_key != eski
    html = sahip.get(WIDGET).content.decode()
    assert musteri.api_key in html and eski not in html
    client = widget_client(musteri)
    client.credentials(HTTP_X_API_KEY=eski)
    hata(client.post(INIT, {"ziyaretci_id": "z"}, format="json"), 401, "GECERSIZ_API_ANAHTARI")


def test_api_secret_rotation_shows_the_new_secret_once(sahip, musteri):
    eski = musteri.api_secret
    res = sahip.post(WIDGET, {"islem": "gizli_yenile"})
    musteri.refresh_from_db()
    assert musteri.api_secret != eski
    assert res.status_code == 200 and musteri.api_secret in res.content.decode()


def test_identity_switch(sahip, musteri):
    sahip.post(WIDGET, {"islem": "kimlik_dogrulama", "kimlik_dogrulama_zorunlu": "on"})
    musteri.refresh_from_db()
    assert musteri.kimlik_dogrulama_zorunlu is True
    sahip.post(WIDGET, {"islem": "kimlik_dogrulama"})
    musteri.refresh_from_db()
    assert musteri.kimlik_dogrulama_zorunlu is False


def test_unknown_action_is_a_400_page(sahip):
    assert sahip.post(WIDGET, {"islem": "hepsini_sil"}).status_code == 400


@pytest.mark.parametrize("veri", [
    {"islem": "origin_ekle", "origin": "https://a.example.com"},
    {"islem": "origin_sil", "origin": "https://eski.example.com"},
    {"islem": "anahtar_yenile"}, {"islem": "gizli_yenile"}, {"islem": "gizli_goster"},
    {"islem": "kimlik_dogrulama", "kimlik_dogrulama_zorunlu": "on"}, {"origin": "https://b.example.com"},
])
def test_operator_member_is_read_only(musteri, veri):
    musteri.izinli_originler = ["https://eski.example.com"]
    musteri.save()
    once = (musteri.api_key, musteri.api_secret)
    t = giris_yapmis(operator_yap(musteri, rol="operator"))
    page = t.get(WIDGET)
    assert page.status_code == 200
    html = page.content.decode()
    assert musteri.api_secret not in html and "salt-okunur" in html
    assert 'value="origin_ekle"' not in html
    res = t.post(WIDGET, veri)
    assert res.status_code == 403
    assert musteri.api_secret not in res.content.decode()
    musteri.refresh_from_db()
    assert (musteri.api_key, musteri.api_secret) == once
    assert musteri.izinli_originler == ["https://eski.example.com"]
    assert musteri.kimlik_dogrulama_zorunlu is False


def test_settings_act_on_the_active_project_only(musteri, diger_musteri):
    t = giris_yapmis(operator_yap(musteri, diger_musteri, rol="sahip"))
    t.post(f"/portal/projeler/sec/{diger_musteri.id}")
    t.post(WIDGET, {"islem": "origin_ekle", "origin": "https://b.example.com"})
    musteri.refresh_from_db()
    diger_musteri.refresh_from_db()
    assert musteri.izinli_originler == [] and diger_musteri.izinli_originler == ["https://b.example.com"]


def test_role_is_per_project(musteri, diger_musteri):
    """Owner of one project, operator of another: settings open only in the first."""
    user = operator_yap(musteri, rol="sahip")
    operator_yap(diger_musteri)  # someone else's project ...
    from tenants.services import uyelik_ekle

    uyelik_ekle(kullanici=user, musteri=diger_musteri, rol="operator")  # ... where the user is an operator
    t = giris_yapmis(user)
    t.post(f"/portal/projeler/sec/{diger_musteri.id}")
    assert t.post(WIDGET, {"islem": "anahtar_yenile"}).status_code == 403
    t.post(f"/portal/projeler/sec/{musteri.id}")
    assert t.post(WIDGET, {"islem": "anahtar_yenile"}).status_code == 302


def test_dashboard_shows_key_and_exact_embed_snippet(sahip, musteri):
    html = sahip.get("/portal/").content.decode()
    snippet = (f'&lt;script src=&quot;http://testserver/static/widget/widget.js&quot; '
               f'data-api-key=&quot;{musteri.api_key}&quot; async&gt;&lt;/script&gt;')
    assert snippet in html
    assert 'data-kopyala="gomme-kodu"' in html
    assert musteri.api_secret not in html
    assert 'data-test="bugunku-sohbet"' in html and 'data-test="acik-ticket"' in html


def test_owner_revokes_all_tokens_of_a_visitor(sahip, musteri):
    # CONTRACT 2a: the portal can revoke all of a visitor's tokens.
    client = widget_client(musteri)
    token = client.post(INIT, {"ziyaretci_id": ZID, "token_iste": True}, format="json").json()["data"]["ziyaretci_token"]
    client.credentials(HTTP_X_API_KEY=musteri.api_key, HTTP_X_ZIYARETCI_TOKEN=token)
    assert client.get("/api/v1/widget/ticket/list", {"ziyaretci_id": ZID}).status_code == 200
    sayfa = sahip.get(WIDGET).content.decode()
    assert "ziyaretci_token_iptal" in sayfa
    # One revoke form, in the page's body; the title is text (a merge once put the section in it).
    assert sayfa.count('id="ziyaretci-tokenlari"') == 1
    assert "<section" not in sayfa.split("<title>", 1)[1].split("</title>", 1)[0]
    assert sahip.post(WIDGET, {"islem": "ziyaretci_token_iptal", "ziyaretci_id": ZID}).status_code == 302
    hata(client.get("/api/v1/widget/ticket/list", {"ziyaretci_id": ZID}), 401, "ZIYARETCI_TOKEN_GEREKLI")
    res = sahip.post(WIDGET, {"islem": "ziyaretci_token_iptal", "ziyaretci_id": ""})
    assert res.status_code == 200 and "alan-hata" in res.content.decode()


def test_an_operator_cannot_revoke_visitor_tokens(musteri):
    t = giris_yapmis(operator_yap(musteri, rol="operator"))
    assert t.post(WIDGET, {"islem": "ziyaretci_token_iptal", "ziyaretci_id": "u-1842"}).status_code == 403


def _bagla(musteri, ziyaretci_id=ZID):
    # Someone who knew the id first (the widget key is public) binds it without a signature.
    client = widget_client(musteri)
    return client.post(INIT, {"ziyaretci_id": ziyaretci_id, "token_iste": True}, format="json").json()["data"]["ziyaretci_token"]


def _biletler(musteri, token=None):
    client = widget_client(musteri, **({"HTTP_X_ZIYARETCI_TOKEN": token} if token else {}))
    return client.get("/api/v1/widget/ticket/list", {"ziyaretci_id": ZID})


def test_owner_releases_a_visitor_which_then_works_without_a_token(sahip, musteri):
    # CONTRACT 2a: the portal can release (unbind) a visitor, e.g. one claimed by someone else.
    token = _bagla(musteri)
    hata(_biletler(musteri), 401, "ZIYARETCI_TOKEN_GEREKLI")
    sayfa = sahip.get(WIDGET).content.decode()
    assert 'value="ziyaretci_serbest_birak"' in sayfa and "Serbest bırak" in sayfa
    res = sahip.post(WIDGET, {"islem": "ziyaretci_serbest_birak", "ziyaretci_id": ZID})
    assert res.status_code == 302 and res["Location"] == WIDGET
    assert "serbest bırakıldı" in sahip.get(WIDGET).content.decode()
    assert _biletler(musteri).status_code == 200
    # Bound again later (by the site's signature): the token from before stays dead.
    ts = int(time.time())
    imza = imza_hesapla(api_secret=musteri.api_secret, ziyaretci_id=ZID, email="", timestamp=ts)
    res = widget_client(musteri).post(INIT, {"ziyaretci_id": ZID, "token_iste": True, "timestamp": ts, "signature": imza},
                                      format="json")
    yeni = res.json()["data"]["ziyaretci_token"]
    assert _biletler(musteri, yeni).status_code == 200
    hata(_biletler(musteri, token), 401, "ZIYARETCI_TOKEN_GEREKLI")


def test_releasing_a_visitor_that_is_not_bound_says_so(sahip, musteri):
    res = sahip.post(WIDGET, {"islem": "ziyaretci_serbest_birak", "ziyaretci_id": "u-1842"})
    assert res.status_code == 302
    assert "zaten bir anahtara bağlı değildi" in sahip.get(WIDGET).content.decode()
    res = sahip.post(WIDGET, {"islem": "ziyaretci_serbest_birak", "ziyaretci_id": ""})
    assert res.status_code == 200 and "alan-hata" in res.content.decode()


def test_only_owners_and_admins_release_and_only_in_the_active_project(musteri, diger_musteri):
    _bagla(musteri)
    operator = giris_yapmis(operator_yap(musteri, rol="operator"))
    assert operator.post(WIDGET, {"islem": "ziyaretci_serbest_birak", "ziyaretci_id": ZID}).status_code == 403
    hata(_biletler(musteri), 401, "ZIYARETCI_TOKEN_GEREKLI")
    # Owner of both projects, with the other one active: this project's visitor stays bound.
    t = giris_yapmis(operator_yap(musteri, diger_musteri, rol="sahip"))
    t.post(f"/portal/projeler/sec/{diger_musteri.id}")
    assert t.post(WIDGET, {"islem": "ziyaretci_serbest_birak", "ziyaretci_id": ZID}).status_code == 302
    hata(_biletler(musteri), 401, "ZIYARETCI_TOKEN_GEREKLI")
    # Without the CSRF token nothing happens.
    t.post(f"/portal/projeler/sec/{musteri.id}")
    assert t.post(WIDGET, {"islem": "ziyaretci_serbest_birak", "ziyaretci_id": ZID}, csrf=False).status_code == 403
    hata(_biletler(musteri), 401, "ZIYARETCI_TOKEN_GEREKLI")
    yonetici = giris_yapmis(operator_yap(musteri, rol="yonetici"))
    assert yonetici.post(WIDGET, {"islem": "ziyaretci_serbest_birak", "ziyaretci_id": ZID}).status_code == 302
    assert _biletler(musteri).status_code == 200

import time

import pytest

from context.imza import imza_hesapla
from context.models import Ziyaretci
from supportdesk.testing.fixtures import widget_client
from tenants.tests.test_auth import hata

from .yardimci import CUSTOMER_INFO, durum, imzali, ok

pytestmark = pytest.mark.django_db


def gonder(client, body):
    return client.post(CUSTOMER_INFO, body, format="json")


def test_unsigned_call_stores_an_unverified_profile(widget, musteri):
    body = {"ziyaretci_id": "z-1", "email": "ayse@ornek.com", "ad": "Ayşe", "soyad": "Yılmaz", "paket": "Pro",
            "kontor": 120, "ekstra": {"depolama_kullanilan_gb": 45.5, "depolama_toplam_gb": 50, "not": "vip"}}
    res = ok(gonder(widget, body))
    assert set(res) == {"basarili", "identity_dogrulandi", "data"}
    assert res["identity_dogrulandi"] is False
    assert res["data"]["identity_dogrulandi"] is False
    profil = res["data"]["profil"]
    assert {k: profil[k] for k in ("ziyaretci_id", "musteri_id", "email", "ad", "soyad", "paket", "kontor", "ekstra")} == {
        "ziyaretci_id": "z-1", "musteri_id": musteri.id, "email": "ayse@ornek.com", "ad": "Ayşe", "soyad": "Yılmaz",
        "paket": "Pro", "kontor": 120, "ekstra": body["ekstra"]}
    assert profil["identity_dogrulandi"] is False
    assert {k: res["data"][k] for k in profil} == profil  # mirrored flat in data
    z = Ziyaretci.objects.get(musteri=musteri, ziyaretci_id="z-1")
    assert (z.ad, z.kontor, z.identity_dogrulandi) == ("Ayşe", 120, False)
    assert musteri.api_secret not in str(res) and "api_secret" not in str(res)


def test_only_ziyaretci_id_is_required(widget):
    res = ok(gonder(widget, {"ziyaretci_id": "z-1"}))
    assert res["data"]["profil"]["email"] == "" and res["data"]["profil"]["kontor"] is None


def test_valid_signature_verifies_and_is_stored(widget, musteri):
    res = ok(gonder(widget, imzali(musteri, ad="Ayşe")))
    assert res["identity_dogrulandi"] is True
    assert res["data"]["profil"]["identity_dogrulandi"] is True
    z = Ziyaretci.objects.get(musteri=musteri, ziyaretci_id="z-1")
    assert z.identity_dogrulandi is True and z.email == "ayse@ornek.com" and z.dogrulama_zamani is not None


@pytest.mark.parametrize("kayma", [-300, 300, 0])
def test_timestamp_within_300_seconds_is_accepted(widget, musteri, kayma):
    assert ok(gonder(widget, imzali(musteri, kayma=kayma)))["identity_dogrulandi"] is True


def test_signature_without_email_signs_the_empty_string(widget, musteri):
    assert ok(gonder(widget, imzali(musteri, email=None)))["identity_dogrulandi"] is True
    body = imzali(musteri, email=None)
    body["email"] = None
    assert ok(gonder(widget, body))["identity_dogrulandi"] is True


def test_upper_case_hex_and_string_timestamp_are_accepted(widget, musteri):
    body = imzali(musteri)
    body["signature"] = body["signature"].upper()
    body["timestamp"] = str(body["timestamp"])
    assert ok(gonder(widget, body))["identity_dogrulandi"] is True


def _bozuk(musteri, neyi):
    body = imzali(musteri)
    if neyi == "yanlis_secret":
        return imzali(musteri, secret="sk_" + "0" * 64)
    if neyi == "degisen_email":
        body["email"] = "baska@ornek.com"
    elif neyi == "degisen_ziyaretci":
        body["ziyaretci_id"] = "z-2"
    elif neyi == "eski":
        return imzali(musteri, kayma=-301)
    elif neyi == "ileri":
        return imzali(musteri, kayma=301)
    elif neyi == "timestamp_yok":
        del body["timestamp"]
    elif neyi == "timestamp_null":
        body["timestamp"] = None
    elif neyi == "timestamp_float":
        body["timestamp"] = float(body["timestamp"])
    elif neyi == "timestamp_metin":
        body["timestamp"] = "dün"
    elif neyi == "timestamp_bool":
        body["timestamp"] = True
    elif neyi == "hex_degil":
        body["signature"] = "z" * 64
    elif neyi == "kisa":
        body["signature"] = body["signature"][:-2]
    elif neyi == "bos":
        body["signature"] = ""
    elif neyi == "sayi":
        body["signature"] = 12345
    elif neyi == "baska_projenin_secreti":
        from supportdesk.testing.factories import MusteriFactory

        return imzali(musteri, secret=MusteriFactory().api_secret)
    return body


BOZUK_IMZALAR = ["yanlis_secret", "degisen_email", "degisen_ziyaretci", "eski", "ileri", "timestamp_yok", "timestamp_null",
                 "hex_degil", "kisa", "bos", "baska_projenin_secreti"]
# A signature input of the wrong JSON type is a malformed request (CONTRACT 1: wrong types -> 400),
# not a signature that failed to verify.
YANLIS_TIPLI_IMZALAR = {"timestamp_float": "timestamp", "timestamp_metin": "timestamp", "timestamp_bool": "timestamp",
                        "sayi": "signature"}


@pytest.mark.parametrize("neyi", sorted(YANLIS_TIPLI_IMZALAR))
def test_signature_inputs_of_the_wrong_type_are_400_and_change_nothing(widget, musteri, neyi):
    ok(gonder(widget, imzali(musteri, ad="Eski", paket="Pro")))
    once = durum()
    body = _bozuk(musteri, neyi)
    body.update(ad="Yeni")
    res = hata(gonder(widget, body), 400, "GECERSIZ_ISTEK")
    assert set(res["hata"]["alanlar"]) == {YANLIS_TIPLI_IMZALAR[neyi]}
    assert durum() == once


@pytest.mark.parametrize("neyi", BOZUK_IMZALAR)
def test_invalid_signature_is_401_and_changes_nothing(widget, musteri, neyi):
    ok(gonder(widget, imzali(musteri, ad="Eski", paket="Pro", ekstra={"a": 1})))
    ok(gonder(widget, imzali(musteri, "z-2", ad="Diğer")))
    once = durum()
    body = _bozuk(musteri, neyi)
    body.update(ad="Yeni", paket="Bedava", kontor=5, ekstra={"b": 2})
    hata(gonder(widget, body), 401, "GECERSIZ_IMZA")
    assert durum() == once


@pytest.mark.parametrize("neyi", ["yanlis_secret", "eski", "timestamp_yok", "hex_degil"])
def test_invalid_signature_for_a_new_visitor_creates_nothing(widget, musteri, neyi):
    body = _bozuk(musteri, neyi)
    body["ziyaretci_id"] = "yeni-ziyaretci"
    hata(gonder(widget, body), 401, "GECERSIZ_IMZA")
    assert durum() == [[], 0, 0, 0]


def test_tenant_requiring_signatures_refuses_unsigned_calls(musteri):
    musteri.kimlik_dogrulama_zorunlu = True
    musteri.save()
    client = widget_client(musteri)
    hata(gonder(client, {"ziyaretci_id": "z-1", "ad": "Ayşe"}), 401, "IMZA_GEREKLI")
    hata(gonder(client, {"ziyaretci_id": "z-1", "signature": None}), 401, "IMZA_GEREKLI")
    assert durum() == [[], 0, 0, 0]
    hata(gonder(client, _bozuk(musteri, "eski")), 401, "GECERSIZ_IMZA")
    assert ok(gonder(client, imzali(musteri)))["identity_dogrulandi"] is True


def test_unsigned_write_clears_the_verified_flag(widget, musteri):
    ok(gonder(widget, imzali(musteri, ad="Ayşe", paket="Pro")))
    res = ok(gonder(widget, {"ziyaretci_id": "z-1", "email": "saldirgan@ornek.com", "kontor": 999}))
    assert res["identity_dogrulandi"] is False and res["data"]["profil"]["identity_dogrulandi"] is False
    z = Ziyaretci.objects.get(musteri=musteri, ziyaretci_id="z-1")
    assert (z.identity_dogrulandi, z.dogrulama_zamani) == (False, None)
    assert (z.email, z.kontor, z.paket) == ("saldirgan@ornek.com", 999, "Pro")
    # A later signed call verifies again (a new signature: one signature is good for one body).
    assert ok(gonder(widget, imzali(musteri, kayma=-100)))["data"]["profil"]["identity_dogrulandi"] is True


def test_signed_call_stores_the_signed_email(widget, musteri):
    ok(gonder(widget, {"ziyaretci_id": "z-1", "email": "eski@ornek.com"}))
    ok(gonder(widget, imzali(musteri, email=None)))
    assert Ziyaretci.objects.get(ziyaretci_id="z-1").email == ""


def test_update_keeps_absent_fields_clears_nulls_and_replaces_ekstra(widget, musteri):
    ok(gonder(widget, {"ziyaretci_id": "z-1", "ad": "Ayşe", "paket": "Pro", "kontor": 5,
                       "ekstra": {"depolama_kullanim": "1 GB", "son_yedek": "dün"}}))
    res = ok(gonder(widget, {"ziyaretci_id": "z-1", "paket": None, "kontor": 7.5, "ekstra": {"trial_kalan_gun": 3}}))
    profil = res["data"]["profil"]
    assert (profil["ad"], profil["paket"], profil["kontor"], profil["ekstra"]) == ("Ayşe", "", 7.5, {"trial_kalan_gun": 3})
    profil = ok(gonder(widget, {"ziyaretci_id": "z-1", "ekstra": None, "kontor": None}))["data"]["profil"]
    assert (profil["ekstra"], profil["kontor"]) == ({}, None)


@pytest.mark.parametrize("ekstra", [
    [1, 2],
    "metin",
    5,
    {"depolama_kullanilan_gb": "45.5", "depolama_toplam_gb": 50},
    {"depolama_kullanilan_gb": 45.5, "depolama_toplam_gb": "50"},
    {"depolama_kullanilan_gb": -1, "depolama_toplam_gb": 50},
    {"depolama_kullanilan_gb": 1, "depolama_toplam_gb": -50},
    {"depolama_kullanilan_gb": True, "depolama_toplam_gb": 50},
    {"depolama_dolu_yuzde": "95"},
    {"depolama_dolu_yuzde": -5},
    {"depolama_kritik": "true"},
    {"depolama_kullanim": 12},
    {"trial_bitis": "yarın"},
    {"trial_bitis": "2026-02-30"},
    {"trial_bitis": 20261130},
    {"trial_kalan_gun": "3"},
    {"trial_kalan_gun": False},
    {"buyuk": "x" * 20000},
])
def test_bad_ekstra_is_400_and_leaves_the_profile_unchanged(widget, musteri, ekstra):
    ok(gonder(widget, {"ziyaretci_id": "z-1", "ad": "Ayşe", "ekstra": {"depolama_kullanilan_gb": 1, "depolama_toplam_gb": 2}}))
    once = durum()
    body = hata(gonder(widget, {"ziyaretci_id": "z-1", "ad": "Yeni", "ekstra": ekstra}), 400, "GECERSIZ_ISTEK")
    assert any(k.startswith("ekstra") for k in body["hata"]["alanlar"]), body
    assert durum() == once


@pytest.mark.parametrize(("alan", "deger"), [
    ("kontor", "5"), ("kontor", True), ("kontor", [5]), ("kontor", 1e300),
    ("email", "eposta-degil"), ("email", 5), ("ad", "x" * 101), ("soyad", "x" * 101), ("paket", "x" * 101), ("ad", {"a": 1}),
    # Wrong JSON types are refused, not turned into text ("5", "1.5").
    ("paket", 5), ("ad", 1.5), ("soyad", 7),
])
def test_bad_profile_fields_are_400(widget, alan, deger):
    body = hata(gonder(widget, {"ziyaretci_id": "z-1", alan: deger}), 400, "GECERSIZ_ISTEK")
    assert alan in body["hata"]["alanlar"], body
    assert durum() == [[], 0, 0, 0]


@pytest.mark.parametrize("body", [{}, {"ziyaretci_id": ""}, {"ziyaretci_id": 7}, {"ziyaretci_id": "x" * 129}])
def test_visitor_id_is_required(widget, body):
    hata(gonder(widget, body), 400, "GECERSIZ_ISTEK")


def test_body_must_be_a_json_object(widget):
    hata(widget.post(CUSTOMER_INFO, [1, 2], format="json"), 400, "GECERSIZ_ISTEK")
    hata(widget.post(CUSTOMER_INFO, "{bozuk", content_type="application/json"), 400, "GECERSIZ_ISTEK")


def test_same_visitor_id_in_two_tenants_is_two_profiles(musteri, diger_musteri):
    ok(gonder(widget_client(musteri), {"ziyaretci_id": "z-1", "ad": "Bir"}))
    ok(gonder(widget_client(diger_musteri), {"ziyaretci_id": "z-1", "ad": "İki"}))
    assert sorted(Ziyaretci.objects.filter(ziyaretci_id="z-1").values_list("ad", flat=True)) == ["Bir", "İki"]
    # Tenant B's signature is tenant B's: it does not verify at tenant A.
    body = imzali(diger_musteri)
    hata(gonder(widget_client(musteri), body), 401, "GECERSIZ_IMZA")
    assert ok(gonder(widget_client(diger_musteri), body))["identity_dogrulandi"] is True


def test_key_origin_and_rate_limit_apply(api, musteri, settings):
    hata(gonder(api, {"ziyaretci_id": "z-1"}), 401, "KIMLIK_GEREKLI")
    hata(api.post(CUSTOMER_INFO, {"ziyaretci_id": "z-1"}, format="json", HTTP_X_API_KEY="pk_yok"), 401, "GECERSIZ_API_ANAHTARI")
    musteri.izinli_originler = ["https://shop.example.com"]
    musteri.save()
    hata(widget_client(musteri, HTTP_ORIGIN="https://kotu.example").post(CUSTOMER_INFO, {"ziyaretci_id": "z"}, format="json"),
         403, "ORIGIN_IZINSIZ")
    client = widget_client(musteri, HTTP_ORIGIN="https://shop.example.com")
    # Per hour, not per minute: the sliding window weighs the previous window's count by the time
    # left, so three calls straddling a window's edge could count as fewer than three.
    settings.WIDGET_RATE_LIMIT = "2/hour"
    ok(gonder(client, {"ziyaretci_id": "z"}))
    ok(gonder(client, {"ziyaretci_id": "z"}))
    res = hata(gonder(client, {"ziyaretci_id": "z"}), 429, "LIMIT_ASILDI")
    assert res and gonder(client, {"ziyaretci_id": "z"}).headers.get("Retry-After")


def test_signature_recipe_matches_plain_hmac(musteri):
    import hashlib
    import hmac

    ts = int(time.time())
    beklenen = hmac.new(musteri.api_secret.encode(), f"z-1|a@b.com|{ts}".encode(), hashlib.sha256).hexdigest()
    assert imza_hesapla(api_secret=musteri.api_secret, ziyaretci_id="z-1", email="a@b.com", timestamp=ts) == beklenen

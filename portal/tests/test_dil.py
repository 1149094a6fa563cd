"""The portal in each member's language (CONTRACT 19): pages, `<html lang>`, dates, the language
choice on /portal/hesap, the browser's language learnt at sign-up and first login, anonymous pages
by `Accept-Language`, and the password-reset mail in the member's language. Turkish stays as it was."""
import re
from datetime import timedelta

import pytest
from django.utils import formats, timezone, translation

from eposta.models import GidenEposta
from supportdesk.testing.factories import TEST_SIFRE, MusteriFactory
from supportdesk.testing.fixtures import operator_yap
from tenants.models import Kullanici

from .yardimci import Tarayici, arkada_isle, gonderilen

pytestmark = pytest.mark.django_db

# What an English member sees on each page, and the Turkish it replaces.
SAYFALAR = {
    "/portal/": (["Overview", "Add the widget to your site", "Widget key", "Copy", "Trial", "Chats today",
                  "Open tickets", "My account", "Log out", "Customer support platform", "days", "left ·"],
                 ["Genel bakış", "Widget'ı sitenize ekleyin", "Widget anahtarı", "Kopyala", "Deneme süresi",
                  "Bugünkü sohbetler", "Açık talepler", "Hesabım", "Çıkış yap", "Müşteri destek platformu", "gün", "kaldı"]),
    "/portal/hesap": (["My account", "Display name", "Avatar URL", "Language", "Same as my browser", "Save",
                       "Change password", "Two-step verification", "(optional)"],
                      ["Hesabım", "Görünen ad", "Avatar adresi", "Dil<", "Tarayıcıya göre", "Kaydet", "Şifre değiştir",
                       "İki adımlı doğrulama", "isteğe bağlı"]),
    "/portal/ekip": (["Team", "Members", "Pending invitations", "No pending invitations.", "Invite to the team",
                      "Create an invitation link", "Concurrent chats", "New ticket email", "Max concurrent chats",
                      "unlimited", "Leave empty for no limit."],
                     ["Ekip<", "Üyeler", "Bekleyen davetler", "Bekleyen davet yok", "Ekibe davet et",
                      "Davet bağlantısı oluştur", "Eşzamanlı sohbet", "Yeni talep e-postası", "sınırsız",
                      "Boş bırakılırsa sınır yok."]),
    "/portal/projelerim": (["My projects", "New project", "Project", "Role", "Trial", "Created", "days left", "Active"],
                           ["Projelerim", "Yeni proje", "Deneme<", "Oluşturulma", "gün kaldı", "Etkin<"]),
    "/portal/projelerim/yeni": (["New project", "Project (company) name", "Create project", "Cancel",
                                 "You can create at most 3 new projects in 24 hours."],
                                ["Yeni proje", "Proje (firma) adı", "Projeyi oluştur", "Vazgeç", "24 saat içinde"]),
    "/portal/sifre": (["Change password"], ["Şifre değiştir", "Şifreyi değiştir"]),
}


def _uye(dil="", rol="sahip", email="uye@ornek.com", musteri=None):
    musteri = musteri or MusteriFactory(firma_adi="Kuzey Kitap", trial_bitis=timezone.now() + timedelta(days=10))
    user = operator_yap(musteri, rol=rol, email=email)
    if dil:
        Kullanici.objects.filter(pk=user.pk).update(dil=dil)
        user.dil = dil
    return user


def _tarayici(dil=None) -> Tarayici:
    t = Tarayici()
    if dil:
        t.c.defaults["HTTP_ACCEPT_LANGUAGE"] = dil
    return t


def _gir(t: Tarayici, user) -> None:
    res = t.giris(user)
    assert res.status_code == 302, res.content.decode()[:1500]


def _html(res) -> str:
    assert res.status_code == 200, (res.status_code, res.content.decode()[:800])
    return res.content.decode()


def _dil_ozniteligi(html: str) -> str:
    return re.search(r'<html lang="([^"]*)"', html).group(1)


@pytest.mark.parametrize("tarayici", [None, "tr-TR,tr;q=0.9"])
def test_an_english_member_sees_every_page_in_english_whatever_the_browser(tarayici):
    user = _uye(dil="en")
    t = _tarayici(tarayici)
    _gir(t, user)
    for yol, (ingilizce, turkce) in SAYFALAR.items():
        html = _html(t.get(yol))
        assert _dil_ozniteligi(html) == "en", yol
        for metin in ingilizce:
            assert metin in html, (yol, metin)
        for metin in turkce:
            assert metin not in html, (yol, metin)


def test_a_turkish_member_sees_todays_turkish_whatever_the_browser():
    user = _uye(dil="tr")
    t = _tarayici("en-US,en;q=0.9")
    _gir(t, user)
    for yol, (_ingilizce, turkce) in SAYFALAR.items():
        html = _html(t.get(yol))
        assert _dil_ozniteligi(html) == "tr", yol
        for metin in turkce:
            assert metin.rstrip("<") in html, (yol, metin)
        for metin in ("Overview", "My account", "Log out", "Customer support platform", "Save", "Members", "days left"):
            assert metin not in html, (yol, metin)


def test_dates_follow_the_language_turkish_unchanged():
    user = _uye(dil="en")
    t = _tarayici()
    _gir(t, user)
    olusturulma = user.uyelikler.get().musteri.olusturulma
    html = _html(t.get("/portal/projelerim"))
    with translation.override("en"):
        ingilizce = formats.date_format(olusturulma, "F j, Y")
    assert ingilizce in html
    Kullanici.objects.filter(pk=user.pk).update(dil="tr")
    html = _html(t.get("/portal/projelerim"))
    with translation.override("tr"):
        turkce = formats.date_format(olusturulma, "j F Y")
    assert turkce in html and ingilizce not in html


def test_choosing_a_language_on_the_account_page_takes_effect_at_once_and_persists():
    user = _uye(dil="")
    t = _tarayici("tr")
    _gir(t, user)
    html = _html(t.get("/portal/hesap"))
    assert _dil_ozniteligi(html) == "tr" and "Hesabım" in html
    # The three choices; the member's current one ("" after a Turkish login: learnt "tr") selected.
    assert re.search(r'<option value="tr" selected>Türkçe</option>', html), html
    assert '<option value="en">English</option>' in html and '<option value="">Tarayıcıya göre</option>' in html

    res = t.post("/portal/hesap", {"ad": "Ayşe", "avatar": "", "dil": "en"})
    assert res.status_code == 302 and res["Location"] == "/portal/hesap"
    user.refresh_from_db()
    assert user.dil == "en" and user.ad == "Ayşe"
    html = _html(t.get("/portal/hesap"))
    assert _dil_ozniteligi(html) == "en"
    assert "Your account details were saved." in html and "Hesap bilgileriniz kaydedildi" not in html
    assert "My account" in html and '<option value="en" selected>English</option>' in html

    # Logging out and back in (from a Turkish browser) keeps it.
    t.post("/portal/cikis")
    assert _dil_ozniteligi(_html(t.get("/portal/giris"))) == "tr"
    _gir(t, user)
    html = _html(t.get("/portal/"))
    assert _dil_ozniteligi(html) == "en" and "Overview" in html

    # "Same as my browser": back to following Accept-Language.
    res = t.post("/portal/hesap", {"ad": "Ayşe", "avatar": "", "dil": ""})
    assert res.status_code == 302
    user.refresh_from_db()
    assert user.dil == ""
    assert "Hesap bilgileriniz kaydedildi." in _html(t.get("/portal/hesap"))
    t.c.defaults["HTTP_ACCEPT_LANGUAGE"] = "en-GB,en;q=0.8"
    assert "Overview" in _html(t.get("/portal/"))


def test_an_unknown_language_is_refused_on_the_account_page():
    user = _uye(dil="tr")
    t = _tarayici()
    _gir(t, user)
    res = t.post("/portal/hesap", {"ad": "", "avatar": "", "dil": "de"})
    assert res.status_code == 200 and res.context["form"].errors["dil"]
    user.refresh_from_db()
    assert user.dil == "tr"


@pytest.mark.parametrize("yol, ingilizce, turkce", [
    ("/portal/giris", ["Log in to the portal", "Forgot my password", "No account yet?", "Try it free", "Email", "Password"],
     ["Portala giriş", "Şifremi unuttum", "Hesabınız yok mu?", "Ücretsiz deneyin", "Şifre"]),
    ("/portal/kayit", ["Try it free for 14 days", "Create my account", "Already have an account?", "Your name",
                       "Project (company) name", "At least 8 characters"],
     ["14 gün ücretsiz deneyin", "Hesabımı oluştur", "Zaten hesabınız var mı?", "Adınız", "En az 8 karakter"]),
    ("/portal/sifremi-unuttum", ["Forgot my password", "Send link", "Back to login"],
     ["Şifremi unuttum", "Bağlantı gönder", "Girişe dön"]),
    ("/portal/sifremi-unuttum/gonderildi", ["Check your email"], ["E-postanızı kontrol edin"]),
    ("/portal/kayit/gonderildi", ["Check your email", "spam folder"], ["E-postanızı kontrol edin"]),
    ("/portal/yok-boyle-bir-sayfa", ["Page not found", "Back to the portal"], ["Sayfa bulunamadı", "Portala dön"]),
])
def test_anonymous_pages_follow_accept_language(yol, ingilizce, turkce):
    for baslik, beklenen, olmayan, kod in (("en-US,en;q=0.9", ingilizce, turkce, "en"),
                                          ("tr-TR", turkce, ingilizce, "tr"),
                                          (None, turkce, ingilizce, "tr"),
                                          ("de-DE,fr;q=0.8", turkce, ingilizce, "tr")):
        res = _tarayici(baslik).get(yol)
        html = res.content.decode()
        assert _dil_ozniteligi(html) == kod, (yol, baslik)
        for metin in beklenen:
            assert metin in html, (yol, baslik, metin)
        for metin in olmayan:
            assert metin not in html, (yol, baslik, metin)


def test_a_wrong_login_says_so_in_the_browsers_language():
    user = _uye(dil="tr")
    res = _tarayici("en").post("/portal/giris", {"email": user.email, "sifre": "yanlis-sifre-1"})
    assert "Incorrect email address or password." in res.content.decode()
    res = _tarayici("tr").post("/portal/giris", {"email": user.email, "sifre": "yanlis-sifre-1"})
    assert "E-posta adresi ya da şifre hatalı." in res.content.decode()


def _kayit(t: Tarayici, email: str):
    veri = {"email": email, "sifre": "Mavi-Deniz-2026", "firma_adi": "Kuzey Kitap", "ad": "Ada"}
    res = arkada_isle(t.post, "/portal/kayit", veri)
    assert res.status_code == 302 and res["Location"] == "/portal/kayit/gonderildi", res.content.decode()[:1500]
    mail = gonderilen(email)
    yol = re.search(r"https?://[^/\s]+(/portal/kayit/onay/\S+)", mail.body).group(1)
    html = _html(t.get(yol))
    res = t.post(yol)
    assert res.status_code == 302 and res["Location"] == "/portal/"
    return html


@pytest.mark.parametrize("baslik, dil", [("en-US,en;q=0.9", "en"), ("tr", "tr"), ("de", ""), (None, "")])
def test_sign_up_stores_the_browsers_language(baslik, dil):
    t = _tarayici(baslik)
    onay = _kayit(t, "yeni@ornek.com")
    assert Kullanici.objects.get(email="yeni@ornek.com").dil == dil
    html = _html(t.get("/portal/"))
    if dil == "en":
        assert "Activate your account" in onay and "Hesabınızı etkinleştirin" not in onay
        assert "Welcome! Your project “Kuzey Kitap” is ready, with a 14-day trial." in html
        assert _dil_ozniteligi(html) == "en" and "Overview" in html
    else:
        assert "Hesabınızı etkinleştirin" in onay
        assert "Hoş geldiniz! “Kuzey Kitap” projeniz 14 günlük deneme ile açıldı." in html
        assert _dil_ozniteligi(html) == "tr" and "Genel bakış" in html


@pytest.mark.parametrize("baslik, once, sonra", [
    ("en-US,en;q=0.9", "", "en"),  # never chosen: learnt from the browser
    ("tr-TR", "", "tr"),
    ("de-DE", "", ""),  # nothing we speak: left unchosen (mails then in Turkish)
    ("en", "tr", "tr"),  # a choice is never overwritten
    ("tr", "en", "en"),
])
def test_first_login_stores_the_browsers_language_when_none_was_chosen(baslik, once, sonra):
    user = _uye(dil=once)
    t = _tarayici(baslik)
    _gir(t, user)
    user.refresh_from_db()
    assert user.dil == sonra
    html = _html(t.get("/portal/"))
    assert _dil_ozniteligi(html) == (sonra or "tr")


def test_the_login_redirects_message_speaks_the_members_language():
    # A member with no project: the login's own message is already in the member's language.
    user = Kullanici.objects.create_user(email="bos@ornek.com", password=TEST_SIFRE, dil="en")
    t = _tarayici("tr")
    res = t.giris(user)
    assert res.status_code == 302 and res["Location"] == "/portal/projelerim/yeni"
    html = _html(t.get("/portal/projelerim/yeni"))
    assert "You have no projects yet. Create your first one." in html and "Henüz bir projeniz yok" not in html


@pytest.mark.parametrize("uye_dili, sayfa_dili, ingilizce", [
    ("en", "tr", True),  # the member's own language over the page's
    ("tr", "en", False),
    ("", "en-US", True),  # never chosen: the language of the page that asked
    ("", "tr", False),
])
def test_the_password_reset_mail_is_in_the_members_language(uye_dili, sayfa_dili, ingilizce):
    user = _uye(dil=uye_dili, email="unutkan@ornek.com")
    t = _tarayici(sayfa_dili)
    res = arkada_isle(t.post, "/portal/sifremi-unuttum", {"email": "unutkan@ornek.com"})
    assert res.status_code == 302
    [eposta] = GidenEposta.objects.filter(tur="sifre_sifirlama", alici=user.email)
    mail = gonderilen(user.email)
    metin = mail.get_body(("plain",)).get_content() if hasattr(mail, "get_body") else mail.body
    if ingilizce:
        assert eposta.konu == "SupportDesk password reset" and mail.subject == "SupportDesk password reset"
        assert "We received a request to reset the password of your SupportDesk account" in metin
        assert "If you did not ask for this, you can ignore this email" in metin
        assert "şifre yenileme isteği" not in metin
    else:
        assert eposta.konu == "SupportDesk şifre yenileme"
        assert "SupportDesk hesabınız (unutkan@ornek.com) için şifre yenileme isteği aldık." in metin
        assert "We received a request" not in metin
    # The page the link opens speaks the member's language too (else the browser's).
    yol = re.search(r"https?://[^/\s]+(/portal/sifre-sifirla/\S+)", mail.body).group(1)
    html = _tarayici(sayfa_dili).get(yol, follow=True).content.decode()
    assert ("Set a new password" in html) == ingilizce and ("Yeni şifre belirleyin" in html) != ingilizce
    assert _dil_ozniteligi(html) == ("en" if ingilizce else "tr")


def test_an_operator_sees_the_console_link_and_card_in_their_language():
    musteri = MusteriFactory(firma_adi="Kuzey Kitap")
    user = _uye(dil="en", rol="operator", musteri=musteri)
    t = _tarayici("tr")
    _gir(t, user)
    html = _html(t.get("/portal/"))
    assert 'href="/panel/"' in html
    assert "Operator console" in html and "Open the operator console" in html
    assert "Chats and tickets are in the operator console" in html
    assert "you can see the settings but not change them" in html
    assert "Operatör paneli" not in html and "Operatör panelini aç" not in html and "rolündesiniz" not in html

    Kullanici.objects.filter(pk=user.pk).update(dil="tr")
    html = _html(t.get("/portal/"))
    assert "Operatör paneli" in html and "Operatör panelini aç" in html and "rolündesiniz" in html
    assert "Operator console" not in html


def test_team_actions_answer_in_the_members_language():
    musteri = MusteriFactory(firma_adi="Kuzey Kitap")
    user = _uye(dil="en", musteri=musteri)
    t = _tarayici("tr")
    _gir(t, user)
    html = _html(t.post("/portal/ekip", {"email": "yeni@ornek.com", "rol": "operator", "max_chat_per_tenant": ""}))
    assert "Invitation link" in html and "A one-time link for yeni@ornek.com, valid for 7 days." in html
    assert "Withdraw" in html and "Davet bağlantısı" not in html
    davet = musteri.davetler.get()
    res = t.post(f"/portal/ekip/davet/{davet.id}/iptal")
    assert res.status_code == 302
    assert "The invitation to yeni@ornek.com was withdrawn." in _html(t.get("/portal/ekip"))


def test_error_pages_carry_the_language():
    user = _uye(dil="en")
    t = _tarayici("tr")
    _gir(t, user)
    res = t.get("/portal/gecmis/sohbet/999999")
    html = res.content.decode()
    assert res.status_code == 404 and _dil_ozniteligi(html) == "en"
    assert "Page not found" in html and "Back to the portal" in html and "Sayfa bulunamadı" not in html


def test_a_profile_post_without_a_language_keeps_the_members():
    user = _uye(dil="en")
    t = _tarayici()
    _gir(t, user)
    assert t.post("/portal/hesap", {"ad": "Ada", "avatar": ""}).status_code == 302
    user.refresh_from_db()
    assert user.dil == "en" and user.ad == "Ada"


def test_the_logout_message_speaks_the_login_pages_language():
    user = _uye(dil="en")
    t = _tarayici("tr")
    _gir(t, user)
    res = t.post("/portal/cikis")
    assert res.status_code == 302
    html = _html(t.get("/portal/giris"))
    assert _dil_ozniteligi(html) == "tr" and "Çıkış yaptınız." in html


@pytest.mark.parametrize("baslik, kod", [("en-US,en;q=0.9", "en"), ("tr", "tr"), (None, "tr")])
def test_the_api_docs_and_the_500_page_carry_the_language(client, rf, baslik, kod):
    from django.views.defaults import server_error

    ekstra = {"HTTP_ACCEPT_LANGUAGE": baslik} if baslik else {}
    assert _dil_ozniteligi(client.get("/api/v1/redoc/", **ekstra).content.decode()) == kod
    with translation.override(kod):
        html = server_error(rf.get("/portal/")).content.decode()
    assert _dil_ozniteligi(html) == kod
    assert ("Something went wrong" in html) == (kod == "en")
    assert ("Beklenmeyen bir hata oluştu" in html) == (kod == "tr")


def test_the_demo_page_follows_the_browser(client, settings):
    settings.DEBUG = True
    MusteriFactory(firma_adi="Anadolu Yazılım")
    html = client.get("/demo/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert _dil_ozniteligi(html) == "en"
    assert 'data-sayfa="Pricing"' in html and "Try it free" in html and "operator console" in html
    assert "Fiyatlar" not in html and "Ücretsiz deneyin" not in html
    html = client.get("/demo/").content.decode()
    assert _dil_ozniteligi(html) == "tr" and 'data-sayfa="Fiyatlar"' in html and "Ücretsiz deneyin" in html


def test_the_lockout_page_follows_the_browser(settings):
    from django.test import Client

    settings.AXES_ENABLED = True
    settings.AXES_FAILURE_LIMIT = 3
    user = _uye(dil="tr")
    # The lockout locks the pair of account and address (CONTRACT 18, wave 4): failures and the
    # later attempts come from one address, each in its browser's language.
    for _ in range(3):
        Client(REMOTE_ADDR="10.0.0.1").post("/portal/giris", {"email": user.email, "sifre": "yanlis"})
    res = Client(REMOTE_ADDR="10.0.0.1", HTTP_ACCEPT_LANGUAGE="en").post("/portal/giris",
                                                                         {"email": user.email, "sifre": TEST_SIFRE})
    html = res.content.decode()
    assert res.status_code == 429 and _dil_ozniteligi(html) == "en"
    assert "Login temporarily locked" in html and "too many failed login attempts" in html and "kilitlendi" not in html
    res = Client(REMOTE_ADDR="10.0.0.1").post("/portal/giris", {"email": user.email, "sifre": TEST_SIFRE})
    assert res.status_code == 429 and "Giriş geçici olarak kilitlendi" in res.content.decode()


def test_the_two_step_code_page_speaks_the_members_language():
    from django_otp.plugins.otp_totp.models import TOTPDevice

    user = _uye(dil="en")
    TOTPDevice.objects.create(user=user, name="portal", confirmed=True)
    t = _tarayici("tr")
    res = t.giris(user)
    assert res.status_code == 302 and res["Location"] == "/portal/giris/kod"
    html = _html(t.get("/portal/giris/kod"))
    assert _dil_ozniteligi(html) == "en"
    assert "Enter the 6-digit code from your authenticator app." in html and "Verify" in html
    assert "Verification code" in html and "Doğrula" not in html
    res = t.post("/portal/giris/kod", {"kod": "000000"})
    assert res.status_code == 400 and _dil_ozniteligi(res.content.decode()) == "en"


def test_the_sign_up_link_opens_in_the_sign_ups_language():
    t = _tarayici("en-US")
    veri = {"email": "yeni@ornek.com", "sifre": "Mavi-Deniz-2026", "firma_adi": "Kuzey Kitap", "ad": "Ada"}
    arkada_isle(t.post, "/portal/kayit", veri)
    yol = re.search(r"https?://[^/\s]+(/portal/kayit/onay/\S+)", gonderilen("yeni@ornek.com").body).group(1)
    # Opened in another browser, set to Turkish: the page is English, as the sign-up was.
    html = _html(_tarayici("tr").get(yol))
    assert _dil_ozniteligi(html) == "en" and "Activate my account" in html
    assert "The password you chose when signing up" in html and "Hesabımı etkinleştir" not in html


def test_widget_settings_messages_speak_the_members_language():
    user = _uye(dil="en")
    t = _tarayici("tr")
    _gir(t, user)
    res = t.post("/portal/widget", {"islem": "origin_ekle", "origin": "https://shop.example.com"})
    assert res.status_code == 302
    html = _html(t.get("/portal/widget"))
    assert "https://shop.example.com was added to the allowed origins." in html and "izinli adreslere eklendi" not in html
    res = t.post("/portal/widget", {"islem": "bilinmeyen"})
    assert res.status_code == 400 and "Unknown action." in res.content.decode()

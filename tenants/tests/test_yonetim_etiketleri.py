"""Issue 39 point 9: the Django admin's model and field labels speak the reader's language.
Turkish is the source (`verbose_name` through gettext_lazy), English comes from locale/en."""
import re

import pytest
from django.apps import apps
from django.contrib import admin
from django.test import Client
from django.utils.functional import Promise
from django.utils.translation import override

from chat.models import Oturum
from supportdesk.testing.factories import TEST_SIFRE, KullaniciFactory, MusteriFactory
from supportdesk.testing.fixtures import operator_yap

pytestmark = pytest.mark.django_db
PROJE_UYGULAMALARI = {"arama", "chat", "context", "denetim", "dosyalar", "eposta", "gizlilik", "knowledge", "panel", "portal",
                      "tenants", "tickets", "webhooks"}
# The same word in both languages.
AYNI = {"ticket", "logo", "HTML", "Message-ID", "slug", "SLA"}


def _projenin_modelleri():
    return [m for m in apps.get_models() if m.__module__.split(".")[0] in PROJE_UYGULAMALARI]


# Django's own user fields (AbstractBaseUser, PermissionsMixin) carry Django's translated labels.
DJANGONUN = {"password", "last_login", "is_superuser", "groups", "user_permissions"}


def _alanlar(model):
    return [f for f in model._meta.get_fields()
            if hasattr(f, "verbose_name") and not f.auto_created and f.name not in DJANGONUN | {"id"}]


@pytest.mark.parametrize("model", _projenin_modelleri(), ids=lambda m: m._meta.label)
def test_every_model_and_field_label_is_translatable_and_translated(model):
    meta = model._meta
    etiketler = [("verbose_name", meta.verbose_name), ("verbose_name_plural", meta.verbose_name_plural)]
    etiketler += [(f.name, f.verbose_name) for f in _alanlar(model)]
    for ad, etiket in etiketler:
        assert isinstance(etiket, Promise), (meta.label, ad, etiket)  # gettext_lazy, not a plain str
        with override("tr"):
            turkce = str(etiket)
        with override("en"):
            ingilizce = str(etiket)
        assert turkce != ingilizce or turkce in AYNI, (meta.label, ad, turkce)
        assert not re.search("[çğıöşüÇĞİÖŞÜ]", ingilizce), (meta.label, ad, ingilizce)


@pytest.fixture
def yonetici():
    kok = KullaniciFactory(is_staff=True, is_superuser=True)

    def giris(dil):
        client = Client(HTTP_ACCEPT_LANGUAGE=dil)
        res = client.post("/admin/login/?next=/admin/", {"username": kok.email, "password": TEST_SIFRE})
        assert res.status_code == 302, res.content.decode()[:2000]
        return client
    return giris


def _sayfa(client, url) -> str:
    res = client.get(url)
    assert res.status_code == 200, res.content.decode()[:2000]
    return res.content.decode()


# (url, the English labels, the Turkish ones)
SAYFALAR = [
    ("/admin/", ["Canned responses", "Webhook endpoints", "Outgoing emails", "Knowledge base articles"],
     ["Hazır yanıtlar", "Webhook uç noktaları", "Giden e-postalar", "Bilgi bankası makaleleri"]),
    ("/admin/chat/oturum/", ["Select chat to view", "Visitor name", "Status", "Operator", "Start", "Rating"],
     ["Göstermek için sohbet seçin", "Ziyaretçi adı", "Durum", "Operatör", "Başlangıç", "Puan"]),
    ("/admin/tenants/uyelik/", ["Select membership to change", "User", "Project", "Role", "Muted", "Max concurrent chats"],
     ["Kullanıcı", "Proje", "Rol", "Sessize alındı", "En çok eşzamanlı sohbet"]),
]


@pytest.mark.parametrize(("url", "ingilizce", "turkce"), SAYFALAR)
def test_admin_lists_speak_the_readers_language(yonetici, url, ingilizce, turkce):
    musteri = MusteriFactory()  # a row in each list: an empty list has no column headers
    operator_yap(musteri)
    Oturum.objects.create(musteri=musteri, ziyaretci_id="z1", ziyaretci_adi="Ayşe")
    en = _sayfa(yonetici("en"), url)
    for etiket in ingilizce:
        assert etiket in en, (url, etiket)
    for etiket in turkce:
        assert not re.search(rf"\b{re.escape(etiket)}\b", en), (url, etiket)
    tr = _sayfa(yonetici("tr"), url)
    for etiket in turkce:
        assert etiket in tr, (url, etiket)


def test_admin_change_form_labels_speak_the_readers_language(yonetici):
    musteri = MusteriFactory()
    url = f"/admin/tenants/musteri/{musteri.pk}/change/"
    en = _sayfa(yonetici("en"), url)
    for etiket in ("Company name", "Primary colour", "Launcher position", "Working hours", "Closed message",
                   "Retention (days)", "Widget language", "Created by"):
        assert re.search(rf"<label[^>]*>{re.escape(etiket)}:</label>", en), etiket
    assert "Firma adı" not in en and "Karşılama metni" not in en
    tr = _sayfa(yonetici("tr"), url)
    for etiket in ("Firma adı", "Ana renk", "Başlatıcı konumu", "Çalışma saatleri", "Oluşturan"):
        assert re.search(rf"<label[^>]*>{re.escape(etiket)}:</label>", tr), etiket


def test_every_registered_model_has_english_names_in_the_admin():
    with override("en"):
        adlar = {str(m._meta.verbose_name_plural) for m in admin.site._registry
                 if m.__module__.split(".")[0] in PROJE_UYGULAMALARI}
    assert {"chats", "tickets", "canned responses", "audit log entries", "files to delete"} <= adlar, adlar

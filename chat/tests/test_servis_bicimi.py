"""The service shape (issue 40, docs/architecture.md "Service shape"): an operator's or a rule's
chat action is handed the chat its caller resolved, and decides only on what it reads again under
its own row lock, so an object read before a colleague's move passes no check."""
import inspect

import pytest

from chat import services
from chat.models import Mesaj, Oturum
from supportdesk.core.exceptions import Bulunamadi, DurumCakismasi
from supportdesk.testing.fixtures import operator_yap

from .yardimci import baslat, widget_client

pytestmark = pytest.mark.django_db

OPERATOR_EYLEMLERI = (
    "chat_kabul_et", "chat_aktar", "chat_ekibe_aktar", "chat_operatore_ata", "chat_operator_kapat",
    "chat_operator_mesaj_gonder", "chat_operator_not_yaz", "chat_etiketleri_ayarla", "chat_ertele", "chat_uyandir",
    "chat_ticketa_cevir", "chat_otomatik_yanit", "chat_sistem_kapat",
)
# Their scope check (tenant and visitor) and row lock are one statement (issue 41): they keep the id.
ZIYARETCI_EYLEMLERI = ("chat_ziyaretci_mesaj_gonder", "chat_ziyaretci_bitir", "chat_puanla", "chat_ticketa_donusecek")


def test_operator_actions_take_the_chat_and_visitor_actions_its_id():
    for ad in OPERATOR_EYLEMLERI:
        parametreler = inspect.signature(getattr(services, ad)).parameters
        assert "oturum" in parametreler and not {"oturum_id", "musteri_idleri"} & set(parametreler), ad
    for ad in ZIYARETCI_EYLEMLERI:
        assert "oturum_id" in inspect.signature(getattr(services, ad)).parameters, ad


def test_an_object_read_while_waiting_does_not_let_a_plain_operator_close_a_colleagues_chat(musteri):
    a, b = operator_yap(musteri), operator_yap(musteri)
    o = baslat(widget_client(musteri), "z1")
    eski = Oturum.objects.get(pk=o["id"])  # a's view read it waiting
    services.chat_kabul_et(kullanici=b, oturum=Oturum.objects.get(pk=o["id"]))
    assert eski.durum == Oturum.Durum.BEKLIYOR
    for eylem in (lambda: services.chat_operator_kapat(kullanici=a, oturum=eski),
                  lambda: services.chat_ertele(kullanici=a, oturum=eski, kadar=None),
                  lambda: services.chat_operator_mesaj_gonder(kullanici=a, oturum=eski, icerik="Merhaba")):
        with pytest.raises(DurumCakismasi):  # CONTRACT 3a: stepping in, decided on the locked row
            eylem()
    oturum = Oturum.objects.get(pk=o["id"])
    assert (oturum.durum, oturum.operator_id, oturum.ertelendi_kadar, oturum.ertelendi_ziyaretci) == (
        Oturum.Durum.AKTIF, b.id, None, False)
    assert not Mesaj.objects.filter(oturum_id=o["id"], gonderen="operator").exists()


def test_a_chat_gone_since_its_lookup_is_a_404(musteri):
    a = operator_yap(musteri)
    o = baslat(widget_client(musteri), "z1")
    eski = Oturum.objects.get(pk=o["id"])
    Oturum.objects.filter(pk=o["id"]).delete()
    for eylem in (lambda: services.chat_operator_kapat(kullanici=a, oturum=eski),
                  lambda: services.chat_operator_mesaj_gonder(kullanici=a, oturum=eski, icerik="Merhaba"),
                  lambda: services.chat_sistem_kapat(oturum=eski)):
        with pytest.raises(Bulunamadi):
            eylem()

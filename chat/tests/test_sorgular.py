"""chat.sorgular (issue 12): the visitor's message in one PostgreSQL statement writes exactly what
the ORM's two steps wrote, and nothing at all when the chat is not the visitor's open chat.
The race with a close is in test_yarislar (through the service)."""
import pytest
from django.db import connection

from chat import sorgular
from chat.models import Mesaj, Oturum
from supportdesk.testing.factories import MusteriFactory

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif("connection.vendor != 'postgresql'", reason="PostgreSQL-only statement"),
]


def yaz(oturum, *, ziyaretci_id=None, musteri_id=None, icerik="Merhaba", ek=None):
    mesaj = Mesaj(musteri_id=musteri_id or oturum.musteri_id, oturum_id=oturum.pk, gonderen=Mesaj.Gonderen.ZIYARETCI,
                  icerik=icerik, ek=ek)
    yazildi = sorgular.ziyaretci_mesaji_yaz(mesaj=mesaj, ziyaretci_id=ziyaretci_id or oturum.ziyaretci_id,
                                            onizleme=icerik[:10], durumlar=Oturum.ACIK_DURUMLAR)
    return yazildi, mesaj


@pytest.mark.parametrize("durum", [Oturum.Durum.BEKLIYOR, Oturum.Durum.AKTIF])
def test_an_open_chat_gets_the_message_preview_and_unread_count(durum):
    musteri = MusteriFactory()
    oturum = Oturum.objects.create(musteri=musteri, ziyaretci_id="z", durum=durum, okunmamis=2)
    yazildi, mesaj = yaz(oturum, icerik="Siparişim nerede? Bir haftadır bekliyorum.")
    assert yazildi and mesaj.pk and not mesaj._state.adding
    kayit = Mesaj.objects.get(pk=mesaj.pk)
    assert (kayit.musteri_id, kayit.oturum_id, kayit.gonderen, kayit.icerik, kayit.ek_id, kayit.operator_id) == (
        musteri.pk, oturum.pk, "ziyaretci", "Siparişim nerede? Bir haftadır bekliyorum.", None, None)
    assert kayit.zaman == mesaj.zaman
    oturum.refresh_from_db()
    assert (oturum.son_mesaj, oturum.okunmamis) == ("Siparişim ", 3)


def test_the_attachment_is_stored():
    from dosyalar.models import Dosya

    musteri = MusteriFactory()
    oturum = Oturum.objects.create(musteri=musteri, ziyaretci_id="z")
    dosya = Dosya.objects.create(musteri=musteri, ziyaretci_id="z", dosya="x/a.png", ad="a.png", boyut=3)
    yazildi, mesaj = yaz(oturum, ek=dosya)
    assert yazildi and Mesaj.objects.get(pk=mesaj.pk).ek_id == dosya.pk


@pytest.mark.parametrize("neden", ["kapali", "baska_ziyaretci", "baska_musteri", "yok"])
def test_nothing_is_written_outside_the_visitors_open_chat(neden):
    musteri, baska = MusteriFactory(), MusteriFactory()
    oturum = Oturum.objects.create(musteri=musteri, ziyaretci_id="z", okunmamis=1, son_mesaj="eski",
                                   durum=Oturum.Durum.KAPANDI if neden == "kapali" else Oturum.Durum.BEKLIYOR)
    if neden == "yok":
        oturum_id = oturum.pk
        oturum.pk = oturum_id + 10_000
    yazildi, mesaj = yaz(oturum, ziyaretci_id="baskasi" if neden == "baska_ziyaretci" else None,
                         musteri_id=baska.pk if neden == "baska_musteri" else None)
    assert not yazildi and mesaj.pk is None
    assert Mesaj.objects.count() == 0
    assert Oturum.objects.filter(son_mesaj="eski", okunmamis=1).count() == 1


def test_the_statement_is_built_once():
    assert sorgular._ziyaretci_mesaji_sql() is sorgular._ziyaretci_mesaji_sql()
    sql, _ = sorgular._ziyaretci_mesaji_sql()
    assert sql.startswith("WITH e AS (SELECT") and connection.vendor == "postgresql"


@pytest.mark.parametrize(("kadar", "ziyaretci"), [(True, False), (False, True), (False, False)])
def test_the_message_wakes_a_snoozed_chat_and_says_so(kadar, ziyaretci):
    # CONTRACT 24: the visitor's message wakes its chat in the same statement.
    from django.utils import timezone

    musteri = MusteriFactory()
    oturum = Oturum.objects.create(musteri=musteri, ziyaretci_id="z", durum=Oturum.Durum.AKTIF,
                                   ertelendi_kadar=timezone.now() + timezone.timedelta(hours=1) if kadar else None,
                                   ertelendi_ziyaretci=ziyaretci)
    yazildi, mesaj = yaz(oturum)
    assert yazildi and yazildi[:3] == ("aktif", None, kadar or ziyaretci) and mesaj.pk
    oturum.refresh_from_db()
    assert (oturum.ertelendi_kadar, oturum.ertelendi_ziyaretci, oturum.okunmamis) == (None, False, 1)

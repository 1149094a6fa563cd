"""The event publisher (`supportdesk.core.olaylar`): who is registered, what runs inside the
transaction, what runs after commit, and that a rollback drops the event for everyone."""
import os
import subprocess
import sys

import pytest
from django.conf import settings
from django.db import connection, transaction

from chat.models import Oturum
from supportdesk.core import olaylar
from supportdesk.core.olaylar import yayinla
from supportdesk.testing.fixtures import widget_client
from webhooks.models import Olay
from webhooks.outbox import olay_yaz

BASLAT = "/api/v1/widget/chat/start"
PUAN = "/api/v1/widget/chat/rate"


@pytest.fixture
def commit_sonrasi():
    """A test handler on the after-commit hook; records each event with whether a transaction was
    still open and whether the outbox row was already visible."""
    alinan = []

    def alici(olay):
        alinan.append((olay, connection.in_atomic_block, Olay.objects.filter(pk=olay.id).exists()))

    olaylar.dinle(*olaylar.OLAYLAR)(alici)
    yield alinan
    olaylar.dinlemeyi_birak(alici)


def test_webhooks_outbox_uygulama_acilirken_kaydolur():
    # A fresh process: importing nothing of webhooks by hand, django.setup() alone must register
    # the outbox writer, or every event of production would be lost.
    betik = (
        "import django\n"
        "django.setup()\n"
        "from supportdesk.core import olaylar\n"
        "print([f'{f.__module__}.{f.__name__}' for f in olaylar.dinleyiciler('yeni_chat')[0]])\n"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "supportdesk.test_settings"}
    out = subprocess.run([sys.executable, "-c", betik], cwd=settings.BASE_DIR, env=env, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    # The outbox alone: the start's routing is a direct call of its action (issue 40), not a listener.
    assert out.stdout.strip() == "['webhooks.outbox.olay_yaz']"
    assert all(olaylar.dinleyiciler(ad)[0][0] == olay_yaz for ad in olaylar.OLAYLAR)


@pytest.mark.django_db
def test_kayitli_alici_yoksa_olay_sessizce_kaybolmaz(musteri, monkeypatch):
    monkeypatch.setitem(olaylar._islem_icinde, "yeni_chat", [])
    with pytest.raises(RuntimeError):
        yayinla("yeni_chat", musteri_id=musteri.id, veri={})
    assert not Olay.objects.exists()


@pytest.mark.django_db
def test_bilinmeyen_olay_adi_programlama_hatasi(musteri):
    with pytest.raises(ValueError):
        yayinla("yeni_sey", musteri_id=musteri.id, veri={})


@pytest.mark.django_db(transaction=True)
def test_widget_chat_start_olayi_commit_sonrasi_alicisina_ulasir(musteri, commit_sonrasi):
    widget = widget_client(musteri)
    res = widget.post(BASLAT, {"ziyaretci_id": "z1", "ad": "Ayşe"}, format="json")
    assert res.status_code == 201, res.content
    oturum_id = res.json()["data"]["oturum"]["id"]
    [(olay, acik_islem, satir_gorunur)] = commit_sonrasi
    assert olay.olay == "yeni_chat" and olay.musteri_id == musteri.id
    assert olay.veri == {"oturum_id": oturum_id, "musteri_id": musteri.id, "ziyaretci_adi": "Ayşe", "kanal": "widget",
                         "etiketler": [], "ekip_id": None}
    assert not acik_islem and satir_gorunur  # after the commit, with the outbox row saved
    assert Olay.objects.get().pk == olay.id  # one identity: the webhook's X-Webhook-Id is this id

    # The visitor's open chat returned again is not a new chat: nothing is published.
    assert widget.post(BASLAT, {"ziyaretci_id": "z1"}, format="json").status_code == 200
    assert len(commit_sonrasi) == 1


@pytest.mark.django_db(transaction=True)
def test_basarisiz_servis_cagrisi_olay_yayinlamaz(musteri, commit_sonrasi):
    widget = widget_client(musteri)
    oturum_id = widget.post(BASLAT, {"ziyaretci_id": "z1"}, format="json").json()["data"]["oturum"]["id"]
    commit_sonrasi.clear()
    res = widget.post(PUAN, {"ziyaretci_id": "z1", "oturum_id": oturum_id, "puan": 5}, format="json")
    assert res.status_code == 409, res.content  # a waiting chat cannot be rated
    assert res.json()["hata"]["kod"] == "DURUM_CAKISMASI"
    assert commit_sonrasi == [] and list(Olay.objects.values_list("olay", flat=True)) == ["yeni_chat"]


@pytest.mark.django_db(transaction=True)
def test_islem_icindeki_alici_hata_verirse_her_sey_geri_alinir(musteri, commit_sonrasi):
    # An in-transaction handler failing after the outbox wrote: the chat, the outbox row and the
    # after-commit hook all go with the rollback.
    def bozuk(olay):
        raise RuntimeError("alıcı bozuk")

    olaylar.dinle("yeni_chat", islem_icinde=True)(bozuk)
    try:
        res = widget_client(musteri).post(BASLAT, {"ziyaretci_id": "z1"}, format="json")
    finally:
        olaylar.dinlemeyi_birak(bozuk)
    assert res.status_code == 500 and res.json()["hata"]["kod"] == "SUNUCU_HATASI"
    assert not Olay.objects.exists() and commit_sonrasi == []
    assert not Oturum.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_geri_alinan_islemde_kanca_calismaz_commit_sirasi_korunur(musteri, commit_sonrasi):
    with pytest.raises(RuntimeError), transaction.atomic():
        yayinla("chat_kapandi", musteri_id=musteri.id, veri={"geri": True})
        raise RuntimeError
    assert commit_sonrasi == [] and not Olay.objects.exists()

    with transaction.atomic():
        yayinla("yeni_chat", musteri_id=musteri.id, veri={"sira": 1})
        yayinla("chat_kapandi", musteri_id=musteri.id, veri={"sira": 2})
        assert commit_sonrasi == []  # not before the commit
    assert [o.veri["sira"] for o, _, _ in commit_sonrasi] == [1, 2]


@pytest.mark.django_db(transaction=True)
def test_commit_sonrasi_alici_hatasi_cagirana_ulasmaz(musteri, commit_sonrasi):
    def bozuk(olay):
        raise RuntimeError("soket katmanı çöktü")

    olaylar.dinle("yeni_ticket")(bozuk)
    try:
        olayi = yayinla("yeni_ticket", musteri_id=musteri.id, veri={})
    finally:
        olaylar.dinlemeyi_birak(bozuk)
    # The change is saved; the failing handler is logged, and the one registered before it ran.
    assert Olay.objects.filter(pk=olayi.id).exists() and len(commit_sonrasi) == 1

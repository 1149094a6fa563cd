"""The one background runner (supportdesk/core/kosucu.py): start, stop, fork, after commit, and the
beat timetable without a beat."""
import os
import threading
import time

import pytest
from celery import shared_task
from django.db import transaction
from django.test import Client

from supportdesk.celery import app as celery_app
from supportdesk.core import kosucu as kosucu_mod
from supportdesk.core.kosucu import Kosucu

CALISANLAR: list = []


@shared_task(name="kosucu_test.kaydet")
def kaydet(deger) -> None:
    CALISANLAR.append((deger, threading.current_thread().name, int(time.time())))


@pytest.fixture
def brokersiz(settings):
    """`make run`: eager Celery (no broker), the timetable on."""
    onceki = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    settings.KOSUCU_ZAMANLAYICI = True
    CALISANLAR.clear()
    yield
    celery_app.conf.task_always_eager = onceki
    kosucu_mod.durdur(2)


def _bekle(kosul, timeout=5.0) -> bool:
    bitis = time.monotonic() + timeout
    while time.monotonic() < bitis:
        if kosul():
            return True
        time.sleep(0.02)
    return kosul()


def test_kulvar_calistirir_durunca_kabul_etmez_ve_ipliklerini_bitirir():
    k = Kosucu()
    sonuc = []
    k.calistir("deneme", sonuc.append, 1).result(timeout=5)
    k.sonra(0.05, sonuc.append, 2)
    assert _bekle(lambda: sonuc == [1, 2])
    k.durdur(2)
    assert k.calistir("deneme", sonuc.append, 3) is None
    k.sonra(0, sonuc.append, 4)
    time.sleep(0.1)  # a window for what must not happen: a stopped runner running 3 or 4
    assert sonuc == [1, 2]
    assert not [t for t in threading.enumerate() if t.name.startswith("kosucu-deneme")]


def test_hata_loglanir_kulvar_yasamaya_devam_eder(caplog):
    k = Kosucu()
    sonuc = []
    try:
        with caplog.at_level("ERROR", logger="supportdesk.core.kosucu"):
            k.calistir("deneme", lambda: 1 / 0).result(timeout=5)  # the job's error stays in the lane
        assert "deneme kulvarında" in caplog.text and "ZeroDivisionError" in caplog.text
        k.calistir("deneme", sonuc.append, 7).result(timeout=5)
        assert sonuc == [7]  # the lane still runs the next job
    finally:
        k.durdur(2)


def test_sirali_hat_sirayi_korur():
    k = Kosucu()
    gelen = []

    async def isci(i):
        gelen.append(i)

    try:
        for i in range(200):
            k.sirala("deneme", str(i), isci, i)
        k.siralari_bosalt(5)
        assert gelen == list(range(200))
    finally:
        k.durdur(2)


def test_catallanan_cocuk_kendi_kosucusunu_kurar():
    ebeveyn = kosucu_mod.kosucu()
    ebeveyn.calistir("deneme", lambda: None).result(timeout=5)
    okuma, yazma = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: none of the parent's threads; a new runner that works
        try:
            k = kosucu_mod.kosucu()
            ok = k is not ebeveyn and k.pid == os.getpid() and k.calistir("deneme", lambda: 5).result(timeout=5) is None
            os.write(yazma, b"1" if ok else b"0")
        finally:
            os._exit(0)
    os.close(yazma)
    os.waitpid(pid, 0)
    assert os.read(okuma, 1) == b"1"
    os.close(okuma)
    assert kosucu_mod.kosucu() is ebeveyn
    kosucu_mod.durdur(2)


@pytest.mark.django_db(transaction=True)
def test_commit_sonrasi_is_kosucuda_calisir_geri_alinirsa_hic(brokersiz):
    with transaction.atomic():
        kosucu_mod.commit_sonrasi(kaydet, "commit")
        assert CALISANLAR == []  # not before the commit
    with pytest.raises(RuntimeError), transaction.atomic():
        kosucu_mod.commit_sonrasi(kaydet, "geri")
        raise RuntimeError
    assert _bekle(lambda: len(CALISANLAR) == 1)
    time.sleep(0.1)  # a window for what must not happen: the rolled-back job running after all
    [(deger, iplik, _)] = CALISANLAR
    assert deger == "commit" and iplik.startswith("kosucu-gorevler")  # off the request's thread


def test_brokerle_gorev_brokere_gider(monkeypatch):
    onceki = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = False
    giden = []
    CALISANLAR.clear()
    monkeypatch.setattr(kaydet, "delay", lambda *a: giden.append(a))
    try:
        kosucu_mod.gorev_gonder(kaydet, "x")
    finally:
        celery_app.conf.task_always_eager = onceki
    assert giden == [("x",)] and CALISANLAR == []


@pytest.mark.django_db
def test_varsayilan_yapilandirmada_ilk_istek_zaman_cizelgesini_baslatir(brokersiz, settings):
    # `make run`: no broker, no beat; the web process's first request starts the timetable.
    settings.CELERY_BEAT_SCHEDULE = {"deneme": {"task": "kosucu_test.kaydet", "schedule": 1, "args": ["p"]}}
    kosucu_mod.durdur(2)  # a fresh process
    Client().get("/portal/")
    assert _bekle(lambda: len(CALISANLAR) >= 2, timeout=4)
    Client().get("/portal/")  # once per process: not registered twice
    time.sleep(1.2)  # a window for what must not happen: a second registration running the job twice in the next period
    dilimler = [d for _, _, d in CALISANLAR]
    assert len(dilimler) == len(set(dilimler)), CALISANLAR


def test_iki_kosucu_bir_periyotta_bir_kez_calistirir(brokersiz, settings):
    settings.CELERY_BEAT_SCHEDULE = {"ikili": {"task": "kosucu_test.kaydet", "schedule": 1, "args": ["p"]}}
    birinci, ikinci = Kosucu(), Kosucu()
    try:
        assert kosucu_mod.zamanlanmis_isleri_baslat(birinci) and kosucu_mod.zamanlanmis_isleri_baslat(ikinci)
        # Three periods run (distinct slots), however long the loaded machine takes to get there.
        assert _bekle(lambda: len({d for _, _, d in CALISANLAR}) >= 3, timeout=15), CALISANLAR
    finally:
        birinci.durdur(2)
        ikinci.durdur(2)
    dilimler = [d for _, _, d in CALISANLAR]
    assert len(dilimler) >= 3 and len(dilimler) == len(set(dilimler)), CALISANLAR


def test_brokerle_zaman_cizelgesi_celery_beatte_kalir(settings):
    onceki = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = False
    settings.KOSUCU_ZAMANLAYICI = True
    try:
        assert kosucu_mod.zamanlanmis_isleri_baslat(Kosucu()) is False
    finally:
        celery_app.conf.task_always_eager = onceki


def test_make_runda_beatin_butun_isleri_kosucuda(brokersiz, settings):
    # Every job of the production timetable (webhook and mail sweeps, chat time-outs, clean-ups)
    # is on the runner's timetable without a broker.
    k = Kosucu()
    try:
        assert kosucu_mod.zamanlanmis_isleri_baslat(k)
        assert k._periyodik == set(settings.CELERY_BEAT_SCHEDULE) >= {
            "webhook-vadesi-gelenler", "eposta-vadesi-gelenler", "sohbet-zaman-asimlari", "sahipsiz-dosyalar"}
        assert all(ad in celery_app.tasks for ad in (t["task"] for t in settings.CELERY_BEAT_SCHEDULE.values()))
    finally:
        k.durdur(2)


def test_isin_kulvarda_istegin_kimligiyle_calisir():
    # Without a broker a request's task runs on a lane: its log lines carry the request's id, as
    # they do in a Celery worker (CONTRACT 20).
    from supportdesk.core import gunluk

    k = Kosucu()
    tokenlar = gunluk.istek_baslat("istek-123")
    try:
        gorulen = []
        k.calistir("deneme", lambda: gorulen.append(gunluk.current_request_id())).result(timeout=5)
        assert gorulen == ["istek-123"]
    finally:
        gunluk.istek_bitir(tokenlar)
        k.durdur(2)
    assert gunluk.current_request_id() == "-"


"""The read replica (CONTRACT 26), against a real streaming replica (supportdesk.testing.replika):
a report-like read (the audit list) is answered by the replica; the caller who just wrote reads its
write from the primary; a replica lagging past the threshold, stopped, or dying between the check
and the query never makes an answer wrong or a request fail.

Replay paused on the replica (`pg_wal_replay_pause()`) is how a row present on the primary only is
made: an answer that lacks it came from the replica, one that has it from the primary.
"""
import json
import time

import pytest
import requests

from supportdesk.core import replika
from supportdesk.testing.canli_sunucu import CanliSunucu
from supportdesk.testing.replika import replikali_kume  # noqa: F401 (fixture)

SIFRE = "Replika-Sifre-1"


@pytest.fixture(scope="module")
def proje(replikali_kume):  # noqa: F811
    musteri = json.loads(replikali_kume.manage("musteri_olustur", "--firma-adi", "Replika AŞ", "--json"))
    for email in ("yazan@replika.test", "okuyan@replika.test"):
        replikali_kume.manage("operator_olustur", "--email", email, "--sifre", SIFRE, "--musteri", str(musteri["id"]),
                              "--rol", "yonetici", "--json")
    return musteri["id"]


@pytest.fixture(scope="module")
def sunucu_baslat(replikali_kume, tmp_path_factory):  # noqa: F811
    sunucular = []

    def baslat(**ayarlar: str) -> CanliSunucu:
        ortam = {"DATABASE_REPLICA_URL": replikali_kume.replika_url, "REPLIKA_YAZ_OKU_SANIYE": "3",
                 "REPLIKA_DENETIM_ARALIGI": "0.1", "REPLIKA_AZAMI_GECIKME": "300", **ayarlar}
        sunucu = CanliSunucu(tmp=tmp_path_factory.mktemp("replika"), veritabani_url=replikali_kume.birincil_url,
                             ek_ortam=ortam)
        sunucular.append(sunucu)
        return sunucu

    yield baslat
    for sunucu in sunucular:
        sunucu.kapat()


def _giris(sunucu: CanliSunucu, email: str) -> dict:
    res = requests.post(f"{sunucu.url}/api/v1/auth/login", json={"email": email, "sifre": SIFRE}, timeout=10)
    assert res.status_code == 200, res.text
    return {"Authorization": f"Bearer {res.json()['data']['token']}"}


def _etiket_olustur(sunucu: CanliSunucu, basliklar: dict, musteri_id: int, ad: str) -> str:
    res = requests.post(f"{sunucu.url}/api/v1/operator/tenants/{musteri_id}/etiketler", json={"ad": ad},
                        headers=basliklar, timeout=10)
    assert res.status_code == 201, res.text
    return f"etiket:{res.json()['data']['etiket']['id']}"


def _denetim_hedefleri(sunucu: CanliSunucu, basliklar: dict, musteri_id: int) -> set[str]:
    res = requests.get(f"{sunucu.url}/api/v1/operator/tenants/{musteri_id}/denetim", headers=basliklar, timeout=10)
    assert res.status_code == 200, res.text
    return {k["hedef"] for k in res.json()["data"]["kayitlar"]}


def _bekle(kosul, saniye: float = 20, aciklama: str = "") -> None:
    bitis = time.monotonic() + saniye
    while not kosul():
        assert time.monotonic() < bitis, aciklama
        time.sleep(0.05)


@pytest.fixture
def duraklatilmis(replikali_kume):  # noqa: F811
    replikali_kume.oynatmayi_duraklat()
    yield replikali_kume
    replikali_kume.oynatmayi_surdur()


def test_rapor_replikadan_yazan_kendi_yazdigini_birincilden_okur(proje, sunucu_baslat, duraklatilmis):
    sunucu = sunucu_baslat()
    yazan, okuyan = _giris(sunucu, "yazan@replika.test"), _giris(sunucu, "okuyan@replika.test")

    hedef = _etiket_olustur(sunucu, yazan, proje, "yalnız birincilde")

    # The writer, at once: its write, from the primary (read-your-writes).
    assert hedef in _denetim_hedefleri(sunucu, yazan, proje)
    # Another member: the replica, whose replay is paused, has not got it.
    assert hedef not in _denetim_hedefleri(sunucu, okuyan, proje)
    # The writer's few seconds over, it reads from the replica too.
    _bekle(lambda: hedef not in _denetim_hedefleri(sunucu, yazan, proje), aciklama="yazan birincilde kaldı")

    duraklatilmis.oynatmayi_surdur()
    _bekle(lambda: hedef in _denetim_hedefleri(sunucu, okuyan, proje), aciklama="replika yetişmedi")


def test_esigi_asan_gecikmede_birincilden_okunur(proje, sunucu_baslat, duraklatilmis):
    sunucu = sunucu_baslat(REPLIKA_AZAMI_GECIKME="1")
    yazan, okuyan = _giris(sunucu, "yazan@replika.test"), _giris(sunucu, "okuyan@replika.test")
    hedef = _etiket_olustur(sunucu, yazan, proje, "gecikme")
    # Replay paused with a write waiting: the lag grows past the threshold (1 s) ...
    _bekle(lambda: duraklatilmis.replikada(replika.GECIKME_SQL)[0] > 1.5, aciklama="gecikme büyümedi")
    # ... and the reader gets the primary's answer, with the write.
    assert hedef in _denetim_hedefleri(sunucu, okuyan, proje)


def test_replika_durunca_istekler_dogru_ve_200(proje, sunucu_baslat, replikali_kume):  # noqa: F811
    # Checked once a minute: the replica dies after the check, so the query itself fails and the
    # view runs again on the primary; the other server checks often and finds it dead first.
    seyrek = sunucu_baslat(REPLIKA_DENETIM_ARALIGI="60")
    sik = sunucu_baslat()
    yazan = _giris(seyrek, "yazan@replika.test")
    okuyanlar = {s: _giris(s, "okuyan@replika.test") for s in (seyrek, sik)}
    for s, basliklar in okuyanlar.items():
        _denetim_hedefleri(s, basliklar, proje)  # the replica answers; `seyrek` keeps that for a minute

    replikali_kume.replika_durdur()
    try:
        hedef = _etiket_olustur(seyrek, yazan, proje, "replika yok")
        for s, basliklar in okuyanlar.items():
            assert hedef in _denetim_hedefleri(s, basliklar, proje)
            res = requests.get(f"{s.url}/api/v1/operator/ara", params={"q": "replika"}, headers=basliklar, timeout=10)
            assert res.status_code == 200, res.text
    finally:
        replikali_kume.replika_baslat()


@pytest.mark.django_db
def test_replika_yokken_her_sey_birincilde_ve_isaret_konmaz(settings, operator_client, operator, musteri):
    # Without DATABASE_REPLICA_URL (every other test): the router names the primary, the marked
    # views run as they are, and a write sets no marker (the middleware is not installed).
    from django.core.cache import cache

    assert "replica" not in settings.DATABASES
    assert replika.ReplikaYonlendirici().db_for_read(None) == "default"
    assert not replika.replikadan_okunabilir(None)
    res = operator_client.post(f"/api/v1/operator/tenants/{musteri.id}/etiketler", {"ad": "x"}, format="json")
    assert res.status_code == 201, res.content
    assert cache.get(replika._isaret_anahtari(operator.pk)) is None
    res = operator_client.get(f"/api/v1/operator/ara?q=fatura&musteri_id={musteri.id}")
    assert res.status_code == 200, res.content

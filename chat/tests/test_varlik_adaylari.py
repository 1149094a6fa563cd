"""A widget request reads presence for its own tenant's members only (tenants.musteri_onbellegi.adaylar):
its cost follows the tenant's team, not how many operators are online on the whole platform, and
a member who joins is seen by the very next request of every process.

Needs Redis as the cache (CI has it); without it presence lives in the process and is read whole."""
import pytest
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache

from supportdesk.core import varlik
from supportdesk.testing.factories import MusteriFactory
from tenants import musteri_onbellegi, on_okuma
from tenants.models import Uyelik

from .yardimci import W_MESAJLAR, baslat, ok, operator_istemcisi, operator_yap, widget_client

pytestmark = pytest.mark.django_db

BASKALARI = range(10**9, 10**9 + 400)  # operators of other tenants, online


@pytest.fixture(autouse=True)
def _redis():
    if not isinstance(caches["default"], RedisCache):
        pytest.skip("Varlık daraltması Redis ister (CI kullanır).")


@pytest.fixture
def okumalar(monkeypatch):
    """Every pre-read made (a spy: the real script still runs)."""
    kayit = []
    gercek = on_okuma.on_oku

    def kaydet(*args, **kwargs):
        on = gercek(*args, **kwargs)
        if on is not None:
            kayit.append(on)
        return on

    monkeypatch.setattr(on_okuma, "on_oku", kaydet)
    return kayit


def _cevrimici_yap(*kullanicilar):
    """Online and reachable (a REST call just now); ids alone are other tenants' operators."""
    for k in kullanicilar:
        if not isinstance(k, int):
            k.durum = "cevrimici"
            k.save(update_fields=["durum"])
        varlik.rest_cagrisi(kullanici_id=k if isinstance(k, int) else k.pk)


def _yokla(widget, o, **kw):
    return ok(widget.get(W_MESAJLAR, {"ziyaretci_id": "z", "oturum_id": o["id"], "sonra": 10**9, **kw}))


def _canli_idler(on) -> set[int]:
    return on.varlik


def test_a_poll_reads_presence_for_its_tenants_members_only(musteri, okumalar, django_assert_num_queries):
    ben = operator_yap(musteri)
    baska = MusteriFactory()
    komsu = operator_yap(baska)
    _cevrimici_yap(ben, komsu, *BASKALARI)
    widget = widget_client(musteri)
    o = baslat(widget, "z")  # the process's first request of the tenant also reads its members
    with django_assert_num_queries(1):  # after that, the poll's own statement and nothing more
        data = _yokla(widget, o, sonra=0)
    assert data["cevrimici_operator"] is True
    on = okumalar[-1]
    assert on.daraltildi and _canli_idler(on) == {ben.pk}  # not the 401 others
    # Away: the same narrowed read sees it.
    ben.durum = "cevrimdisi"
    ben.save(update_fields=["durum"])
    assert _yokla(widget, o)["cevrimici_operator"] is False
    assert okumalar[-1].daraltildi


def test_a_new_member_is_seen_by_the_next_poll_even_where_an_older_list_is_held(musteri, okumalar):
    widget = widget_client(musteri)
    o = baslat(widget, "z")
    _yokla(widget, o)
    eski = musteri_onbellegi.adaylar(musteri.pk)
    assert eski is not None and eski[1] == []
    assert _yokla(widget, o)["cevrimici_operator"] is False and okumalar[-1].daraltildi

    yeni, operator = operator_istemcisi(musteri)  # joins, then goes online over REST
    ok(operator.post("/api/v1/operator/status", {"durum": "cevrimici"}, format="json"))
    # Another process would still hold the old list (this one dropped its own): it must not be used.
    musteri_onbellegi._adaylar[musteri.pk] = (
        eski[0], eski[1], musteri_onbellegi._adaylar.get(musteri.pk, (0, 0, 0))[2] or 10**12)
    assert _yokla(widget, o)["cevrimici_operator"] is True
    assert not okumalar[-1].daraltildi  # the old generation: whole sets read, the new list loaded
    assert musteri_onbellegi.adaylar(musteri.pk)[1] == [yeni.pk]
    assert _yokla(widget, o)["cevrimici_operator"] is True and okumalar[-1].daraltildi


def test_a_member_who_left_is_not_counted(musteri):
    kullanici, operator = operator_istemcisi(musteri)
    ok(operator.post("/api/v1/operator/status", {"durum": "cevrimici"}, format="json"))
    widget = widget_client(musteri)
    o = baslat(widget, "z")
    assert _yokla(widget, o)["cevrimici_operator"] is True
    Uyelik.objects.filter(kullanici=kullanici, musteri=musteri).delete()
    _cevrimici_yap(kullanici)
    assert _yokla(widget, o)["cevrimici_operator"] is False


def test_a_list_read_before_a_membership_committed_is_never_used(musteri, okumalar):
    widget = widget_client(musteri)
    o = baslat(widget, "z")
    _yokla(widget, o)
    nesil = musteri_onbellegi.adaylar(musteri.pk)[0]
    yeni = operator_yap(musteri)  # renews the generation
    _cevrimici_yap(yeni)
    musteri_onbellegi._adaylar.clear()
    # A racing request's read: under the generation before, without the new member.
    Uyelik.objects.filter(kullanici=yeni).update(musteri=MusteriFactory())
    musteri_onbellegi.adaylari_yukle(musteri.pk, nesil)
    Uyelik.objects.filter(kullanici=yeni).update(musteri=musteri)
    assert musteri_onbellegi.adaylar(musteri.pk) == (nesil, [])
    assert _yokla(widget, o)["cevrimici_operator"] is True
    assert not okumalar[-1].daraltildi


def test_a_team_too_large_to_list_is_read_whole_without_a_statement_per_request(
        musteri, okumalar, monkeypatch, django_assert_max_num_queries):
    monkeypatch.setattr(musteri_onbellegi, "ADAY_EN_COK", 2)
    uyeler = [operator_yap(musteri) for _ in range(3)]
    _cevrimici_yap(uyeler[2], *BASKALARI)
    widget = widget_client(musteri)
    o = baslat(widget, "z")
    _yokla(widget, o, sonra=0)
    with django_assert_max_num_queries(1):  # the poll's own statement at most, never the members again
        assert _yokla(widget, o, sonra=0)["cevrimici_operator"] is True
    on = okumalar[-1]
    assert not on.daraltildi and _canli_idler(on) >= {uyeler[2].pk, *BASKALARI}


def test_init_and_start_read_narrowed_too(musteri, okumalar):
    ben = operator_yap(musteri)
    _cevrimici_yap(ben, *BASKALARI)
    widget = widget_client(musteri)
    ok(widget.post("/api/v1/widget/init", {"ziyaretci_id": "z"}, format="json"))
    data = ok(widget.post("/api/v1/widget/init", {"ziyaretci_id": "z"}, format="json"))
    assert data["cevrimici_operator"] is True
    assert okumalar[-1].daraltildi and _canli_idler(okumalar[-1]) == {ben.pk}
    baslat(widget, "z2")
    assert okumalar[-1].daraltildi and _canli_idler(okumalar[-1]) == {ben.pk}


def test_a_refused_request_reads_no_members(musteri, okumalar, settings, django_assert_num_queries):
    settings.WIDGET_RATE_LIMIT = "3/min"
    widget = widget_client(musteri)
    o = baslat(widget, "z")
    musteri_onbellegi._adaylar.clear()
    _yokla(widget, o)
    musteri_onbellegi._adaylar.clear()
    _yokla(widget, o)
    musteri_onbellegi._adaylar.clear()
    with django_assert_num_queries(0):
        yanit = widget.get(W_MESAJLAR, {"ziyaretci_id": "z", "oturum_id": o["id"], "sonra": 10**9})
    assert yanit.status_code == 429
    assert musteri_onbellegi.adaylar(musteri.pk) is None

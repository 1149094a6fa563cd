"""`data.mesai` of the widget's answers and a chat started outside hours (CONTRACT 15)."""
import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from chat.tests.yardimci import W_BITIR, W_MESAJLAR, baslat, ok, widget_client
from tenants.ayarlar import MESAI_DISI_METNI, TICKET_TEKLIFI
from tenants.models import Musteri

pytestmark = pytest.mark.django_db
INIT = "/api/v1/widget/init"
START = "/api/v1/widget/chat/start"
TICKET = "/api/v1/widget/chat/ticket"
ACIK = {"acik": True, "sonraki_acilis": None, "mesaj": ""}
HER_GUN = {g: [["00:00", "24:00"]] for g in ("pzt", "sal", "car", "per", "cum", "cmt", "paz")}
BOLGE = "Pacific/Auckland"


def bugun_tatil(musteri: Musteri, mesaj: str = "") -> str:
    """Open every day round the clock except today (a holiday, in the tenant's zone); the next
    opening is tomorrow's local midnight, as an API timestamp."""
    z = ZoneInfo(BOLGE)
    bugun = timezone.now().astimezone(z).date()
    musteri.saat_dilimi, musteri.calisma_saatleri, musteri.tatiller = BOLGE, HER_GUN, [bugun.isoformat()]
    musteri.mesai_disi_mesaji = mesaj
    musteri.save()
    yarin = dt.datetime.combine(bugun + dt.timedelta(days=1), dt.time(), tzinfo=z)
    return yarin.astimezone(dt.UTC).isoformat()


def init(widget, ziyaretci_id="z-1"):
    return ok(widget.post(INIT, {"ziyaretci_id": ziyaretci_id}, format="json"))


def test_open_by_default_in_every_answer_with_a_chat(musteri, nobetci):
    widget = widget_client(musteri)
    assert init(widget)["mesai"] == ACIK
    res = widget.post(START, {"ziyaretci_id": "z-1", "mesaj": "Merhaba"}, format="json")
    data = ok(res, 201)
    assert data["mesai"] == ACIK and data["oturum"]["ticket_onerisi"] is False
    polled = ok(widget.get(W_MESAJLAR, {"ziyaretci_id": "z-1", "oturum_id": data["oturum"]["id"]}))
    assert polled["mesai"] == ACIK
    assert [m["gonderen"] for m in polled["mesajlar"]] == ["ziyaretci"]  # open, someone reachable: it waits
    assert init(widget)["mesai"] == ACIK
    bitti = ok(widget.post(W_BITIR, {"ziyaretci_id": "z-1", "oturum_id": data["oturum"]["id"]}, format="json"))
    assert bitti["mesai"] == ACIK


def test_closed_init_names_the_next_opening_and_the_services_text(musteri):
    sonraki = bugun_tatil(musteri)
    assert init(widget_client(musteri))["mesai"] == {"acik": False, "sonraki_acilis": sonraki, "mesaj": MESAI_DISI_METNI}


def test_closed_with_no_opening_within_14_days(musteri):
    musteri.calisma_saatleri, musteri.mesai_disi_mesaji = {}, "Bayramdayız."
    musteri.save()
    assert init(widget_client(musteri))["mesai"] == {"acik": False, "sonraki_acilis": None, "mesaj": "Bayramdayız."}


def test_a_chat_started_outside_hours_offers_a_ticket_at_once_with_one_sistem_line(musteri):
    sonraki = bugun_tatil(musteri, mesaj="Pazartesi 09:00'da döneriz.")
    widget = widget_client(musteri)
    data = ok(widget.post(START, {"ziyaretci_id": "z-1", "mesaj": "Merhaba"}, format="json"), 201)
    assert data["oturum"]["ticket_onerisi"] is True and data["oturum"]["durum"] == "bekliyor"
    assert data["mesai"] == {"acik": False, "sonraki_acilis": sonraki, "mesaj": "Pazartesi 09:00'da döneriz."}
    oturum_id = data["oturum"]["id"]
    # the same chat again (a reload, a second start): still one sistem line
    ok(widget.post(START, {"ziyaretci_id": "z-1"}, format="json"), 200)
    for _ in range(2):
        polled = ok(widget.get(W_MESAJLAR, {"ziyaretci_id": "z-1", "oturum_id": oturum_id}))
        assert [(m["gonderen"], m["icerik"]) for m in polled["mesajlar"]] == [
            ("ziyaretci", "Merhaba"), ("sistem", f"Pazartesi 09:00'da döneriz. {TICKET_TEKLIFI}")]
        assert polled["oturum"]["ticket_onerisi"] is True and polled["mesai"]["acik"] is False
    # and the offer is taken as before
    cevap = ok(widget.post(TICKET, {"ziyaretci_id": "z-1", "oturum_id": oturum_id, "email": "a@ornek.com"},
                           format="json"), 201)
    assert cevap["mesai"]["acik"] is False and cevap["oturum"]["durum"] == "kapandi"


def test_the_idle_polls_snapshot_carries_the_hours_of_now(musteri, django_assert_num_queries):
    widget = widget_client(musteri)
    o = baslat(widget, "z")
    yokla = {"ziyaretci_id": "z", "oturum_id": o["id"], "sonra": 10**9}
    assert ok(widget.get(W_MESAJLAR, yokla))["mesai"] == ACIK  # writes the snapshot
    with django_assert_num_queries(0):
        assert ok(widget.get(W_MESAJLAR, yokla))["mesai"] == ACIK
    sonraki = bugun_tatil(musteri)
    # the tenant's change reaches the next poll (the snapshot's body gets the hours of now)
    kapali = ok(widget.get(W_MESAJLAR, yokla))
    assert kapali["mesai"] == {"acik": False, "sonraki_acilis": sonraki, "mesaj": MESAI_DISI_METNI}
    with django_assert_num_queries(0):
        assert ok(widget.get(W_MESAJLAR, yokla)) == kapali

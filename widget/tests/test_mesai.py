"""`data.mesai` of the widget's answers, and a chat started outside hours or with nobody reachable
(CONTRACT 15)."""
import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from chat.models import Mesaj, Oturum
from chat.services import ULASILAMAZ_METNI
from chat.tasks import zaman_asimlari
from chat.tests.yardimci import W_BITIR, W_MESAJLAR, baslat, ok, operator_istemcisi, operator_yap, widget_client
from supportdesk.testing.factories import MusteriFactory
from tenants.ayarlar import MESAI_DISI_METNI, TICKET_TEKLIFI
from tenants.models import Musteri

pytestmark = pytest.mark.django_db
INIT = "/api/v1/widget/init"
START = "/api/v1/widget/chat/start"
TICKET = "/api/v1/widget/chat/ticket"
STATUS = "/api/v1/operator/status"
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


def test_always_open_is_closed_on_a_holiday(musteri):
    # CONTRACT 15: `acik` needs today not in `tatiller` first; null hours only mean "any moment".
    yarin = bugun_tatil(musteri)
    Musteri.objects.filter(pk=musteri.pk).update(calisma_saatleri=None)
    mesai = init(widget_client(musteri))["mesai"]
    assert mesai["acik"] is False and mesai["mesaj"] == str(MESAI_DISI_METNI)
    assert mesai["sonraki_acilis"] is not None
    assert dt.datetime.fromisoformat(mesai["sonraki_acilis"].replace("Z", "+00:00")) == dt.datetime.fromisoformat(yarin)


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


# --- inside hours with nobody reachable (presence, CONTRACT 11: `mesgul` counts as reachable) ---
def _ulasilabilir(musteri, durum: str):
    """An operator of `musteri` that set its status through the API (its calls make it reachable)."""
    user, client = operator_istemcisi(musteri)
    ok(client.post(STATUS, {"durum": durum}, format="json"))
    return user, client


def _satirlar(oturum_id) -> list[tuple[str, str]]:
    return list(Mesaj.objects.filter(oturum_id=oturum_id).order_by("id").values_list("gonderen", "icerik"))


def _sure_dolsun(oturum_id):
    """The tenant's `bekleme_zaman_asimi_dk` (10) has passed since the chat started."""
    Oturum.objects.filter(pk=oturum_id).update(baslangic=timezone.now() - dt.timedelta(minutes=11))


@pytest.mark.parametrize("kimse", ["uye_yok", "cevrimdisi", "kayitli_durum_cevrimici_ama_ulasilamaz", "baska_projenin"])
def test_open_with_nobody_reachable_offers_a_ticket_at_once_and_only_once(musteri, kimse):
    # Open (null hours), with its own closed text set: that text is for outside hours only.
    musteri.mesai_disi_mesaji = "Pazartesi 09:00'da döneriz."
    musteri.save()
    if kimse == "cevrimdisi":
        _ulasilabilir(musteri, "cevrimdisi")  # reachable (it just called the API), but offline by choice
    elif kimse == "kayitli_durum_cevrimici_ama_ulasilamaz":
        kayitli = operator_yap(musteri)
        kayitli.durum = "cevrimici"  # its console went away without a word: no socket, no recent call
        kayitli.save(update_fields=["durum"])
    elif kimse == "baska_projenin":
        _ulasilabilir(MusteriFactory(), "cevrimici")
    widget = widget_client(musteri)
    data = ok(widget.post(START, {"ziyaretci_id": "z-1", "mesaj": "Merhaba"}, format="json"), 201)
    o = data["oturum"]
    assert (o["durum"], o["ticket_onerisi"], o["cevrimici_operator"]) == ("bekliyor", True, False)
    assert data["mesai"] == ACIK and data["cevrimici_operator"] is False
    beklenen = [("ziyaretci", "Merhaba"), ("sistem", f"{ULASILAMAZ_METNI} {TICKET_TEKLIFI}")]
    assert _satirlar(o["id"]) == beklenen
    # What the widget reads: the line, and the offer on the chat (init after a reload too).
    polled = ok(widget.get(W_MESAJLAR, {"ziyaretci_id": "z-1", "oturum_id": o["id"]}))
    assert [(m["gonderen"], m["icerik"]) for m in polled["mesajlar"]] == beklenen
    assert polled["oturum"]["ticket_onerisi"] is True and init(widget)["oturum"]["ticket_onerisi"] is True
    # The same chat again (a second start) adds no line; nor does the periodic offer once its wait is over.
    assert ok(widget.post(START, {"ziyaretci_id": "z-1"}, format="json"), 200)["oturum"]["id"] == o["id"]
    _sure_dolsun(o["id"])
    assert zaman_asimlari()["ticket_onerilen"] == 0
    assert _satirlar(o["id"]) == beklenen
    # The offer is taken as any other.
    cevap = ok(widget.post(TICKET, {"ziyaretci_id": "z-1", "oturum_id": o["id"], "email": "a@ornek.com"},
                           format="json"), 201)
    assert cevap["oturum"]["durum"] == "kapandi"


@pytest.mark.parametrize("durum", ["cevrimici", "mesgul"])
def test_open_with_an_operator_reachable_the_chat_waits_without_an_offer(musteri, durum):
    user, client = _ulasilabilir(musteri, durum)
    widget = widget_client(musteri)
    data = ok(widget.post(START, {"ziyaretci_id": "z-1", "mesaj": "Merhaba"}, format="json"), 201)
    o = data["oturum"]
    assert (o["durum"], o["ticket_onerisi"], o["cevrimici_operator"], o["sira_no"]) == ("bekliyor", False, True, 1)
    assert _satirlar(o["id"]) == [("ziyaretci", "Merhaba")]
    # While it stays reachable the periodic rule offers nothing either.
    _sure_dolsun(o["id"])
    assert zaman_asimlari()["ticket_onerilen"] == 0
    assert ok(widget.get(W_MESAJLAR, {"ziyaretci_id": "z-1", "oturum_id": o["id"]}))["oturum"]["ticket_onerisi"] is False
    # It goes offline: now the periodic rule offers, once.
    ok(client.post(STATUS, {"durum": "cevrimdisi"}, format="json"))
    assert zaman_asimlari()["ticket_onerilen"] == 1
    assert zaman_asimlari()["ticket_onerilen"] == 0
    assert [g for g, _ in _satirlar(o["id"])] == ["ziyaretci", "sistem"]
    assert ok(widget.get(W_MESAJLAR, {"ziyaretci_id": "z-1", "oturum_id": o["id"]}))["oturum"]["ticket_onerisi"] is True


@pytest.mark.django_db(transaction=True)  # automatic assignment runs in after-commit hooks
def test_automatic_mode_with_only_a_busy_operator_waits_without_an_offer(musteri):
    musteri.atama_modu = "sirayla"
    musteri.save(update_fields=["atama_modu"])
    _, client = _ulasilabilir(musteri, "mesgul")
    widget = widget_client(musteri)
    o = baslat(widget, "z-1", mesaj="Merhaba")
    assert (o["durum"], o["operator_id"], o["ticket_onerisi"]) == ("bekliyor", None, False)  # busy: not assigned
    ok(client.post(STATUS, {"durum": "cevrimici"}, format="json"))  # coming online takes it
    o = ok(widget.get(W_MESAJLAR, {"ziyaretci_id": "z-1", "oturum_id": o["id"]}))["oturum"]
    assert (o["durum"], o["ticket_onerisi"]) == ("aktif", False)
    assert [g for g, _ in _satirlar(o["id"])] == ["ziyaretci", "sistem"]  # the accept's line, no offer


def test_the_start_reads_presence_once_for_the_rule_and_its_answer(musteri, nobetci):
    """The rule's presence read is the answer's `cevrimici_operator` too: no second statement."""
    widget = widget_client(musteri)
    with CaptureQueriesContext(connection) as sorgular:
        o = baslat(widget, "z-1", mesaj="Merhaba")
    assert o["cevrimici_operator"] is True and o["ticket_onerisi"] is False
    varlik_okumalari = [q["sql"] for q in sorgular.captured_queries if '"tenants_kullanici"' in q["sql"]]
    assert len(varlik_okumalari) == 1, varlik_okumalari

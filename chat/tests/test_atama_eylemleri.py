"""Issue 40: a change that may move the queue routes by an explicit step of its own action, never
through a listener. Each HTTP test here runs with no after-commit listener at all on the events
those changes state (`operator_durumu`, `uyelik_guncellendi`, `musteri_degisti`, `ekip_degisti`):
what they check can only be done by the action the view calls (`chat.operator_durumu`,
`chat.uyeler`, `chat.yonlendirme`). Transactional: the queue drains after the commit, as in
production, before the request answers."""
import ast
import importlib
import inspect

import pytest

from chat.models import Mesaj, Oturum
from portal.tests.yardimci import giris_yapmis
from supportdesk.core import olaylar
from tenants.models import Uyelik

from .test_atama import STATUS, atananlar, cevrimici_operator, durum, mod, oturum
from .yardimci import baslat, ok, operator_istemcisi, operator_yap, widget_client

pytestmark = pytest.mark.django_db(transaction=True)

DEGISIKLIK_OLAYLARI = ("operator_durumu", "uyelik_guncellendi", "musteri_degisti", "ekip_degisti")


@pytest.fixture
def dinleyicisiz(monkeypatch):
    """No after-commit listener on the events of the changes routing follows."""
    for ad in DEGISIKLIK_OLAYLARI:
        monkeypatch.setitem(olaylar._commit_sonrasi, ad, [])


def _atamayi_ice_aktarir(modul: str, kaynak: str) -> bool:
    """Whether the module's source imports routing (`chat.atama`), by any spelling."""
    for dugum in ast.walk(ast.parse(kaynak)):
        if isinstance(dugum, ast.ImportFrom):
            adlar = {a.name for a in dugum.names}
            if dugum.module == "chat.atama" or (dugum.module == "chat" and "atama" in adlar):
                return True
            if dugum.level and modul.startswith("chat.") and (dugum.module == "atama" or "atama" in adlar):
                return True
        elif isinstance(dugum, ast.Import) and any(a.name == "chat.atama" for a in dugum.names):
            return True
    return False


def test_no_listener_routes_every_listener_module_is_free_of_routing():
    moduller = {f.__module__ for ad in olaylar.TUM_OLAYLAR for liste in olaylar.dinleyiciler(ad) for f in liste}
    assert "chat.dinleyiciler" in moduller
    assert [m for m in sorted(moduller) if _atamayi_ice_aktarir(m, inspect.getsource(importlib.import_module(m)))] == []
    # chat's listeners are the poll snapshots' cache effects, all inside the transaction.
    assert [f for ad in olaylar.TUM_OLAYLAR for f in olaylar.dinleyiciler(ad)[1] if f.__module__ == "chat.dinleyiciler"] == []


@pytest.mark.parametrize(("kaynak", "beklenen"), [
    ("from . import atama, yoklama", True), ("from chat import atama", True), ("from .atama import kuyrugu_doldur", True),
    ("from chat.atama import kuyrugu_doldur", True), ("import chat.atama", True), ("from . import yoklama", False),
])
def test_the_check_catches_a_listener_module_that_imports_routing(kaynak, beklenen):
    assert _atamayi_ice_aktarir("chat.dinleyiciler", kaynak) is beklenen


def test_an_operator_going_online_by_the_status_call_gets_the_waiting_chats_at_once(musteri, dinleyicisiz):
    mod(musteri, "sirayla")
    widget = widget_client(musteri)
    o = [baslat(widget, f"z{i}")["id"] for i in range(3)]
    a, ac = operator_istemcisi(musteri, max_chat=2)
    assert atananlar(*o) == [None, None, None]
    assert ok(ac.post(STATUS, {"durum": "cevrimici"}, format="json"))["durum"] == "cevrimici"
    assert atananlar(*o) == [a.id, a.id, None]
    ok(ac.post(STATUS, {"durum": "cevrimici"}, format="json"))  # the status it has: nothing moves
    assert atananlar(*o) == [a.id, a.id, None]


def test_going_offline_or_logging_out_hands_the_chats_back_at_once(musteri, dinleyicisiz):
    mod(musteri, "sirayla")
    widget = widget_client(musteri)
    a, ac = cevrimici_operator(musteri)
    o1 = baslat(widget, "z1")
    assert atananlar(o1["id"]) == [a.id]
    durum(ac, "cevrimdisi")
    assert oturum(o1["id"]).durum == "bekliyor"
    son = Mesaj.objects.filter(oturum_id=o1["id"]).latest("id")
    assert son.gonderen == "sistem" and son.icerik.startswith("Temsilci çevrimdışı oldu;")
    durum(ac, "cevrimici")
    assert atananlar(o1["id"]) == [a.id]
    ok(ac.post("/api/v1/auth/logout"))  # logout is a going offline of its own choice
    assert oturum(o1["id"]).durum == "bekliyor" and oturum(o1["id"]).operator_id is None


def test_raising_a_members_cap_or_unmuting_assigns_a_waiting_chat_at_once(musteri, dinleyicisiz):
    mod(musteri, "en_az_yuklu")
    widget = widget_client(musteri)
    a, ac = cevrimici_operator(musteri, max_chat=1)
    o = [baslat(widget, f"z{i}")["id"] for i in range(3)]
    assert atananlar(*o) == [a.id, None, None]
    # The cap rises on the portal's team page.
    sahip = giris_yapmis(operator_yap(musteri, rol="sahip"))
    uyelik = Uyelik.objects.get(kullanici=a, musteri=musteri)
    res = sahip.post(f"/portal/ekip/{uyelik.id}", {"islem": "guncelle", "rol": "operator", "max_chat_per_tenant": "2"})
    assert res.status_code == 302
    assert atananlar(*o) == [a.id, a.id, None]
    # Muted, then unmuted through the API: the next place is used at once.
    tenant = f"/api/v1/operator/tenants/{musteri.id}/sessize"
    ok(ac.put(tenant, {"sessize": True}, format="json"))
    uyelik.refresh_from_db()
    res = sahip.post(f"/portal/ekip/{uyelik.id}", {"islem": "guncelle", "rol": "operator", "max_chat_per_tenant": "3"})
    assert res.status_code == 302 and atananlar(o[2]) == [None]  # muted: no automatic chat
    ok(ac.put(tenant, {"sessize": False}, format="json"))
    assert atananlar(o[2]) == [a.id]


def test_switching_the_tenants_routing_mode_to_automatic_by_the_settings_api_drains_the_queue(musteri, dinleyicisiz):
    widget = widget_client(musteri)
    a, _ = cevrimici_operator(musteri)
    o = [baslat(widget, f"z{i}")["id"] for i in range(2)]
    assert atananlar(*o) == [None, None]  # manuel: they wait
    _, sc = operator_istemcisi(musteri, rol="sahip")
    url = f"/api/v1/operator/tenants/{musteri.id}/ayarlar"
    ok(sc.put(url, {"mesai_disi_mesaji": "Kapalıyız."}, format="json"))  # another setting: nothing moves
    assert atananlar(*o) == [None, None]
    assert ok(sc.put(url, {"atama_modu": "sirayla"}, format="json"))["ayarlar"]["atama_modu"] == "sirayla"
    assert atananlar(*o) == [a.id, a.id]


def test_changing_a_teams_mode_or_members_by_the_teams_api_drains_the_queue(musteri, dinleyicisiz):
    a, _ = cevrimici_operator(musteri)
    b, _ = cevrimici_operator(musteri)
    _, sc = operator_istemcisi(musteri, rol="sahip")
    ekip = ok(sc.post(f"/api/v1/operator/tenants/{musteri.id}/ekipler",
                      {"ad": "Satış", "uyeler": [a.id], "widgetta_secilir": True}, format="json"), 201)["ekip"]
    url = f"/api/v1/operator/ekipler/{ekip['id']}"
    widget = widget_client(musteri)
    o1 = baslat(widget, "z1", ekip_id=ekip["id"])
    assert atananlar(o1["id"]) == [None]  # a team of a manuel tenant, in the tenant's mode: it waits
    ok(sc.put(url, {"ad": "Satış Ekibi"}, format="json"))  # a rename moves nothing
    assert atananlar(o1["id"]) == [None]
    ok(sc.put(url, {"atama_modu": "sirayla"}, format="json"))
    assert atananlar(o1["id"]) == [a.id]
    # Members: the team's only member is full (cap 1); a new member takes the next chat.
    Uyelik.objects.filter(kullanici=a, musteri=musteri).update(max_chat_per_tenant=1)
    o2 = baslat(widget, "z2", ekip_id=ekip["id"])
    assert atananlar(o2["id"]) == [None]
    ok(sc.put(url, {"uyeler": [a.id, b.id]}, format="json"))
    assert atananlar(o2["id"]) == [b.id]
    assert Oturum.objects.filter(ekip_id=ekip["id"], durum="aktif").count() == 2

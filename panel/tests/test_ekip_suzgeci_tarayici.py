"""The console's team filter (CONTRACT 22, static/panel/ekip_suzgeci.js) in headless Chromium: the
chat lists and the ticket list filter by a team, `benim` (the caller's teams) and `yok`; the filter
is reached by keyboard and remembered per browser tab (a reload keeps it, a new tab starts afresh)."""
import re

import pytest

from supportdesk.testing.fixtures import widget_client
from supportdesk.testing.tarayici import TARAYICI_ISARETLERI
from tenants import ekipler

from .test_konsol_tarayici import ok, ortam  # noqa: F401 (fixture)

pytestmark = TARAYICI_ISARETLERI


def _sohbet(musteri, ziyaretci_id, ekip=None) -> dict:
    govde = {"ziyaretci_id": ziyaretci_id, "ad": ziyaretci_id, "mesaj": "Merhaba"}
    if ekip is not None:
        govde["ekip_id"] = ekip.id
    return ok(widget_client(musteri).post("/api/v1/widget/chat/start", govde, format="json"))["oturum"]


def _talep(musteri, ziyaretci_id, ekip=None) -> dict:
    govde = {"ziyaretci_id": ziyaretci_id, "konu": f"Konu {ziyaretci_id}", "mesaj": "Merhaba"}
    if ekip is not None:
        govde["ekip_id"] = ekip.id
    return ok(widget_client(musteri).post("/api/v1/widget/ticket/create", govde, format="json"))["ticket"]


@pytest.fixture
def iki_ekip(ortam):  # noqa: F811
    satis = ekipler.ekip_olustur(musteri_id=ortam.a.id, ad="Satış", uyeler=[ortam.ben.id], widgetta_secilir=True)
    destek = ekipler.ekip_olustur(musteri_id=ortam.a.id, ad="Destek", uyeler=[ortam.meslektas.id],
                                  widgetta_secilir=True)
    return satis, destek


def _gorunen(page, liste) -> set[int]:
    return {int(i) for i in page.locator(f"{liste} .satir").evaluate_all("els => els.map(e => e.dataset.id)")}


def test_the_chat_queue_filters_by_team_mine_and_none_and_remembers_it_per_tab(ortam, iki_ekip):  # noqa: F811
    satis, destek = iki_ekip
    s = _sohbet(ortam.a, "z-satis", satis)["id"]
    d = _sohbet(ortam.a, "z-destek", destek)["id"]
    y = _sohbet(ortam.a, "z-yok")["id"]
    k = ortam.konsol(ortam.ben)
    page = k.page
    for i in (s, d, y):
        k.satir(i).wait_for()

    # Keyboard: the team filter follows the label filter in the tab order.
    page.locator("#sohbet-etiket").focus()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "sohbet-ekip"
    secenekler = page.locator("#sohbet-ekip option").all_inner_texts()
    # The "all projects" tab: each team with its project.
    assert secenekler[:3] == ["Tüm ekipler", "Ekiplerim", "Ekipsiz"]
    assert {"Satış · Anadolu Yazılım", "Destek · Anadolu Yazılım"} <= set(secenekler)

    page.locator("#sohbet-ekip").select_option("benim")
    k.satir(d).wait_for(state="detached")
    assert _gorunen(page, "#kuyruk") == {s}
    page.locator("#sohbet-ekip").select_option("yok")
    k.satir(y).wait_for()
    assert _gorunen(page, "#kuyruk") == {y}
    page.locator("#sohbet-ekip").select_option(str(destek.id))
    k.satir(d).wait_for()
    assert _gorunen(page, "#kuyruk") == {d}

    # A new chat of another team arrives by socket and stays out of the filtered queue.
    yeni = _sohbet(ortam.a, "z-satis-2", satis)["id"]
    page.wait_for_timeout(500)
    assert _gorunen(page, "#kuyruk") == {d} and yeni not in _gorunen(page, "#kuyruk")

    # Remembered in this tab: a reload keeps the filter.
    page.locator("#sohbet-ekip").select_option("benim")
    k.satir(d).wait_for(state="detached")
    page.reload()
    k.satir(s).wait_for()
    assert page.locator("#sohbet-ekip").input_value() == "benim"
    assert _gorunen(page, "#kuyruk") == {s, yeni}

    # Another tab chooses its own: it starts with every team.
    diger = k.context.new_page()
    diger.goto(k.url)
    diger.locator(f'.satir[data-id="{d}"]').wait_for()
    assert diger.locator("#sohbet-ekip").input_value() == ""
    diger.close()


def test_the_ticket_list_filters_by_team_on_the_server(ortam, iki_ekip):  # noqa: F811
    satis, destek = iki_ekip
    ts = _talep(ortam.a, "z-t-satis", satis)["id"]
    td = _talep(ortam.a, "z-t-destek", destek)["id"]
    ty = _talep(ortam.a, "z-t-yok")["id"]
    k = ortam.konsol(ortam.ben)
    page = k.page
    page.keyboard.press("v")
    satir = lambda i: page.locator(f'#talepler .satir[data-id="{i}"]')  # noqa: E731
    for i in (ts, td, ty):
        satir(i).wait_for()
    page.locator("#talep-ekip").select_option("benim")
    satir(td).wait_for(state="detached")
    assert _gorunen(page, "#talepler") == {ts}
    page.locator("#talep-ekip").select_option("yok")
    satir(ty).wait_for()
    assert _gorunen(page, "#talepler") == {ty}
    page.reload()
    page.get_by_role("tab", name=re.compile("Tümü")).wait_for()  # the console is up before its shortcut
    page.locator('[data-gorunum="talep"]').click()
    satir(ty).wait_for()
    assert page.locator("#talep-ekip").input_value() == "yok" and _gorunen(page, "#talepler") == {ty}
    # The chat lists keep their own choice (none here).
    page.locator('[data-gorunum="sohbet"]').click()
    page.locator("#sohbet-ekip").wait_for()
    assert page.locator("#sohbet-ekip").input_value() == ""

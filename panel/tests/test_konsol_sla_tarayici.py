"""SLA in the console (CONTRACT 17, 21), headless Chromium against the live service: due times as
badges on the ticket rows (amber within the tenant's `uyari_dk`, red when breached) and the `sla`
sort (nearest due time first)."""
from datetime import timedelta

from django.db.models import F

from supportdesk.testing.fixtures import widget_client
from supportdesk.testing.tarayici import TARAYICI_ISARETLERI
from tickets.models import SlaPolitikasi, Ticket

from .test_konsol_tarayici import ok, ortam  # noqa: F401  (the fixture)

pytestmark = TARAYICI_ISARETLERI
ZAMANLAR = ["olusturulma", "sla_ilk_vade", "sla_ilk_uyari", "sla_vade", "sla_uyari"]


def _geri_al(ticket_id, dakika):
    Ticket.objects.filter(pk=ticket_id).update(**{a: F(a) - timedelta(minutes=dakika) for a in ZAMANLAR})


def test_sla_badges_and_sort(ortam):  # noqa: F811
    SlaPolitikasi.objects.create(musteri=ortam.a, aktif=True, mesai_icinde=False, uyari_dk=15,
                                 hedefler={"normal": {"ilk_yanit_dk": 30}})
    w = widget_client(ortam.a)
    idler = {}
    for ad, dakika in (("uzak", 0), ("gec", 40), ("yakin", 20)):
        t = ok(w.post("/api/v1/widget/ticket/create", {"ziyaretci_id": f"z-{ad}", "konu": f"Talep {ad}",
                                                        "mesaj": "Merhaba"}, format="json"))["ticket"]
        _geri_al(t["id"], dakika)
        idler[ad] = t["id"]
    k = ortam.konsol(ortam.ben)
    page = k.page
    page.keyboard.press("v")

    def rozet(ad):
        return page.locator(f'#talepler .satir[data-id="{idler[ad]}"] .sla-rozet[data-hedef="ilk_yanit"]')

    rozet("gec").wait_for()
    assert "sla-ihlal" in rozet("gec").get_attribute("class")
    page.locator(f'#talepler .satir[data-id="{idler["yakin"]}"] .sla-rozet.sla-yaklasan').wait_for()
    assert "sla-yaklasan" not in rozet("uzak").get_attribute("class")
    assert "sla-ihlal" not in rozet("uzak").get_attribute("class")
    # Red and amber differ from the plain badge.
    renk = {ad: rozet(ad).evaluate("e => getComputedStyle(e).backgroundColor") for ad in idler}
    assert len(set(renk.values())) == 3, renk

    page.locator("#talep-siralama").select_option("sla")
    page.wait_for_function(
        "ids => [...document.querySelectorAll('#talepler .satir')].map(e => +e.dataset.id).join() === ids.join()",
        arg=[idler["gec"], idler["yakin"], idler["uzak"]])
    k.ekran("sla-rozetleri.png")

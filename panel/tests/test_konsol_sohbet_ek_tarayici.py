"""Issue 43 in the console, headless Chromium against the live service: the open chat's
"Talebe dönüştür" action (CONTRACT 24), the queue's waiting time coloured by the chat's
first-response target (amber within `uyari_dk`, red when breached), and an `sla_ihlal` frame
raised as a toast and a sound."""
import re
from datetime import timedelta

from django.db.models import F
from playwright.sync_api import expect

from chat.models import Oturum
from supportdesk.testing.tarayici import TARAYICI_ISARETLERI
from tickets.models import SlaPolitikasi, Ticket

from .test_konsol_tarayici import _bearer, bekle, ok, ortam, sohbet_baslat  # noqa: F401  (the fixture)

pytestmark = TARAYICI_ISARETLERI


def _geri_al(oturum_id, saniye):
    fark = timedelta(seconds=saniye)
    Oturum.objects.filter(pk=oturum_id).update(**{a: F(a) - fark for a in ("baslangic", "sla_ilk_vade", "sla_ilk_uyari")})


def test_chat_to_ticket_from_the_open_chat(ortam):  # noqa: F811
    w, oturum = sohbet_baslat(ortam.a, "z-donustur")
    op = _bearer(ortam.ben)
    ok(op.post(f"/api/v1/operator/chat/{oturum['id']}/message", {"icerik": "Hemen bakıyorum."}, format="json"))
    ok(op.post(f"/api/v1/operator/chat/{oturum['id']}/message", {"icerik": "GİZLİ NOT", "ozel": True}, format="json"))
    k = ortam.konsol(ortam.ben)
    page = k.page
    k.satir(oturum["id"]).locator(".satir-ac").click()
    page.get_by_role("button", name="Talebe dönüştür").click()
    dialog = page.locator("dialog")
    expect(dialog.get_by_label("Konu")).to_be_visible()
    dialog.get_by_label("Konu").fill("Fatura sorusu")
    dialog.get_by_label("Öncelik").select_option("yuksek")
    dialog.get_by_role("button", name="Talebe dönüştür").click()
    ticket = None

    def olustu():
        nonlocal ticket
        ticket = Ticket.objects.filter(oturum_id=oturum["id"]).first()
        return ticket is not None

    bekle(olustu)
    link = page.locator('[data-test="sohbet-talebi"]')
    expect(link).to_have_text(f"Talep #{ticket.id}")
    assert (ticket.konu, ticket.oncelik) == ("Fatura sorusu", "yuksek")
    ilk = ticket.yanitlar.order_by("id").first()
    assert "Hemen bakıyorum." in ilk.icerik and "GİZLİ NOT" not in ilk.icerik
    assert Oturum.objects.get(pk=oturum["id"]).durum == "aktif"  # the chat stays as it is
    link.click()
    expect(page.get_by_role("heading", name=re.compile(f"#{ticket.id} Fatura sorusu"))).to_be_visible()
    k.ekran("sohbetten-talep.png")


def test_queue_waiting_time_by_the_chat_target_and_an_sla_toast(ortam):  # noqa: F811
    SlaPolitikasi.objects.create(musteri=ortam.a, aktif=True, mesai_icinde=False, uyari_dk=1, chat_ilk_yanit_sn=300,
                                 hedefler={})
    idler = {}
    for ad, saniye in (("uzak", 0), ("yakin", 250), ("gec", 400)):
        _, o = sohbet_baslat(ortam.a, f"z-{ad}", ad=f"Ziyaretçi {ad}")
        _geri_al(o["id"], saniye)
        idler[ad] = o["id"]
    k = ortam.konsol_sahte_soket(ortam.ben)
    page = k.page
    bekle(lambda: page.evaluate("window.__soketler.length === 1 && window.__soketler[0].gonderilen.length === 1"))
    page.evaluate(f"window.__soketler[0].it('hazir', {{musteri_idleri: [{ortam.a.id}, {ortam.b.id}]}})")

    def bekleme(ad):
        return k.satir(idler[ad]).locator(".bekleme")

    expect(bekleme("gec")).to_have_class(re.compile("sla-ihlal"))
    expect(bekleme("yakin")).to_have_class(re.compile("sla-yaklasan"))
    expect(bekleme("uzak")).not_to_have_class(re.compile("sla-"))
    renkler = {ad: bekleme(ad).evaluate("e => getComputedStyle(e).backgroundColor") for ad in idler}
    assert len(set(renkler.values())) == 3, renkler

    # The frame as the operator socket sends it (canli/tests/test_chat_sla_cerceveleri.py): a toast and a sound.
    op = _bearer(ortam.ben)
    veri = next(o for o in ok(op.get("/api/v1/operator/chats"))["oturumlar"] if o["id"] == idler["gec"])
    sesler = page.evaluate("window.__sesler")
    page.evaluate("o => window.__soketler[0].it('sla_ihlal', {oturum: o})", veri)
    duyuru = page.locator('[data-test="sla-duyurusu"][data-tur="oturum"]')
    expect(duyuru).to_contain_text("Ziyaretçi gec")
    expect(duyuru).to_contain_text("aşıldı")
    bekle(lambda: page.evaluate("window.__sesler") > sesler)
    k.ekran("sohbet-sla.png")
    duyuru.get_by_role("button", name="Aç").click()
    expect(page.locator(".sohbet-baslik")).to_contain_text("Ziyaretçi gec")

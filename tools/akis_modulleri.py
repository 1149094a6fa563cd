"""How many of the project's modules three flows execute, and how often a call crosses from one app
into another (issue 40: "count the modules again and say the numbers"). Run by hand, not in the suite:

    DATABASE_URL=... REDIS_URL=... .venv/bin/pytest tools/akis_modulleri.py -q -s

Each flow is one HTTP request through the real stack (middleware, view, service, listeners, and
the after-commit listeners, which run at its commit: `transaction=True`), measured by
`sys.setprofile` on the request's thread:
- a private note with a mention (`POST /operator/chat/{id}/message`, `ozel`, `bahsedilenler`);
- a priority change that moves an SLA (`PATCH /operator/ticket/{id}` under an active policy);
- a chat started outside hours (`POST /widget/chat/start`, a tenant on holiday, automatic routing).
A module is a project file that ran a Python function (tests, tools, bench and `.venv` left out);
a hop is a call whose caller is a function of another app (`chat` -> `tenants`, `supportdesk.core`
-> `canli` through a listener...). The numbers go to docs/architecture.md ("Actions")."""
import sys
from pathlib import Path

import pytest

from chat.tests.yardimci import baslat, ok, op_url, operator_istemcisi
from supportdesk.testing.fixtures import operator_yap, ulasilabilir_yap, widget_client
from tickets.models import Ticket
from widget.tests.test_mesai import bugun_tatil

KOK = Path(__file__).resolve().parents[1]
OP = "/api/v1/operator"


def _modul(dosya: str) -> str | None:
    yol = Path(dosya)
    if not yol.is_absolute() or KOK not in yol.parents:
        return None
    goreli = yol.relative_to(KOK).as_posix()
    if goreli.startswith((".venv/", "tools/", "bench/")) or "/tests/" in goreli or goreli == "conftest.py":
        return None
    return goreli


def _uygulama(modul: str) -> str:
    parcalar = modul.split("/")
    return "supportdesk.core" if parcalar[:2] == ["supportdesk", "core"] else parcalar[0]


def olc(islem) -> tuple[set[str], int]:
    moduller, gecis = set(), 0

    def izle(cerceve, olay, _arg):
        nonlocal gecis
        if olay != "call":
            return
        modul = _modul(cerceve.f_code.co_filename)
        if modul is None:
            return
        moduller.add(modul)
        onceki = cerceve.f_back
        while onceki is not None and _modul(onceki.f_code.co_filename) is None:
            onceki = onceki.f_back  # through Django's and DRF's frames to the project's caller
        if onceki is not None and _uygulama(_modul(onceki.f_code.co_filename)) != _uygulama(modul):
            gecis += 1

    sys.setprofile(izle)
    try:
        islem()
    finally:
        sys.setprofile(None)
    return moduller, gecis


def _yaz(ad: str, moduller: set[str], gecis: int) -> None:
    uygulamalar = sorted({_uygulama(m) for m in moduller})
    print(f"\n{ad}: {len(moduller)} modules, {gecis} hops between apps; apps: {', '.join(uygulamalar)}")
    for m in sorted(moduller):
        print(f"    {m}")


@pytest.mark.django_db(transaction=True)
def test_a_private_note_with_a_mention(musteri):
    yazan, client = operator_istemcisi(musteri, durum="cevrimici")
    anilan = operator_yap(musteri)
    oturum = baslat(widget_client(musteri), "z1", mesaj="Merhaba")
    ok(client.post(op_url(oturum["id"], "message"), {"icerik": "bak", "ozel": True}, format="json"), 201)  # warm-up
    moduller, gecis = olc(lambda: ok(client.post(op_url(oturum["id"], "message"), {
        "icerik": "Şuna bakar mısın?", "ozel": True, "bahsedilenler": [anilan.id]}, format="json"), 201))  # ceviri: yok
    _yaz("private note with a mention", moduller, gecis)


@pytest.mark.django_db(transaction=True)
def test_a_priority_change_that_moves_an_sla(musteri):
    sahip, client = operator_istemcisi(musteri, rol="sahip", durum="cevrimici")
    ok(client.put(f"{OP}/tenants/{musteri.id}/sla", {"aktif": True, "mesai_icinde": False, "hedefler": {
        "normal": {"ilk_yanit_dk": 30, "cozum_dk": 240}, "acil": {"ilk_yanit_dk": 10, "cozum_dk": 60}}},
        format="json"))
    w = widget_client(musteri)
    ticket = ok(w.post("/api/v1/widget/ticket/create", {"ziyaretci_id": "z1", "konu": "K", "mesaj": "M"},
                       format="json"), 201)["ticket"]
    ok(client.patch(f"{OP}/ticket/{ticket['id']}", {"oncelik": "yuksek"}, format="json"))  # warm-up
    moduller, gecis = olc(lambda: ok(client.patch(f"{OP}/ticket/{ticket['id']}", {"oncelik": "acil"},
                                                  format="json")))
    t = Ticket.objects.get(pk=ticket["id"])
    assert t.sla_oncelik == "acil" and t.sla_ilk_durum == "bekliyor"  # the clocks moved
    _yaz("priority change that moves an SLA", moduller, gecis)


@pytest.mark.django_db(transaction=True)
def test_a_chat_started_outside_hours(musteri):
    musteri.atama_modu = "sirayla"
    bugun_tatil(musteri)
    ulasilabilir_yap(operator_yap(musteri))
    w = widget_client(musteri)
    baslat(w, "z0", mesaj="Isınma")  # warm-up; ceviri: yok
    moduller, gecis = olc(lambda: baslat(w, "z1", mesaj="Merhaba"))
    _yaz("chat started outside hours", moduller, gecis)

"""Issue 43: the views' counts kept by PostgreSQL triggers (panel.sayaclar) are exact whoever
writes: after every step of random changes through the API, bulk `update`s, admin-like saves,
deletes and cascades, `GET /operator/gorunumler` equals a fresh count of the open items (the
selectors' conditional counts over the base tables, `_gorunum`'s definition). Folding and the
recount keep the sums; the counts read the counters, one query per kind, whatever the number of
items; another tenant's items are never counted."""
import random
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from chat import selectors as chat_selectors
from chat.models import Oturum
from chat.services import ertelenen_oturumlari_uyandir
from chat.tests.yardimci import baslat, ok, op_url, operator_istemcisi, widget_client
from panel import sayaclar
from panel.models import GorunumSayaci
from supportdesk.testing.factories import MusteriFactory
from tenants.models import Kullanici
from tickets import selectors as ticket_selectors
from tickets.models import Ticket
from tickets.services import ertelenen_ticketlari_uyandir

pytestmark = [pytest.mark.django_db,
              pytest.mark.skipif("connection.vendor != 'postgresql'",
                                 reason="the counters are PostgreSQL triggers; SQLite counts the base tables")]
GORUNUMLER = "/api/v1/operator/gorunumler"
TOPLU = "/api/v1/operator/toplu"


def _yeniden_sayim(kullanici) -> dict:
    idler = list(kullanici.uyelikler.values_list("musteri_id", flat=True))
    return {"chat": chat_selectors.gorunum_sayilari(kullanici=kullanici, musteri_idleri=idler),
            "ticket": ticket_selectors.gorunum_sayilari(kullanici_id=kullanici.pk, musteri_idleri=idler)}


def _ayni_mi(operatorler, adim: str) -> None:
    for kullanici, client in operatorler:
        assert ok(client.get(GORUNUMLER))["gorunumler"] == _yeniden_sayim(kullanici), adim


class Dunya:
    """Three tenants: A and B of the operator `ben`, A of `meslektas`, C of nobody here."""

    def __init__(self, rnd: random.Random):
        self.rnd = rnd
        self.a, self.b, self.c = MusteriFactory(), MusteriFactory(), MusteriFactory()
        self.ben, self.ben_c = operator_istemcisi(self.a, self.b)
        self.meslektas, self.meslektas_c = operator_istemcisi(self.a)
        self.yabanci, _ = operator_istemcisi(self.c)
        self.n = 0

    def operatorler(self):
        return [(self.ben, self.ben_c), (self.meslektas, self.meslektas_c)]

    def istemci(self):
        return self.rnd.choice([self.ben_c, self.meslektas_c])

    def sohbet(self, **suz):
        ids = list(Oturum.objects.filter(**suz).values_list("id", flat=True))
        return self.rnd.choice(ids) if ids else None

    def ticket(self, **suz):
        ids = list(Ticket.objects.filter(**suz).values_list("id", flat=True))
        return self.rnd.choice(ids) if ids else None

    def kadar(self):
        return None if self.rnd.random() < 0.5 else (timezone.now() + timedelta(hours=1)).isoformat()

    # --- the steps: each one writer of the chat or ticket rows ---------------------------------
    def sohbet_baslat(self):
        self.n += 1
        baslat(widget_client(self.rnd.choice([self.a, self.b, self.c])), ziyaretci_id=f"z{self.n}")

    def ticket_ac(self):
        self.n += 1
        res = widget_client(self.rnd.choice([self.a, self.b, self.c])).post(
            "/api/v1/widget/ticket/create", {"ziyaretci_id": f"t{self.n}", "konu": "Fatura", "mesaj": "Merhaba"},
            format="json")
        assert res.status_code == 201, res.content

    def kabul(self):
        if (i := self.sohbet(durum="bekliyor", musteri__in=[self.a, self.b])) is not None:
            self.istemci().post(op_url(i, "accept"))

    def kapat(self):
        if (i := self.sohbet(durum__in=["bekliyor", "aktif"])) is not None:
            self.istemci().post(op_url(i, "close"), {}, format="json")

    def sohbet_ertele(self):
        if (i := self.sohbet(durum__in=["bekliyor", "aktif"])) is not None:
            self.istemci().post(op_url(i, "ertele"), {"kadar": self.kadar()}, format="json")

    def sohbet_uyandir(self):
        if (i := self.sohbet(ertelendi_ziyaretci=True)) is not None:
            self.istemci().delete(op_url(i, "ertele"))

    def ticket_ata(self):
        if (i := self.ticket()) is not None:
            secim = self.rnd.choice([self.ben.pk, self.meslektas.pk, None])
            self.istemci().patch(f"/api/v1/operator/ticket/{i}", {"operator_id": secim}, format="json")

    def ticket_durum(self):
        if (i := self.ticket()) is not None:
            self.istemci().post(f"/api/v1/operator/ticket/{i}/status",
                                {"durum": self.rnd.choice(Ticket.Durum.values)}, format="json")

    def ticket_ertele(self):
        if (i := self.ticket(durum__in=["acik", "beklemede"])) is not None:
            yol = f"/api/v1/operator/ticket/{i}/ertele"
            if self.rnd.random() < 0.7:
                self.istemci().post(yol, {"kadar": self.kadar()}, format="json")
            else:
                self.istemci().delete(yol)

    def toplu(self):
        tur = self.rnd.choice(["chat", "ticket"])
        model = Oturum if tur == "chat" else Ticket
        idler = list(model.objects.values_list("id", flat=True)[:5])
        eylem = self.rnd.choice([{"tur": "ata", "operator_id": self.rnd.choice([self.ben.pk, self.meslektas.pk])},
                                 {"tur": "ertele", "kadar": self.kadar()},
                                 {"tur": "kapat"} if tur == "chat" else {"tur": "durum", "durum": "beklemede"}])
        self.istemci().post(TOPLU, {"tur": tur, "idler": idler, "eylem": eylem}, format="json")

    def toplu_update(self):
        """QuerySet.update, as a data fix or a sweep writes: many rows, no model code."""
        secim = self.rnd.randrange(4)
        if secim == 0:
            Oturum.objects.filter(durum="bekliyor").update(durum="aktif", operator=self.rnd.choice([self.ben, self.meslektas]))
        elif secim == 1:
            Ticket.objects.filter(operator__isnull=False).update(operator=None, ertelendi_kadar=None)
        elif secim == 2:  # snoozes whose time has come, then the wake sweeps
            Oturum.objects.filter(ertelendi_ziyaretci=False, durum__in=["bekliyor", "aktif"]).update(
                ertelendi_kadar=timezone.now() - timedelta(seconds=1))
            Ticket.objects.filter(ertelendi_kadar__isnull=False).update(ertelendi_kadar=timezone.now() - timedelta(seconds=1))
            ertelenen_oturumlari_uyandir()
            ertelenen_ticketlari_uyandir()
        else:  # an item moved to another tenant
            if (i := self.ticket()) is not None:
                Ticket.objects.filter(pk=i).update(musteri=self.rnd.choice([self.a, self.b, self.c]))

    def admin_kaydi(self):
        """A save as the admin's change form does it: every column written."""
        if (i := self.sohbet()) is not None:
            o = Oturum.objects.get(pk=i)
            o.durum = self.rnd.choice(Oturum.Durum.values)
            o.operator = self.rnd.choice([self.ben, self.meslektas, self.yabanci, None])
            o.ertelendi_ziyaretci = self.rnd.random() < 0.3
            o.save()
        if (i := self.ticket()) is not None:
            t = Ticket.objects.get(pk=i)
            t.konu = "Değişti"  # a column no view reads: no counter row
            t.operator = self.rnd.choice([self.ben, None])
            t.save()

    def sil(self):
        if self.rnd.random() < 0.5:
            if (i := self.sohbet()) is not None:
                Oturum.objects.get(pk=i).delete()
        elif (i := self.ticket()) is not None:
            Ticket.objects.filter(pk=i).delete()

    def sikistir(self):
        sayaclar.sikistir()

    ADIMLAR = ("sohbet_baslat", "sohbet_baslat", "ticket_ac", "ticket_ac", "kabul", "kapat", "sohbet_ertele",
               "sohbet_uyandir", "ticket_ata", "ticket_durum", "ticket_ertele", "toplu", "toplu_update",
               "admin_kaydi", "sil", "sikistir")


@pytest.mark.parametrize("tohum", [43, 2024])
def test_counts_equal_a_recount_after_every_kind_of_write(tohum):
    dunya = Dunya(random.Random(tohum))
    for adim_no in range(70):
        adim = dunya.rnd.choice(Dunya.ADIMLAR)
        getattr(dunya, adim)()
        _ayni_mi(dunya.operatorler(), f"step {adim_no}: {adim}")
    # The writers' cascades: an operator who leaves (SET_NULL on their chats and tickets), then a
    # tenant deleted with everything in it.
    Oturum.objects.filter(musteri=dunya.a).update(durum="aktif", operator=dunya.meslektas)
    Ticket.objects.filter(musteri=dunya.a).update(durum="acik", operator=dunya.meslektas)
    Kullanici.objects.filter(pk=dunya.meslektas.pk).delete()
    _ayni_mi([(dunya.ben, dunya.ben_c)], "operator deleted")
    dunya.b.delete()
    _ayni_mi([(dunya.ben, dunya.ben_c)], "tenant deleted")
    assert sayaclar.yeniden_say()["kayan"] == 0  # no drift to heal


def test_folding_and_recounting_keep_the_sums():
    dunya = Dunya(random.Random(7))
    for _ in range(12):
        dunya.sohbet_baslat()
        dunya.ticket_ac()
    for _ in range(10):
        dunya.kabul()
        dunya.ticket_ata()
        dunya.sohbet_ertele()
    once = {k: ok(c.get(GORUNUMLER)) for k, c in dunya.operatorler()}
    satir = GorunumSayaci.objects.count()
    sonuc = sayaclar.sikistir()
    assert sonuc["silinen"] > sonuc["yazilan"] > 0
    assert GorunumSayaci.objects.count() < satir
    # One row per key, none of them zero.
    assert not GorunumSayaci.objects.filter(sayi=0).exists()
    assert sayaclar.sikistir() == {"silinen": 0, "yazilan": 0}
    assert {k: ok(c.get(GORUNUMLER)) for k, c in dunya.operatorler()} == once
    assert sayaclar.yeniden_say()["kayan"] == 0
    assert {k: ok(c.get(GORUNUMLER)) for k, c in dunya.operatorler()} == once


def test_the_recount_heals_a_drift():
    dunya = Dunya(random.Random(8))
    for _ in range(6):
        dunya.sohbet_baslat()
    Oturum.objects.update(musteri=dunya.a)  # all the caller's
    dogru = ok(dunya.ben_c.get(GORUNUMLER))
    # Writes no trigger saw: a counter row by hand, and deletes with triggers off (as a restore or
    # replication with `session_replication_role = replica` does).
    GorunumSayaci.objects.create(musteri_id=dunya.a.pk, tur="chat", gorunum="acik", sayi=5)
    with connection.cursor() as cursor:
        cursor.execute("SET session_replication_role = replica")
        Oturum.objects.filter(musteri__in=[dunya.a, dunya.b]).delete()
        cursor.execute("SET session_replication_role = origin")
    assert ok(dunya.ben_c.get(GORUNUMLER))["gorunumler"] == dogru["gorunumler"] | {
        "chat": dogru["gorunumler"]["chat"] | {"acik": dogru["gorunumler"]["chat"]["acik"] + 5}}
    assert sayaclar.yeniden_say()["kayan"] >= 1
    assert ok(dunya.ben_c.get(GORUNUMLER))["gorunumler"] == _yeniden_sayim(dunya.ben)
    assert _yeniden_sayim(dunya.ben)["chat"]["acik"] == 0 < dogru["gorunumler"]["chat"]["acik"]


def test_a_message_or_a_field_no_view_reads_writes_no_counter_row():
    dunya = Dunya(random.Random(9))
    dunya.sohbet_baslat()
    oturum = Oturum.objects.get()
    once = GorunumSayaci.objects.count()
    Oturum.objects.filter(pk=oturum.pk).update(son_mesaj="yeni", okunmamis=3)
    Oturum.objects.filter(pk=oturum.pk).update(ertelendi_kadar=timezone.now() + timedelta(hours=1))
    Oturum.objects.filter(pk=oturum.pk).update(ertelendi_kadar=timezone.now() + timedelta(hours=2))  # still snoozed
    assert GorunumSayaci.objects.count() == once + 3  # -acik -atanmamis +ertelenen
    # ...the snooze wrote its rows once (the second `kadar` moved nothing).


@pytest.mark.parametrize("adet", [0, 1, 40])
def test_counts_read_the_counters_one_query_per_kind(adet):
    a = MusteriFactory()
    ben, client = operator_istemcisi(a, MusteriFactory())
    for i in range(adet):
        Oturum.objects.create(musteri=a, ziyaretci_id=f"z{i}", operator=ben if i % 2 else None,
                              durum="aktif" if i % 2 else "bekliyor", ertelendi_ziyaretci=i % 3 == 0)
        Ticket.objects.create(musteri=a, ziyaretci_id="z", konu="K", operator=ben if i % 2 else None)
    sayaclar.sikistir()
    with CaptureQueriesContext(connection) as sorgular:
        data = ok(client.get(GORUNUMLER))
    metinler = [q["sql"] for q in sorgular.captured_queries]
    assert len(metinler) == 5, metinler  # user, revocation check, the caller's tenants; one sum per kind
    assert sum("panel_gorunumsayaci" in m for m in metinler) == 2
    assert not any("chat_oturum" in m or "tickets_ticket" in m for m in metinler)
    assert data["gorunumler"] == _yeniden_sayim(ben)
    assert data["gorunumler"]["ticket"]["acik"] == adet


def test_another_tenants_items_are_never_counted():
    a, c = MusteriFactory(), MusteriFactory()
    ben, client = operator_istemcisi(a)
    yabanci, _ = operator_istemcisi(c)
    baska_a_uyesi_degil = operator_istemcisi(c)[0]
    for i in range(3):
        baslat(widget_client(c), ziyaretci_id=f"c{i}")
        Ticket.objects.create(musteri=c, ziyaretci_id="z", konu="K", operator=None)
    # Even a chat of the other tenant whose operator is the caller (a row moved there, say) is not theirs.
    Oturum.objects.create(musteri=c, ziyaretci_id="x", operator=ben, durum="aktif")
    Ticket.objects.create(musteri=c, ziyaretci_id="x", konu="K", operator=ben)
    Oturum.objects.create(musteri=a, ziyaretci_id="y", operator=baska_a_uyesi_degil, durum="aktif")
    sayilar = ok(client.get(GORUNUMLER))["gorunumler"]
    assert sayilar == {"chat": {"acik": 1, "atanmamis": 0, "benim": 0, "ertelenen": 0},
                       "ticket": {"acik": 0, "atanmamis": 0, "benim": 0, "ertelenen": 0}}
    assert sayilar == _yeniden_sayim(ben)

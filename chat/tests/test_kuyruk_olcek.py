"""The combined queue at scale (issue 12): on PostgreSQL, `GET /operator/chats` reads one index
range per tenant branch, never every waiting chat (checked with EXPLAIN on 100,000 chats), and a
waiting visitor's queue place is a bounded count."""
import pytest
from django.db import connection

from chat.models import Oturum
from chat.selectors import SIRA_NO_SINIRI
from supportdesk.testing.factories import MusteriFactory

from .yardimci import CHATS, W_MESAJLAR, ok, operator_istemcisi, widget_client

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL planı"),
]
TOPLAM = 100_000


def _bekleyenler(musteriler, toplam: int) -> None:
    ids = [m.id for m in musteriler]
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {Oturum._meta.db_table} (musteri_id, ziyaretci_id, ziyaretci_adi, email, kanal, durum,"
            " baslangic, puan_yorumu, okunmamis)"
            " SELECT (%s::bigint[])[1 + i %% %s], 'olcek-' || i, '', '', 'widget', 'bekliyor',"
            " now() - (i || ' seconds')::interval, '', 0 FROM generate_series(1, %s) AS i",
            [ids, len(ids), toplam],
        )
        cursor.execute(f"ANALYZE {Oturum._meta.db_table}")


def _plan(client, params) -> tuple[str, dict]:
    yakalanan = []

    def yakala(execute, sql, params_, many, context):
        if "UNION" in sql:
            yakalanan.append((sql, params_))
        return execute(sql, params_, many, context)

    with connection.execute_wrapper(yakala):
        data = ok(client.get(CHATS, params))
    assert yakalanan, "sayfa UNION ile okunmadı"
    sql, params_ = yakalanan[0]
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN " + sql, params_)
        return "\n".join(r[0] for r in cursor.fetchall()), data


@pytest.mark.parametrize("tenant_sayisi", [3, 50])
def test_queue_page_reads_one_index_range_per_tenant(tenant_sayisi):
    musteriler = [MusteriFactory() for _ in range(tenant_sayisi)]
    _, client = operator_istemcisi(*musteriler)
    _bekleyenler(musteriler, TOPLAM)
    plan, data = _plan(client, {})
    assert "Seq Scan" not in plan, plan
    assert "oturum_kuyruk_idx" in plan and "Limit" in plan, plan
    # Oldest waiting first across all tenants, and page 2 carries on where page 1 stopped.
    zamanlar = [o["baslangic"] for o in data["oturumlar"]]
    assert len(zamanlar) == 50 and zamanlar == sorted(zamanlar)
    plan2, data2 = _plan(client, {"cursor": data["sonraki"]})
    assert "Seq Scan" not in plan2, plan2
    assert data2["oturumlar"][0]["baslangic"] >= zamanlar[-1]
    assert not {o["id"] for o in data2["oturumlar"]} & {o["id"] for o in data["oturumlar"]}


def test_queue_place_deep_in_a_long_queue_is_a_bounded_count(musteri):
    _bekleyenler([musteri], 5_000)
    widget = widget_client(musteri)
    o = ok(widget.post("/api/v1/widget/chat/start", {"ziyaretci_id": "son"}, format="json"), 201)["oturum"]
    assert o["sira_no"] == SIRA_NO_SINIRI
    en_eski = Oturum.objects.filter(musteri=musteri).order_by("baslangic", "id").first()
    ilk = ok(widget.get(W_MESAJLAR, {"ziyaretci_id": en_eski.ziyaretci_id, "oturum_id": en_eski.id}))
    assert ilk["sira_no"] == 1

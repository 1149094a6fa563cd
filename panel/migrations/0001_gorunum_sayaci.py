"""The view counters (CONTRACT 24, issue 43): `panel_gorunumsayaci` and, on PostgreSQL, the
triggers on `chat_oturum` and `tickets_ticket` that keep it, filled once from the base tables.

The views' membership is written once in SQL, `panel_gorunum_anahtarlari`, as `chat.selectors._gorunum`
and `tickets.selectors._gorunum` define them: an open item (chats `bekliyor`/`aktif`, tickets
`acik`/`beklemede`) is in `ertelenen` when snoozed (`ertelendi_kadar` set or `ertelendi_ziyaretci`),
else in `acik`, and in `atanmamis` (a waiting chat; a ticket without an operator) or `benim` of its
operator (an active chat; a ticket with one). The test `panel/tests/test_gorunum_sayaclari.py`
compares the counts with the selectors' recount after every kind of write.

An UPDATE trigger runs only when one of the columns the views read changed (its WHEN): a message,
which touches the chat's row, costs nothing here. TRUNCATE empties the kind's counters.
SQLite keeps counting the base tables (panel.sayaclar), so nothing is created there."""
from django.db import migrations, models

ANAHTARLAR = """
CREATE OR REPLACE FUNCTION panel_gorunum_anahtarlari(p_tur text, p_durum text, p_operator bigint, p_ertelendi boolean)
RETURNS TABLE (gorunum text, operator_id bigint) LANGUAGE sql IMMUTABLE AS $$
    SELECT v.gorunum, v.operator_id FROM (VALUES
        ('ertelenen', NULL::bigint, p_ertelendi),
        ('acik', NULL::bigint, NOT p_ertelendi),
        ('atanmamis', NULL::bigint, NOT p_ertelendi AND CASE WHEN p_tur = 'chat' THEN p_durum = 'bekliyor'
                                                           ELSE p_operator IS NULL END),
        ('benim', p_operator, NOT p_ertelendi AND p_operator IS NOT NULL AND (p_tur = 'ticket' OR p_durum = 'aktif'))
    ) AS v(gorunum, operator_id, icinde)
    WHERE v.icinde AND p_durum = ANY(CASE WHEN p_tur = 'chat' THEN ARRAY['bekliyor', 'aktif']
                                          ELSE ARRAY['acik', 'beklemede'] END)
$$;
"""

TETIK = """
CREATE OR REPLACE FUNCTION panel_gorunum_sayaci_tetik() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    v_tur text := TG_ARGV[0];
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO panel_gorunumsayaci (musteri_id, tur, gorunum, operator_id, sayi)
        SELECT NEW.musteri_id, v_tur, a.gorunum, a.operator_id, 1
        FROM panel_gorunum_anahtarlari(v_tur, NEW.durum, NEW.operator_id,
                                       NEW.ertelendi_kadar IS NOT NULL OR NEW.ertelendi_ziyaretci) a;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO panel_gorunumsayaci (musteri_id, tur, gorunum, operator_id, sayi)
        SELECT OLD.musteri_id, v_tur, a.gorunum, a.operator_id, -1
        FROM panel_gorunum_anahtarlari(v_tur, OLD.durum, OLD.operator_id,
                                       OLD.ertelendi_kadar IS NOT NULL OR OLD.ertelendi_ziyaretci) a;
    ELSE
        -- Only the keys the row left or entered (a chat taken: -atanmamis +benim; `acik` stays).
        INSERT INTO panel_gorunumsayaci (musteri_id, tur, gorunum, operator_id, sayi)
        SELECT f.musteri_id, v_tur, f.gorunum, f.operator_id, sum(f.fark)::integer FROM (
            SELECT OLD.musteri_id AS musteri_id, a.gorunum, a.operator_id, -1 AS fark
            FROM panel_gorunum_anahtarlari(v_tur, OLD.durum, OLD.operator_id,
                                           OLD.ertelendi_kadar IS NOT NULL OR OLD.ertelendi_ziyaretci) a
            UNION ALL
            SELECT NEW.musteri_id, b.gorunum, b.operator_id, 1
            FROM panel_gorunum_anahtarlari(v_tur, NEW.durum, NEW.operator_id,
                                           NEW.ertelendi_kadar IS NOT NULL OR NEW.ertelendi_ziyaretci) b
        ) f
        GROUP BY f.musteri_id, f.gorunum, f.operator_id
        HAVING sum(f.fark) <> 0;
    END IF;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION panel_gorunum_sayaci_bosalt() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM panel_gorunumsayaci WHERE tur = TG_ARGV[0];
    RETURN NULL;
END
$$;
"""

TABLO_TETIKLERI = """
CREATE TRIGGER panel_gorunum_sayaci_ekle_sil AFTER INSERT OR DELETE ON {tablo}
    FOR EACH ROW EXECUTE FUNCTION panel_gorunum_sayaci_tetik('{tur}');
CREATE TRIGGER panel_gorunum_sayaci_guncelle AFTER UPDATE ON {tablo}
    FOR EACH ROW WHEN (OLD.musteri_id IS DISTINCT FROM NEW.musteri_id
                       OR OLD.durum IS DISTINCT FROM NEW.durum
                       OR OLD.operator_id IS DISTINCT FROM NEW.operator_id
                       OR (OLD.ertelendi_kadar IS NULL) <> (NEW.ertelendi_kadar IS NULL)
                       OR OLD.ertelendi_ziyaretci IS DISTINCT FROM NEW.ertelendi_ziyaretci)
    EXECUTE FUNCTION panel_gorunum_sayaci_tetik('{tur}');
CREATE TRIGGER panel_gorunum_sayaci_bosalt AFTER TRUNCATE ON {tablo}
    FOR EACH STATEMENT EXECUTE FUNCTION panel_gorunum_sayaci_bosalt('{tur}');
"""

TABLOLAR = {"chat": "chat_oturum", "ticket": "tickets_ticket"}
ACIK = {"chat": "'bekliyor', 'aktif'", "ticket": "'acik', 'beklemede'"}

# The first fill: CREATE TRIGGER holds the tables against writes until this migration commits,
# so the count and the triggers start from the same rows.
DOLDUR = """
INSERT INTO panel_gorunumsayaci (musteri_id, tur, gorunum, operator_id, sayi)
SELECT t.musteri_id, '{tur}', a.gorunum, a.operator_id, count(*)
FROM {tablo} t
CROSS JOIN LATERAL panel_gorunum_anahtarlari('{tur}', t.durum, t.operator_id,
                                             t.ertelendi_kadar IS NOT NULL OR t.ertelendi_ziyaretci) a
WHERE t.durum IN ({acik})
GROUP BY t.musteri_id, a.gorunum, a.operator_id;
"""


def kur(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(ANAHTARLAR)
    schema_editor.execute(TETIK)
    for tur, tablo in TABLOLAR.items():
        schema_editor.execute(TABLO_TETIKLERI.format(tablo=tablo, tur=tur))
        schema_editor.execute(DOLDUR.format(tablo=tablo, tur=tur, acik=ACIK[tur]))


def kaldir(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for tablo in TABLOLAR.values():
        for ad in ("panel_gorunum_sayaci_ekle_sil", "panel_gorunum_sayaci_guncelle", "panel_gorunum_sayaci_bosalt"):
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {ad} ON {tablo}")
    schema_editor.execute("DROP FUNCTION IF EXISTS panel_gorunum_sayaci_tetik(), panel_gorunum_sayaci_bosalt(), "
                          "panel_gorunum_anahtarlari(text, text, bigint, boolean)")


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ("chat", "0015_h43d_sla_ilk_yanit"),
        ("tickets", "0010_ekip_erteleme"),
    ]

    operations = [
        migrations.CreateModel(
            name="GorunumSayaci",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("musteri_id", models.BigIntegerField(verbose_name="proje")),
                ("tur", models.CharField(choices=[("chat", "Sohbet"), ("ticket", "Talep")], max_length=6,
                                         verbose_name="tür")),
                ("gorunum", models.CharField(max_length=10, verbose_name="görünüm")),
                ("operator_id", models.BigIntegerField(blank=True, null=True, verbose_name="operatör")),
                ("sayi", models.IntegerField(verbose_name="sayı")),
            ],
            options={
                "verbose_name": "görünüm sayacı",
                "verbose_name_plural": "görünüm sayaçları",
                "indexes": [models.Index(fields=["musteri_id", "tur", "gorunum", "operator_id"],
                                         name="gorunum_sayaci_anahtar_idx")],
            },
        ),
        migrations.RunPython(kur, kaldir, elidable=False),
    ]

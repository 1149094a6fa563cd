"""A cheaper body for the view counters' row trigger (issue 43, task h43t): the same keys as
`panel_gorunum_anahtarlari` (0001), computed inline in PL/pgSQL from OLD and NEW instead of calling
the set-returning SQL function once per row version and grouping their UNION: one INSERT of at most
five rows (eight when a row changes tenant), only the keys whose count moved.

What is counted does not change: an open item (chats `bekliyor`/`aktif`, tickets `acik`/`beklemede`)
is in `ertelenen` when snoozed (`ertelendi_kadar` set or `ertelendi_ziyaretci`), else in `acik`, and
in `atanmamis` (a waiting chat; a ticket without an operator) or `benim` of its operator (an active
chat; a ticket with one). `panel_gorunum_anahtarlari` stays: the first fill and the hourly recount
(panel.sayaclar) use it, and `panel/tests/test_gorunum_sayaclari.py` compares the trigger's counts
with the selectors' recount. The triggers themselves (their WHEN, TRUNCATE) are 0001's, untouched.

Reversing restores 0001's body."""
import importlib

from django.db import migrations

TETIK = """
CREATE OR REPLACE FUNCTION panel_gorunum_sayaci_tetik() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    v_tur text := TG_ARGV[0];
    v_ert boolean;
    -- o_* the row version leaving, n_* the one arriving (INSERT: none leaves; DELETE: none arrives).
    o_m bigint; o_ert int := 0; o_acik int := 0; o_atan int := 0; o_benim bigint;
    n_m bigint; n_ert int := 0; n_acik int := 0; n_atan int := 0; n_benim bigint;
BEGIN
    IF TG_OP <> 'INSERT' THEN
        o_m := OLD.musteri_id;
        IF OLD.durum IN ('bekliyor', 'aktif') AND v_tur = 'chat'
           OR OLD.durum IN ('acik', 'beklemede') AND v_tur = 'ticket' THEN
            v_ert := OLD.ertelendi_kadar IS NOT NULL OR OLD.ertelendi_ziyaretci;
            IF v_ert THEN
                o_ert := 1;
            ELSIF NOT v_ert THEN
                o_acik := 1;
                IF v_tur = 'chat' AND OLD.durum = 'bekliyor' OR v_tur = 'ticket' AND OLD.operator_id IS NULL THEN
                    o_atan := 1;
                END IF;
                IF OLD.operator_id IS NOT NULL AND (v_tur = 'ticket' OR OLD.durum = 'aktif') THEN
                    o_benim := OLD.operator_id;
                END IF;
            END IF;
        END IF;
    END IF;
    IF TG_OP <> 'DELETE' THEN
        n_m := NEW.musteri_id;
        IF NEW.durum IN ('bekliyor', 'aktif') AND v_tur = 'chat'
           OR NEW.durum IN ('acik', 'beklemede') AND v_tur = 'ticket' THEN
            v_ert := NEW.ertelendi_kadar IS NOT NULL OR NEW.ertelendi_ziyaretci;
            IF v_ert THEN
                n_ert := 1;
            ELSIF NOT v_ert THEN
                n_acik := 1;
                IF v_tur = 'chat' AND NEW.durum = 'bekliyor' OR v_tur = 'ticket' AND NEW.operator_id IS NULL THEN
                    n_atan := 1;
                END IF;
                IF NEW.operator_id IS NOT NULL AND (v_tur = 'ticket' OR NEW.durum = 'aktif') THEN
                    n_benim := NEW.operator_id;
                END IF;
            END IF;
        END IF;
    END IF;
    IF o_m IS NULL OR n_m IS NULL OR o_m = n_m THEN
        -- One tenant: each key's net change (a chat taken: -atanmamis +benim; `acik` stays).
        INSERT INTO panel_gorunumsayaci (musteri_id, tur, gorunum, operator_id, sayi)
        SELECT coalesce(n_m, o_m), v_tur, v.gorunum, v.operator_id, v.sayi FROM (VALUES
            ('ertelenen', NULL::bigint, n_ert - o_ert),
            ('acik', NULL::bigint, n_acik - o_acik),
            ('atanmamis', NULL::bigint, n_atan - o_atan),
            ('benim', o_benim, CASE WHEN o_benim IS DISTINCT FROM n_benim AND o_benim IS NOT NULL THEN -1 ELSE 0 END),
            ('benim', n_benim, CASE WHEN o_benim IS DISTINCT FROM n_benim AND n_benim IS NOT NULL THEN 1 ELSE 0 END)
        ) AS v(gorunum, operator_id, sayi)
        WHERE v.sayi <> 0;
    ELSE
        -- Moved to another tenant: every old key -1 there, every new key +1 here.
        INSERT INTO panel_gorunumsayaci (musteri_id, tur, gorunum, operator_id, sayi)
        SELECT v.musteri_id, v_tur, v.gorunum, v.operator_id, v.sayi FROM (VALUES
            (o_m, 'ertelenen', NULL::bigint, -o_ert), (o_m, 'acik', NULL::bigint, -o_acik),
            (o_m, 'atanmamis', NULL::bigint, -o_atan), (o_m, 'benim', o_benim, -(o_benim IS NOT NULL)::int),
            (n_m, 'ertelenen', NULL::bigint, n_ert), (n_m, 'acik', NULL::bigint, n_acik),
            (n_m, 'atanmamis', NULL::bigint, n_atan), (n_m, 'benim', n_benim, (n_benim IS NOT NULL)::int)
        ) AS v(musteri_id, gorunum, operator_id, sayi)
        WHERE v.sayi <> 0;
    END IF;
    RETURN NULL;
END
$$;
"""


def kur(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(TETIK)


def kaldir(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(importlib.import_module("panel.migrations.0001_gorunum_sayaci").TETIK)


class Migration(migrations.Migration):

    dependencies = [
        ("panel", "0001_gorunum_sayaci"),
    ]

    operations = [
        migrations.RunPython(kur, kaldir, elidable=False),
    ]

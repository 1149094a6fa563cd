"""The database's own guard of the audit log (PostgreSQL): a trigger refuses UPDATE always, and
DELETE unless the transaction said `silme_izni()` first (the year's purge, a tenant's deletion).
Elsewhere (SQLite in a checkout) only the application's rules hold."""
from django.db import connection

AYAR = "denetim.silme_izni"
_RED = "Denetim kaydı değiştirilemez ve silinemez"  # ceviri: yok (the database's own refusal)

TETIKLEYICI_SQL = f"""
CREATE OR REPLACE FUNCTION denetim_degistirilemez() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'DELETE' AND current_setting('{AYAR}', true) = 'evet' THEN
        RETURN OLD;
    END IF;
    RAISE EXCEPTION '{_RED}';
END;
$$ LANGUAGE plpgsql;
DROP TRIGGER IF EXISTS denetim_degistirilemez ON denetim_denetimkaydi;
CREATE TRIGGER denetim_degistirilemez BEFORE UPDATE OR DELETE ON denetim_denetimkaydi
    FOR EACH ROW EXECUTE FUNCTION denetim_degistirilemez();
"""
KALDIR_SQL = """
DROP TRIGGER IF EXISTS denetim_degistirilemez ON denetim_denetimkaydi;
DROP FUNCTION IF EXISTS denetim_degistirilemez();
"""


def silme_izni() -> None:
    """Allow deleting audit entries until the current transaction ends (inside `atomic`)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT set_config(%s, 'evet', true)", [AYAR])

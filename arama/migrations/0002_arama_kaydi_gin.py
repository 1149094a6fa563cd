"""GIN index of the search rows' tsvector, on PostgreSQL only (as `knowledge` 0002): SQLite has
no tsvector, and its search reads the folded text columns."""
from django.db import migrations

INDEX = "arama_kaydi_vektor_gin"


def olustur(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"CREATE INDEX IF NOT EXISTS {INDEX} ON arama_aramakaydi USING gin (vektor)")


def kaldir(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {INDEX}")


class Migration(migrations.Migration):
    dependencies = [("arama", "0001_arama_kaydi")]

    operations = [migrations.RunPython(olustur, kaldir, elidable=False)]

"""GIN index of the articles' search vector, on PostgreSQL only.

A vendor-conditional operation instead of `Meta.indexes = [GinIndex(...)]`: SQLite (the
no-configuration default) has neither tsvector nor GIN, and the fallback search there does not
use the column.
"""
from django.db import migrations

INDEX = "kb_makale_arama_gin"


def olustur(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"CREATE INDEX IF NOT EXISTS {INDEX} ON knowledge_kbmakale USING gin (arama_vektoru)")


def kaldir(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {INDEX}")


class Migration(migrations.Migration):
    dependencies = [("knowledge", "0001_initial")]

    operations = [migrations.RunPython(olustur, kaldir, elidable=False)]

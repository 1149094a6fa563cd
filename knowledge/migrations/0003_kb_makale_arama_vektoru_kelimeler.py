"""Rebuild the articles' search vectors with whole words beside the Turkish stems (see
`knowledge.services.arama_vektoru_ifadesi`), on PostgreSQL only; SQLite has no vector.
The expression is repeated here, frozen, so later changes to the service leave this step as run."""
from django.contrib.postgres.search import SearchVector
from django.db import migrations


def yeniden_olustur(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    apps.get_model("knowledge", "KbMakale").objects.update(
        arama_vektoru=SearchVector("arama_baslik", weight="A", config="turkish")
        + SearchVector("arama_baslik", weight="A", config="simple")
        + SearchVector("arama_govde", weight="B", config="turkish")
        + SearchVector("arama_govde", weight="B", config="simple")
    )


class Migration(migrations.Migration):
    dependencies = [("knowledge", "0002_kb_makale_arama_gin")]

    operations = [migrations.RunPython(yeniden_olustur, migrations.RunPython.noop, elidable=False)]

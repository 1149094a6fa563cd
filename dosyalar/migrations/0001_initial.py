"""`Dosya` moves here from `tickets` without touching the database: the table keeps its name
(`tickets_dosya`) and its rows; only Django's model state changes owner. `tickets` 0002 then
drops the model from its own state, after every foreign key points here."""
import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models

import dosyalar.models


def icerik_tipini_tasi(apps, schema_editor):
    # Keep the content type (and so the permissions granted on it, and admin log entries) of an
    # existing installation; on a fresh database it does not exist yet and this does nothing.
    ContentType = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    if not ContentType.objects.using(db).filter(app_label="dosyalar", model="dosya").exists():
        ContentType.objects.using(db).filter(app_label="tickets", model="dosya").update(app_label="dosyalar")


def icerik_tipini_geri_tasi(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    if not ContentType.objects.using(db).filter(app_label="tickets", model="dosya").exists():
        ContentType.objects.using(db).filter(app_label="dosyalar", model="dosya").update(app_label="tickets")


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("tenants", "0001_initial"),
        # The table is created there (on a fresh database) and must exist before this state refers to it.
        ("tickets", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Dosya",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("ziyaretci_id", models.CharField(max_length=128, verbose_name="ziyaretçi")),
                        ("dosya", models.FileField(max_length=255, upload_to=dosyalar.models.dosya_yolu, verbose_name="dosya")),
                        ("ad", models.CharField(max_length=255, verbose_name="ad")),
                        ("boyut", models.PositiveBigIntegerField(verbose_name="boyut (bayt)")),
                        ("mime_tipi", models.CharField(max_length=64, verbose_name="MIME tipi")),
                        ("olusturulma", models.DateTimeField(default=django.utils.timezone.now, verbose_name="oluşturulma")),
                        ("musteri", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="dosyalar",
                                                      to="tenants.musteri")),
                    ],
                    options={
                        "verbose_name": "dosya",
                        "verbose_name_plural": "dosyalar",
                        "db_table": "tickets_dosya",
                        "indexes": [models.Index(fields=["musteri", "ziyaretci_id"], name="dosya_ziyaretci_idx")],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(icerik_tipini_tasi, icerik_tipini_geri_tasi, elidable=True),
    ]

from django.db import migrations, models


def ciftleri_sil(apps, schema_editor):
    # A signature used on both endpoints before this has two rows; one is enough to refuse it
    # again (its digest, made without the purpose, matches no later call: the safe side).
    ImzaKullanimi = apps.get_model("context", "ImzaKullanimi")
    gorulen = set()
    for pk, musteri_id, imza in ImzaKullanimi.objects.order_by("pk").values_list("pk", "musteri_id", "imza"):
        if (musteri_id, imza) in gorulen:
            ImzaKullanimi.objects.filter(pk=pk).delete()
        gorulen.add((musteri_id, imza))


class Migration(migrations.Migration):
    """A signature is consumed by its first use, whatever the endpoint (CONTRACT 2a)."""

    dependencies = [
        ('context', '0002_imza_kullanimi'),
    ]

    operations = [
        migrations.RunPython(ciftleri_sil, migrations.RunPython.noop),
        migrations.RemoveConstraint(
            model_name='imzakullanimi',
            name='imza_kullanimi_tekil',
        ),
        migrations.AddConstraint(
            model_name='imzakullanimi',
            constraint=models.UniqueConstraint(fields=('musteri', 'imza'), name='imza_kullanimi_tekil_imza'),
        ),
    ]

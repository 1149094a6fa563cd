"""`Mesaj.ek` now names `dosyalar.Dosya`: the same table (`tickets_dosya`), so the column and
its constraint stay as they are; only the model state changes."""
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("chat", "0002_mesaj_ek"),
        ("dosyalar", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="mesaj",
                    name="ek",
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL,
                                            related_name="+", to="dosyalar.dosya"),
                ),
            ],
            database_operations=[],
        ),
    ]

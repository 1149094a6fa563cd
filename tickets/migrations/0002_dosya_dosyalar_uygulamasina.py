"""`Dosya` now lives in the `dosyalar` app (its 0001 takes over the same table). Here tickets
lets go of it in state only: the attachments M2M points to `dosyalar.Dosya` (same table, same
`dosya_id` column of the through table), then the model leaves tickets' state. Nothing runs
against the database."""
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("tickets", "0001_initial"),
        ("dosyalar", "0001_initial"),
        # Every foreign key to the old state model must point to the new one before it goes.
        ("chat", "0003_mesaj_ek_dosyalar"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="ticketyanit",
                    name="ekler",
                    field=models.ManyToManyField(blank=True, related_name="ticket_yanitlari", to="dosyalar.dosya",
                                                 verbose_name="ekler"),
                ),
                migrations.DeleteModel(name="Dosya"),
            ],
            database_operations=[],
        ),
    ]

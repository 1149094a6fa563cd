from django.db import migrations, models

BAGLANTILAR = [
    ('imzasiz', "İmzasız init ile (widget'ın kendi kimliği)"),
    ('imzali', 'Sitenin imzasıyla (ya da anahtarları portalda iptal edildi)'),
    ('serbest', 'Serbest bırakıldı (bağlı değil)'),
]


class Migration(migrations.Migration):
    """How a visitor was bound (CONTRACT 2a). Rows bound before this was recorded count as bound
    without a signature: the safe side, as the site's next signed init then ends their tokens."""

    dependencies = [
        ('tenants', '0005_birlestir'),
    ]

    operations = [
        migrations.AddField(
            model_name='ziyaretcikimligi',
            name='baglanti',
            field=models.CharField(choices=BAGLANTILAR, default='imzasiz', max_length=8, verbose_name='bağlanma'),
        ),
        migrations.AlterField(
            model_name='ziyaretcikimligi',
            name='baglanti',
            field=models.CharField(choices=BAGLANTILAR, default='imzali', max_length=8, verbose_name='bağlanma'),
        ),
    ]

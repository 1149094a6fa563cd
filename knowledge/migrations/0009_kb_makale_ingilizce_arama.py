"""English search columns of the articles (CONTRACT 19, issue 43): each field the English version,
else the article's own; filled for the rows there are, with a GIN index on PostgreSQL. The folding,
the HTML-to-text step and the vector are repeated here, frozen, so later service changes leave this
step as run."""
import html
import re
import unicodedata

import django.contrib.postgres.search
from django.contrib.postgres.search import SearchVector
from django.db import migrations, models

INDEX = "kb_makale_arama_en_gin"
_TABLO = str.maketrans("ÇĞİIÖŞÜÂÎÛçğıöşüâîû", "CGIIOSUAIUcgiosuaiu")
_KELIME = re.compile(r"\w+", re.UNICODE)
_ETIKET = re.compile(r"<[^>]*>")


def _harf(ch):
    if ch in "İI":
        return "i"
    low = ch.lower()
    return low if len(low) == 1 else ch


def _arama_metni(*parcalar):
    kelimeler = []
    for p in parcalar:
        p = unicodedata.normalize("NFC", p or "").replace("i\u0307", "i").replace("I\u0307", "İ")
        kelimeler += _KELIME.findall("".join(_harf(ch) for ch in p).translate(_TABLO))
    return " " + " ".join(kelimeler) + " "


def _duz(icerik_html):
    # The stored HTML is sanitized already (the service's nh3 pass).
    return " ".join(html.unescape(_ETIKET.sub(" ", icerik_html or "")).split())


def doldur(apps, schema_editor):
    KbMakale = apps.get_model("knowledge", "KbMakale")
    alanlar = ("id", "baslik", "ozet", "duz_metin", "baslik_en", "ozet_en", "icerik_en")
    for m in KbMakale.objects.only(*alanlar).iterator(chunk_size=500):
        duz_en = _duz(m.icerik_en) or m.duz_metin
        KbMakale.objects.filter(pk=m.pk).update(
            duz_metin_en=duz_en, arama_baslik_en=_arama_metni(m.baslik_en or m.baslik),
            arama_govde_en=_arama_metni(m.ozet_en or m.ozet, duz_en))
    if schema_editor.connection.vendor == "postgresql":
        KbMakale.objects.update(
            arama_vektoru_en=SearchVector("arama_baslik_en", weight="A", config="english")
            + SearchVector("arama_baslik_en", weight="A", config="simple")
            + SearchVector("arama_govde_en", weight="B", config="english")
            + SearchVector("arama_govde_en", weight="B", config="simple"))
        schema_editor.execute(f"CREATE INDEX IF NOT EXISTS {INDEX} ON knowledge_kbmakale USING gin (arama_vektoru_en)")


def kaldir(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {INDEX}")


class Migration(migrations.Migration):

    dependencies = [
        ('knowledge', '0008_h43d_ingilizce'),
    ]

    operations = [
        migrations.AddField(
            model_name='kbmakale',
            name='arama_baslik_en',
            field=models.TextField(blank=True, db_default='', default='', editable=False, verbose_name='arama başlığı (İngilizce)'),
        ),
        migrations.AddField(
            model_name='kbmakale',
            name='arama_govde_en',
            field=models.TextField(blank=True, db_default='', default='', editable=False, verbose_name='arama gövdesi (İngilizce)'),
        ),
        migrations.AddField(
            model_name='kbmakale',
            name='arama_vektoru_en',
            field=django.contrib.postgres.search.SearchVectorField(editable=False, null=True, verbose_name='arama vektörü (İngilizce)'),
        ),
        migrations.AddField(
            model_name='kbmakale',
            name='duz_metin_en',
            field=models.TextField(blank=True, db_default='', default='', editable=False, verbose_name='düz metin (İngilizce)'),
        ),
        migrations.RunPython(doldur, kaldir, elidable=False),
    ]

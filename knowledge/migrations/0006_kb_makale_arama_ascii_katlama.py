"""Refold the articles' search columns to the ASCII base of Turkish letters (issue 24: "sifre"
finds "Şifre"; see `knowledge.metin.arama_katla`) and rebuild the vectors on PostgreSQL.
The folding and the vector expression are repeated here, frozen, so later changes to the
service leave this step as run."""
import re
import unicodedata

from django.contrib.postgres.search import SearchVector
from django.db import migrations

_TABLO = str.maketrans("ÇĞİIÖŞÜÂÎÛçğıöşüâîû", "CGIIOSUAIUcgiosuaiu")
_KELIME = re.compile(r"\w+", re.UNICODE)


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


def yeniden_katla(apps, schema_editor):
    KbMakale = apps.get_model("knowledge", "KbMakale")
    for makale in KbMakale.objects.only("id", "baslik", "ozet", "duz_metin").iterator(chunk_size=500):
        KbMakale.objects.filter(pk=makale.pk).update(arama_baslik=_arama_metni(makale.baslik),
                                                     arama_govde=_arama_metni(makale.ozet, makale.duz_metin))
    if schema_editor.connection.vendor == "postgresql":
        KbMakale.objects.update(
            arama_vektoru=SearchVector("arama_baslik", weight="A", config="turkish")
            + SearchVector("arama_baslik", weight="A", config="simple")
            + SearchVector("arama_govde", weight="B", config="turkish")
            + SearchVector("arama_govde", weight="B", config="simple")
        )


class Migration(migrations.Migration):
    dependencies = [("knowledge", "0005_kampanya_gorsel_yukleme")]

    operations = [migrations.RunPython(yeniden_katla, migrations.RunPython.noop, elidable=False)]

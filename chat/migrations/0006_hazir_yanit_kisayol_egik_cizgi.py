"""Every stored `kisayol` gets its leading `/` (CONTRACT 16: stored with it whether or not it was
typed). A shortcut whose `/` form is taken in its project already keeps both: it becomes `/x-2`
(`-3`, … the first free), within the field's 50 characters. Nothing is deleted."""
from django.db import migrations

EN_COK = 50


def _bos_kisayol(kok: str, alinan: set[str]) -> str:
    aday = ("/" + kok)[:EN_COK]
    n = 2
    while aday in alinan:
        ek = f"-{n}"
        aday = ("/" + kok)[:EN_COK - len(ek)] + ek
        n += 1
    return aday


def egik_cizgi_ekle(apps, schema_editor):
    HazirYanit = apps.get_model("chat", "HazirYanit")
    eksikler = HazirYanit.objects.exclude(kisayol__startswith="/").order_by("musteri_id", "id")
    alinan_projede: dict[int, set[str]] = {}
    for yanit in eksikler.iterator():
        alinan = alinan_projede.get(yanit.musteri_id)
        if alinan is None:
            alinan = set(HazirYanit.objects.filter(musteri_id=yanit.musteri_id).values_list("kisayol", flat=True))
            alinan_projede[yanit.musteri_id] = alinan
        alinan.discard(yanit.kisayol)
        yanit.kisayol = _bos_kisayol(yanit.kisayol.strip(), alinan)
        alinan.add(yanit.kisayol)
        yanit.save(update_fields=["kisayol"])


class Migration(migrations.Migration):
    dependencies = [("chat", "0005_oturum_ziyaretci_indeksi")]

    operations = [migrations.RunPython(egik_cizgi_ekle, migrations.RunPython.noop)]

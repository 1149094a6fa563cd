"""`make test`'s order (supportdesk/testing/planlayici.py): the slow files first, every test once."""
from pathlib import Path

from django.conf import settings

from supportdesk.testing.planlayici import AGIR_DOSYALAR, AgirOnceKuyruk


def test_listed_slow_files_exist():
    kok = Path(settings.BASE_DIR)
    eksik = [d for d in AGIR_DOSYALAR if not (kok / d).is_file()]
    assert eksik == [], f"renamed or removed: update AGIR_DOSYALAR ({eksik})"


def test_the_queue_hands_out_the_slowest_known_file_first_then_the_rest_in_order():
    kuyruk = AgirOnceKuyruk()
    dosyalar = ["a/tests/test_cok.py", "supportdesk/tests/test_runtime_asamasi.py", "b/tests/test_orta.py",
                "portal/tests/test_bir_gun_e2e.py", "c/tests/test_az.py"]
    for i, d in enumerate(dosyalar):
        kuyruk[d] = {f"{d}::t{i}": False}
    sira = [kuyruk.popitem(last=False)[0] for _ in range(len(dosyalar))]
    assert sira == ["portal/tests/test_bir_gun_e2e.py", "supportdesk/tests/test_runtime_asamasi.py",
                    "a/tests/test_cok.py", "b/tests/test_orta.py", "c/tests/test_az.py"]
    assert not kuyruk

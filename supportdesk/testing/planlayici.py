"""The order in which `make test`'s workers take the files (pytest-xdist, `--dist loadfile`).

xdist hands out whole files, by default the files with the most tests first. The slowest files
have few tests (one production topology, one runtime stage, the two e2e days), so they came last
and the run ended on one worker finishing a minute-long file while the others had nothing left.
Here the files known to be slow go first, slowest first; every other file follows in xdist's
own order. A renamed or removed file only loses its place (`test_planlayici.py` keeps the list
true to the tree).
"""
from collections import OrderedDict

from xdist.scheduler import LoadFileScheduling

# Seconds of setup, call and teardown per file in a run with two workers (junit, 2026-11-29; every
# file of 7 s or more): only the order matters, not the figures.
AGIR_DOSYALAR = {
    "portal/tests/test_bir_gun_e2e.py": 121,
    "panel/tests/test_konsol_tarayici.py": 84,
    "portal/tests/test_widget_e2e.py": 63,
    "widget/tests/test_widget_dili_tarayici.py": 61,
    "supportdesk/tests/test_uretim_topolojisi.py": 52,
    "panel/tests/test_vardiya_konsol_tarayici.py": 44,
    "portal/tests/test_guven_tarayici.py": 42,
    "supportdesk/tests/test_runtime_asamasi.py": 42,
    "supportdesk/tests/test_replika.py": 39,
    "panel/tests/test_gelen_kutusu_tarayici.py": 34,
    "chat/tests/test_gomulu_yaris.py": 34,
    "supportdesk/tests/test_metrikler.py": 34,
    "canli/tests/test_widget_tarayici.py": 30,
    "panel/tests/test_konsol_sahiplik.py": 29,
    "canli/tests/test_varlik.py": 28,
    "panel/tests/test_konsol_soket.py": 27,
    "arama/tests/test_sqlite.py": 26,
    "portal/tests/test_tarayici.py": 24,
    "canli/tests/test_sessiz_soket.py": 24,
    "webhooks/tests/test_yalitim.py": 23,
    "supportdesk/tests/test_beat.py": 22,
    "supportdesk/tests/test_csp_tarayici.py": 22,
    "chat/tests/test_atama_yaris.py": 21,
    "webhooks/tests/test_toplu_worker.py": 20,
    "supportdesk/tests/test_yedek.py": 20,
    "portal/tests/test_csp_tarayici.py": 20,
    "portal/tests/test_widget_vardiya_e2e.py": 20,
    "supportdesk/tests/test_katalog.py": 19,
    "chat/tests/test_atama.py": 19,
    "canli/tests/test_uyelik.py": 19,
    "portal/tests/test_widget_token_e2e.py": 18,
    "canli/tests/test_soketler.py": 18,
    "portal/tests/test_widget_gunluk.py": 17,
    "panel/tests/test_konsol_dil_tarayici.py": 16,
    "webhooks/tests/test_worker.py": 16,
    "panel/tests/test_gorunumler_tarayici.py": 14,
    "supportdesk/tests/test_gunluk_surecler.py": 14,
    "panel/tests/test_konsol_araya_girme.py": 14,
    "chat/tests/test_kuyruk_olcek.py": 12,
    "panel/tests/test_kotu_girdi_toplu.py": 12,
    "widget/tests/test_ekip_secimi_tarayici.py": 12,
    "portal/tests/test_self_servis_tarayici.py": 12,
    "supportdesk/tests/test_paketleme.py": 12,
    "tenants/tests/test_ekipler_api.py": 11,
    "portal/tests/test_widget_mesai_e2e.py": 11,
    "supportdesk/tests/test_dinleyiciler.py": 10,
    "tenants/tests/test_bozuk_girdi.py": 10,
    "kisiler/tests/test_kisiler_api.py": 10,
    "tenants/tests/test_commands.py": 10,
    "panel/tests/test_gorunum_sayaclari.py": 10,
    "portal/tests/test_dil_tarayici.py": 10,
    "panel/tests/test_guven_konsol_tarayici.py": 10,
    "tenants/tests/test_limit_surecler.py": 10,
    "canli/tests/test_cerceve_sirasi_tarayici.py": 10,
    "gizlilik/tests/test_silme_yarisi.py": 9,
    "widget/tests/test_icerik_dili_tarayici.py": 9,
    "panel/tests/test_ekip_suzgeci_tarayici.py": 9,
    "portal/tests/test_iki_adim_tarayici.py": 8,
    "arama/tests/test_arama.py": 8,
    "tenants/tests/test_kotu_girdi_ekipler_ayarlar.py": 8,
    "eposta/tests/test_giden.py": 8,
    "panel/tests/test_konsol_sohbet_ek_tarayici.py": 8,
    "supportdesk/tests/test_arka_plan.py": 8,
    "canli/tests/test_dayaniklilik.py": 7,
    "tenants/tests/test_onbellek_surecler.py": 7,
    "otomasyon/tests/test_kotu_girdi_otomasyon.py": 7,
    "supportdesk/tests/test_ceviri.py": 7,
}


def dosyasi(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


class AgirOnceKuyruk(OrderedDict):
    """xdist's work queue (file -> its tests), built in its own order: the next file handed out
    (`popitem(last=False)`) is the slowest known one left, else the first in xdist's order.
    Only the order changes: the workers' collections and the indexes sent to them do not."""

    def popitem(self, last: bool = True):
        if last:
            return super().popitem(last=True)
        agir = [d for d in self if d in AGIR_DOSYALAR]
        dosya = max(agir, key=AGIR_DOSYALAR.__getitem__) if agir else next(iter(self))
        return dosya, self.pop(dosya)


class AgirOncePlanlayici(LoadFileScheduling):
    """`--dist loadfile` with the slow files handed out first."""

    def __init__(self, config, log=None) -> None:
        super().__init__(config, log)
        self.workqueue = AgirOnceKuyruk()


class PlanlayiciEklentisi:
    """Registered by conftest.py only when xdist runs the session with `--dist loadfile`."""

    def pytest_xdist_make_scheduler(self, config, log):
        return AgirOncePlanlayici(config, log)

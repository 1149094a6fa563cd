"""The webhooks services other apps (and their tests) call: endpoint management and, for tests
and the shell, delivering now. The code lives in `endpointler` and `teslimat`; events are not
emitted here but through `supportdesk.core.olaylar.olay_yayinla`.
"""
from .endpointler import (
    gizli_anahtar_dogrula,
    teslimat_yeniden_gonder,
    webhook_endpoint_guncelle,
    webhook_endpoint_olustur,
    webhook_endpoint_sil,
    webhook_test_olayi_gonder,
)
from .hedef import webhook_url_dogrula
from .teslimat import teslimatlari_simdi_gonder

__all__ = [
    "gizli_anahtar_dogrula", "teslimat_yeniden_gonder", "teslimatlari_simdi_gonder", "webhook_endpoint_guncelle",
    "webhook_endpoint_olustur", "webhook_endpoint_sil", "webhook_test_olayi_gonder", "webhook_url_dogrula",
]

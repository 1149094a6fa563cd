"""What the tenants app's caches do with domain events (supportdesk.core.olaylar): inside the
transaction, since each renewal runs now and again after the commit (`simdi_ve_commit_sonrasi`)."""
from supportdesk.core.olaylar import YayinlananOlay, dinle

from . import musteri_onbellegi


@dinle("musteri_degisti", islem_icinde=True)
def musteri_anahtar_onbellegi(olay: YayinlananOlay) -> None:
    # The tenant-by-widget-key entries of its old and new key, and the generation.
    musteri_onbellegi.unut(*olay.veri["api_keyler"])


@dinle("uyelik_eklendi", "uyelik_silindi", islem_icinde=True)
def uyelik_nesli(olay: YayinlananOlay) -> None:
    # The tenant's member list, which widget requests narrow their read of presence to.
    musteri_onbellegi.uyelik_nesli_yenile(olay.musteri_id)

"""What the tenants app's caches do with domain events (supportdesk.core.olaylar): inside the
transaction, since each renewal runs now and again after the commit (`simdi_ve_commit_sonrasi`)."""
from supportdesk.core.olaylar import YayinlananOlay, dinle

from . import musteri_onbellegi
from .models import Musteri


@dinle("musteri_degisti", islem_icinde=True)
def musteri_anahtar_onbellegi(olay: YayinlananOlay) -> None:
    # The tenant-by-widget-key entries of its old and new key, and the generation.
    musteri_onbellegi.unut(*olay.veri["api_keyler"])


@dinle("ekip_degisti", islem_icinde=True)
def ekip_onbellegi(olay: YayinlananOlay) -> None:
    # The widget's cached tenant carries the teams it offers (CONTRACT 22, `widget/init`).
    api_key = Musteri.objects.filter(pk=olay.musteri_id).values_list("api_key", flat=True).first()
    if api_key:
        musteri_onbellegi.unut(api_key)


@dinle("uyelik_eklendi", "uyelik_silindi", islem_icinde=True)
def uyelik_nesli(olay: YayinlananOlay) -> None:
    # The tenant's member list, which widget requests narrow their read of presence to.
    musteri_onbellegi.uyelik_nesli_yenile(olay.musteri_id)

"""What privacy does when something happens elsewhere (supportdesk.core.olaylar)."""
from supportdesk.core.olaylar import YayinlananOlay, dinle

from . import services


@dinle("musteri_siliniyor", islem_icinde=True)
def musteri_siliniyor(olay: YayinlananOlay) -> None:
    """A tenant deleted by any path (Django admin, the portal's project deletion, a shell) leaves
    no file behind (CONTRACT 18): before the cascade removes the rows, the names of every file they
    own are noted in the deleting transaction, and the files go once it commits."""
    services.musteri_dosyalarini_sil(musteri=olay.veri["musteri"])

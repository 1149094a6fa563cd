"""An operator's status changes (CONTRACT 3, 11, 15; issue 40: one action per change, its steps
as calls).

`tenants` keeps the status (`tenants.services`: the conditional UPDATE and its events) and cannot
call up into routing; each change of it is therefore an action here, one layer up, which routes
after its commit: an operator now `cevrimici` (from `cevrimdisi` or `mesgul`) takes waiting chats
(`atama.operator_uygun_oldu`), one now `cevrimdisi` hands its `aktif` chats back to routing
(`atama.operator_erisilemez`); `mesgul` keeps what it has and gets nothing new. Every caller calls
these: the status call (`POST /operator/status`), both logouts (`/auth/logout`, the console's
`/panel/cikis`) and the presence sweep (`canli.varlik_tarama`). A status written any other way
(the Django admin's user form, a shell, a killed process) is caught by the periodic
`chat.atama_taramasi`, which frees the chats of operators no longer online and drains the queues.
"""
from datetime import datetime

from django.db import transaction

from tenants import services
from tenants.models import Kullanici

from . import atama


@transaction.atomic
def durum_ayarla(*, kullanici: Kullanici, durum: str) -> Kullanici:
    """The operator's own status (CONTRACT 3); a status it already has changes nothing. Returns
    the operator with its new status."""
    if services.operator_durum_ayarla(kullanici=kullanici, durum=durum):
        if durum == Kullanici.Durum.CEVRIMICI:
            atama.commit_sonrasi_uygun(kullanici.pk)
        elif durum == Kullanici.Durum.CEVRIMDISI:
            atama.commit_sonrasi_erisilemez(kullanici.pk, baglanti_koptu=False)
    return kullanici


@transaction.atomic
def cikis_yap(*, kullanici: Kullanici, jti: str, bitis: datetime) -> bool:
    """Logout: revoke the token and, for the call that revoked it only, make the operator offline
    with its events (a concurrent logout with the same token changes nothing more); its chats go
    back to routing as for "Çevrimdışı" (its own choice, not a lost connection). True when this
    call revoked the token."""
    if not services.token_iptal_et(jti=jti, bitis=bitis):
        return False
    if services.operator_cikis_yapti(kullanici=kullanici):
        atama.commit_sonrasi_erisilemez(kullanici.pk, baglanti_koptu=False)
    return True


@transaction.atomic
def erisilemez_yap(*, kullanici_id: int) -> bool:
    """Presence (CONTRACT 11): an operator no longer reachable becomes `cevrimdisi` once (of two
    sweeping processes, the one whose UPDATE changed the row), and its chats go back to routing
    with the "connection lost" line. True when this call made it offline."""
    if not services.operator_erisilemez_yap(kullanici_id=kullanici_id):
        return False
    atama.commit_sonrasi_erisilemez(kullanici_id, baglanti_koptu=True)
    return True

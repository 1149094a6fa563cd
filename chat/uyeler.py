"""A member's changes that move chats (issue 40: one action per change, its steps as calls).

`tenants` keeps the memberships and users and cannot call up into `chat`; the changes that take an
operator away from its chats, or give it room for more, are therefore actions here, one layer up,
and every caller (the portal's team page, the REST API, the Django admin) calls them. A membership
or user deleted any other way (a shell, a test) is a row delete and nothing more; a tenant deleted
whole takes its chats with it. A cap or muting written any other way (a management command, a
shell) is drained by the periodic `chat.atama_taramasi`.
"""
from django.db import transaction

from tenants import ekip, services
from tenants.models import Kullanici, Uyelik

from . import atama
from .services import operator_oturumlarini_birak, silinen_operatorun_oturumlarini_birak


@transaction.atomic
def uyeyi_cikar(*, uyelik: Uyelik, yapan: Uyelik | None = None) -> int:
    """A member leaves a project (CONTRACT 13): the membership goes (`tenants.ekip.uyelik_cikar`:
    who may remove whom, never the last owner) and its active chats there go back to the queue,
    each with the transfer's system line. Returns how many chats went back."""
    ekip.uyelik_cikar(uyelik=uyelik, yapan=yapan)
    return operator_oturumlarini_birak(musteri_id=uyelik.musteri_id, operator_id=uyelik.kullanici_id)


@transaction.atomic
def kullaniciyi_sil(*, kullanici: Kullanici) -> int:
    """A user account is deleted (the Django admin): its active chats in every project go back to
    the queue first (the delete would leave them `aktif` with no operator), then the user goes
    with its memberships. Returns how many chats went back."""
    birakilan = silinen_operatorun_oturumlarini_birak(operator_id=kullanici.pk)
    kullanici.delete()
    return birakilan


@transaction.atomic
def uyeligi_guncelle(*, uyelik: Uyelik, rol: str, max_chat_per_tenant: int | None,
                     yapan: Uyelik | None = None) -> Uyelik:
    """A member's role and chat cap (CONTRACT 13, the portal's team page): `tenants.ekip.uyelik_guncelle`
    (who may change whom, never the last owner), then the tenant's queue drains after the commit
    (a higher cap is room for the oldest waiting chats, CONTRACT 15)."""
    guncel = ekip.uyelik_guncelle(uyelik=uyelik, rol=rol, max_chat_per_tenant=max_chat_per_tenant, yapan=yapan)
    atama.commit_sonrasi_doldur(guncel.musteri_id)
    return guncel


@transaction.atomic
def sessize_al(*, kullanici: Kullanici, musteri_id: int, sessize: bool) -> Uyelik:
    """The caller mutes or unmutes its tab (`PUT /operator/tenants/{id}/sessize`): a muted member
    gets no automatic chat (CONTRACT 15); unmuted, the tenant's queue drains after the commit."""
    uyelik = services.uyelik_sessize_al(kullanici=kullanici, musteri_id=musteri_id, sessize=sessize)
    if not sessize:
        atama.commit_sonrasi_doldur(musteri_id)
    return uyelik


@transaction.atomic
def uyeligi_kaydet(*, uyelik: Uyelik) -> Uyelik:
    """A membership saved as the Django admin's form made it (order, role, muting, cap; the portal
    re-registers those pages): then the tenant's queue drains after the commit, as for the actions
    above."""
    uyelik.save()
    atama.commit_sonrasi_doldur(uyelik.musteri_id)
    return uyelik

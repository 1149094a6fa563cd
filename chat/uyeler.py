"""A member's chats when it goes (issue 40: one action per change, its steps as calls).

`tenants` keeps the memberships and users and cannot call up into `chat`; the changes that take an
operator away from its chats are therefore actions here, one layer up, and every caller (the
portal's team page, the Django admin) calls them. A membership or user deleted any other way (a
shell, a test) is a row delete and nothing more; a tenant deleted whole takes its chats with it.
"""
from django.db import transaction

from tenants import ekip
from tenants.models import Kullanici, Uyelik

from .services import operator_sohbetlerini_birak, silinen_operatorun_sohbetlerini_birak


@transaction.atomic
def uyeyi_cikar(*, uyelik: Uyelik, yapan: Uyelik | None = None) -> int:
    """A member leaves a project (CONTRACT 13): the membership goes (`tenants.ekip.uyelik_cikar`:
    who may remove whom, never the last owner) and its active chats there go back to the queue,
    each with the transfer's system line. Returns how many chats went back."""
    ekip.uyelik_cikar(uyelik=uyelik, yapan=yapan)
    return operator_sohbetlerini_birak(musteri_id=uyelik.musteri_id, operator_id=uyelik.kullanici_id)


@transaction.atomic
def kullaniciyi_sil(*, kullanici: Kullanici) -> int:
    """A user account is deleted (the Django admin): its active chats in every project go back to
    the queue first (the delete would leave them `aktif` with no operator), then the user goes
    with its memberships. Returns how many chats went back."""
    birakilan = silinen_operatorun_sohbetlerini_birak(operator_id=kullanici.pk)
    kullanici.delete()
    return birakilan

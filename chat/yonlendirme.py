"""How a tenant routes: its settings and its teams (CONTRACT 15, 22; issue 40: one action per
change, its steps as calls).

`tenants` keeps the settings (`tenants.services.musteri_ayarlari_guncelle`, checked, `ayar_degisti`)
and the teams (`tenants.ekipler`, `ekip_degisti`) and cannot call up into routing; the changes that
may let someone take waiting chats are therefore actions here, one layer up, which drain the
tenant's queue after their commit (`atama.commit_sonrasi_doldur`): a routing mode switched (the
tenant's, or a team's), a team's members changed, a team deleted (its chats route in the tenant's
mode). Every caller calls these: the settings API, the portal's routing and privacy pages, the
teams API and the portal's teams page, the Django admin's tenant form (re-registered by the portal).
A tenant or team written any other way (a management command, a shell) is drained by the periodic
`chat.atama_taramasi`.
"""
from django.db import transaction

from tenants import ekipler, services
from tenants.models import Ekip, Kullanici, Musteri

from . import atama

# The team fields whose change may make a waiting chat assignable (a rename or the widget flag do not).
_EKIP_YONLENDIRME_ALANLARI = frozenset({"atama_modu", "uyeler"})


@transaction.atomic
def ayarlari_guncelle(*, musteri: Musteri, kullanici: Kullanici | None, degisiklikler: dict, ip: str | None = None,
                      kayitli_calisma_saatleri: dict | None = None) -> list[str]:
    """The tenant's CONTRACT 15 settings (`tenants.services.musteri_ayarlari_guncelle`: all or
    nothing, the names of the fields that changed); a new routing mode drains the queue."""
    degisen = services.musteri_ayarlari_guncelle(musteri=musteri, kullanici=kullanici, degisiklikler=degisiklikler,
                                                 ip=ip, kayitli_calisma_saatleri=kayitli_calisma_saatleri)
    if "atama_modu" in degisen:
        atama.commit_sonrasi_doldur(musteri.pk)
    return degisen


@transaction.atomic
def musteri_duzenle(*, musteri: Musteri, degisiklikler: dict, kullanici: Kullanici | None = None,
                    ip: str | None = None) -> list[str]:
    """A tenant edited as a whole (the Django admin's form, `tenants.services.musteri_duzenle`);
    a new routing mode drains the queue."""
    degisen = services.musteri_duzenle(musteri=musteri, degisiklikler=degisiklikler, kullanici=kullanici, ip=ip)
    if "atama_modu" in degisen:
        atama.commit_sonrasi_doldur(musteri.pk)
    return degisen


def ekip_olustur(*, musteri_id: int, aktor_id: int | None = None, ip: str | None = None, **alanlar) -> Ekip:
    """A new team (`tenants.ekipler.ekip_olustur`): no chat is in it yet, so nothing is routed;
    here so that every team write has its one entry point beside the others."""
    return ekipler.ekip_olustur(musteri_id=musteri_id, aktor_id=aktor_id, ip=ip, **alanlar)


@transaction.atomic
def ekip_guncelle(*, ekip: Ekip, aktor_id: int | None = None, ip: str | None = None, **alanlar) -> Ekip:
    """A team's name, members, mode or widget flag (`tenants.ekipler.ekip_guncelle`, only what is
    given); new members or a new mode drain the tenant's queue (the team's chats among them)."""
    ekip, degisen = ekipler.ekip_guncelle(ekip=ekip, aktor_id=aktor_id, ip=ip, **alanlar)
    if _EKIP_YONLENDIRME_ALANLARI & set(degisen):
        atama.commit_sonrasi_doldur(ekip.musteri_id)
    return ekip


@transaction.atomic
def ekip_sil(*, ekip: Ekip, aktor_id: int | None = None, ip: str | None = None) -> None:
    """A team deleted (`tenants.ekipler.ekip_sil`): its chats are team-less now, routed in the
    tenant's mode, so the queue drains."""
    ekipler.ekip_sil(ekip=ekip, aktor_id=aktor_id, ip=ip)
    atama.commit_sonrasi_doldur(ekip.musteri_id)

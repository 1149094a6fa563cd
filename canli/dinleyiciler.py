"""What the sockets do with domain events (supportdesk.core.olaylar, CONTRACT 11): all after the
commit, in commit order, in the process that committed. A frame lost here (Redis down) is re-read
by the clients' polls; it never reaches the request."""
from supportdesk.core.olaylar import YayinlananOlay, dinle
from tenants.models import Uyelik

from . import gruplar, yayin

# Each of these becomes frames for the groups that may see it (`yayin.dagit`).
dinle("yeni_chat", "chat_kabul_edildi", "chat_aktarildi", "memnuniyet_puan", "chat_kapandi", "mesaj",
      "yeni_ticket", "ticket_guncellendi", "operator_durumu", "hazir_yanitlar_degisti", "etiketler_ayarlandi",
      "bahsedilme", "sla_uyari", "sla_ihlal", "erteleme_degisti", "chat_sla_uyari", "chat_sla_ihlal")(yayin.dagit)


@dinle("uyelik_eklendi", "uyelik_silindi")
def uyelik_degisti(olay: YayinlananOlay) -> None:
    # A membership created or removed (any path: the team page, an invitation, provisioning, the
    # admin, a cascade): its user's sockets re-read their tenants now (docs/api.md). A change of
    # order, role or muting (`uyelik_guncellendi`) changes no tenant list.
    yayin.uyelik_degisti_bildir(gruplar.operator_kullanici(olay.veri["kullanici_id"]))


@dinle("musteri_degisti")
def musteri_degisti(olay: YayinlananOlay) -> None:
    # A tenant deactivated: every socket still in its group drops it. One (re)activated is in no
    # socket's groups: its members' own groups are told, and a socket whose list did not change
    # (the tenant was active already) sends nothing.
    veri = olay.veri
    if veri["ham"] or veri["olusturuldu"] or veri["silindi"] or (veri["alanlar"] is not None and "aktif" not in veri["alanlar"]):
        return
    if not veri["aktif"]:
        adlar = [gruplar.operator_musteri(olay.musteri_id)]
    else:
        adlar = [gruplar.operator_kullanici(k) for k in
                 Uyelik.objects.filter(musteri_id=olay.musteri_id).values_list("kullanici_id", flat=True)]
    if adlar:
        yayin.uyelik_degisti_bildir(*adlar)

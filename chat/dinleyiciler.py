"""What the poll snapshots (`chat.yoklama`) do with domain events (supportdesk.core.olaylar):
renew the generations of what the change may have made wrong, inside the transaction (`degisti`
renews now and again after the commit). A chat's own generation follows its row and messages; its
tenant's follows the queue, the memberships and the operators' status; the global one an
operator account's deletion (its chats lose their operator by SET NULL, which sends no signal).

Cache effects only (issue 40): routing is no listener's business. Each change that may move the
queue routes by an explicit step of its own action (`chat.operator_durumu`, `chat.uyeler`,
`chat.yonlendirme`, `chat.services`), and the periodic `chat.atama_taramasi` catches the writes
that bypass them."""
from supportdesk.core.olaylar import YayinlananOlay, dinle
from tenants.models import Kullanici
from tenants.selectors import kullanici_musteri_idleri

from . import yoklama

# Kullanici fields a poll's answer depends on (who counts as online); a login's `last_login` or a
# profile edit changes none of them.
_KULLANICI_ALANLARI = frozenset({"durum", "is_active"})


@dinle("oturum_kaydedildi", "chat_kabul_edildi", islem_icinde=True)
def oturum_ve_sira(olay: YayinlananOlay) -> None:
    # Any change to a chat may move the queue of its tenant (created, taken, closed, deleted).
    yoklama.degisti(oturum_idleri=[olay.veri["oturum_id"]], musteri_idleri=[olay.musteri_id])


@dinle("mesaj_kaydedildi", "chat_okundu", islem_icinde=True)
def oturum(olay: YayinlananOlay) -> None:
    yoklama.degisti(oturum_idleri=[olay.veri["oturum_id"]])


@dinle("uyelik_eklendi", "uyelik_guncellendi", "uyelik_silindi", islem_icinde=True)
def uyelik(olay: YayinlananOlay) -> None:
    yoklama.degisti(musteri_idleri=[olay.musteri_id])


@dinle("operator_durumu", islem_icinde=True)
def operator_durumu(olay: YayinlananOlay) -> None:
    kullanici = Kullanici(pk=olay.veri["operator_id"])
    yoklama.degisti(musteri_idleri=kullanici_musteri_idleri(kullanici=kullanici))


@dinle("kullanici_degisti", islem_icinde=True)
def kullanici(olay: YayinlananOlay) -> None:
    alanlar = olay.veri["alanlar"]
    if alanlar is not None and not (_KULLANICI_ALANLARI & alanlar):
        return
    yoklama.degisti(musteri_idleri=kullanici_musteri_idleri(kullanici=olay.veri["kullanici"]))


@dinle("kullanici_silindi", islem_icinde=True)
def kullanici_silindi(olay: YayinlananOlay) -> None:
    yoklama.degisti(genel=True)

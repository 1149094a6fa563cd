"""What the poll snapshots (`chat.yoklama`) do with domain events (supportdesk.core.olaylar):
renew the generations of what the change may have made wrong, inside the transaction (`degisti`
renews now and again after the commit). A chat's own generation follows its row and messages; its
tenant's follows the queue, the memberships and the operators' status; the global one an
operator account's deletion (its chats lose their operator by SET NULL, which sends no signal)."""
from supportdesk.core.olaylar import YayinlananOlay, dinle
from tenants.models import Kullanici
from tenants.selectors import kullanici_musteri_idleri
from tenants.services import DURUM_ERISILEMEZ

from . import atama, yoklama

# Kullanici fields a poll's answer depends on (who counts as online); a login's `last_login` or a
# profile edit changes none of them.
_KULLANICI_ALANLARI = frozenset({"durum", "is_active"})


@dinle("oturum_kaydedildi", "chat_kabul_edildi", islem_icinde=True)
def sohbet_ve_sira(olay: YayinlananOlay) -> None:
    # Any change to a chat may move the queue of its tenant (created, taken, closed, deleted).
    yoklama.degisti(oturum_idleri=[olay.veri["oturum_id"]], musteri_idleri=[olay.musteri_id])


@dinle("mesaj_kaydedildi", "chat_okundu", islem_icinde=True)
def sohbet(olay: YayinlananOlay) -> None:
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


# --- routing (CONTRACT 15, chat.atama): automatic assignment follows every change that may free
# a place or bring a member, after the commit that made the place (each assignment in a
# transaction of its own), and the periodic `chat.atama_taramasi` catches what a lost hook missed.
# A new chat is not routed here: its start assigns it in its own transaction, by a direct call
# (`chat.services.chat_baslat` -> `atama.yeni_sohbeti_ata`, issue 40).
@dinle("uyelik_guncellendi")
def yer_acildi(olay: YayinlananOlay) -> None:
    # A member's cap or muting changed (tenants cannot call up into routing). A chat closed or
    # handed on and a member gone ask for this in their own actions (`atama.commit_sonrasi_doldur`).
    atama.kuyrugu_doldur(olay.musteri_id)


@dinle("ekip_degisti")
def ekip_degisti(olay: YayinlananOlay) -> None:
    # A team's mode or members changed, or it went (its chats are team-less now): someone may be
    # eligible for waiting chats now (CONTRACT 22).
    if olay.veri["islem"] != "olusturuldu":
        atama.kuyrugu_doldur(olay.musteri_id)


@dinle("operator_durumu")
def operator_durumu_atamasi(olay: YayinlananOlay) -> None:
    # `cevrimici` (from `cevrimdisi` or `mesgul`): it can take chats; `cevrimdisi`: its chats go
    # back to routing. `mesgul` keeps what it has and gets nothing new.
    if olay.veri["durum"] == Kullanici.Durum.CEVRIMICI:
        atama.operator_uygun_oldu(olay.veri["operator_id"])
    elif olay.veri["durum"] == Kullanici.Durum.CEVRIMDISI:
        # (each chat it moves is a transfer: `yer_acildi` then drains that tenant's queue)
        atama.operator_erisilemez(olay.veri["operator_id"],
                                  baglanti_koptu=olay.veri.get("neden") == DURUM_ERISILEMEZ)


@dinle("musteri_degisti")
def atama_modu_degisti(olay: YayinlananOlay) -> None:
    # A tenant switched to an automatic mode (or any save that may have): its queue drains.
    veri = olay.veri
    if veri["ham"] or veri["silindi"] or (veri["alanlar"] is not None and "atama_modu" not in veri["alanlar"]):
        return
    atama.kuyrugu_doldur(olay.musteri_id)

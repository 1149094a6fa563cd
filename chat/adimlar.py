"""The chat's business steps shared by its actions (`chat.services`) and routing (`chat.atama`,
CONTRACT 15): a message and its `sistem` lines, an accept (a claim, an automatic assignment) and a
chat back in the queue. Each runs inside its caller's transaction, under the caller's locks, and
states what happened (`yayinla`) for the outward effects only (outbox, sockets, mail, search,
caches); no step waits for a listener to do its work.

Both `services` and `atama` import this module and neither imports the other back: `services`
calls routing directly (`chat_baslat` assigns a new chat by `atama.yeni_oturumu_ata`) and routing
writes through these steps (issue 40)."""
from django.db.models import F
from django.db.models.functions import Coalesce, Greatest
from django.utils import timezone
from django.utils.translation import gettext_lazy

from supportdesk.core.dil import dilde
from supportdesk.core.exceptions import ChatLimitiDolu, DurumCakismasi
from supportdesk.core.olaylar import yayinla
from tenants.atama import atandi_isaretle
from tenants.etiketler import etiket_adlari
from tenants.models import Uyelik

from . import selectors
from .models import ONIZLEME_MAX, Mesaj, Oturum

TEMSILCI = gettext_lazy("Temsilci")  # an operator without a display name, as visitors see it

# The `sistem` lines, written in the chat's language when made (`sistem_metni`, CONTRACT 19).
SISTEM_METINLERI = {
    "katildi": gettext_lazy("{ad} sohbete katıldı."),
    "aktarildi": gettext_lazy("Sohbet başka bir temsilciye aktarıldı."),  # to a member without a display name
    "aktarildi_adli": gettext_lazy("Sohbet {ad} adlı temsilciye aktarıldı."),
    "siraya_alindi": gettext_lazy("Sohbet yeniden sıraya alındı; ilk uygun temsilci size yanıt verecek."),
    Oturum.Kapatan.ZIYARETCI: gettext_lazy("Sohbet ziyaretçi tarafından sonlandırıldı."),
    Oturum.Kapatan.OPERATOR: gettext_lazy("Sohbet temsilci tarafından sonlandırıldı."),
    Oturum.Kapatan.SISTEM: gettext_lazy("Sohbet sistem tarafından sonlandırıldı."),
    "ticket_onerisi": gettext_lazy("Şu an çevrimiçi temsilcimiz yok. Beklemek yerine bu sohbeti destek talebine "
                                   "dönüştürebilirsiniz; size e-postayla döneriz."),
    "ticketa_donustu": gettext_lazy("Sohbet #{ticket_id} numaralı destek talebine dönüştürüldü."),
    "sessiz": gettext_lazy("Uzun süredir mesaj yazılmadığı için sohbet kapatıldı. Yeniden yazarak yeni bir sohbet "
                           "başlatabilirsiniz."),
}

def sistem_metni(oturum: Oturum, metin, **degerler) -> str:
    """A `sistem` line's text (one of the lazy texts above, or a callable making it) in the chat's
    own language, whatever language is active (a request's, or none in a periodic task): a plain
    `str` to store, so a later change of the tenant's `dil` rewrites nothing. Values (a lazy
    `TEMSILCI`) are made in that language too."""
    with dilde(oturum.dil):
        metin = str(metin() if callable(metin) else metin)
        return metin.format(**{k: str(v) for k, v in degerler.items()}) if degerler else metin


def gorunen_ad(kullanici):
    """What a visitor sees of an operator: its display name, never its e-mail; without one the
    lazy `TEMSILCI` (made in whichever language evaluates it: `sistem_metni` uses the chat's)."""
    return (kullanici.ad or "").strip() or TEMSILCI


def onizleme(icerik: str) -> str:
    tek_satir = " ".join(icerik.split())
    return tek_satir if len(tek_satir) <= ONIZLEME_MAX else tek_satir[: ONIZLEME_MAX - 1] + "…"


def okunmamis_ifadesi(gonderen: str):
    if gonderen == Mesaj.Gonderen.ZIYARETCI:
        return F("okunmamis") + 1
    if gonderen == Mesaj.Gonderen.OPERATOR:
        return 0  # answering means the operator has read the chat
    return F("okunmamis")


def mesaj_ekle(*, oturum: Oturum, gonderen: str, icerik: str, operator=None, ek=None, mesaj_olayi: bool = True,
               otomatik: bool = False) -> Mesaj:
    mesaj = Mesaj.objects.create(
        musteri_id=oturum.musteri_id, oturum=oturum, gonderen=gonderen, operator=operator, icerik=icerik, ek=ek,
        otomatik=otomatik,
    )
    # The preview (`son_mesaj`) is what someone wrote: a `sistem` line ("X joined", a transfer) would
    # hide the visitor's question in the queue (issue 39), so it leaves the preview as it was.
    alanlar = {} if gonderen == Mesaj.Gonderen.SISTEM else {"son_mesaj": onizleme(icerik)}
    Oturum.objects.filter(pk=oturum.pk).update(**alanlar, **son_mesaj_alanlari(mesaj),
                                               okunmamis=okunmamis_ifadesi(gonderen))
    if mesaj_olayi:
        mesaj_yayinla(mesaj)
    return mesaj


def son_mesaj_alanlari(mesaj: Mesaj) -> dict:
    """The chat's newest message (and newest the visitor sees, unless `mesaj` is a note) is
    `mesaj` now (`Oturum.son_mesaj_no`, issue 41). Written under the chat's row lock as every
    message, so it is the newest; never moved backwards all the same."""
    alanlar = ["son_mesaj_no"] if mesaj.ozel else ["son_mesaj_no", "son_gorunur_mesaj_no"]
    return {ad: Greatest(Coalesce(F(ad), 0), mesaj.pk) for ad in alanlar}


def son_mesaj_kaydet(mesaj: Mesaj) -> None:
    """`son_mesaj_alanlari` on its own, for a writer that updates nothing else of the chat."""
    Oturum.objects.filter(pk=mesaj.oturum_id).update(**son_mesaj_alanlari(mesaj))


def mesaj_yayinla(mesaj: Mesaj, *, oturum: Oturum | None = None,
                  onceki_idleri: tuple[int | None, int | None] | None = None) -> None:
    # `oturum`: the chat's id, tenant, visitor, state and operator as the write left them, when the
    # writer knows them (the fan-out then reads nothing); only those fields are set.
    # `onceki_idleri`: the message's predecessors (chat.selectors.onceki_mesaj_idleri's answer),
    # when the write read them under the chat's lock (the frames then read no messages).
    veri: dict = {"mesaj": mesaj} if oturum is None else {"mesaj": mesaj, "oturum": oturum}
    if onceki_idleri is not None:
        veri["onceki_idleri"] = onceki_idleri
    yayinla("mesaj", musteri_id=mesaj.musteri_id, veri=veri)


def yeniden_oku(oturum: Oturum) -> Oturum:
    oturum.refresh_from_db()
    return oturum


def limit_kontrol(uyelik: Uyelik) -> None:
    if uyelik.max_chat_per_tenant is None:
        return
    if selectors.aktif_chat_sayisi(kullanici_id=uyelik.kullanici_id, musteri_id=uyelik.musteri_id) >= uyelik.max_chat_per_tenant:
        raise ChatLimitiDolu()


BASKASI_KABUL_ETTI = gettext_lazy("Sohbet başka bir temsilci tarafından kabul edildi.")


def kabul_kaydet(*, oturum: Oturum, kullanici, uyelik: Uyelik, neden: str = "kabul", limit: bool = True,
                 sira_degisti: bool = True) -> Oturum:
    """The accept's write, shared by an accept, an operator's answer to a waiting chat
    (CONTRACT 3a) and an automatic assignment (CONTRACT 15, `neden` "otomatik", chat.atama): the
    cap, the move, its one `sistem` line and its events. The caller holds the membership lock
    (chat.services `_uyelik_kilitle`, chat.atama `_aday_kilitle`) and saw the chat waiting; the
    conditional UPDATE makes exactly one of two racing claims win (the other gets 409 and writes
    nothing). `limit=False`: the caller has counted already under the same lock. A chat handed to
    an operator by the service (not its own accept) reaches its console unread, as a transfer does
    (CONTRACT 3a). `sira_degisti=False`: a chat assigned in its own start's transaction was never
    in anyone's queue."""
    if limit:
        limit_kontrol(uyelik)
    simdi = timezone.now()
    alanlar = {"durum": Oturum.Durum.AKTIF, "operator": kullanici, "kabul_zamani": simdi}
    if neden != ATAMA_KABUL:
        alanlar["okunmamis"] = Greatest(F("okunmamis"), 1)
    degisen = Oturum.objects.filter(pk=oturum.pk, durum=Oturum.Durum.BEKLIYOR).update(**alanlar)
    if degisen != 1:
        raise DurumCakismasi(str(BASKASI_KABUL_ETTI))
    oturum = yeniden_oku(oturum)
    mesaj_ekle(oturum=oturum, gonderen=Mesaj.Gonderen.SISTEM,
               icerik=sistem_metni(oturum, SISTEM_METINLERI["katildi"], ad=gorunen_ad(kullanici)))
    # The chat left the queue (an UPDATE: no signal, so this is also the poll's renewal).
    yayinla("chat_kabul_edildi", musteri_id=oturum.musteri_id,
            veri={"oturum_id": oturum.pk, "sira_degisti": sira_degisti})
    atandi_yayinla(oturum, neden=neden, uyelik_id=uyelik.pk, an=simdi)
    return oturum


# `chat_atandi`'s `neden` (CONTRACT 15).
ATAMA_KABUL, ATAMA_AKTARMA, ATAMA_OTOMATIK, ATAMA_YENIDEN = "kabul", "aktarma", "otomatik", "yeniden"


def atandi_yayinla(oturum: Oturum, *, neden: str, uyelik_id: int | None = None, an=None) -> None:
    """A chat's operator changed (to `oturum.operator_id`, None: back to the queue): the webhook
    `chat_atandi`, and the new operator (its membership `uyelik_id`, locked by the caller) goes to
    the back of its tenant's `sirayla` line."""
    if uyelik_id is not None:
        atandi_isaretle(uyelik_id=uyelik_id, an=an or timezone.now())
    yayinla("chat_atandi", musteri_id=oturum.musteri_id, veri={
        "oturum_id": oturum.pk, "musteri_id": oturum.musteri_id, "operator_id": oturum.operator_id, "neden": neden,
        "etiketler": etiket_adlari(oturum),  # CONTRACT 16: a chat event carries its label names
        "ekip_id": oturum.ekip_id,  # CONTRACT 22: and its team
    })


def siraya_al(oturum: Oturum, *, metin, neden: str) -> Oturum:
    """The one way an `aktif` chat goes back to the queue (a transfer to nobody, routing finding
    nobody else for an unreachable operator, a member leaving the project): `bekliyor` without an
    operator, its `sistem` line (`metin`, in the chat's language), `chat_aktarildi` (the sockets'
    `chat_guncellendi`, the waiting visitors' places; the queue drains after the commit) and
    `chat_atandi` with `operator_id` null. The caller holds the chat's row lock."""
    oturum.durum, oturum.operator, oturum.kabul_zamani = Oturum.Durum.BEKLIYOR, None, None
    oturum.save(update_fields=["durum", "operator", "kabul_zamani", "okunmamis"])
    mesaj_ekle(oturum=oturum, gonderen=Mesaj.Gonderen.SISTEM, icerik=sistem_metni(oturum, metin))
    yayinla("chat_aktarildi", musteri_id=oturum.musteri_id, veri={"oturum_id": oturum.pk, "sira_degisti": True})
    atandi_yayinla(oturum, neden=neden)
    return oturum

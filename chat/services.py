"""Writes of the chat app: every state move of CONTRACT 3, each in one transaction.

Race safety (PostgreSQL): a move first locks what it depends on, always in the same order
(the operator's membership row, then the chat row), so two racing moves serialise instead of
both passing a stale check, and never deadlock. Accept also guards with a conditional UPDATE
(`WHERE durum = 'bekliyor'`): of two racing accepts exactly one changes a row.
Each move states what happened (`yayinla`, supportdesk.core.olaylar) inside its transaction;
the webhooks outbox, the sockets, mail and the poll snapshots react in their listeners
(`*/dinleyiciler.py`).
"""
import re
from collections.abc import Callable
from datetime import timedelta

from django.db import IntegrityError, connection, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from dosyalar.selectors import dosya_get, operator_dosya_list_by_ids
from kisiler.services import kisi_ziyaretci_bagla
from supportdesk.core.dil import dil_kodu, widget_dili
from supportdesk.core.erteleme import ERTELENMIS, ertelenmis_mi
from supportdesk.core.exceptions import Bulunamadi, DurumCakismasi, GecersizIstek, ZatenTicketaDonustu
from supportdesk.core.girdi import email_dogrula, en_cok_karakter, gecerli_id_mi, id_coz, metin_dogrula
from supportdesk.core.kurallar import kurallari_calistir, kurallari_on_degerlendir
from supportdesk.core.olaylar import yayinla
from tenants.ayarlar import TICKET_TEKLIFI, ayar_degeri, kapali_metni, takvim
from tenants.ekipler import ekip_coz
from tenants.etiketler import etiket_adlari, etiketler_coz
from tenants.models import Kullanici, Uyelik
from tenants.selectors import uye_idleri_dogrula
from tickets import services as ticket_services
from tickets.models import Ticket

from . import atama, selectors, sla, sorgular
from .adimlar import (
    ATAMA_AKTARMA,
    ATAMA_KABUL,
    ATAMA_OTOMATIK,
    ATAMA_YENIDEN,
    BASKASI_KABUL_ETTI,
    SISTEM_METINLERI,
    atandi_yayinla,
    gorunen_ad,
    kabul_kaydet,
    limit_kontrol,
    mesaj_ekle,
    mesaj_yayinla,
    okunmamis_ifadesi,
    onizleme,
    siraya_al,
    sistem_metni,
    son_mesaj_kaydet,
    yeniden_oku,
)
from .models import MESAJ_MAX, OTOMATIK_YANIT, HazirYanit, Mesaj, Oturum

AD_MAX = 100
YORUM_MAX = 1000
KISAYOL_MAX = 50
BASLIK_MAX = 120

# CONTRACT 15: the closed text's place in the `sistem` line of a chat started inside hours with
# nobody reachable (tenants.ayarlar.MESAI_DISI_METNI is for outside hours), before TICKET_TEKLIFI.
ULASILAMAZ_METNI = gettext_lazy("Şu an çevrimiçi temsilcimiz yok.")

# `erteleme_degisti`'s `neden` (CONTRACT 24): by hand, the visitor wrote, its time came.
ERTELEME_OPERATOR, ERTELEME_ZIYARETCI, ERTELEME_ZAMAN = "operator", "ziyaretci", "zaman"

def oturum_dili(musteri, dil: str | None = None) -> str:
    """A new chat's (or ticket's) language (CONTRACT 19): `dil` when supported (the widget's,
    `supportdesk.core.dil.widget_dili`, which the views decide); else the tenant's `dil` when it is
    `tr` or `en` (API starts by the tenant's server, e-mail; `widget_dili` without a request),
    else the default."""
    return dil_kodu(dil) or widget_dili(musteri)


# --- validation ----------------------------------------------------------------------------
def icerik_dogrula(icerik, *, alan: str = "icerik", en_cok: int = MESAJ_MAX) -> str:
    """Plain text, 1..en_cok characters after trimming; anything but a string is a 400."""
    if not isinstance(icerik, str):
        raise GecersizIstek(alanlar={alan: _("Metin olmalı.")})
    icerik = icerik.strip()
    if not icerik:
        raise GecersizIstek(alanlar={alan: _("Boş olamaz.")})
    if len(icerik) > en_cok:
        raise GecersizIstek(alanlar={alan: en_cok_karakter(en_cok)})
    if "\x00" in icerik:
        raise GecersizIstek(alanlar={alan: _("Geçersiz karakter içeriyor.")})
    return icerik


# --- internal steps (caller holds the chat row lock) ---------------------------------------
def _kilitli(oturum_id: int) -> Oturum:
    # By primary key: the caller resolved the chat (and its tenant scope) already. A chat gone
    # since (retention, an erasure) is the same 404 as one never seen.
    try:
        return Oturum.objects.select_for_update().get(pk=oturum_id)
    except Oturum.DoesNotExist:
        raise Bulunamadi() from None


def _ziyaretci_kilitli(*, musteri, ziyaretci_id: str, oturum_id) -> Oturum:
    # Scope check and row lock in one query.
    oturum = (Oturum.objects.ziyaretcinin(musteri=musteri, ziyaretci_id=ziyaretci_id).select_for_update()
              .filter(pk=id_coz(oturum_id)).first())
    if oturum is None:
        raise Bulunamadi()
    return oturum


def _kapat(*, oturum: Oturum, kapatan: str, metin=None) -> Oturum:
    # `metin`: a lazy text (or a callable making one), written in the chat's language.
    if not oturum.acik:
        raise DurumCakismasi(_("Sohbet zaten kapanmış."))
    bekliyordu = oturum.durum == Oturum.Durum.BEKLIYOR
    simdi = timezone.now()
    oturum.durum, oturum.kapatan, oturum.bitis_zamani = Oturum.Durum.KAPANDI, kapatan, simdi
    sla.kapandi(oturum)
    oturum.save(update_fields=["durum", "kapatan", "bitis_zamani", *sla.ALANLAR])
    mesaj_ekle(oturum=oturum, gonderen=Mesaj.Gonderen.SISTEM,
                icerik=sistem_metni(oturum, metin or SISTEM_METINLERI[kapatan]))
    yayinla("chat_kapandi", musteri_id=oturum.musteri_id, veri={
        "oturum_id": oturum.id,
        "musteri_id": oturum.musteri_id,
        "kapatan": kapatan,
        "sure_saniye": max(0, int((simdi - oturum.baslangic).total_seconds())),
        "etiketler": etiket_adlari(oturum),
        "ekip_id": oturum.ekip_id,
        # In the process only (not in the webhook's body): the chat left the queue, so the places
        # (`sira_no`) of the chats waiting behind it changed too (CONTRACT 11: the widget hears).
        "sira_degisti": bekliyordu,
    })
    atama.commit_sonrasi_doldur(oturum.musteri_id)  # its operator has room again
    return oturum


# --- widget side ---------------------------------------------------------------------------
def chat_baslat(
    *, musteri, ziyaretci_id: str, ad=None, email=None, mesaj=None, kanal: str = Oturum.Kanal.WIDGET,
    dil: str | None = None, simdi=None, acik: bool | None = None, ekip_id: int | None = None,
) -> tuple[Oturum, bool]:
    """Start a chat, or return the visitor's open one (CONTRACT 3). Returns (chat, created).

    `dil`: the new chat's language, fixed for good (CONTRACT 19; `oturum_dili`): the widget's for
    a visitor's start (the view decides it from the request), else the tenant's.

    `simdi`: the request's instant. Whether the tenant is open is decided once, at it (CONTRACT 15,
    wave 4), and that one decision feeds routing and the answer (the view words `data.mesai` at
    the same instant): a chat started while closed is created with its ticket offer already made,
    and routing never assigns such a chat at its start (`chat.atama.yeni_oturumu_ata`). `acik`:
    that decision when the caller made it already at `simdi` (the view, for `data.mesai`).

    `ekip_id`: the team the visitor chose (CONTRACT 22; the view checked it is one the widget
    offers): the new chat is routed among its members, and nobody of it reachable means the ticket
    offer at once. An open chat returned instead keeps its team.

    The steps run in order in one transaction, as explicit calls: create, route, offer a ticket
    when nobody can answer; events only tell the outside (outbox, sockets, search, caches).

    A first message given with an already open chat is added to that chat, so nothing the
    visitor typed is lost. `yeni_chat` is emitted for a new chat only.
    """
    ad = metin_dogrula(ad, alan="ad", en_cok=AD_MAX)
    email = email_dogrula(email)
    if mesaj is not None:
        mesaj = icerik_dogrula(mesaj, alan="mesaj")
    if kanal not in Oturum.Kanal.values:
        raise GecersizIstek(alanlar={"kanal": _("Şunlardan biri olmalı: %(degerler)s.")
                                 % {"degerler": ", ".join(Oturum.Kanal.values)}})

    simdi = simdi or timezone.now()
    if acik is None:
        acik = takvim(musteri).acik_mi(simdi)
    with transaction.atomic():
        mevcut = selectors.ziyaretci_acik_oturum(musteri=musteri, ziyaretci_id=ziyaretci_id)
        if mevcut is None:
            try:
                # The partial unique index (one open chat per visitor) settles a racing start.
                with transaction.atomic():
                    oturum = Oturum(
                        musteri=musteri, ziyaretci_id=ziyaretci_id, ziyaretci_adi=ad, email=email, kanal=kanal,
                        dil=oturum_dili(musteri, dil), ticket_onerildi=None if acik else simdi, ekip_id=ekip_id,
                    )
                    sla.baslat(oturum, musteri)  # CONTRACT 17, 24: the first-response clock starts with it
                    oturum.save(force_insert=True)
            except IntegrityError:
                mevcut = selectors.ziyaretci_acik_oturum(musteri=musteri, ziyaretci_id=ziyaretci_id)
                if mevcut is None:
                    raise
        if mevcut is not None:
            if mesaj:
                oturum = _kilitli(mevcut.pk)
                if oturum.acik:
                    mesaj_ekle(oturum=oturum, gonderen=Mesaj.Gonderen.ZIYARETCI, icerik=mesaj)
                    if ertelenmis_mi(oturum):  # the visitor wrote: a snoozed chat wakes (CONTRACT 24)
                        _uyandir(oturum, neden=ERTELEME_ZIYARETCI)
                    kurallari_calistir("ziyaretci_mesaji", musteri_id=musteri.id, tur="chat", nesne_id=oturum.pk,
                                       metin=mesaj, nesne=oturum)
                mevcut = yeniden_oku(oturum)
            return mevcut, False
        # The visitor's contact (CONTRACT 25): made by its first chat, one indexed read afterwards.
        kisi_ziyaretci_bagla(musteri_id=musteri.id, ziyaretci_id=ziyaretci_id, ad=ad, email=email)
        ilk = None
        if mesaj:
            ilk = mesaj_ekle(oturum=oturum, gonderen=Mesaj.Gonderen.ZIYARETCI, icerik=mesaj, mesaj_olayi=False)
            oturum = yeniden_oku(oturum)
        # The operators hear of the chat (its `chat_yeni` frame) before its assignment and first message.
        yayinla("yeni_chat", musteri_id=musteri.id, veri={
            "oturum_id": oturum.id, "musteri_id": musteri.id, "ziyaretci_adi": oturum.ziyaretci_adi, "kanal": oturum.kanal,
            "etiketler": [],  # CONTRACT 16: a new chat has no labels yet
            "ekip_id": oturum.ekip_id,
        })
        # Routing (CONTRACT 15), by the one "open now" decision above: a chat started while closed
        # waits for someone to take it by hand or for the tenant to open.
        if acik and atama.yeni_oturumu_ata(oturum_id=oturum.id, musteri_id=musteri.id, ekip_id=oturum.ekip_id):
            oturum = yeniden_oku(oturum)  # assigned: answer as it is now
        if ilk is not None:
            mesaj_yayinla(ilk)
        oturum = _mesai_disiysa_ticket_oner(oturum=oturum, musteri=musteri, acik=acik, simdi=simdi)
        # CONTRACT 23: the tenant's rules for a new chat, in this transaction, on the chat as it is now.
        if kurallari_calistir("chat_baslatildi", musteri_id=musteri.id, tur="chat", nesne_id=oturum.id,
                              kurallar_var=musteri.kurallar_var,
                              metin=mesaj or "", nesne=oturum):
            oturum = yeniden_oku(oturum)
    return oturum, True


def _mesai_disiysa_ticket_oner(*, oturum: Oturum, musteri, acik: bool, simdi) -> Oturum:
    """CONTRACT 15: a chat started outside the tenant's hours, or inside them with nobody of the
    tenant reachable (presence, CONTRACT 11: status `cevrimici` or `mesgul`), offers a ticket at
    once: `ticket_onerisi` and one `sistem` line, the closed text (outside hours) or the "nobody
    is available" text (inside them) followed by the offer. The periodic offer then finds it
    offered already. With someone reachable inside hours the chat waits as before (a `mesgul`
    operator may still take it; the periodic rule offers if it goes away for
    `bekleme_zaman_asimi_dk`).

    The presence read inside hours is kept on the chat (`_cevrimici_operator`, as the selectors
    annotate it), so the answer's `cevrimici_operator` costs no second query."""
    if oturum.durum != Oturum.Durum.BEKLIYOR:
        return oturum  # automatic assignment found someone: nothing to offer
    if acik:
        # CONTRACT 22: a chat of a team is answered by its team only.
        oturum._cevrimici_operator = selectors.cevrimici_operator_var(  # type: ignore[attr-defined]
            musteri_id=musteri.id, ekip_id=oturum.ekip_id)
        if oturum._cevrimici_operator:  # type: ignore[attr-defined]
            return oturum
        ilk_cumle: Callable[[], object] = lambda: ULASILAMAZ_METNI  # noqa: E731
    else:
        ilk_cumle = lambda: kapali_metni(musteri)  # noqa: E731  (the tenant's own text stays as written)
    oturum.ticket_onerildi = simdi
    oturum.save(update_fields=["ticket_onerildi"])
    # In the chat's language (CONTRACT 19), as every `sistem` line.
    icerik = sistem_metni(oturum, lambda: f"{ilk_cumle()} {TICKET_TEKLIFI}")
    mesaj_ekle(oturum=oturum, gonderen=Mesaj.Gonderen.SISTEM, icerik=icerik)
    return yeniden_oku(oturum)


def chat_ziyaretci_mesaj_gonder(*, musteri, ziyaretci_id: str, oturum_id, icerik, ek_id=None) -> Mesaj:
    """A visitor's message: the widget's hot write path, one statement on PostgreSQL.

    The conditional UPDATE checks scope and state, takes the chat's row lock (so a racing close
    waits, or wins and leaves nothing to update) and writes preview and unread count; the INSERT
    happens only when it matched (chat.sorgular, one statement; elsewhere the same two steps in a
    transaction). Only when nothing was updated does a read tell "closed" (409) from "not yours"
    (404).
    """
    icerik = icerik_dogrula(icerik)
    oturum_id = id_coz(oturum_id)
    # CONTRACT 23: the tenant's rules for a visitor's message. Whether any holds is read first from
    # what the message does not change (the cached rules, its text, the chat's fields): when none
    # does (or there are none) the write stays one statement and the runs are recorded after it;
    # when one does, its actions run in the message's transaction.
    on = kurallari_on_degerlendir("ziyaretci_mesaji", musteri_id=musteri.pk, tur="chat", nesne_id=oturum_id,
                                  kurallar_var=musteri.kurallar_var,
                                  metin=icerik)
    if on is None or not on.eslesen:
        mesaj = _ziyaretci_mesaji_yaz(musteri=musteri, ziyaretci_id=ziyaretci_id, oturum_id=oturum_id, icerik=icerik,
                                      ek_id=ek_id)
        if on is not None:
            on.kaydet()
        return mesaj
    with transaction.atomic():
        mesaj = _ziyaretci_mesaji_yaz(musteri=musteri, ziyaretci_id=ziyaretci_id, oturum_id=oturum_id, icerik=icerik,
                                      ek_id=ek_id)
        kurallari_calistir("ziyaretci_mesaji", musteri_id=musteri.pk, tur="chat", nesne_id=oturum_id, metin=icerik)
    return mesaj


def _ziyaretci_mesaji_yaz(*, musteri, ziyaretci_id: str, oturum_id: int, icerik: str, ek_id) -> Mesaj:
    yonlendirme = None
    uyandi = False
    onceki_idleri = None
    yazildi: sorgular.Yazilan | int | None
    if connection.vendor == "postgresql":
        ek = _ek_bul(musteri=musteri, ziyaretci_id=ziyaretci_id, ek_id=ek_id)
        mesaj = Mesaj(musteri_id=musteri.pk, oturum_id=oturum_id, gonderen=Mesaj.Gonderen.ZIYARETCI, icerik=icerik, ek=ek)
        # The same statement wakes a snoozed chat (CONTRACT 24) and says whether it did.
        yazildi = sorgular.ziyaretci_mesaji_yaz(
            mesaj=mesaj, ziyaretci_id=ziyaretci_id, onizleme=onizleme(icerik), durumlar=Oturum.ACIK_DURUMLAR
        )
        if yazildi:
            # Who follows the chat, as the statement left it: the fan-out needs no read of its own.
            durum, operator_id, uyandi, onceki_idleri = yazildi
            yonlendirme = Oturum(pk=oturum_id, musteri_id=musteri.pk, ziyaretci_id=ziyaretci_id, durum=durum,
                                 operator_id=operator_id)
            yayinla("mesaj_kaydedildi", musteri_id=musteri.pk, veri={"oturum_id": oturum_id})  # raw SQL: no signal
    else:
        with transaction.atomic():
            ek = _ek_bul(musteri=musteri, ziyaretci_id=ziyaretci_id, ek_id=ek_id)
            kapsam = (Oturum.objects.ziyaretcinin(musteri=musteri, ziyaretci_id=ziyaretci_id)
                      .filter(pk=oturum_id, durum__in=Oturum.ACIK_DURUMLAR))
            yazildi = kapsam.update(son_mesaj=onizleme(icerik), okunmamis=okunmamis_ifadesi(Mesaj.Gonderen.ZIYARETCI))
            if yazildi:
                uyandi = bool(kapsam.filter(ERTELENMIS).update(ertelendi_kadar=None, ertelendi_ziyaretci=False))
                mesaj = Mesaj.objects.create(
                    musteri_id=musteri.pk, oturum_id=oturum_id, gonderen=Mesaj.Gonderen.ZIYARETCI, icerik=icerik, ek=ek
                )
                son_mesaj_kaydet(mesaj)
    if not yazildi:
        if selectors.ziyaretci_oturum_var(musteri=musteri, ziyaretci_id=ziyaretci_id, oturum_id=oturum_id):
            raise DurumCakismasi(_("Sohbet kapanmış; yeni mesaj gönderilemez."))
        raise Bulunamadi()
    mesaj_yayinla(mesaj, oturum=yonlendirme, onceki_idleri=onceki_idleri)
    if uyandi:
        sla.uyandi(oturum_id=oturum_id)  # CONTRACT 17, 24: its paused first-response clock runs again
        # Back in the views, to its operator (or the queue): the `ertelemeden_dondu` frame.
        _erteleme_yayinla(yonlendirme or Oturum.objects.get(pk=oturum_id), uyandi=True, neden=ERTELEME_ZIYARETCI,
                          aktor_id=None)
    return mesaj


def _ek_bul(*, musteri, ziyaretci_id: str, ek_id):
    """The visitor's own upload (dosyalar app), looked up within tenant and visitor (404 else)."""
    if ek_id is None:
        return None
    return dosya_get(musteri=musteri, ziyaretci_id=ziyaretci_id, dosya_id=ek_id)


def chat_ziyaretci_bitir(*, musteri, ziyaretci_id: str, oturum_id) -> Oturum:
    with transaction.atomic():
        oturum = _ziyaretci_kilitli(musteri=musteri, ziyaretci_id=ziyaretci_id, oturum_id=oturum_id)
        return _kapat(oturum=oturum, kapatan=Oturum.Kapatan.ZIYARETCI)


def chat_puanla(*, musteri, ziyaretci_id: str, oturum_id, puan, yorum=None) -> Oturum:
    """Rate a closed chat, or an active one, which this closes first (CONTRACT 3); once only."""
    if isinstance(puan, bool) or not isinstance(puan, int) or not 1 <= puan <= 5:
        raise GecersizIstek(alanlar={"puan": _("1 ile 5 arasında bir tam sayı olmalı.")})
    yorum = metin_dogrula(yorum, alan="yorum", en_cok=YORUM_MAX)
    with transaction.atomic():
        oturum = _ziyaretci_kilitli(musteri=musteri, ziyaretci_id=ziyaretci_id, oturum_id=oturum_id)
        if oturum.puan is not None:
            raise DurumCakismasi(_("Bu sohbet zaten puanlanmış."))
        if oturum.durum == Oturum.Durum.BEKLIYOR:
            raise DurumCakismasi(_("Henüz bir temsilciyle görüşülmemiş sohbet puanlanamaz."))
        if oturum.durum == Oturum.Durum.AKTIF:
            _kapat(oturum=oturum, kapatan=Oturum.Kapatan.ZIYARETCI)
        oturum.puan, oturum.puan_yorumu, oturum.puan_zamani = puan, yorum, timezone.now()
        oturum.save(update_fields=["puan", "puan_yorumu", "puan_zamani"])
        yayinla("memnuniyet_puan", musteri_id=oturum.musteri_id, veri={
            "oturum_id": oturum.id, "musteri_id": oturum.musteri_id, "puan": puan, "yorum": yorum,
            "etiketler": etiket_adlari(oturum), "ekip_id": oturum.ekip_id,
        })
        return yeniden_oku(oturum)


# --- time-outs (issue 13, per tenant since issue 26): the periodic `chat.zaman_asimlari` -----
def chat_zaman_asimlarini_isle(*, simdi=None) -> dict[str, int]:
    """Waiting chats nobody can answer get the ticket offer; silent active chats are closed, by
    each tenant's own settings (CONTRACT 15).

    - `bekliyor` for longer than the tenant's `bekleme_zaman_asimi_dk` (from the chat's start)
      while no member of the tenant is online: a `sistem` message offers a ticket instead and
      `ticket_onerildi` is set (once per chat); the chat stays in the queue, so an operator coming
      online can still take it.
    - `aktif` with no message (and no accept) for the tenant's `sessiz_kapatma_dk` (null: never):
      closed by `sistem` with a message, `chat_kapandi` emitted as for any close.
    One statement finds each rule's chats over every tenant; each chat is then re-checked under
    its row lock, so a message or an accept racing the sweep wins, and two sweeps running at once
    (two processes) act once: the second finds it offered or closed already.
    """
    simdi = simdi or timezone.now()
    onerilen = sum(_ticket_oner(oturum_id=i, simdi=simdi) for i in selectors.ticket_onerilecek_idler(simdi=simdi))
    kapanan = sum(_sessizse_kapat(oturum_id=i, simdi=simdi) for i in selectors.sessiz_aktif_idler(simdi=simdi))
    return {"ticket_onerilen": onerilen, "sessiz_kapanan": kapanan}


def _ticket_oner(*, oturum_id: int, simdi) -> int:
    with transaction.atomic():
        oturum = Oturum.objects.select_for_update(of=("self",)).select_related("musteri").filter(pk=oturum_id).first()
        if oturum is None or oturum.durum != Oturum.Durum.BEKLIYOR or oturum.ticket_onerildi is not None:
            return 0
        sinir = simdi - timedelta(minutes=ayar_degeri(oturum.musteri, "bekleme_zaman_asimi_dk"))
        if oturum.baslangic >= sinir or selectors.cevrimici_operator_var(musteri_id=oturum.musteri_id,
                                                                         ekip_id=oturum.ekip_id):
            return 0
        oturum.ticket_onerildi = timezone.now()
        oturum.save(update_fields=["ticket_onerildi"])
        mesaj_ekle(oturum=oturum, gonderen=Mesaj.Gonderen.SISTEM,
                    icerik=sistem_metni(oturum, SISTEM_METINLERI["ticket_onerisi"]))
        return 1


def _sessizse_kapat(*, oturum_id: int, simdi) -> int:
    with transaction.atomic():
        oturum = Oturum.objects.select_for_update(of=("self",)).select_related("musteri").filter(pk=oturum_id).first()
        if oturum is None or oturum.durum != Oturum.Durum.AKTIF:
            return 0
        dakika = ayar_degeri(oturum.musteri, "sessiz_kapatma_dk")
        if dakika is None or not selectors.sessiz_mi(oturum=oturum, sinir=simdi - timedelta(minutes=dakika)):
            return 0
        _kapat(oturum=oturum, kapatan=Oturum.Kapatan.SISTEM, metin=SISTEM_METINLERI["sessiz"])
        return 1


def chat_ticketa_donusecek(*, musteri, ziyaretci_id: str, oturum_id) -> Oturum:
    """Lock the visitor's waiting chat that is about to become a ticket (the caller's transaction).

    Only a `bekliyor` chat: one an operator is answering is not swapped for a ticket (409)."""
    oturum = _ziyaretci_kilitli(musteri=musteri, ziyaretci_id=ziyaretci_id, oturum_id=oturum_id)
    if oturum.durum != Oturum.Durum.BEKLIYOR:
        raise DurumCakismasi(_("Yalnızca sırada bekleyen bir sohbet destek talebine dönüştürülebilir."))
    return oturum


def chat_ticketa_donustu(*, oturum: Oturum, ticket_id: int) -> Oturum:
    """Close the locked chat by `sistem`, naming its ticket (`chat_kapandi` as for any close)."""
    _kapat(oturum=oturum, kapatan=Oturum.Kapatan.SISTEM,
           metin=lambda: str(SISTEM_METINLERI["ticketa_donustu"]).format(ticket_id=ticket_id))
    return yeniden_oku(oturum)


# --- operator side -------------------------------------------------------------------------
# The service shape (issue 40), as tickets.services has it: an operator's or a rule's action on a
# chat is handed the chat, `oturum: Oturum`, resolved ONCE by its caller: the view
# (`chat.api.views.OperatorOturumAPIView.oturum_coz`: `selectors.oturum_get`, scoped to the
# caller's tenants, the same 404 for a missing chat and another tenant's), the bulk change
# (`panel.toplu`, scoped the same way) or the rule or macro (`otomasyon.eylemler`, the rule's
# tenant). The action uses the object for its id and tenant only: everything it decides on it
# re-reads under its own row locks, inside its transaction (`_kilitli` by primary key, after the
# membership where it locks one: `_uyelik_kilitle`, then the chat), so a stale object never
# passes a check. The VISITOR-side actions keep their own shape on purpose
# (`chat_ziyaretci_mesaj_gonder`, `chat_ziyaretci_bitir`, `chat_puanla`, `chat_ticketa_donusecek`,
# the read marks `chat_ziyaretci_okudu` / `chat_operator_okudu`): they take `oturum_id` because
# their scope check (tenant and visitor) and the row lock are one statement on the hottest path
# (issue 41); a lookup in the view first would add a query to every visitor message.
def _uyelik_kilitle(*, kullanici_id: int, musteri_id: int) -> Uyelik | None:
    # Locking the membership serialises this operator's accepts/transfers-in (and answers that
    # claim a waiting chat) for the tenant, so the `max_chat_per_tenant` count cannot be passed by
    # two moves at once. Only that row (`of`): the user row joined for `is_active` stays free for
    # status and presence writes, which every operator message would otherwise wait behind.
    if not gecerli_id_mi(kullanici_id):
        return None  # no user has this id (and SQLite cannot even bind it: 404, not a 500)
    return (
        Uyelik.objects.select_for_update(of=("self",))
        .filter(kullanici_id=kullanici_id, musteri_id=musteri_id, kullanici__is_active=True)
        .first()
    )


MESLEKTASIN_SOHBETI = gettext_lazy("Bu sohbet bir meslektaşınızda; yalnızca not yazabilirsiniz. "
                                   "Araya yalnızca yöneticiler ve proje sahipleri girebilir.")


def _araya_girebilir_mi(*, oturum: Oturum, kullanici) -> None:
    """CONTRACT 3a (wave 4): a message, close or transfer of a colleague's `aktif` chat is stepping
    in, for `yonetici` and `sahip` only; a plain operator's is 409 and changes nothing. This is also
    what makes a claim that lost by a moment a 409 on every database: the loser finds the chat
    taken, not waiting, and may not step in (the caller holds the chat's row lock)."""
    if oturum.durum != Oturum.Durum.AKTIF or oturum.operator_id in (None, kullanici.id):
        return
    uyelik = Uyelik.objects.filter(kullanici_id=kullanici.id, musteri_id=oturum.musteri_id).only("rol").first()
    if uyelik is None or not uyelik.yonetebilir:
        raise DurumCakismasi(str(MESLEKTASIN_SOHBETI))


def chat_kabul_et(*, kullanici: Kullanici, oturum: Oturum) -> Oturum:
    """Accept a waiting chat (CONTRACT 3). The chat row is not locked: the conditional UPDATE of
    `kabul_kaydet` (`WHERE durum = 'bekliyor'`) settles two racing accepts, under the membership's
    lock (the cap)."""
    with transaction.atomic():
        uyelik = _uyelik_kilitle(kullanici_id=kullanici.id, musteri_id=oturum.musteri_id)
        if uyelik is None:
            raise Bulunamadi()
        if oturum.durum != Oturum.Durum.BEKLIYOR:
            # The loser of a claim race (issue 39) usually gets here, not to the conditional
            # UPDATE: the winner's commit came first. Tell it what happened, as that UPDATE does.
            if oturum.durum == Oturum.Durum.AKTIF and oturum.operator_id != kullanici.id:
                raise DurumCakismasi(str(BASKASI_KABUL_ETTI))
            raise DurumCakismasi(_("Sohbet sırada beklemiyor; kabul edilemez."))
        kabul_kaydet(oturum=oturum, kullanici=kullanici, uyelik=uyelik)
        return yeniden_oku(oturum)


def operator_gorunen_adi(kullanici) -> str:
    """`gorunen_ad` as a plain string, in the active language."""
    return str(gorunen_ad(kullanici))


def chat_aktar(*, kullanici: Kullanici, oturum: Oturum, hedef_operator_id: int | None) -> Oturum:
    """Hand an active chat to another member of its tenant, or back to the queue (None)."""
    with transaction.atomic():
        hedef = None
        if hedef_operator_id is not None:
            hedef = _uyelik_kilitle(kullanici_id=hedef_operator_id, musteri_id=oturum.musteri_id)
            if hedef is None:
                raise Bulunamadi(_("Aktarılacak operatör bu projede bulunamadı."))
        oturum = _kilitli(oturum.pk)
        if oturum.durum != Oturum.Durum.AKTIF:
            raise DurumCakismasi(_("Yalnızca aktif bir sohbet aktarılabilir."))
        _araya_girebilir_mi(oturum=oturum, kullanici=kullanici)
        atama.commit_sonrasi_doldur(oturum.musteri_id)  # it waits again, or its operator has room
        if hedef is None:
            siraya_al(oturum, metin=SISTEM_METINLERI["siraya_alindi"], neden=ATAMA_AKTARMA)
            return yeniden_oku(oturum)
        return _aktar(oturum=oturum, hedef=hedef)


def _aktar(*, oturum: Oturum, hedef: Uyelik) -> Oturum:
    """The transfer of a locked `aktif` chat to the member `hedef` (its membership locked)."""
    if hedef.kullanici_id == oturum.operator_id:
        raise DurumCakismasi(_("Sohbet zaten bu operatörde."))
    limit_kontrol(hedef)
    oturum.operator_id, oturum.kabul_zamani = hedef.kullanici_id, timezone.now()
    # CONTRACT 3a: a chat handed over reaches its new operator as a new one does, unread.
    oturum.okunmamis = max(oturum.okunmamis, 1)
    oturum.save(update_fields=["durum", "operator", "kabul_zamani", "okunmamis"])
    mesaj_ekle(oturum=oturum, gonderen=Mesaj.Gonderen.SISTEM,
               icerik=sistem_metni(oturum, _aktarildi_metni(oturum, hedef)))
    yayinla("chat_aktarildi", musteri_id=oturum.musteri_id, veri={"oturum_id": oturum.pk, "sira_degisti": False})
    atandi_yayinla(oturum, neden=ATAMA_AKTARMA, uyelik_id=hedef.pk, an=oturum.kabul_zamani)
    return yeniden_oku(oturum)


EKIBE_AKTARILDI = gettext_lazy("Sohbet {ad} ekibine aktarıldı; ekipten ilk uygun temsilci size yanıt verecek.")


def chat_ekibe_aktar(*, oturum: Oturum, ekip_id: int | None, aktor: Kullanici | None = None) -> Oturum:
    """Give a chat to a team (CONTRACT 22), or to the whole tenant (None): the chat's `ekip` is set
    and it goes back to routing as a transfer to nobody does (`siraya_al`: `bekliyor`, its `sistem`
    line naming the team, `chat_aktarildi`, `chat_atandi` with `operator_id` null); after the commit
    the queue drains (`atama.commit_sonrasi_doldur`), which assigns it inside the team when the
    team's mode (else the tenant's) is automatic. A waiting chat just changes queue (and is routed
    the same way); a closed chat only changes its team.

    The team must be of the chat's tenant (else 400 with `alanlar.ekip_id`). The caller's
    membership is the caller's to check, by resolving `oturum` in its tenants (the view, the bulk
    change, the rule); `aktor`, when given, is held to CONTRACT 3a as a transfer is (a plain
    operator moving a colleague's active chat: 409)."""
    with transaction.atomic():
        oturum = _kilitli(oturum.pk)
        ekip = ekip_coz(musteri_id=oturum.musteri_id, ekip_id=ekip_id)
        if aktor is not None and oturum.acik:
            _araya_girebilir_mi(oturum=oturum, kullanici=aktor)
        oturum.ekip = ekip
        oturum.save(update_fields=["ekip"])
        if oturum.acik:
            atama.commit_sonrasi_doldur(oturum.musteri_id)  # routed inside the team after the commit
        if oturum.durum == Oturum.Durum.AKTIF:
            metin = (SISTEM_METINLERI["siraya_alindi"] if ekip is None
                     else (lambda: str(EKIBE_AKTARILDI).format(ad=ekip.ad)))
            siraya_al(oturum, metin=metin, neden=ATAMA_AKTARMA)
        elif oturum.durum == Oturum.Durum.BEKLIYOR:
            # Another queue: the consoles get the chat again and routing looks at it after the commit.
            yayinla("chat_aktarildi", musteri_id=oturum.musteri_id, veri={"oturum_id": oturum.pk, "sira_degisti": True})
        return yeniden_oku(oturum)


def _aktarildi_metni(oturum: Oturum, hedef: Uyelik):
    """The transfer's `sistem` line says to whom (issue 39): the new operator's display name as
    visitors see it (never its e-mail), stored in the chat's language; a member without a name is
    "another agent" rather than "Agent"."""
    ad = (hedef.kullanici.ad or "").strip()
    if not ad:
        return SISTEM_METINLERI["aktarildi"]
    return lambda: str(SISTEM_METINLERI["aktarildi_adli"]).format(ad=ad)


def chat_operator_kapat(*, kullanici: Kullanici, oturum: Oturum) -> Oturum:
    with transaction.atomic():
        oturum = _kilitli(oturum.pk)
        if oturum.acik:
            _araya_girebilir_mi(oturum=oturum, kullanici=kullanici)
        return yeniden_oku(_kapat(oturum=oturum, kapatan=Oturum.Kapatan.OPERATOR))


def chat_operator_mesaj_gonder(*, kullanici: Kullanici, oturum: Oturum, icerik, ek_id=None) -> Mesaj:
    """An operator's message (CONTRACT 3a). To a waiting chat it claims the chat first, in this
    transaction, exactly as an accept would (cap, `sistem` line before the reply, events); if a
    colleague's claim wins the race meanwhile, 409 and nothing is stored. To a colleague's active
    chat it is someone stepping in: a `yonetici` or `sahip` only (else 409), and the chat keeps its
    operator."""
    icerik = icerik_dogrula(icerik)
    gorulen = oturum
    with transaction.atomic():
        # The common case, a chat that is not waiting (it cannot go back to the queue while locked):
        # one statement, the chat's row lock by primary key (the caller resolved it in its tenants).
        kilitli = Oturum.objects.select_for_update().filter(pk=gorulen.pk).exclude(durum=Oturum.Durum.BEKLIYOR).first()
        uyelik = None
        if kilitli is None:
            # Waiting (or gone: 404): the message may claim it, locked as an accept locks (the
            # membership, then the chat).
            uyelik = _uyelik_kilitle(kullanici_id=kullanici.id, musteri_id=gorulen.musteri_id)
            if uyelik is None:
                raise Bulunamadi()
            kilitli = _kilitli(gorulen.pk)
        oturum = kilitli
        # The operator's own upload of the chat's tenant (the console's `POST /operator/upload`).
        ek = None if ek_id is None else operator_dosya_list_by_ids(
            musteri_id=oturum.musteri_id, kullanici=kullanici, dosya_idleri=[ek_id])[0]
        if not oturum.acik:
            raise DurumCakismasi(_("Sohbet kapanmış; yeni mesaj gönderilemez."))
        if oturum.durum == Oturum.Durum.BEKLIYOR:
            assert uyelik is not None  # a waiting chat is only reached through the membership's lock above
            oturum = kabul_kaydet(oturum=oturum, kullanici=kullanici, uyelik=uyelik, neden=ATAMA_KABUL)
        elif uyelik is not None and oturum.operator_id != kullanici.id:
            raise DurumCakismasi(str(BASKASI_KABUL_ETTI))  # an answer to a waiting visitor lost the claim
        else:
            _araya_girebilir_mi(oturum=oturum, kullanici=kullanici)
        mesaj = mesaj_ekle(oturum=oturum, gonderen=Mesaj.Gonderen.OPERATOR, icerik=icerik, operator=kullanici, ek=ek)
        ilk_yanit_kaydet(mesaj)
        yayinla("chat_operator_mesaji", musteri_id=mesaj.musteri_id, veri={"mesaj_id": mesaj.id})
        return mesaj


def ilk_yanit_kaydet(mesaj: Mesaj) -> None:
    """The chat's first response (CONTRACT 17: accepting is no response, a note is none): the
    operator message `mesaj`'s time, kept once on the chat in the message's transaction: one
    UPDATE, a no-op after the first."""
    if Oturum.objects.filter(pk=mesaj.oturum_id, ilk_yanit_zamani__isnull=True).update(ilk_yanit_zamani=mesaj.zaman):
        sla.yanitlandi(oturum_id=mesaj.oturum_id, zaman=mesaj.zaman)


def chat_operator_not_yaz(*, kullanici: Kullanici | None, oturum: Oturum, icerik, ek_id=None,
                          bahsedilenler: list[int] | None = None) -> Mesaj:
    """An internal note (CONTRACT 16): a message with `ozel` in the chat's timeline, for operators
    only. It claims no chat (CONTRACT 3a does not apply), changes no state, is allowed on a closed
    chat, and moves neither the preview (`son_mesaj`, which the widget reads) nor the unread count;
    no visitor mail (`chat_operator_mesaji` is not stated). Mentioned members (404 unless members of
    the chat's tenant) hear of it (`bahsedilme`)."""
    icerik = icerik_dogrula(icerik)
    anilanlar = uye_idleri_dogrula(musteri_id=oturum.musteri_id, kullanici_idleri=bahsedilenler or [])
    ek = None if ek_id is None else operator_dosya_list_by_ids(
        musteri_id=oturum.musteri_id, kullanici=kullanici, dosya_idleri=[ek_id])[0]
    with transaction.atomic():
        # Under the chat's row lock as every message: a chat's message ids stay in commit order
        # (the frames' `onceki_id`, chat.selectors.onceki_mesaj_idleri).
        kilitli = _kilitli(oturum.pk)
        mesaj = Mesaj.objects.create(musteri_id=kilitli.musteri_id, oturum=kilitli, gonderen=Mesaj.Gonderen.OPERATOR,
                                     operator=kullanici, icerik=icerik, ek=ek, ozel=True)
        # The chat's newest message is this note now (the visitor's newest stays): its predecessors
        # are what the locked row held (issue 41: no read of the messages for the frames), and who
        # follows it (state, operator) is what the locked row says, not the caller's earlier read.
        son_mesaj_kaydet(mesaj)
        mesaj_yayinla(mesaj, oturum=kilitli, onceki_idleri=(kilitli.son_mesaj_no, kilitli.son_gorunur_mesaj_no))
        if anilanlar:
            yayinla("bahsedilme", musteri_id=kilitli.musteri_id, veri={
                "mesaj": mesaj, "musteri_id": kilitli.musteri_id, "oturum_id": kilitli.pk,
                "kullanici_idleri": anilanlar, "aktor_id": kullanici.pk if kullanici is not None else None,
            })
    return mesaj


def chat_etiketleri_ayarla(*, kullanici: Kullanici | None, oturum: Oturum, etiket_idleri: list[int],
                           ip: str | None = None) -> Oturum:
    """Set the whole list of a chat's labels (CONTRACT 16): labels of the chat's own tenant only
    (404 for any other), in any state; the operators' consoles get the chat again."""
    with transaction.atomic():
        oturum = _kilitli(oturum.pk)
        yeni = etiketler_coz(musteri_id=oturum.musteri_id, etiket_idleri=etiket_idleri)
        onceki = set(oturum.etiketler.values_list("id", flat=True))
        oturum.etiketler.set(yeni)
        yayinla("etiketler_ayarlandi", musteri_id=oturum.musteri_id, veri={
            "tur": "oturum", "oturum_id": oturum.pk, "musteri_id": oturum.musteri_id,
            "etiketler": sorted(e.ad for e in yeni), "aktor_id": kullanici.pk if kullanici else None, "ip": ip,
        })
        for etiket in yeni:  # CONTRACT 23: each label added is an event the rules may react to
            if etiket.pk not in onceki:
                kurallari_calistir("etiket_eklendi", musteri_id=oturum.musteri_id, tur="chat", nesne_id=oturum.pk,
                                   etiket=etiket.ad)
    return oturum


# --- snooze (CONTRACT 24) -------------------------------------------------------------------
def _erteleme_yayinla(oturum: Oturum, *, uyandi: bool, neden: str, aktor_id: int | None) -> None:
    yayinla("erteleme_degisti", musteri_id=oturum.musteri_id, veri={
        "tur": "oturum", "oturum_id": oturum.pk, "musteri_id": oturum.musteri_id, "operator_id": oturum.operator_id,
        "uyandi": uyandi, "neden": neden, "aktor_id": aktor_id,
    })


def chat_ertele(*, kullanici: Kullanici, oturum: Oturum, kadar) -> Oturum:
    """Snooze an open chat until `kadar` (an aware time, checked by `erteleme.kadar_coz`), or until
    the visitor writes (None). It keeps its state and operator and leaves every view but
    `ertelenen`. A colleague's active chat is stepping in (CONTRACT 3a): `yonetici`/`sahip` only."""
    with transaction.atomic():
        oturum = _kilitli(oturum.pk)
        if not oturum.acik:
            raise DurumCakismasi(_("Kapanmış bir sohbet ertelenemez."))
        _araya_girebilir_mi(oturum=oturum, kullanici=kullanici)
        oturum.ertelendi_kadar, oturum.ertelendi_ziyaretci = kadar, kadar is None
        sla.durdur(oturum)  # CONTRACT 17, 24: a snoozed chat's first-response clock pauses
        oturum.save(update_fields=["ertelendi_kadar", "ertelendi_ziyaretci", *sla.ALANLAR])
        _erteleme_yayinla(oturum, uyandi=False, neden=ERTELEME_OPERATOR, aktor_id=kullanici.pk)
    return oturum


def chat_uyandir(*, kullanici: Kullanici, oturum: Oturum) -> Oturum:
    """`DELETE .../ertele`: back in the views at once (nothing to do when it is not snoozed)."""
    with transaction.atomic():
        oturum = _kilitli(oturum.pk)
        if ertelenmis_mi(oturum):
            _uyandir(oturum, neden=ERTELEME_OPERATOR, aktor_id=kullanici.pk)
    return oturum


def _uyandir(oturum: Oturum, *, neden: str, aktor_id: int | None = None) -> None:
    # The caller holds the chat's row lock.
    oturum.ertelendi_kadar, oturum.ertelendi_ziyaretci = None, False
    sla.surdur(oturum)  # its paused clock runs again with the time it had left
    oturum.save(update_fields=["ertelendi_kadar", "ertelendi_ziyaretci", *sla.ALANLAR])
    _erteleme_yayinla(oturum, uyandi=True, neden=neden, aktor_id=aktor_id)
    if oturum.durum == Oturum.Durum.BEKLIYOR:
        atama.commit_sonrasi_doldur(oturum.musteri_id)  # a waiting chat is routed again


def ertelenen_oturumlari_uyandir(*, simdi=None) -> int:
    """The periodic wake (`chat.ertelenenleri_uyandir`): open chats whose `kadar` has come. Each is
    re-checked under its row lock, so a wake racing the sweep (the visitor wrote, an operator
    woke it or snoozed it again) acts once."""
    simdi = simdi or timezone.now()
    idler = list(Oturum.objects.filter(ertelendi_kadar__lte=simdi, durum__in=Oturum.ACIK_DURUMLAR)
                 .order_by("ertelendi_kadar", "id").values_list("id", flat=True)[:1000])
    uyanan = 0
    for oturum_id in idler:
        with transaction.atomic():
            oturum = Oturum.objects.select_for_update().filter(
                pk=oturum_id, ertelendi_kadar__lte=simdi, durum__in=Oturum.ACIK_DURUMLAR).first()
            if oturum is not None:
                _uyandir(oturum, neden=ERTELEME_ZAMAN)
                uyanan += 1
    return uyanan


# --- a rule's own moves (CONTRACT 23): the system acts, so no member's role is asked ----------


def chat_operatore_ata(*, oturum: Oturum, operator_id: int, aktor: Kullanici | None = None) -> Oturum:
    """Give an open chat to a member of its tenant (404 otherwise): a waiting chat is assigned as
    routing would (`chat_atandi` with `otomatik`, the cap counted); an active one is transferred.
    `aktor`: None for a rule (the system); a user (a macro's caller) is held to CONTRACT 3a, as
    its own transfer is."""
    with transaction.atomic():
        hedef = _uyelik_kilitle(kullanici_id=operator_id, musteri_id=oturum.musteri_id)
        if hedef is None:
            raise Bulunamadi(_("Aktarılacak operatör bu projede bulunamadı."))
        oturum = _kilitli(oturum.pk)
        if oturum.durum == Oturum.Durum.BEKLIYOR:
            return kabul_kaydet(oturum=oturum, kullanici=hedef.kullanici, uyelik=hedef, neden=ATAMA_OTOMATIK)
        if oturum.durum != Oturum.Durum.AKTIF:
            raise DurumCakismasi(_("Yalnızca açık bir sohbet atanabilir."))
        if aktor is not None:
            _araya_girebilir_mi(oturum=oturum, kullanici=aktor)
        atama.commit_sonrasi_doldur(oturum.musteri_id)  # its former operator has room
        return _aktar(oturum=oturum, hedef=hedef)


def chat_otomatik_yanit(*, oturum: Oturum, icerik: str) -> Mesaj:
    """A canned response sent by a rule: a `sistem` message from the name "Otomatik yanıt"
    (`otomatik`: the shapes' `operator_adi`, the transcripts' sender; it claims no chat and is no
    operator's first response), its variables filled for the chat's visitor and tenant."""
    with transaction.atomic():
        kilitli = Oturum.objects.select_for_update(of=("self",)).select_related("musteri").filter(pk=oturum.pk).first()
        if kilitli is None:
            raise Bulunamadi()
        if not kilitli.acik:
            raise DurumCakismasi(_("Sohbet kapanmış; yeni mesaj gönderilemez."))
        metin = hazir_yanit_doldur(icerik, {"ziyaretci_adi": kilitli.ziyaretci_adi, "ziyaretci_email": kilitli.email,
                                            "operator_adi": str(OTOMATIK_YANIT), "firma_adi": kilitli.musteri.firma_adi})
        return mesaj_ekle(oturum=kilitli, gonderen=Mesaj.Gonderen.SISTEM, icerik=metin, otomatik=True)


def chat_sistem_kapat(*, oturum: Oturum) -> Oturum:
    """A rule closes a chat: by `sistem`, as the periodic close does (409 when closed already)."""
    with transaction.atomic():
        return yeniden_oku(_kapat(oturum=_kilitli(oturum.pk), kapatan=Oturum.Kapatan.SISTEM))


def chat_ticketa_cevir(*, kullanici: Kullanici, oturum: Oturum, konu: str,
                      oncelik: str = Ticket.Oncelik.NORMAL) -> Ticket:
    """An operator turns a chat into a ticket (CONTRACT 24): the ticket is made as any other
    (`ticket_olustur`: routing, SLA clocks, `yeni_ticket`), the chat's transcript as the visitor
    saw it (notes left out, `Mesaj.objects.gorunur()`) its first reply, linked both ways
    (`ticket.oturum`); the chat stays as it is. Any member of the chat's tenant may do it, a plain
    operator on a colleague's chat too: it writes nothing to the chat (CONTRACT 3a restricts
    messages, closes and transfers). One ticket per chat: a second is 409 `ZATEN_TICKETA_DONUSTU`,
    decided under the chat's row lock, so two at once make one."""
    with transaction.atomic():
        oturum = _kilitli(oturum.pk)
        if Oturum.objects.filter(pk=oturum.pk, ticket__isnull=False).exists():
            raise ZatenTicketaDonustu()
        taslak = selectors.ticket_taslagi(oturum=oturum)
        return ticket_services.ticket_olustur(
            musteri=oturum.musteri, ziyaretci_id=oturum.ziyaretci_id, konu=konu, mesaj=taslak["mesaj"],
            ad=taslak["ad"], email=taslak["email"], oncelik=oncelik, dil=oturum.dil,
            kanal=Ticket.Kanal.API if oturum.kanal == Oturum.Kanal.API else Ticket.Kanal.WIDGET, oturum_id=oturum.pk,
            ekip_id=oturum.ekip_id,  # CONTRACT 22: routed among the chat's team, as the visitor chose it
        )


def chat_ziyaretci_okudu(*, oturum_id: int, mesaj_id) -> bool:
    """The visitor has read its chat up to `mesaj_id` (the widget socket's `okundu`, CONTRACT 11):
    kept for the operator's messages answer (`ziyaretci_son_okunan`), so read marks survive a
    reload. Only forward, only to a message of this chat; one statement. True when it moved."""
    if not gecerli_id_mi(mesaj_id):
        return False
    return bool(
        Oturum.objects.filter(pk=oturum_id)
        .filter(Q(ziyaretci_son_okunan__isnull=True) | Q(ziyaretci_son_okunan__lt=mesaj_id))
        .filter(Exists(Mesaj.objects.filter(pk=mesaj_id, oturum_id=OuterRef("pk"))))
        .update(ziyaretci_son_okunan=mesaj_id)
    )


def chat_operator_okudu(*, oturum_id: int, musteri_id: int, mesaj_id) -> bool:
    """An operator has read the chat up to `mesaj_id` (its socket's `okundu`, CONTRACT 11): kept as
    `operator_son_okunan` of the widget's shape, so the visitor's read marks survive a reload
    (issue 39). Only forward, only to a message of this chat; one statement, and the chat's poll
    snapshot is renewed (`chat_okundu`). True when it moved."""
    if not gecerli_id_mi(mesaj_id):
        return False
    degisti = bool(
        Oturum.objects.filter(pk=oturum_id, musteri_id=musteri_id)
        .filter(Q(operator_son_okunan__isnull=True) | Q(operator_son_okunan__lt=mesaj_id))
        .filter(Exists(Mesaj.objects.filter(pk=mesaj_id, oturum_id=OuterRef("pk"))))
        .update(operator_son_okunan=mesaj_id)
    )
    if degisti:
        yayinla("chat_okundu", musteri_id=musteri_id, veri={"oturum_id": oturum_id})
    return degisti


def chat_okundu(*, oturum: Oturum) -> None:
    """The operator has read the chat: its unread count drops to 0 (no write when already 0)."""
    if oturum.okunmamis:
        Oturum.objects.filter(pk=oturum.pk).update(okunmamis=0)
        yayinla("chat_okundu", musteri_id=oturum.musteri_id, veri={"oturum_id": oturum.pk})
        oturum.okunmamis = 0


# --- canned responses ----------------------------------------------------------------------
# Every write below tells the tenant's open consoles after the commit (`hazir_yanitlar_degisti`,
# docs/api.md), so a change made in the portal, the admin or a command needs no reload there.
KISAYOL_VAR_MESAJI = gettext_lazy("Bu projede bu kısayol zaten kullanılıyor.")


def kisayol_duzelt(kisayol: str) -> str:
    """`kisayol` as stored: without surrounding spaces, with its leading `/` whether or not it was
    typed (CONTRACT 16): `selam` and `/selam` are one shortcut."""
    kisayol = kisayol.strip()
    return kisayol if kisayol.startswith("/") else "/" + kisayol


def hazir_yanit_dogrula(kayit, sira: int | None = None) -> dict:
    """A canned response's fields checked and cleaned (`kisayol` with its `/`). Errors name the
    fields (`kisayol`), or the record of an import (`hazir_yanitlar.3.kisayol`) when `sira` is given."""
    onek = "" if sira is None else f"hazir_yanitlar.{sira}."
    if not isinstance(kayit, dict):
        raise GecersizIstek(alanlar={onek.rstrip(".") or "hazir_yanit": _("Nesne olmalı.")})
    kisayol = kayit.get("kisayol")
    kisayol = kisayol_duzelt(kisayol) if isinstance(kisayol, str) else ""
    if len(kisayol) < 2 or len(kisayol) > KISAYOL_MAX or any(c.isspace() for c in kisayol):
        raise GecersizIstek(alanlar={f"{onek}kisayol": _("Boşluksuz, / ile birlikte 2-%(en_cok)d karakter olmalı.")
                                     % {"en_cok": KISAYOL_MAX}})
    baslik = kayit.get("baslik")
    if not isinstance(baslik, str) or not baslik.strip() or len(baslik.strip()) > BASLIK_MAX:
        raise GecersizIstek(alanlar={f"{onek}baslik": _("1-%(en_cok)d karakter olmalı.") % {"en_cok": BASLIK_MAX}})
    icerik = icerik_dogrula(kayit.get("icerik"), alan=f"{onek}icerik")
    return {"kisayol": kisayol, "baslik": baslik.strip(), "icerik": icerik}


HAZIR_YANIT_DEGISKENLERI = ("ziyaretci_adi", "ziyaretci_email", "operator_adi", "firma_adi")
_DEGISKEN = re.compile(r"\{([a-z_]+)\}")


def hazir_yanit_doldur(icerik: str, degerler: dict[str, str]) -> str:
    """A canned response's text with its variables filled in (CONTRACT 16): `{ziyaretci_adi}`,
    `{ziyaretci_email}`, `{operator_adi}`, `{firma_adi}` become their values (a missing value is
    empty); any other `{name}` stays as typed. One pass: a value holding `{...}` is not filled again."""
    def yerine(m: re.Match) -> str:
        ad = m.group(1)
        return (degerler.get(ad) or "") if ad in HAZIR_YANIT_DEGISKENLERI else m.group(0)
    return _DEGISKEN.sub(yerine, icerik)


def _hazir_yanitlar_degisti(musteri_id: int, **ayrinti) -> None:
    """`ayrinti` says what changed, for the audit log (issue 39.7): `islem` (`olusturuldu`,
    `degisti`, `silindi`, `yuklendi`), `hazir_yanit_id`, `kisayol`, `degerler` ({field: [old, new]};
    the text itself is named, not copied), `sayi` (an import)."""
    yayinla("hazir_yanitlar_degisti", musteri_id=musteri_id, veri={"musteri_id": musteri_id, **ayrinti})


@transaction.atomic
def hazir_yanitlari_yukle(*, musteri, kayitlar: list[dict]) -> int:
    """Create or update canned responses by `kisayol` (idempotent); returns how many were given.

    Every record is validated before anything is saved, so a bad file changes nothing.
    """
    if not isinstance(kayitlar, list):
        raise GecersizIstek(alanlar={"hazir_yanitlar": _("Liste olmalı.")})
    temiz = [hazir_yanit_dogrula(k, i) for i, k in enumerate(kayitlar)]
    for kayit in temiz:
        HazirYanit.objects.update_or_create(
            musteri=musteri, kisayol=kayit["kisayol"], defaults={"baslik": kayit["baslik"], "icerik": kayit["icerik"]}
        )
    if temiz:
        _hazir_yanitlar_degisti(musteri.id, islem="yuklendi", sayi=len(temiz))
    return len(temiz)


def kisayol_kullanimda(*, musteri_id: int, kisayol: str, haric_pk=None) -> bool:
    """Whether another canned response of the project has this (cleaned) shortcut."""
    return HazirYanit.objects.kapsamda([musteri_id]).filter(kisayol=kisayol).exclude(pk=haric_pk).exists()


def hazir_yanit_kaydet(*, musteri, kisayol, baslik, icerik, hazir_yanit: HazirYanit | None = None) -> HazirYanit:
    """Create a canned response, or update `hazir_yanit`; `kisayol` is unique per project, and
    one that becomes a duplicate once its `/` is added is a field error like any other."""
    temiz = hazir_yanit_dogrula({"kisayol": kisayol, "baslik": baslik, "icerik": icerik})
    hazir_yanit = hazir_yanit or HazirYanit(musteri=musteri)
    if kisayol_kullanimda(musteri_id=musteri.id, kisayol=temiz["kisayol"], haric_pk=hazir_yanit.pk):
        raise GecersizIstek(alanlar={"kisayol": str(KISAYOL_VAR_MESAJI)})
    yeni = hazir_yanit.pk is None
    degerler: dict[str, list | None] = {alan: [getattr(hazir_yanit, alan), deger] for alan, deger in temiz.items()
                if not yeni and getattr(hazir_yanit, alan) != deger}
    if "icerik" in degerler:
        degerler["icerik"] = None  # named, not copied into the log
    for alan, deger in temiz.items():
        setattr(hazir_yanit, alan, deger)
    try:
        with transaction.atomic():
            hazir_yanit.save()
            if yeni or degerler:
                _hazir_yanitlar_degisti(musteri.id, islem="olusturuldu" if yeni else "degisti",
                                        hazir_yanit_id=hazir_yanit.pk, kisayol=hazir_yanit.kisayol, degerler=degerler)
    except IntegrityError:  # the same shortcut saved by a parallel request
        raise GecersizIstek(alanlar={"kisayol": str(KISAYOL_VAR_MESAJI)}) from None
    return hazir_yanit


@transaction.atomic
def hazir_yanit_sil(*, hazir_yanit: HazirYanit) -> None:
    hazir_yanit_id = hazir_yanit.pk
    hazir_yanit.delete()
    _hazir_yanitlar_degisti(hazir_yanit.musteri_id, islem="silindi", hazir_yanit_id=hazir_yanit_id,
                            kisayol=hazir_yanit.kisayol)


@transaction.atomic
def silinen_operatorun_oturumlarini_birak(*, operator_id: int) -> int:
    """A user is being deleted: its active chats in every tenant go back to the queue, as when it
    leaves each project."""
    musteri_idleri = sorted(set(Oturum.objects.filter(operator_id=operator_id, durum=Oturum.Durum.AKTIF)
                                .values_list("musteri_id", flat=True)))
    return sum(operator_oturumlarini_birak(musteri_id=m, operator_id=operator_id) for m in musteri_idleri)


def operator_oturumlarini_birak(*, musteri_id: int, operator_id: int) -> int:
    """A member left the project (CONTRACT 13, team page): their active chats there go back to
    the queue, each with the same system note a transfer to the queue writes."""
    oturumlar = list(Oturum.objects.kapsamda([musteri_id]).select_for_update()
                     .filter(operator_id=operator_id, durum=Oturum.Durum.AKTIF).order_by("id"))
    for oturum in oturumlar:
        siraya_al(oturum, metin=SISTEM_METINLERI["siraya_alindi"], neden=ATAMA_YENIDEN)
    atama.commit_sonrasi_doldur(musteri_id)  # they wait again; someone else may take them
    return len(oturumlar)

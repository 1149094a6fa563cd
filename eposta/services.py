"""Writes of the e-mail app: every mail of CONTRACT 14's table becomes a `GidenEposta` row
(to, subject, both parts, headers), and its sending task is queued once the row commits.

Who gets what is decided here and nowhere else: a visitor mail goes only to the address stored
on that visitor's own ticket or chat (or given with the transcript request of that visitor), and
names no operator address; team mails go only to members of the ticket's tenant.

Which language (CONTRACT 19): a visitor mail is written in its ticket's or chat's language
(`Ticket.dil`, `Oturum.dil`), a member mail in that member's (`kullanici_dili`), each inside
`dilde(...)` while it is rendered, so the language of whatever request or task triggered it never
leaks in. Team mails are written once per language among their recipients.
"""
import logging
import time
from datetime import timedelta
from email.utils import formataddr, getaddresses, make_msgid

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from chat.models import OTOMATIK_YANIT, Mesaj, Oturum
from chat.selectors import ziyaretci_oturum_get
from chat.son_gorulme import ziyaretci_son_gorulme
from dosyalar.services import dosya_yukle
from dosyalar.yukleme import EN_BUYUK_BOYUT, mime_tipi_bul
from supportdesk.core import kosucu, varlik
from supportdesk.core.dil import VARSAYILAN, dil_kodu, dilde, kullanici_dili, widget_dili
from supportdesk.core.exceptions import (
    Bulunamadi,
    DesteklenmeyenDosya,
    DosyaCokBuyuk,
    DurumCakismasi,
    GecersizIstek,
    LimitAsildi,
)
from supportdesk.core.girdi import EPOSTA_ZIYARETCI_ONEKI, ZIYARETCI_ID_MAX, email_dogrula
from supportdesk.core.throttling import adres_ozeti, oran_coz, pencere_ayir, pencere_iade, pencere_kontrol
from tenants.models import Kullanici, Musteri, Uyelik
from tickets.bicim import yanit_html
from tickets.models import Ticket, TicketYanit
from tickets.services import ticket_olustur, ticket_ziyaretci_yanitla

from . import tasks, tokenlar
from .gelen import OkunamayanEposta, OkunanEposta, eposta_oku
from .icerik import Icerik, baglantisiz, html_olustur, metin_olustur, tarih, tarih_saat, tek_satir
from .models import EpostaDurdurma, GelenEposta, GidenEposta

logger = logging.getLogger("supportdesk.eposta")
Tur = GidenEposta.Tur
DOKUM_SATIR_MAX = 2000
CEVRIMDISI_ARALIK_SANIYE = 600  # one "answered while you were away" mail per chat per 10 minutes
ADRES_LIMITI_MESAJI = gettext_lazy("Bu adrese kısa sürede çok fazla e-posta gönderildi; bir süre sonra yeniden deneyin.")
COZULDU_NOTU = gettext_lazy("Talebiniz bu yanıtla çözüldü olarak işaretlendi; sorun sürerse bu e-postayı yanıtlayın.")
BILDIRIM_DIPNOTU = gettext_lazy("Bu bildirimleri proje ayarlarınızdan (portal) kapatabilirsiniz.")
PANEL_DUGMESI = gettext_lazy("Operatör panelinde aç")


# --- writing and queueing ------------------------------------------------------------------
def _eposta_yaz(
    *, musteri: Musteri | None, tur: str, alici: str, icerik: Icerik, ticket: Ticket | None = None,
    oturum_id: int | None = None, durdurma_kapsami: str | None = None,
) -> GidenEposta | None:
    """Store one mail and queue it on commit. A visitor mail whose ticket or chat the visitor has
    stopped is not written at all."""
    if durdurma_kapsami and EpostaDurdurma.objects.filter(musteri=musteri, kapsam=durdurma_kapsami).exists():
        return None
    alan = settings.INBOUND_EMAIL_DOMAIN
    firma_adi = musteri.firma_adi if musteri else "SupportDesk"
    basliklar = {"From": formataddr((tek_satir(firma_adi), _gonderen_adresi())), "Auto-Submitted": "auto-generated"}
    message_id = make_msgid(idstring=tur.replace("_", "-"), domain=alan)
    if ticket is not None:
        # Every mail of a ticket answers the same root, so mail clients keep them in one thread;
        # the first mail (ticket received) is that root itself.
        kok = _ticket_kok_id(ticket)
        # A ticket opened by mail: its thread starts with the sender's own message.
        onceki = list(GelenEposta.objects.filter(ticket_id=ticket.id, sonuc=GelenEposta.Sonuc.YENI_TICKET)
                      .values_list("message_id", flat=True)[:1])
        if tur == Tur.TICKET_ALINDI:
            message_id = kok
        else:
            onceki.append(kok)
        if onceki:
            basliklar.update({"In-Reply-To": onceki[-1], "References": " ".join(onceki)})
        basliklar["Reply-To"] = tokenlar.ticket_yanit_adresi(ticket.id)
    durdur_url = None
    if durdurma_kapsami and musteri is not None:
        durdur_url = _durdur_url(musteri_id=musteri.id, kapsam=durdurma_kapsami)
        basliklar.update({
            "List-Unsubscribe": f"<{durdur_url}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        })
    basliklar = {ad: tek_satir(deger) for ad, deger in basliklar.items()}  # In-Reply-To: a sender's Message-ID
    renk = musteri.renk_primary if musteri else ""
    try:
        with transaction.atomic():
            eposta = GidenEposta.objects.create(
                musteri=musteri, tur=tur, alici=alici, konu=tek_satir(icerik.konu)[:255], basliklar=basliklar,
                metin=metin_olustur(icerik, firma_adi=firma_adi, durdur_url=durdur_url),
                html=html_olustur(icerik, firma_adi=firma_adi, renk=renk, durdur_url=durdur_url),
                message_id=message_id, durdurma_kapsami=durdurma_kapsami or "",
                ticket_id=ticket.id if ticket else None, oturum_id=oturum_id,
            )
    except IntegrityError:
        return None  # this ticket's "received" mail exists already (a repeated event)
    transaction.on_commit(lambda: _kuyruga_al(eposta.id))
    return eposta


def _kuyruga_al(eposta_id: int) -> None:
    # On failure the row stays waiting and the sweep sends it (gonderim.vadesi_gelenleri_gonder).
    kosucu.gorev_gonder(tasks.eposta_gonder, eposta_id, yerel=settings.EPOSTA_YEREL_ISCI)


def _gonderen_adresi() -> str:
    return getaddresses([settings.DEFAULT_FROM_EMAIL])[0][1] or "destek@localhost"


def _ticket_kok_id(ticket: Ticket) -> str:
    return f"<ticket-{ticket.id}.m{ticket.musteri_id}@{settings.INBOUND_EMAIL_DOMAIN}>"


def _durdur_url(*, musteri_id: int, kapsam: str) -> str:
    token = tokenlar.durdurma_tokeni(musteri_id=musteri_id, kapsam=kapsam)
    return settings.SITE_URL + reverse("eposta-durdur", kwargs={"token": token})


def _mutlak(url: str) -> str:
    return url if url.startswith(("http://", "https://")) else settings.SITE_URL + url


def _ticket_kapsami(ticket: Ticket) -> str:
    return f"ticket:{ticket.id}"


def _ticket_bul(ticket_id: int) -> Ticket | None:
    # Ids come from this server's own events, after commit; the row may be gone since.
    return Ticket.objects.select_related("musteri").filter(pk=ticket_id).first()


# --- the table of CONTRACT 14 --------------------------------------------------------------
def _alindi_izni(*, musteri_id: int, alici: str, tur: str = Tur.TICKET_ALINDI) -> bool:
    """Whether one more mail of kind `tur` that a visitor's request sends to an address it names
    ("ticket received", a chat transcript) may go to `alici`: EPOSTA_ALINDI_ALICI_LIMITI for this
    tenant, EPOSTA_ALINDI_PLATFORM_LIMITI over all tenants, each kind counted on its own. Anyone
    may name anyone's address (the widget's key is public; an inbound mail's From is whatever its
    sender wrote), so without a limit these mails relay a stranger's text to any inbox."""
    adres = adres_ozeti(alici)[:40]
    platform, musteri = (oran_coz(settings.EPOSTA_ALINDI_PLATFORM_LIMITI),
                         oran_coz(settings.EPOSTA_ALINDI_ALICI_LIMITI))
    platform_anahtari, musteri_anahtari = f"eposta:{tur}:{adres}", f"eposta:{tur}:{musteri_id}:{adres}"
    # Counted only when both allow it: a mail refused by one limit uses up neither (the tenant's
    # place is handed back when the platform's limit refuses).
    izin, _, fis = pencere_ayir(musteri_anahtari, musteri) if musteri else (True, 0.0, None)
    if not izin:
        return False
    if platform and not pencere_kontrol(platform_anahtari, platform)[0]:
        pencere_iade(fis)
        return False
    return True


def _uyelere_yaz(uyelikler, *, musteri: Musteri, tur: str, icerik_yap) -> list[GidenEposta]:
    """One mail per membership, each in its member's language (`kullanici_dili`); the content is
    the same for every member of one language (only the address differs), so it is built once
    per language, inside that language."""
    icerikler: dict[str, Icerik] = {}
    gonderilen = []
    for uyelik in uyelikler:
        dil = kullanici_dili(uyelik.kullanici)
        with dilde(dil):
            if dil not in icerikler:
                icerikler[dil] = icerik_yap()
            eposta = _eposta_yaz(musteri=musteri, tur=tur, alici=uyelik.kullanici.email, icerik=icerikler[dil])
        if eposta:
            gonderilen.append(eposta)
    return gonderilen


def ticket_alindi_gonder(*, ticket_id: int) -> GidenEposta | None:
    ticket = _ticket_bul(ticket_id)
    if ticket is None or not ticket.email:
        return None
    if not _alindi_izni(musteri_id=ticket.musteri_id, alici=ticket.email):
        logger.info("Ticket %s: alındı e-postası gönderilmedi, alıcının sınırı doldu.", ticket.id)
        return None
    konu, ad = baglantisiz(ticket.konu), baglantisiz(ticket.ad)
    with dilde(ticket.dil):
        icerik = Icerik(
            konu=_("[#%(id)s] Talebiniz alındı: %(konu)s") % {"id": ticket.id, "konu": konu},
            baslik=_("Talebiniz alındı (#%(id)s)") % {"id": ticket.id},
            paragraflar=[_("Merhaba %(ad)s,") % {"ad": ad} if ad else _("Merhaba,"),
                         _("\"%(konu)s\" konulu talebiniz #%(id)s numarasıyla kaydedildi. "
                           "Ekibimiz en kısa sürede yanıt verecek.") % {"konu": konu, "id": ticket.id},
                         _("Bu e-postayı yanıtlayarak talebinize ekleme yapabilirsiniz.")],
        )
        return _eposta_yaz(musteri=ticket.musteri, tur=Tur.TICKET_ALINDI, alici=ticket.email, icerik=icerik,
                           ticket=ticket, durdurma_kapsami=_ticket_kapsami(ticket))


def ticket_yaniti_gonder(*, yanit_id: int) -> GidenEposta | None:
    yanit = (TicketYanit.objects.select_related("ticket__musteri", "operator").prefetch_related("ekler")
             .gorunur().filter(pk=yanit_id, gonderen=TicketYanit.Gonderen.OPERATOR).first())
    if yanit is None or not yanit.ticket.email:
        return None
    ticket = yanit.ticket
    cozuldu = ticket.durum == Ticket.Durum.COZULDU and ticket.guncellenme == yanit.zaman
    with dilde(ticket.dil):
        # The operator's name may be shown; its address never (CONTRACT 14: no operator address to visitors).
        yazan = (yanit.operator.ad if yanit.operator and yanit.operator.ad else _("Destek ekibi"))
        icerik = Icerik(
            konu=_("[#%(id)s] Yanıt: %(konu)s") % {"id": ticket.id, "konu": baglantisiz(ticket.konu)},
            baslik=_("Talebinize yanıt verildi (#%(id)s)") % {"id": ticket.id},
            paragraflar=[_("%(ad)s yazdı:") % {"ad": yazan}] + ([str(COZULDU_NOTU)] if cozuldu else []),
            alinti=yanit.icerik.splitlines(),
            alinti_html=yanit_html(yanit.icerik),  # operator-written: its Markdown, links too
            baglantilar=[(d.ad, _mutlak(d.dosya.url)) for d in yanit.ekler.all()],
            dipnot=_("Bu e-postayı yanıtlayarak cevap verebilirsiniz."),
        )
        return _eposta_yaz(musteri=ticket.musteri, tur=Tur.TICKET_YANITI, alici=ticket.email, icerik=icerik,
                           ticket=ticket, durdurma_kapsami=_ticket_kapsami(ticket))


def ticket_cozuldu_gonder(*, ticket_id: int) -> GidenEposta | None:
    ticket = _ticket_bul(ticket_id)
    if ticket is None or not ticket.email:
        return None
    son = ticket.yanitlar.gorunur().filter(gonderen=TicketYanit.Gonderen.OPERATOR).order_by("-zaman", "-id").first()
    if son is not None and son.zaman == ticket.guncellenme:
        return None  # solved by a reply (`durum` with the reply): that reply's mail says so, one mail not two
    konu = baglantisiz(ticket.konu)
    with dilde(ticket.dil):
        icerik = Icerik(
            konu=_("[#%(id)s] Talebiniz çözüldü: %(konu)s") % {"id": ticket.id, "konu": konu},
            baslik=_("Talebiniz çözüldü (#%(id)s)") % {"id": ticket.id},
            paragraflar=[_("\"%(konu)s\" konulu talebiniz çözüldü olarak işaretlendi.") % {"konu": konu},
                         _("Sorun devam ediyorsa bu e-postayı yanıtlamanız yeterli: talebiniz yeniden açılır.")],
        )
        return _eposta_yaz(musteri=ticket.musteri, tur=Tur.TICKET_COZULDU, alici=ticket.email, icerik=icerik,
                           ticket=ticket, durdurma_kapsami=_ticket_kapsami(ticket))


def yeni_ticket_ekibe_gonder(*, ticket_id: int) -> list[GidenEposta]:
    """One mail per member of the ticket's tenant with alerts on (never another tenant's)."""
    ticket = _ticket_bul(ticket_id)
    if ticket is None:
        return []
    uyeler = (Uyelik.objects.filter(Uyelik.eposta_bildirimi_acik(), musteri_id=ticket.musteri_id,
                                    kullanici__is_active=True)
              .select_related("kullanici").order_by("id"))
    ilk = ticket.yanitlar.gorunur().order_by("zaman", "id").first()
    konu = baglantisiz(ticket.konu)
    kim = baglantisiz(ticket.ad or ticket.ziyaretci_id)

    def icerik_yap() -> Icerik:
        if ticket.kanal == Ticket.Kanal.EPOSTA:
            acti = _("%(ad)s e-posta üzerinden yeni bir destek talebi açtı.") % {"ad": kim}
        else:
            acti = _("%(ad)s widget üzerinden yeni bir destek talebi açtı.") % {"ad": kim}
        return Icerik(
            konu=_("[%(firma)s] Yeni talep #%(id)s: %(konu)s") % {
                "firma": ticket.musteri.firma_adi, "id": ticket.id, "konu": konu},
            baslik=_("Yeni talep #%(id)s") % {"id": ticket.id},
            paragraflar=[acti, _("Konu: %(konu)s") % {"konu": konu},
                         _("Öncelik: %(oncelik)s") % {"oncelik": ticket.get_oncelik_display()}],
            alinti=(baglantisiz(ilk.icerik).splitlines() if ilk else []),
            dugme=(str(PANEL_DUGMESI), f"{settings.SITE_URL}/panel/"),
            dipnot=str(BILDIRIM_DIPNOTU),
        )

    return _uyelere_yaz(uyeler, musteri=ticket.musteri, tur=Tur.YENI_TICKET, icerik_yap=icerik_yap)


SLA_HEDEF_ADLARI = {"ilk_yanit": pgettext_lazy("SLA hedefi", "ilk yanıt"),
                    "sonraki_yanit": pgettext_lazy("SLA hedefi", "sonraki yanıt"),
                    "cozum": pgettext_lazy("SLA hedefi", "çözüm")}


def sla_ihlal_ekibe_gonder(*, ticket_id: int, hedef: str) -> list[GidenEposta]:
    """CONTRACT 17: a ticket's target passed unmet: one mail per member of its tenant with e-mail
    alerts on (the same members as the "new ticket" mail)."""
    ticket = _ticket_bul(ticket_id)
    if ticket is None:
        return []
    uyeler = (Uyelik.objects.filter(Uyelik.eposta_bildirimi_acik(), musteri_id=ticket.musteri_id,
                                    kullanici__is_active=True)
              .select_related("kullanici").order_by("id"))
    konu = baglantisiz(ticket.konu)

    def icerik_yap() -> Icerik:
        hedef_adi = str(SLA_HEDEF_ADLARI.get(hedef, hedef))
        return Icerik(
            konu=_("[%(firma)s] SLA ihlali #%(id)s: %(konu)s") % {
                "firma": ticket.musteri.firma_adi, "id": ticket.id, "konu": konu},
            baslik=_("Talep #%(id)s: %(hedef)s hedefi aşıldı") % {"id": ticket.id, "hedef": hedef_adi},
            paragraflar=[_("\"%(konu)s\" konulu talebin %(hedef)s hedefinin süresi doldu ve hedef karşılanmadı.")
                         % {"konu": konu, "hedef": hedef_adi},
                         _("Öncelik: %(oncelik)s") % {"oncelik": ticket.get_oncelik_display()}],
            dugme=(str(PANEL_DUGMESI), f"{settings.SITE_URL}/panel/"),
            dipnot=str(BILDIRIM_DIPNOTU),
        )

    return _uyelere_yaz(uyeler, musteri=ticket.musteri, tur=Tur.SLA_IHLAL, icerik_yap=icerik_yap)


def bahsedilme_gonder(*, musteri_id: int, kullanici_idleri: list[int], yazan_id: int | None, icerik: str,
                      ticket_id: int | None = None, oturum_id: int | None = None) -> list[GidenEposta]:
    """A note mentioned these members (CONTRACT 16): one mail to each active member of that tenant
    with e-mail alerts on (the same per-membership switch as "new ticket"), never to the writer.
    The note is on chat `oturum_id` or on ticket `ticket_id`."""
    musteri = Musteri.objects.filter(pk=musteri_id).first()
    if musteri is None:
        return []
    uyeler = (Uyelik.objects.filter(Uyelik.eposta_bildirimi_acik(), musteri_id=musteri_id,
                                    kullanici_id__in=kullanici_idleri, kullanici__is_active=True)
              .select_related("kullanici").order_by("id"))
    if yazan_id is not None:
        uyeler = uyeler.exclude(kullanici_id=yazan_id)
    yazan = Kullanici.objects.filter(pk=yazan_id).first() if yazan_id else None

    def icerik_yap() -> Icerik:
        kim = ((yazan.ad or "").strip() or yazan.email) if yazan else _("Bir ekip arkadaşınız")
        if oturum_id is not None:
            nerede = _("sohbet #%(id)s") % {"id": oturum_id}
        else:
            nerede = _("talep #%(id)s") % {"id": ticket_id}
        return Icerik(
            konu=_("[%(firma)s] %(kim)s sizi bir notta andı (%(nerede)s)") % {
                "firma": musteri.firma_adi, "kim": tek_satir(kim), "nerede": nerede},
            baslik=_("Bir iç notta anıldınız"),
            paragraflar=[_("%(kim)s, %(nerede)s üzerindeki bir iç notta sizi andı:") % {"kim": kim, "nerede": nerede}],
            alinti=baglantisiz(icerik).splitlines(),
            dugme=(str(PANEL_DUGMESI), f"{settings.SITE_URL}/panel/"),
            dipnot=str(BILDIRIM_DIPNOTU),
        )

    return _uyelere_yaz(uyeler, musteri=musteri, tur=Tur.BAHSEDILME, icerik_yap=icerik_yap)


def oturum_dokumu_gonder(*, musteri: Musteri, ziyaretci_id: str, oturum_id, email=None) -> GidenEposta:
    """`POST /widget/chat/transcript`: the visitor's own closed chat, to the address it gives
    (else the one it gave at chat start), at most EPOSTA_DOKUM_SINIRI times per chat. Its
    refusals speak the request's language; the mail speaks the chat's."""
    oturum = ziyaretci_oturum_get(musteri=musteri, ziyaretci_id=ziyaretci_id, oturum_id=oturum_id)
    alici = email_dogrula(email) or oturum.email
    if not alici:
        raise GecersizIstek(alanlar={"email": _("Sohbette e-posta adresi yok; bir adres girin.")})
    if oturum.acik:
        raise DurumCakismasi(_("Döküm yalnızca kapanmış bir sohbet için gönderilir."))
    with transaction.atomic():
        # The chat row lock serialises two racing requests for the same chat's count.
        Oturum.objects.select_for_update().filter(pk=oturum.pk).first()
        sayi = GidenEposta.objects.filter(tur=Tur.SOHBET_DOKUMU, oturum_id=oturum.id).count()
        sinir = settings.EPOSTA_DOKUM_SINIRI
        if sayi >= sinir:
            raise LimitAsildi(ngettext("Bu sohbetin dökümü en çok %(sayi)s kez gönderilebilir.",
                                       "Bu sohbetin dökümü en çok %(sayi)s kez gönderilebilir.", sinir) % {"sayi": sinir},
                              retry_after=86400)
        if not _alindi_izni(musteri_id=musteri.id, alici=alici, tur=Tur.SOHBET_DOKUMU):
            raise LimitAsildi(str(ADRES_LIMITI_MESAJI), retry_after=3600)
        with dilde(oturum.dil):
            eposta = _eposta_yaz(musteri=musteri, tur=Tur.SOHBET_DOKUMU, alici=alici, icerik=_dokum_icerigi(oturum),
                                 oturum_id=oturum.id, durdurma_kapsami=f"oturum:{oturum.id}")
    if eposta is None:
        raise DurumCakismasi(_("Bu sohbetin e-postaları durduruldu."))
    return eposta


def _dokum_icerigi(oturum: Oturum) -> Icerik:
    """The transcript, in the active language (the chat's); times in UTC, as the mail says."""
    adlar = {Mesaj.Gonderen.ZIYARETCI: baglantisiz(oturum.ziyaretci_adi) or _("Siz"),
             Mesaj.Gonderen.OPERATOR: _("Temsilci"), Mesaj.Gonderen.SISTEM: _("Sistem")}
    satirlar = []
    # The visitor's transcript: never an internal note (CONTRACT 16).
    for mesaj in Mesaj.objects.gorunur().filter(oturum=oturum).select_related("ek").order_by("id")[:DOKUM_SATIR_MAX]:
        metin = mesaj.icerik
        if mesaj.ek_id and mesaj.ek:
            metin += " " + _("[Ek: %(ad)s]") % {"ad": mesaj.ek.ad}
        if mesaj.gonderen == Mesaj.Gonderen.ZIYARETCI:
            metin = baglantisiz(metin)
        # A rule's canned response is named as the visitor saw it (CONTRACT 23).
        kim = OTOMATIK_YANIT if mesaj.otomatik else adlar[mesaj.gonderen]
        satirlar.append(f"[{tarih_saat(mesaj.zaman)}] {kim}: {metin}")
    return Icerik(
        konu=_("Sohbet dökümünüz (%(tarih)s)") % {"tarih": tarih(oturum.baslangic)},
        baslik=_("Sohbet dökümünüz"),
        paragraflar=[_("%(firma)s ile %(zaman)s tarihinde başlayan sohbetinizin dökümü aşağıdadır (saatler UTC).")
                     % {"firma": oturum.musteri.firma_adi, "zaman": tarih_saat(oturum.baslangic)}],
        alinti=satirlar,
    )


def ziyaretci_orada_mi(oturum) -> bool:
    """Whether the visitor is still with its chat (CONTRACT 14): an open widget socket, a poll (or
    message) within EPOSTA_ZIYARETCI_AYRILDI_SANIYE, or a chat started within it. A socket makes
    polling rare, so its absence of polls says nothing while it is open."""
    esik = settings.EPOSTA_ZIYARETCI_AYRILDI_SANIYE
    if timezone.now() - oturum.baslangic < timedelta(seconds=esik):
        return True
    son = ziyaretci_son_gorulme(oturum_id=oturum.id)
    if son is not None and time.time() - son < esik:
        return True
    return bool(varlik.ziyaretci_soketi_acik(musteri_id=oturum.musteri_id, ziyaretci_id=oturum.ziyaretci_id))


def cevrimdisi_yanit_gonder(*, mesaj_id: int) -> GidenEposta | None:
    """An operator answered in a chat the visitor has left (`ziyaretci_orada_mi`): tell the
    visitor, at most once per chat per 10 minutes."""
    mesaj = Mesaj.objects.gorunur().select_related("oturum__musteri").filter(
        pk=mesaj_id, gonderen=Mesaj.Gonderen.OPERATOR).first()
    if mesaj is None or not mesaj.oturum.email:
        return None
    oturum = mesaj.oturum
    if ziyaretci_orada_mi(oturum):
        return None
    if GidenEposta.objects.filter(tur=Tur.CEVRIMDISI_YANIT, oturum_id=oturum.id,
                                  olusturulma__gte=mesaj.zaman - timedelta(seconds=CEVRIMDISI_ARALIK_SANIYE)).exists():
        return None
    with dilde(oturum.dil):
        icerik = Icerik(
            konu=_("%(firma)s: mesajınız yanıtlandı") % {"firma": oturum.musteri.firma_adi},
            baslik=_("Mesajınız yanıtlandı"),
            paragraflar=[_("Sohbetten ayrıldıktan sonra temsilcimiz yanıt verdi:")],
            alinti=mesaj.icerik.splitlines(),
            dipnot=_("Sohbete devam etmek için sitemizdeki destek penceresini açın."),
        )
        return _eposta_yaz(musteri=oturum.musteri, tur=Tur.CEVRIMDISI_YANIT, alici=oturum.email, icerik=icerik,
                           oturum_id=oturum.id, durdurma_kapsami=f"oturum:{oturum.id}")


# --- portal users: invitation, password reset ----------------------------------------------
def _etkin_dil() -> str:
    """The language a request (or task) runs in now, for a mail to someone whose own is unknown."""
    return dil_kodu(translation.get_language()) or VARSAYILAN


def davet_dili(davet) -> str:
    """An invitation's language (CONTRACT 19): the invitee's own choice when it is a user already,
    else the inviter's own, else the language the inviter's page speaks now (it sends the mail)."""
    davetli = Kullanici.objects.filter(email__iexact=davet.email).only("dil").first()
    return kullanici_dili(davetli, yedek=kullanici_dili(davet.davet_eden, yedek=_etkin_dil()))


def davet_eposta_gonder(*, davet, url: str) -> GidenEposta | None:
    """The invitation of CONTRACT 13 to its address; `url` is the absolute one-time link (its
    token is not kept in the database once the mail is sent: see gonderim.HASSAS_TURLER)."""
    musteri = davet.musteri
    with dilde(davet_dili(davet)):
        davet_eden = davet.davet_eden.email if davet.davet_eden else _("Proje sahibi")
        icerik = Icerik(
            konu=_("%(firma)s destek ekibine davet edildiniz") % {"firma": musteri.firma_adi},
            baslik=_("%(firma)s projesine davet") % {"firma": musteri.firma_adi},
            paragraflar=[_("%(kim)s sizi %(firma)s projesine %(rol)s olarak davet etti.") % {
                            "kim": davet_eden, "firma": musteri.firma_adi, "rol": davet.get_rol_display().lower()},
                         _("Daveti kabul etmek için aşağıdaki bağlantıyı açın. Bağlantı 7 gün geçerlidir ve bir kez "
                           "kullanılabilir.")],
            dugme=(_("Daveti kabul et"), url),
        )
        return _eposta_yaz(musteri=musteri, tur=Tur.DAVET, alici=davet.email, icerik=icerik)


def sifre_sifirlama_gonder(*, alici: str, konu: str, metin: str, url: str | None = None) -> GidenEposta | None:
    """Django's password reset mail (its rendered subject and text), through the outbox, in the
    active language (eposta.formlar renders it in the member's)."""
    icerik = Icerik(konu=konu, baslik=_("Şifre sıfırlama"), paragraflar=[metin.strip()],
                    dugme=(_("Yeni şifre belirle"), url) if url else None)
    return _eposta_yaz(musteri=None, tur=Tur.SIFRE_SIFIRLAMA, alici=alici, icerik=icerik)


def kayit_onay_gonder(*, alici: str, url: str, firma_adi: str, dil: str | None = None) -> GidenEposta | None:
    """A sign-up's confirmation link (portal.services.kayit_basvurusu_isle). The project name is
    the signer's text, mailed to an address it typed: never a link (`baglantisiz`). In `dil` (the
    sign-up page's), else the active language."""
    with dilde(dil_kodu(dil) or _etkin_dil()):
        icerik = Icerik(
            konu=_("SupportDesk hesabınızı etkinleştirin"),
            baslik=_("Hesabınızı etkinleştirin"),
            paragraflar=[_("“%(firma)s” projesiyle SupportDesk'e kaydolmak için aşağıdaki bağlantıyı açın. Hesabınız ve "
                           "14 günlük deneme projeniz bağlantıyı açtığınızda hazır olur.") % {
                             "firma": baglantisiz(firma_adi)},
                         _("Bağlantı 3 gün geçerlidir ve bir kez kullanılabilir. Bu kaydı siz yapmadıysanız bu "
                           "e-postayı yok sayın; hesap açılmaz.")],
            dugme=(_("Hesabımı etkinleştir"), url),
        )
        return _eposta_yaz(musteri=None, tur=Tur.KAYIT_ONAY, alici=alici, icerik=icerik)


def kayit_denendi_gonder(*, alici: str, giris_url: str, sifirlama_url: str, dil: str | None = None) -> GidenEposta | None:
    """A sign-up with an address that has an account: its holder is told, instead of the page
    telling whoever typed it. In the holder's own language; `dil` (the sign-up page's) when the
    holder chose none (or the account is gone meanwhile)."""
    sahibi = Kullanici.objects.filter(email__iexact=alici).first()
    with dilde(kullanici_dili(sahibi, yedek=dil_kodu(dil) or _etkin_dil())):
        icerik = Icerik(
            konu=_("SupportDesk: bu adresle zaten bir hesabınız var"),
            baslik=_("Bu adresle zaten bir hesabınız var"),
            paragraflar=[_("Biri (büyük olasılıkla siz) bu e-posta adresiyle yeni bir SupportDesk hesabı açmak istedi. "
                           "Bu adresle zaten bir hesabınız olduğu için yeni hesap açılmadı."),
                         _("Giriş yaptıktan sonra “Projelerim” sayfasından yeni bir proje açabilirsiniz."),
                         _("Şifrenizi hatırlamıyorsanız buradan yenileyin: %(url)s") % {"url": sifirlama_url},
                         _("Bu isteği siz yapmadıysanız bir şey yapmanız gerekmez; hesabınız değişmedi.")],
            dugme=(_("Giriş yap"), giris_url),
        )
        return _eposta_yaz(musteri=None, tur=Tur.KAYIT_MEVCUT, alici=alici, icerik=icerik)


# --- the stop link -------------------------------------------------------------------------
def eposta_durdur(*, token: str) -> EpostaDurdurma:
    """One click stops the mails of that ticket or chat; later and still-waiting ones are not sent."""
    cozulen = tokenlar.durdurma_coz(token)
    if cozulen is None:
        raise Bulunamadi()
    musteri_id, kapsam = cozulen
    musteri = Musteri.objects.filter(pk=musteri_id).first()
    if musteri is None:
        raise Bulunamadi()
    with transaction.atomic():
        durdurma, _ = EpostaDurdurma.objects.get_or_create(musteri=musteri, kapsam=kapsam)
        GidenEposta.objects.filter(musteri=musteri, durum=GidenEposta.Durum.BEKLIYOR,
                                   durdurma_kapsami=kapsam).update(
            durum=GidenEposta.Durum.DURDURULDU)
    return durdurma


# --- inbound: reply by e-mail and the tenant's own address ----------------------------------
YANIT_MAX = 20000
KONU_MAX = 200
SADECE_EK = gettext_lazy("(E-postayla ek gönderildi.)")  # stored as the text, in the ticket's language


def gelen_eposta_isle(*, ham: bytes) -> tuple[GelenEposta | None, bool]:
    """Store one inbound message: a visitor reply of the ticket its signed address names
    (reopening it per CONTRACT 4), or a new `eposta` ticket for the tenant's own address.
    Returns (row, created); the same Message-ID again for the same tenant returns the first row
    and stores nothing; an automatic message (an out-of-office reply, a bounce, bulk mail) is
    taken and ignored: (None, False). Unreadable: 400; no signed address of ours among the
    recipients, or what it names is gone: 404; an attachment over the upload limit: 413; of a
    type uploads refuse: 415. Every refusal stores nothing."""
    try:
        okunan = eposta_oku(ham)
    except OkunamayanEposta:
        raise GecersizIstek(_("E-posta okunamadı (gönderen, alıcı ya da başlıklar eksik).")) from None
    hedef = _hedef(okunan)
    if hedef is None:
        raise Bulunamadi()
    if okunan.otomatik:
        # Neither a visitor's reply (it would reopen a solved ticket, and our own "received" mail
        # would answer it) nor a new ticket; taken, so the mail server does not retry or bounce.
        logger.info("Otomatik e-posta yok sayıldı (%s): %s", okunan.otomatik, okunan.message_id)
        return None, False
    ticket, musteri = _hedefi_getir(hedef)
    onceki = GelenEposta.objects.filter(musteri=musteri, message_id=okunan.message_id).first()
    if onceki is not None:
        return onceki, False
    _ekleri_denetle(okunan)
    try:
        with transaction.atomic():
            if ticket is not None:
                kayit = _yanit_olarak_sakla(okunan, ticket=ticket, boyut=len(ham))
            else:
                kayit = _yeni_ticket_olarak_sakla(okunan, musteri=musteri, boyut=len(ham))
    except IntegrityError:
        # The same message, delivered twice at once: the other request stored it.
        onceki = GelenEposta.objects.filter(musteri=musteri, message_id=okunan.message_id).first()
        if onceki is None:
            raise
        return onceki, False
    return kayit, True


def _hedef(okunan: OkunanEposta) -> tuple[str, int] | None:
    """Which of our addresses this copy is for. One message To: one tenant's address and Cc:
    another's is delivered once per address, each copy with the address it was delivered to on
    top (Delivered-To, X-Original-To, Envelope-To): that address decides, so each tenant gets its
    own copy. A copy without one of our addresses there (a provider that posts the message as it
    was sent) goes by the first of ours in To and Cc."""
    for adresler in (okunan.teslim_alicilari, okunan.alicilar):
        hedef = next((c for c in map(tokenlar.adres_coz, adresler) if c is not None), None)
        if hedef is not None:
            return hedef
    return None


def _hedefi_getir(hedef: tuple[str, int]) -> tuple[Ticket | None, Musteri]:
    """(the ticket, its tenant) for a ticket's reply address; (None, the tenant) for a tenant's
    own address. Gone, or an inactive tenant's address: 404."""
    tur, kimlik = hedef
    if tur == "t":
        ticket = Ticket.objects.select_related("musteri").filter(pk=kimlik).first()
        if ticket is None:
            raise Bulunamadi()
        return ticket, ticket.musteri
    musteri = Musteri.objects.filter(pk=kimlik, aktif=True).first()
    if musteri is None:
        raise Bulunamadi()
    return None, musteri


def _ekleri_denetle(okunan: OkunanEposta) -> None:
    # Before anything is stored: the upload rules of CONTRACT 5, for every attachment.
    for ek in okunan.ekler:
        if len(ek.veri) > EN_BUYUK_BOYUT:
            raise DosyaCokBuyuk(_("\"%(ad)s\" eki 10 MB sınırını aşıyor; e-posta alınmadı.") % {"ad": ek.ad[:80]})
        if not ek.veri or mime_tipi_bul(ContentFile(ek.veri)) is None:
            raise DesteklenmeyenDosya(_("\"%(ad)s\" ekinin türü kabul edilmiyor; e-posta alınmadı.") % {"ad": ek.ad[:80]})


def _ekleri_sakla(okunan: OkunanEposta, *, musteri: Musteri, ziyaretci_id: str) -> list[int]:
    return [dosya_yukle(musteri=musteri, ziyaretci_id=ziyaretci_id, dosya=ContentFile(ek.veri, name=ek.ad),
                        ad=ek.ad).id for ek in okunan.ekler]


def _metin(okunan: OkunanEposta, *, dil: str) -> str:
    metin = okunan.metin[:YANIT_MAX].replace("\x00", "")
    if not metin.strip():
        if not okunan.ekler:
            raise GecersizIstek(_("E-postada metin ya da ek yok."))
        with dilde(dil):
            return str(SADECE_EK)
    return metin


def _yanit_olarak_sakla(okunan: OkunanEposta, *, ticket: Ticket, boyut: int) -> GelenEposta:
    metin = _metin(okunan, dil=ticket.dil)
    ek_idleri = _ekleri_sakla(okunan, musteri=ticket.musteri, ziyaretci_id=ticket.ziyaretci_id)
    yanit = ticket_ziyaretci_yanitla(ticket=ticket, icerik=metin, ek_idleri=ek_idleri)
    return GelenEposta.objects.create(
        musteri=ticket.musteri, message_id=okunan.message_id, gonderen=okunan.gonderen, konu=okunan.konu[:255],
        sonuc=GelenEposta.Sonuc.YANIT, ticket_id=ticket.id, yanit_id=yanit.id, metin=metin, boyut=boyut,
    )


def _yeni_ticket_olarak_sakla(okunan: OkunanEposta, *, musteri: Musteri, boyut: int) -> GelenEposta:
    # A ticket opened by mail speaks the tenant's widget language (`otomatik`: the default, as a
    # mail has no browser to ask): its receipt and replies are written in it (CONTRACT 19).
    dil = widget_dili(musteri)
    metin = _metin(okunan, dil=dil)
    # A sender by e-mail is a visitor named by its address (never a site's own visitor id).
    ziyaretci_id = f"{EPOSTA_ZIYARETCI_ONEKI}{okunan.gonderen}"[:ZIYARETCI_ID_MAX]
    try:
        validate_email(okunan.gonderen)
        email = okunan.gonderen
    except ValidationError:
        email = ""
    ek_idleri = _ekleri_sakla(okunan, musteri=musteri, ziyaretci_id=ziyaretci_id)
    ticket = ticket_olustur(
        musteri=musteri, ziyaretci_id=ziyaretci_id, konu=(okunan.konu or "(Konusuz)")[:KONU_MAX], mesaj=metin,
        ad=okunan.gonderen_adi[:150], email=email, ek_idleri=ek_idleri, kanal=Ticket.Kanal.EPOSTA,
    )
    if ticket.dil != dil:  # before the commit, so the "received" mail (after it) reads it
        Ticket.objects.filter(pk=ticket.pk).update(dil=dil)
        ticket.dil = dil
    return GelenEposta.objects.create(
        musteri=musteri, message_id=okunan.message_id, gonderen=okunan.gonderen, konu=okunan.konu[:255],
        sonuc=GelenEposta.Sonuc.YENI_TICKET, ticket_id=ticket.id, metin=metin, boyut=boyut,
    )

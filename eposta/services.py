"""Writes of the e-mail app: every mail of CONTRACT 14's table becomes a `GidenEposta` row
(to, subject, both parts, headers), and its sending task is queued once the row commits.

Who gets what is decided here and nowhere else: a visitor mail goes only to the address stored
on that visitor's own ticket or chat (or given with the transcript request of that visitor), and
names no operator address; team mails go only to members of the ticket's tenant.
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

from chat.models import Mesaj, Oturum
from chat.selectors import ziyaretci_oturum_get
from chat.son_gorulme import ziyaretci_son_gorulme
from dosyalar.services import dosya_yukle
from dosyalar.yukleme import EN_BUYUK_BOYUT, mime_tipi_bul
from supportdesk.core import kosucu
from supportdesk.core.exceptions import (
    Bulunamadi,
    DesteklenmeyenDosya,
    DosyaCokBuyuk,
    DurumCakismasi,
    GecersizIstek,
    LimitAsildi,
)
from supportdesk.core.girdi import EPOSTA_ZIYARETCI_ONEKI, ZIYARETCI_ID_MAX
from supportdesk.core.throttling import adres_ozeti, oran_coz, pencere_ayir, pencere_iade, pencere_kontrol
from tenants.models import Kullanici, Musteri, Uyelik
from tickets.bicim import yanit_html
from tickets.models import Ticket, TicketYanit
from tickets.services import ticket_olustur, ticket_ziyaretci_yanitla

from . import tasks, tokenlar
from .gelen import OkunamayanEposta, OkunanEposta, eposta_oku
from .icerik import Icerik, baglantisiz, html_olustur, metin_olustur, tek_satir
from .models import EpostaDurdurma, GelenEposta, GidenEposta

logger = logging.getLogger("supportdesk.eposta")
Tur = GidenEposta.Tur
DOKUM_SATIR_MAX = 2000
CEVRIMDISI_ARALIK_SANIYE = 600  # one "answered while you were away" mail per chat per 10 minutes
ADRES_LIMITI_MESAJI = "Bu adrese kısa sürede çok fazla e-posta gönderildi; bir süre sonra yeniden deneyin."
COZULDU_NOTU = "Talebiniz bu yanıtla çözüldü olarak işaretlendi; sorun sürerse bu e-postayı yanıtlayın."


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
    if durdurma_kapsami:
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


def ticket_alindi_gonder(*, ticket_id: int) -> GidenEposta | None:
    ticket = _ticket_bul(ticket_id)
    if ticket is None or not ticket.email:
        return None
    if not _alindi_izni(musteri_id=ticket.musteri_id, alici=ticket.email):
        logger.info("Ticket %s: alındı e-postası gönderilmedi, alıcının sınırı doldu.", ticket.id)
        return None
    konu, ad = baglantisiz(ticket.konu), baglantisiz(ticket.ad)
    icerik = Icerik(
        konu=f"[#{ticket.id}] Talebiniz alındı: {konu}",
        baslik=f"Talebiniz alındı (#{ticket.id})",
        paragraflar=[f"Merhaba{' ' + ad if ad else ''},",
                     f"\"{konu}\" konulu talebiniz #{ticket.id} numarasıyla kaydedildi. "
                     "Ekibimiz en kısa sürede yanıt verecek.",
                     "Bu e-postayı yanıtlayarak talebinize ekleme yapabilirsiniz."],
    )
    return _eposta_yaz(musteri=ticket.musteri, tur=Tur.TICKET_ALINDI, alici=ticket.email, icerik=icerik,
                       ticket=ticket, durdurma_kapsami=_ticket_kapsami(ticket))


def ticket_yaniti_gonder(*, yanit_id: int) -> GidenEposta | None:
    yanit = (TicketYanit.objects.select_related("ticket__musteri", "operator").prefetch_related("ekler")
             .filter(pk=yanit_id, gonderen=TicketYanit.Gonderen.OPERATOR, ozel=False).first())
    if yanit is None or not yanit.ticket.email:
        return None
    ticket = yanit.ticket
    # The operator's name may be shown; its address never (CONTRACT 14: no operator address to visitors).
    yazan = (yanit.operator.ad if yanit.operator and yanit.operator.ad else "Destek ekibi")
    cozuldu = ticket.durum == Ticket.Durum.COZULDU and ticket.guncellenme == yanit.zaman
    icerik = Icerik(
        konu=f"[#{ticket.id}] Yanıt: {baglantisiz(ticket.konu)}",
        baslik=f"Talebinize yanıt verildi (#{ticket.id})",
        paragraflar=[f"{yazan} yazdı:"] + ([COZULDU_NOTU] if cozuldu else []),
        alinti=yanit.icerik.splitlines(),
        alinti_html=yanit_html(yanit.icerik),  # operator-written: its Markdown, links too
        baglantilar=[(d.ad, _mutlak(d.dosya.url)) for d in yanit.ekler.all()],
        dipnot="Bu e-postayı yanıtlayarak cevap verebilirsiniz.",
    )
    return _eposta_yaz(musteri=ticket.musteri, tur=Tur.TICKET_YANITI, alici=ticket.email, icerik=icerik,
                       ticket=ticket, durdurma_kapsami=_ticket_kapsami(ticket))


def ticket_cozuldu_gonder(*, ticket_id: int) -> GidenEposta | None:
    ticket = _ticket_bul(ticket_id)
    if ticket is None or not ticket.email:
        return None
    son = ticket.yanitlar.filter(gonderen=TicketYanit.Gonderen.OPERATOR, ozel=False).order_by("-zaman", "-id").first()
    if son is not None and son.zaman == ticket.guncellenme:
        return None  # solved by a reply (`durum` with the reply): that reply's mail says so, one mail not two
    konu = baglantisiz(ticket.konu)
    icerik = Icerik(
        konu=f"[#{ticket.id}] Talebiniz çözüldü: {konu}",
        baslik=f"Talebiniz çözüldü (#{ticket.id})",
        paragraflar=[f"\"{konu}\" konulu talebiniz çözüldü olarak işaretlendi.",
                     "Sorun devam ediyorsa bu e-postayı yanıtlamanız yeterli: talebiniz yeniden açılır."],
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
    ilk = ticket.yanitlar.filter(ozel=False).order_by("zaman", "id").first()
    kanal = "e-posta" if ticket.kanal == Ticket.Kanal.EPOSTA else "widget"
    # The same mail for every member (only the address differs): written once.
    konu = baglantisiz(ticket.konu)
    icerik = Icerik(
        konu=f"[{ticket.musteri.firma_adi}] Yeni talep #{ticket.id}: {konu}",
        baslik=f"Yeni talep #{ticket.id}",
        paragraflar=[f"{baglantisiz(ticket.ad or ticket.ziyaretci_id)} {kanal} üzerinden yeni bir destek talebi açtı.",
                     f"Konu: {konu}", f"Öncelik: {ticket.get_oncelik_display()}"],
        alinti=(baglantisiz(ilk.icerik).splitlines() if ilk else []),
        dugme=("Operatör panelinde aç", f"{settings.SITE_URL}/panel/"),
        dipnot="Bu bildirimleri proje ayarlarınızdan (portal) kapatabilirsiniz.",
    )
    gonderilen = []
    for uyelik in uyeler:
        eposta = _eposta_yaz(musteri=ticket.musteri, tur=Tur.YENI_TICKET, alici=uyelik.kullanici.email,
                             icerik=icerik)
        if eposta:
            gonderilen.append(eposta)
    return gonderilen


def bahsedilme_gonder(*, musteri_id: int, kullanici_idleri: list[int], yazan_id: int | None, icerik: str,
                      nerede: str) -> list[GidenEposta]:
    """A note mentioned these members (CONTRACT 16): one mail to each active member of that tenant
    with e-mail alerts on (the same per-membership switch as "new ticket"), never to the writer."""
    musteri = Musteri.objects.filter(pk=musteri_id).first()
    if musteri is None:
        return []
    uyeler = (Uyelik.objects.filter(Uyelik.eposta_bildirimi_acik(), musteri_id=musteri_id,
                                    kullanici_id__in=kullanici_idleri, kullanici__is_active=True)
              .exclude(kullanici_id=yazan_id).select_related("kullanici").order_by("id"))
    yazan = Kullanici.objects.filter(pk=yazan_id).first() if yazan_id else None
    kim = ((yazan.ad or "").strip() or yazan.email) if yazan else "Bir ekip arkadaşınız"
    icerik_ = Icerik(
        konu=f"[{musteri.firma_adi}] {tek_satir(kim)} sizi bir notta andı ({nerede})",
        baslik="Bir iç notta anıldınız",
        paragraflar=[f"{kim}, {nerede} üzerindeki bir iç notta sizi andı:"],
        alinti=baglantisiz(icerik).splitlines(),
        dugme=("Operatör panelinde aç", f"{settings.SITE_URL}/panel/"),
        dipnot="Bu bildirimleri proje ayarlarınızdan (portal) kapatabilirsiniz.",
    )
    gonderilen = []
    for uyelik in uyeler:
        eposta = _eposta_yaz(musteri=musteri, tur=Tur.BAHSEDILME, alici=uyelik.kullanici.email, icerik=icerik_)
        if eposta:
            gonderilen.append(eposta)
    return gonderilen


def sohbet_dokumu_gonder(*, musteri: Musteri, ziyaretci_id: str, oturum_id, email=None) -> GidenEposta:
    """`POST /widget/chat/transcript`: the visitor's own closed chat, to the address it gives
    (else the one it gave at chat start), at most EPOSTA_DOKUM_SINIRI times per chat."""
    oturum = ziyaretci_oturum_get(musteri=musteri, ziyaretci_id=ziyaretci_id, oturum_id=oturum_id)
    alici = _email_dogrula(email) or oturum.email
    if not alici:
        raise GecersizIstek(alanlar={"email": "Sohbette e-posta adresi yok; bir adres girin."})
    if oturum.acik:
        raise DurumCakismasi("Döküm yalnızca kapanmış bir sohbet için gönderilir.")
    with transaction.atomic():
        # The chat row lock serialises two racing requests for the same chat's count.
        Oturum.objects.select_for_update().filter(pk=oturum.pk).first()
        sayi = GidenEposta.objects.filter(tur=Tur.SOHBET_DOKUMU, oturum_id=oturum.id).count()
        if sayi >= settings.EPOSTA_DOKUM_SINIRI:
            raise LimitAsildi(f"Bu sohbetin dökümü en çok {settings.EPOSTA_DOKUM_SINIRI} kez gönderilebilir.",
                              retry_after=86400)
        if not _alindi_izni(musteri_id=musteri.id, alici=alici, tur=Tur.SOHBET_DOKUMU):
            raise LimitAsildi(ADRES_LIMITI_MESAJI, retry_after=3600)
        eposta = _eposta_yaz(musteri=musteri, tur=Tur.SOHBET_DOKUMU, alici=alici, icerik=_dokum_icerigi(oturum),
                             oturum_id=oturum.id, durdurma_kapsami=f"oturum:{oturum.id}")
    if eposta is None:
        raise DurumCakismasi("Bu sohbetin e-postaları durduruldu.")
    return eposta


def _email_dogrula(email) -> str:
    if email in (None, ""):
        return ""
    if not isinstance(email, str) or len(email) > 254:
        raise GecersizIstek(alanlar={"email": "Geçerli bir e-posta adresi girin."})
    try:
        validate_email(email.strip())
    except ValidationError:
        raise GecersizIstek(alanlar={"email": "Geçerli bir e-posta adresi girin."}) from None
    return email.strip()


def _dokum_icerigi(oturum: Oturum) -> Icerik:
    adlar = {Mesaj.Gonderen.ZIYARETCI: baglantisiz(oturum.ziyaretci_adi) or "Siz", Mesaj.Gonderen.OPERATOR: "Temsilci",
             Mesaj.Gonderen.SISTEM: "Sistem"}
    satirlar = []
    # The visitor's transcript: never an internal note (CONTRACT 16).
    for mesaj in Mesaj.objects.filter(oturum=oturum, ozel=False).select_related("ek").order_by("id")[:DOKUM_SATIR_MAX]:
        metin = mesaj.icerik + (f" [Ek: {mesaj.ek.ad}]" if mesaj.ek_id and mesaj.ek else "")
        if mesaj.gonderen == Mesaj.Gonderen.ZIYARETCI:
            metin = baglantisiz(metin)
        satirlar.append(f"[{mesaj.zaman:%d.%m.%Y %H:%M}] {adlar[mesaj.gonderen]}: {metin}")
    return Icerik(
        konu=f"Sohbet dökümünüz ({oturum.baslangic:%d.%m.%Y})",
        baslik="Sohbet dökümünüz",
        paragraflar=[f"{oturum.musteri.firma_adi} ile {oturum.baslangic:%d.%m.%Y %H:%M} tarihinde başlayan "
                     "sohbetinizin dökümü aşağıdadır (saatler UTC)."],
        alinti=satirlar,
    )


def cevrimdisi_yanit_gonder(*, mesaj_id: int) -> GidenEposta | None:
    """An operator answered in a chat the visitor has left (no poll for
    EPOSTA_ZIYARETCI_AYRILDI_SANIYE): tell the visitor, at most once per chat per 10 minutes."""
    mesaj = Mesaj.objects.select_related("oturum__musteri").filter(
        pk=mesaj_id, gonderen=Mesaj.Gonderen.OPERATOR, ozel=False).first()
    if mesaj is None or not mesaj.oturum.email:
        return None
    oturum = mesaj.oturum
    son = ziyaretci_son_gorulme(oturum_id=oturum.id)
    if son is not None and time.time() - son < settings.EPOSTA_ZIYARETCI_AYRILDI_SANIYE:
        return None
    if GidenEposta.objects.filter(tur=Tur.CEVRIMDISI_YANIT, oturum_id=oturum.id,
                                  olusturulma__gte=mesaj.zaman - timedelta(seconds=CEVRIMDISI_ARALIK_SANIYE)).exists():
        return None
    icerik = Icerik(
        konu=f"{oturum.musteri.firma_adi}: mesajınız yanıtlandı",
        baslik="Mesajınız yanıtlandı",
        paragraflar=["Sohbetten ayrıldıktan sonra temsilcimiz yanıt verdi:"],
        alinti=mesaj.icerik.splitlines(),
        dipnot="Sohbete devam etmek için sitemizdeki destek penceresini açın.",
    )
    return _eposta_yaz(musteri=oturum.musteri, tur=Tur.CEVRIMDISI_YANIT, alici=oturum.email, icerik=icerik,
                       oturum_id=oturum.id, durdurma_kapsami=f"oturum:{oturum.id}")


# --- portal users: invitation, password reset ----------------------------------------------
def davet_eposta_gonder(*, davet, url: str) -> GidenEposta | None:
    """The invitation of CONTRACT 13 to its address; `url` is the absolute one-time link (its
    token is not kept in the database once the mail is sent: see gonderim.HASSAS_TURLER)."""
    musteri = davet.musteri
    davet_eden = davet.davet_eden.email if davet.davet_eden else "Proje sahibi"
    icerik = Icerik(
        konu=f"{musteri.firma_adi} destek ekibine davet edildiniz",
        baslik=f"{musteri.firma_adi} projesine davet",
        paragraflar=[f"{davet_eden} sizi {musteri.firma_adi} projesine {davet.get_rol_display().lower()} olarak davet etti.",
                     "Daveti kabul etmek için aşağıdaki bağlantıyı açın. Bağlantı 7 gün geçerlidir ve bir kez "
                     "kullanılabilir."],
        dugme=("Daveti kabul et", url),
    )
    return _eposta_yaz(musteri=musteri, tur=Tur.DAVET, alici=davet.email, icerik=icerik)


def sifre_sifirlama_gonder(*, alici: str, konu: str, metin: str, url: str | None = None) -> GidenEposta | None:
    """Django's password reset mail (its rendered subject and text), through the outbox."""
    icerik = Icerik(konu=konu, baslik="Şifre sıfırlama", paragraflar=[metin.strip()],
                    dugme=("Yeni şifre belirle", url) if url else None)
    return _eposta_yaz(musteri=None, tur=Tur.SIFRE_SIFIRLAMA, alici=alici, icerik=icerik)


def kayit_onay_gonder(*, alici: str, url: str, firma_adi: str) -> GidenEposta | None:
    """A sign-up's confirmation link (portal.services.kayit_basvurusu_isle). The project name is
    the signer's text, mailed to an address it typed: never a link (`baglantisiz`)."""
    icerik = Icerik(
        konu="SupportDesk hesabınızı etkinleştirin",
        baslik="Hesabınızı etkinleştirin",
        paragraflar=[f"“{baglantisiz(firma_adi)}” projesiyle SupportDesk'e kaydolmak için aşağıdaki bağlantıyı "
                     "açın. Hesabınız ve 14 günlük deneme projeniz bağlantıyı açtığınızda hazır olur.",
                     "Bağlantı 3 gün geçerlidir ve bir kez kullanılabilir. Bu kaydı siz yapmadıysanız bu e-postayı "
                     "yok sayın; hesap açılmaz."],
        dugme=("Hesabımı etkinleştir", url),
    )
    return _eposta_yaz(musteri=None, tur=Tur.KAYIT_ONAY, alici=alici, icerik=icerik)


def kayit_denendi_gonder(*, alici: str, giris_url: str, sifirlama_url: str) -> GidenEposta | None:
    """A sign-up with an address that has an account: its holder is told, instead of the page
    telling whoever typed it."""
    icerik = Icerik(
        konu="SupportDesk: bu adresle zaten bir hesabınız var",
        baslik="Bu adresle zaten bir hesabınız var",
        paragraflar=["Biri (büyük olasılıkla siz) bu e-posta adresiyle yeni bir SupportDesk hesabı açmak istedi. "
                     "Bu adresle zaten bir hesabınız olduğu için yeni hesap açılmadı.",
                     "Giriş yaptıktan sonra “Projelerim” sayfasından yeni bir proje açabilirsiniz.",
                     f"Şifrenizi hatırlamıyorsanız buradan yenileyin: {sifirlama_url}",
                     "Bu isteği siz yapmadıysanız bir şey yapmanız gerekmez; hesabınız değişmedi."],
        dugme=("Giriş yap", giris_url),
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
SADECE_EK = "(E-postayla ek gönderildi.)"


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
        raise GecersizIstek("E-posta okunamadı (gönderen, alıcı ya da başlıklar eksik).") from None
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
            raise DosyaCokBuyuk(f"\"{ek.ad[:80]}\" eki 10 MB sınırını aşıyor; e-posta alınmadı.")
        if not ek.veri or mime_tipi_bul(ContentFile(ek.veri)) is None:
            raise DesteklenmeyenDosya(f"\"{ek.ad[:80]}\" ekinin türü kabul edilmiyor; e-posta alınmadı.")


def _ekleri_sakla(okunan: OkunanEposta, *, musteri: Musteri, ziyaretci_id: str) -> list[int]:
    return [dosya_yukle(musteri=musteri, ziyaretci_id=ziyaretci_id, dosya=ContentFile(ek.veri, name=ek.ad),
                        ad=ek.ad).id for ek in okunan.ekler]


def _metin(okunan: OkunanEposta) -> str:
    metin = okunan.metin[:YANIT_MAX].replace("\x00", "")
    if not metin.strip():
        if not okunan.ekler:
            raise GecersizIstek("E-postada metin ya da ek yok.")
        return SADECE_EK
    return metin


def _yanit_olarak_sakla(okunan: OkunanEposta, *, ticket: Ticket, boyut: int) -> GelenEposta:
    metin = _metin(okunan)
    ek_idleri = _ekleri_sakla(okunan, musteri=ticket.musteri, ziyaretci_id=ticket.ziyaretci_id)
    yanit = ticket_ziyaretci_yanitla(ticket=ticket, icerik=metin, ek_idleri=ek_idleri)
    return GelenEposta.objects.create(
        musteri=ticket.musteri, message_id=okunan.message_id, gonderen=okunan.gonderen, konu=okunan.konu[:255],
        sonuc=GelenEposta.Sonuc.YANIT, ticket_id=ticket.id, yanit_id=yanit.id, metin=metin, boyut=boyut,
    )


def _yeni_ticket_olarak_sakla(okunan: OkunanEposta, *, musteri: Musteri, boyut: int) -> GelenEposta:
    metin = _metin(okunan)
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
    return GelenEposta.objects.create(
        musteri=musteri, message_id=okunan.message_id, gonderen=okunan.gonderen, konu=okunan.konu[:255],
        sonuc=GelenEposta.Sonuc.YENI_TICKET, ticket_id=ticket.id, metin=metin, boyut=boyut,
    )

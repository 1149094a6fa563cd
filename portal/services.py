"""Writes of the portal: sign-up, self-service projects, the active project, widget settings.

The tenant itself is created by `tenants.services.musteri_olustur`, the one way a tenant comes
to exist; the portal adds the self-service rules around it (spec 4.6, 8).
"""
import secrets
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from eposta import services as eposta_services
from eposta.formlar import SifreSifirlamaFormu
from supportdesk.core import dil as diller
from supportdesk.core.exceptions import Bulunamadi, DurumCakismasi, LimitAsildi
from tenants.ekip import token_ozeti
from tenants.models import Kullanici, Musteri, Uyelik
from tenants.selectors import uyelik_get
from tenants.services import kullanici_olustur, musteri_olustur

from .models import BekleyenKayit, SelfServisProje
from .selectors import GUNLUK_PROJE_LIMITI, PROJE_PENCERESI, son_projeler

TRIAL_GUN = 14  # spec 4.6.4 and 8
KAYIT_GECERLILIK = timedelta(days=3)  # a sign-up's confirmation link
GECERSIZ_KAYIT_MESAJI = _("Bu kayıt bağlantısı geçersiz, süresi dolmuş ya da daha önce kullanılmış. Yeniden kaydolun.")
HESAP_ACIK_MESAJI = _("Bu e-posta adresiyle bir hesap zaten açık. Giriş yapın.")
SIFRE_SABLON = "portal/sifre_sifirlama/"
PROJE_LIMITI_MESAJI = _("24 saat içinde en çok 3 yeni proje oluşturabilirsiniz. Lütfen daha sonra tekrar deneyin.")


@transaction.atomic
def proje_olustur(*, kullanici: Kullanici, firma_adi: str, dil: str | None = None) -> Musteri:
    """A self-service project with a 14-day trial; the owner membership comes in the same transaction.
    `dil`: the creator's language as its page speaks it (its own choice, else its browser's): the
    new project's widget language."""
    # Two tabs submitting at once must not both see "2 so far": lock the user's row, so the count
    # and the insert of one request finish before the other request counts.
    Kullanici.objects.select_for_update().filter(pk=kullanici.pk).first()
    zamanlar = list(son_projeler(kullanici=kullanici).order_by("olusturulma").values_list("olusturulma", flat=True))
    if len(zamanlar) >= GUNLUK_PROJE_LIMITI:
        bekle = zamanlar[0] + PROJE_PENCERESI - timezone.now()
        raise LimitAsildi(PROJE_LIMITI_MESAJI, retry_after=max(bekle, timedelta(seconds=1)).total_seconds())
    musteri = musteri_olustur(firma_adi=firma_adi, sahip=kullanici, trial_gun=TRIAL_GUN,
                              dil=diller.kullanici_dili(kullanici, dil))
    SelfServisProje.objects.create(kullanici=kullanici, musteri=musteri, olusturulma=musteri.olusturulma)
    return musteri


@transaction.atomic
def kayit_ol(*, email: str, sifre_ozeti: str, firma_adi: str, ad: str = "", dil: str = "") -> tuple[Kullanici, Musteri]:
    """Sign-up: the user (with the password hashed when the form was sent) and a first project
    (same trial, owner link), or neither.

    The first project is part of the account, not one of the "3 new projects per 24 hours"
    (spec 8) that `POST /portal/projelerim` counts: a new owner may still open three more.
    Account farming is what the sign-up rate limit per IP is for. `dil` is the language the
    browser asked for when signing up (CONTRACT 19; "" when none we speak).
    """
    kullanici = kullanici_olustur(email=email.strip().lower(), sifre=None, ad=ad)
    kullanici.password = sifre_ozeti
    kullanici.dil = diller.dil_kodu(dil) or ""
    kullanici.save(update_fields=["password", "dil"])
    musteri = musteri_olustur(firma_adi=firma_adi, sahip=kullanici, trial_gun=TRIAL_GUN)
    return kullanici, musteri


def kayit_basvurusu_isle(*, email: str, sifre_ozeti: str, firma_adi: str, ad: str, kok: str, dil: str = "") -> None:
    """The sign-up form's work, in the background (the page answers the same either way, so it
    never tells whether an address has an account, not even by how long it takes): a new address
    gets its confirmation link; an address with an account gets a note to log in or reset.
    `dil`: the sign-up page's language; the account holder's own for an existing account."""
    email = email.strip().lower()
    dil = diller.dil_kodu(dil) or ""
    if Kullanici.objects.filter(email=email).exists():
        eposta_services.kayit_denendi_gonder(alici=email, giris_url=kok + reverse("portal:giris"),
                                             sifirlama_url=kok + reverse("portal:sifremi_unuttum"), dil=dil)
        return
    token = secrets.token_urlsafe(32)
    with transaction.atomic():
        BekleyenKayit.objects.filter(olusturulma__lt=timezone.now() - KAYIT_GECERLILIK).delete()
        BekleyenKayit.objects.create(email=email, sifre=sifre_ozeti, firma_adi=firma_adi, ad=ad, dil=dil,
                                     token_ozeti=token_ozeti(token))
        eposta_services.kayit_onay_gonder(alici=email, firma_adi=firma_adi, dil=dil,
                                          url=kok + reverse("portal:kayit_onay", kwargs={"token": token}))


def bekleyen_kayit_bul(*, token: str, kilitle: bool = False) -> BekleyenKayit:
    """The sign-up a confirmation link names; unknown, expired and used links are all 404. With
    `kilitle` (inside a transaction) its row is locked: a double click opens one account."""
    satirlar = BekleyenKayit.objects.select_for_update() if kilitle else BekleyenKayit.objects
    bekleyen = satirlar.filter(token_ozeti=token_ozeti(token),
                               olusturulma__gte=timezone.now() - KAYIT_GECERLILIK).first()
    if bekleyen is None:
        raise Bulunamadi(GECERSIZ_KAYIT_MESAJI)
    return bekleyen


def kayit_onayla(*, token: str) -> tuple[Kullanici, Musteri]:
    """Open the account a confirmation link names, once. Every pending sign-up of that address
    goes with it, also when the address got an account meanwhile (then `DurumCakismasi`)."""
    try:
        with transaction.atomic():
            bekleyen = bekleyen_kayit_bul(token=token, kilitle=True)  # a second click finds it gone
            BekleyenKayit.objects.filter(email=bekleyen.email).delete()
            if not Kullanici.objects.filter(email=bekleyen.email).exists():
                return kayit_ol(email=bekleyen.email, sifre_ozeti=bekleyen.sifre, firma_adi=bekleyen.firma_adi,
                                ad=bekleyen.ad, dil=bekleyen.dil)
    except IntegrityError:  # two links of one address opened at once: the other one opened it
        raise DurumCakismasi(HESAP_ACIK_MESAJI) from None
    raise DurumCakismasi(HESAP_ACIK_MESAJI)  # after the commit: its pending sign-ups are gone


def sifre_sifirlama_isle(*, email: str, alan: str, https: bool, dil: str = "") -> None:
    """The "şifremi unuttum" form's work, in the background (the page answers the same either
    way): Django's reset mail to each active account of that address, none when there is none.
    `dil` is the language of the page that asked, for members who never chose one (the form
    writes each mail in its member's own language, else the active one: CONTRACT 19)."""
    form = SifreSifirlamaFormu(data={"email": email})
    if form.is_valid():
        with diller.dilde(dil):
            form.save(domain_override=alan, use_https=https, subject_template_name=SIFRE_SABLON + "konu.txt",
                      email_template_name=SIFRE_SABLON + "eposta.txt",
                      html_email_template_name=SIFRE_SABLON + "eposta.html")


def dil_tarayicidan_ogren(*, kullanici: Kullanici, request) -> None:
    """CONTRACT 19: a member who never chose a language gets the browser's supported one (at the
    first login), so mails sent outside a request speak it too; no supported one leaves it ""."""
    if not kullanici.dil and (kod := diller.tarayici_dili(request)):
        Kullanici.objects.filter(pk=kullanici.pk, dil="").update(dil=kod)
        kullanici.dil = kod


@transaction.atomic
def aktif_proje_sec(*, kullanici: Kullanici, musteri_id: int) -> Uyelik:
    """Spec 4.6.3: the portal's active tenant and the user's `musteri_id` move together.

    Raises `Bulunamadi` for a tenant the user is not (or no longer) a member of; the caller
    stores the id in the session only after this succeeded.
    """
    uyelik = uyelik_get(kullanici=kullanici, musteri_id=musteri_id)
    if kullanici.musteri_id != uyelik.musteri_id:
        Kullanici.objects.filter(pk=kullanici.pk).update(musteri_id=uyelik.musteri_id)
        kullanici.musteri_id = uyelik.musteri_id
    return uyelik


@transaction.atomic
def musteri_kimlik_dogrulama_ayarla(*, musteri: Musteri, zorunlu: bool) -> Musteri:
    """Switch `kimlik_dogrulama_zorunlu` (CONTRACT 6): unsigned customer-info is then refused."""
    if musteri.kimlik_dogrulama_zorunlu != zorunlu:
        musteri.kimlik_dogrulama_zorunlu = zorunlu
        musteri.save(update_fields=["kimlik_dogrulama_zorunlu"])
    return musteri

"""Writes and reads of a project's team (CONTRACT 13): invitations, roles, removal.

The portal, and later the e-mail issue's invitation mail, call these; the rule "a project always
keeps at least one `sahip`" lives here and nowhere else. Every change of roles or members locks
the tenant's row first, so two owners demoting each other at once cannot both succeed.

Memberships are read per request by `selectors.uyelik_list` (API tokens and portal sessions
alike; nothing caches them), so a change takes effect on the caller's next request.
"""
import hashlib
import secrets
from datetime import timedelta

from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from supportdesk.core.exceptions import Bulunamadi, DurumCakismasi, GecersizIstek, Yetkisiz
from supportdesk.core.girdi import gecerli_id_mi

from .models import Davet, Kullanici, Musteri, Uyelik
from .services import kullanici_olustur, uyelik_ekle

DAVET_SURESI = timedelta(days=7)
MAX_CHAT_UST = 1000
SAHIP_YETKISI_MESAJI = gettext_lazy("Sahip rolünü yalnızca proje sahipleri verebilir, değiştirebilir ya da kaldırabilir.")
SON_SAHIP_MESAJI = gettext_lazy("Projenin en az bir sahibi kalmalı: son sahip çıkarılamaz ya da rolü düşürülemez.")
GECERSIZ_DAVET_MESAJI = gettext_lazy("Bu davet bağlantısı geçersiz, süresi dolmuş ya da daha önce kullanılmış.")
ZATEN_UYE_MESAJI = gettext_lazy("Bu e-posta adresi zaten projenin üyesi.")


def token_ozeti(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _rol(rol) -> str:
    if rol not in Uyelik.Rol.values:
        raise GecersizIstek(alanlar={"rol": _("Geçerli değerler: %(degerler)s.") % {"degerler": ", ".join(Uyelik.Rol.values)}})
    return rol


def _sahip_yetkisi(yapan: Uyelik | None, *roller: str) -> None:
    """A `yonetici` manages operators and admins; owners are made, changed and removed by owners."""
    if yapan is not None and yapan.rol != Uyelik.Rol.SAHIP and Uyelik.Rol.SAHIP in roller:
        raise Yetkisiz(SAHIP_YETKISI_MESAJI, alanlar={"rol": SAHIP_YETKISI_MESAJI})


def _max_chat(deger) -> int | None:
    if deger is None:
        return None
    if isinstance(deger, bool) or not isinstance(deger, int) or not 1 <= deger <= MAX_CHAT_UST:
        mesaj = _("1 ile %(ust)s arasında bir tam sayı olmalı (boş: sınırsız).") % {"ust": MAX_CHAT_UST}
        raise GecersizIstek(alanlar={"max_chat_per_tenant": mesaj})
    return deger


@transaction.atomic
def davet_olustur(
    *, musteri: Musteri, email: str, rol: str = Uyelik.Rol.OPERATOR, davet_eden: Kullanici | None = None,
    max_chat_per_tenant: int | None = None, yapan: Uyelik | None = None,
) -> Davet:
    """A one-time invitation link, valid 7 days. The returned `Davet` carries the raw `token` and
    `url` (the site-relative path of the acceptance page) on this instance only: the database keeps
    the token's hash. The e-mail issue sends `url` to `email`; the portal shows it to the inviter.

    An earlier, still-open invitation of the same address to the same project is withdrawn, so only
    the newest link works.
    """
    email = (email or "").strip().lower()
    if not email or "@" not in email or len(email) > 254:
        raise GecersizIstek(alanlar={"email": _("Geçerli bir e-posta adresi girin.")})
    rol, max_chat_per_tenant = _rol(rol), _max_chat(max_chat_per_tenant)
    _sahip_yetkisi(yapan, rol)
    if Uyelik.objects.filter(musteri=musteri, kullanici__email=email).exists():
        raise GecersizIstek(alanlar={"email": ZATEN_UYE_MESAJI})
    simdi = timezone.now()
    Davet.objects.filter(musteri=musteri, email=email, kabul_zamani__isnull=True, son_gecerlilik__gt=simdi).update(
        son_gecerlilik=simdi)
    token = secrets.token_urlsafe(32)
    davet = Davet.objects.create(
        musteri=musteri, email=email, rol=rol, max_chat_per_tenant=max_chat_per_tenant, davet_eden=davet_eden,
        token_ozeti=token_ozeti(token), olusturulma=simdi, son_gecerlilik=simdi + DAVET_SURESI,
    )
    davet.token = token
    davet.url = davet_yolu(token)
    return davet


def davet_yolu(token: str) -> str:
    # By URL name: the acceptance page is the portal's, the rule of what a link is stays here.
    return reverse("portal:davet_kabul", kwargs={"token": token})


def davet_bul(*, token: str) -> Davet:
    """The open invitation of `token`; one 404 for unknown, expired and used (nothing leaked)."""
    if not token or len(token) > 100:
        raise Bulunamadi(GECERSIZ_DAVET_MESAJI)
    davet = Davet.objects.select_related("musteri").filter(token_ozeti=token_ozeti(token)).first()
    if davet is None or not davet.gecerli or not davet.musteri.aktif:
        raise Bulunamadi(GECERSIZ_DAVET_MESAJI)
    return davet


def bekleyen_davet_list(*, musteri: Musteri):
    return Davet.objects.filter(musteri=musteri, kabul_zamani__isnull=True, son_gecerlilik__gt=timezone.now()).order_by(
        "-olusturulma")


def davet_get(*, musteri: Musteri, davet_id: int) -> Davet:
    davet = bekleyen_davet_list(musteri=musteri).filter(pk=davet_id).first() if gecerli_id_mi(davet_id) else None
    if davet is None:
        raise Bulunamadi()
    return davet


@transaction.atomic
def davet_iptal(*, davet: Davet) -> None:
    Davet.objects.filter(pk=davet.pk, kabul_zamani__isnull=True).update(son_gecerlilik=timezone.now())


@transaction.atomic
def davet_kabul_et(*, token: str, kullanici: Kullanici | None = None, sifre: str = "", ad: str = "") -> Uyelik:
    """Accept: an existing user (`kullanici`, signed in as the invited address) joins; otherwise a
    new user with `sifre` is created. The invitation row is locked, so a link works exactly once
    even when clicked twice at the same moment.
    """
    bulunan = davet_bul(token=token)
    davet = Davet.objects.select_for_update().get(pk=bulunan.pk)
    if not davet.gecerli:
        raise Bulunamadi(GECERSIZ_DAVET_MESAJI)
    if kullanici is None:
        if Kullanici.objects.filter(email=davet.email).exists():
            raise GecersizIstek(_("Bu e-posta adresiyle bir hesap var: daveti kabul etmek için giriş yapın."))
        kullanici = kullanici_olustur(email=davet.email, sifre=sifre, ad=ad)
    elif kullanici.email.lower() != davet.email:
        raise GecersizIstek(_("Bu davet %(email)s adresine gönderildi; o hesapla giriş yapın.") % {"email": davet.email})
    mevcut = Uyelik.objects.filter(kullanici=kullanici, musteri_id=davet.musteri_id).first()
    uyelik = mevcut or uyelik_ekle(kullanici=kullanici, musteri=davet.musteri, rol=davet.rol,
                                   max_chat_per_tenant=davet.max_chat_per_tenant)
    davet.kabul_zamani, davet.kabul_eden = timezone.now(), kullanici
    davet.save(update_fields=["kabul_zamani", "kabul_eden"])
    return uyelik


def ekip_list(*, musteri: Musteri):
    return Uyelik.objects.filter(musteri=musteri).select_related("kullanici").order_by("kullanici__email")


def ekip_uyelik_get(*, musteri: Musteri, uyelik_id: int) -> Uyelik:
    """A membership of the tenant by its id; the same 404 for missing and another project's."""
    if not gecerli_id_mi(uyelik_id):
        raise Bulunamadi()
    uyelik = ekip_list(musteri=musteri).filter(pk=uyelik_id).first()
    if uyelik is None:
        raise Bulunamadi()
    return uyelik


def _kilitle_ve_sahipleri_say(musteri_id: int) -> int:
    # The tenant row is the lock every team change takes: of two concurrent demotions of the
    # last two owners, the second one counts after the first committed and is refused.
    Musteri.objects.select_for_update().filter(pk=musteri_id).first()
    return Uyelik.objects.filter(musteri_id=musteri_id, rol=Uyelik.Rol.SAHIP).count()


@transaction.atomic
def uyelik_guncelle(*, uyelik: Uyelik, rol: str, max_chat_per_tenant: int | None, yapan: Uyelik | None = None) -> Uyelik:
    rol, max_chat_per_tenant = _rol(rol), _max_chat(max_chat_per_tenant)
    sahip_sayisi = _kilitle_ve_sahipleri_say(uyelik.musteri_id)
    guncel = Uyelik.objects.select_for_update().filter(pk=uyelik.pk).first()
    if guncel is None:
        raise Bulunamadi()
    if guncel.rol != rol:
        _sahip_yetkisi(yapan, guncel.rol, rol)
    if guncel.rol == Uyelik.Rol.SAHIP and rol != Uyelik.Rol.SAHIP and sahip_sayisi <= 1:
        raise DurumCakismasi(SON_SAHIP_MESAJI, alanlar={"rol": SON_SAHIP_MESAJI})
    guncel.rol, guncel.max_chat_per_tenant = rol, max_chat_per_tenant
    guncel.save(update_fields=["rol", "max_chat_per_tenant"])
    return guncel


def son_sahip_mi(uyelik: Uyelik) -> bool:
    """Whether this is its project's only owner (who cannot be removed or demoted, CONTRACT 13)."""
    return not Uyelik.objects.filter(musteri_id=uyelik.musteri_id, rol=Uyelik.Rol.SAHIP).exclude(pk=uyelik.pk).exists()


@transaction.atomic
def uyelik_cikar(*, uyelik: Uyelik, yapan: Uyelik | None = None) -> None:
    """Remove a member from the project; their chats and tickets stay with the project."""
    sahip_sayisi = _kilitle_ve_sahipleri_say(uyelik.musteri_id)
    guncel = Uyelik.objects.select_for_update().filter(pk=uyelik.pk).first()
    if guncel is None:
        return
    _sahip_yetkisi(yapan, guncel.rol)
    if guncel.rol == Uyelik.Rol.SAHIP and sahip_sayisi <= 1:
        raise DurumCakismasi(SON_SAHIP_MESAJI)
    guncel.delete()
    kullanici = Kullanici.objects.filter(pk=guncel.kullanici_id, musteri_id=guncel.musteri_id).first()
    if kullanici is not None:  # the primary tenant (spec 9.3) moves to a project they still have
        yeni = Uyelik.objects.filter(kullanici=kullanici).order_by("sira", "musteri_id").values_list(
            "musteri_id", flat=True).first()
        Kullanici.objects.filter(pk=kullanici.pk).update(musteri_id=yeni)

from datetime import datetime, timedelta

from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext

from supportdesk.core.dil import dil_kodu
from supportdesk.core.exceptions import GecersizIstek, Yetkisiz
from supportdesk.core.olaylar import yayinla

from .ayarlar import ALANLAR as AYAR_ALANLARI
from .ayarlar import ayar_hatalari
from .gorunum import renk_dogrula
from .models import IptalEdilenToken, Kullanici, Musteri, Uyelik, yeni_api_key, yeni_api_secret
from .origin import origin_girdisini_normalle
from .selectors import kullanici_musteri_idleri, uyelik_get, uyelik_list
from .takvim import calisma_saatleri_hatasi

TRIAL_GUN = 14


@transaction.atomic
def kullanici_olustur(*, email: str, sifre: str | None, ad: str = "") -> Kullanici:
    return Kullanici.objects.create_user(email=email, password=sifre, ad=ad)


AD_MAX = 150


def kullanici_profil_guncelle(*, kullanici: Kullanici, ad: str, avatar: str = "", dil: str | None = None) -> Kullanici:
    """Display name and avatar address of a user (issue 13): what visitors see of an operator; and,
    when given, its language (CONTRACT 19: a supported code, or "" to follow the browser)."""
    ad = (ad or "").strip()
    avatar = (avatar or "").strip()
    if len(ad) > AD_MAX or "\x00" in ad:
        raise GecersizIstek(alanlar={"ad": gettext("En çok %(sayi)s karakter olabilir.") % {"sayi": AD_MAX}})
    if avatar:
        try:
            URLValidator(schemes=["http", "https"])(avatar)
        except ValidationError:
            raise GecersizIstek(alanlar={"avatar": gettext("http(s) ile başlayan geçerli bir adres olmalı.")}) from None
        if len(avatar) > 500:
            raise GecersizIstek(alanlar={"avatar": gettext("En çok %(sayi)s karakter olabilir.") % {"sayi": 500}})
    kullanici.ad, kullanici.avatar = ad, avatar
    alanlar = ["ad", "avatar"]
    if dil is not None:
        kullanici.dil = dil_kodu(dil) or ""
        alanlar.append("dil")
    kullanici.save(update_fields=alanlar)
    return kullanici


@transaction.atomic
def uyelik_ekle(
    *, kullanici: Kullanici, musteri: Musteri, rol: str = Uyelik.Rol.OPERATOR, max_chat_per_tenant: int | None = None
) -> Uyelik:
    """Add (or update) a membership; new tabs go to the end of the user's order."""
    existing = Uyelik.objects.filter(kullanici=kullanici, musteri=musteri).first()
    if existing:
        existing.rol = rol
        existing.max_chat_per_tenant = max_chat_per_tenant
        existing.save(update_fields=["rol", "max_chat_per_tenant"])
        return existing
    last = Uyelik.objects.filter(kullanici=kullanici).aggregate(m=Max("sira"))["m"]
    uyelik = Uyelik.objects.create(
        kullanici=kullanici,
        musteri=musteri,
        rol=rol,
        max_chat_per_tenant=max_chat_per_tenant,
        sira=0 if last is None else last + 1,
    )
    if kullanici.musteri_id is None:
        kullanici.musteri = musteri
        kullanici.save(update_fields=["musteri"])
    return uyelik


@transaction.atomic
def musteri_olustur(
    *,
    firma_adi: str,
    sahip: Kullanici | None = None,
    izinli_originler: list[str] | None = None,
    kimlik_dogrulama_zorunlu: bool = False,
    trial_gun: int | None = None,
    renk_primary: str = "#2563EB",
    logo_url: str = "",
    dil: str | None = None,
) -> Musteri:
    """A tenant, with its owner's membership when `sahip` is given. Its widget language (`dil`,
    CONTRACT 15, 19) is `dil` when given, else its creator's own language, else the default: an
    English-speaking owner does not find a Turkish widget, system lines and visitor mails."""
    firma_adi = (firma_adi or "").strip()
    if not firma_adi or len(firma_adi) > 120:
        raise GecersizIstek(alanlar={"firma_adi": gettext("Firma adı 1-120 karakter olmalı.")})
    originler = [origin_girdisini_normalle(o) for o in (izinli_originler or [])]
    if dil not in Musteri.Dil.values:
        dil = dil_kodu(getattr(sahip, "dil", None)) or Musteri.Dil.TR
    musteri = Musteri.objects.create(
        firma_adi=firma_adi,
        izinli_originler=list(dict.fromkeys(originler)),
        kimlik_dogrulama_zorunlu=kimlik_dogrulama_zorunlu,
        trial_bitis=timezone.now() + timedelta(days=trial_gun) if trial_gun else None,
        olusturan=sahip,
        renk_primary=renk_primary,
        logo_url=logo_url,
        dil=dil,
    )
    if sahip is not None:
        uyelik_ekle(kullanici=sahip, musteri=musteri, rol=Uyelik.Rol.SAHIP)
    return musteri


@transaction.atomic
def musteri_anahtar_yenile(*, musteri: Musteri, hangisi: str) -> Musteri:
    """Rotate the public widget key or the private api_secret; the old one stops working at once."""
    if hangisi == "api_key":
        musteri.api_key = yeni_api_key()
    elif hangisi == "api_secret":
        musteri.api_secret = yeni_api_secret()
    else:
        raise ValueError(hangisi)
    musteri.save(update_fields=[hangisi])
    return musteri


@transaction.atomic
def musteri_aktiflik_ayarla(*, musteri: Musteri, aktif: bool) -> Musteri:
    """Switch a tenant off (its widget key stops working at once) or back on."""
    musteri.aktif = aktif
    musteri.save(update_fields=["aktif"])
    return musteri


@transaction.atomic
def musteri_origin_ekle(*, musteri: Musteri, origin: str) -> str:
    normal = origin_girdisini_normalle(origin)
    musteri = Musteri.objects.select_for_update().get(pk=musteri.pk)
    if normal not in musteri.izinli_originler:
        musteri.izinli_originler = [*musteri.izinli_originler, normal]
        musteri.save(update_fields=["izinli_originler"])
    return normal


@transaction.atomic
def musteri_origin_sil(*, musteri: Musteri, origin: str) -> None:
    musteri = Musteri.objects.select_for_update().get(pk=musteri.pk)
    musteri.izinli_originler = [o for o in musteri.izinli_originler if o != origin]
    musteri.save(update_fields=["izinli_originler"])


@transaction.atomic
def uyelik_sirala(*, kullanici: Kullanici, order: list[int]) -> None:
    """Spec 4.4: listed tenants first in the given order; the rest keep their order after them."""
    current = list(uyelik_list(kullanici=kullanici).select_for_update(of=("self",)))
    by_id = {u.musteri_id: u for u in current}
    unknown = [i for i in order if i not in by_id]
    if unknown:
        raise GecersizIstek(alanlar={"order": gettext("Üyesi olmadığınız proje kimlikleri: %(idler)s") % {"idler": unknown}})
    if len(set(order)) != len(order):
        raise GecersizIstek(alanlar={"order": gettext("Aynı proje kimliği birden fazla kez verilmiş.")})
    listed = set(order)
    new_order = [by_id[i] for i in order] + [u for u in current if u.musteri_id not in listed]
    for position, uyelik in enumerate(new_order):
        uyelik.sira = position
    Uyelik.objects.bulk_update(new_order, ["sira"])


@transaction.atomic
def uyelik_sessize_al(*, kullanici: Kullanici, musteri_id: int, sessize: bool) -> Uyelik:
    uyelik = uyelik_get(kullanici=kullanici, musteri_id=musteri_id)
    if uyelik.sessize_alindi != sessize:
        uyelik.sessize_alindi = sessize
        uyelik.save(update_fields=["sessize_alindi"])
    return uyelik


@transaction.atomic
def uyelik_eposta_bildirimi_ayarla(*, kullanici: Kullanici, musteri_id: int, acik: bool) -> Uyelik:
    """The member's own choice of "new ticket" mails for this tenant (CONTRACT 14)."""
    uyelik = uyelik_get(kullanici=kullanici, musteri_id=musteri_id)
    if uyelik.eposta_bildirimi_secimi is not acik:
        uyelik.eposta_bildirimi_secimi = acik
        uyelik.save(update_fields=["eposta_bildirimi_secimi"])
    return uyelik


@transaction.atomic
def token_iptal_et(*, jti: str, bitis: datetime) -> bool:
    """Revoke a token by its id; True only for the call that revoked it. One conditional write:
    of racing calls, the others wait on the unique index and then find the row (False)."""
    _, yeni = IptalEdilenToken.objects.get_or_create(jti=jti, defaults={"bitis": bitis})
    if yeni:
        # Expired entries are useless: keep the table small on the way.
        IptalEdilenToken.objects.filter(bitis__lt=timezone.now()).delete()
    return yeni


# An operator's status (CONTRACT 3, 11). Each write is one conditional UPDATE with its events and
# says whether it changed the row; routing, which follows a change (an operator now `cevrimici`
# takes waiting chats, one now `cevrimdisi` hands its chats back), is a layer up: the actions in
# `chat.operator_durumu` call these and then route (issue 40). Callers go through those actions.
@transaction.atomic
def operator_durum_ayarla(*, kullanici: Kullanici, durum: str) -> bool:
    """Set the operator's own status (CONTRACT 3: cevrimici, mesgul, cevrimdisi); `kullanici.durum`
    is the new one. True when the row changed (the call that changed it emits).

    Becoming `cevrimdisi` (by this call or by logout) emits `operator_cevrimdisi` once per
    tenant of the operator (CONTRACT 7). Setting the status it already has emits nothing.
    """
    if durum not in Kullanici.Durum.values:
        mesaj = gettext("Geçerli değerler: %(degerler)s.") % {"degerler": ", ".join(Kullanici.Durum.values)}
        raise GecersizIstek(alanlar={"durum": mesaj})
    # One conditional UPDATE: of two racing identical calls only one sees the change and emits.
    degisti = Kullanici.objects.filter(pk=kullanici.pk).exclude(durum=durum).update(durum=durum)
    kullanici.durum = durum
    if degisti and durum == Kullanici.Durum.CEVRIMDISI:
        _cevrimdisi_olaylari(kullanici=kullanici)
    if degisti:
        _durum_yayinla(kullanici, neden=DURUM_KENDISI)
    return bool(degisti)


@transaction.atomic
def operator_cikis_yapti(*, kullanici: Kullanici) -> bool:
    """Logout makes the operator offline and emits `operator_cevrimdisi` once per tenant; True
    when its status changed (it was not `cevrimdisi` already).

    CONTRACT 7 names logout as a trigger of its own ("status becoming cevrimdisi or logout"), so
    it emits even when the status already was `cevrimdisi`: the tenant's systems learn that this
    operator's session ended, whatever status was shown before. The caller has revoked the token
    (`token_iptal_et`) and calls this only when its call revoked it.
    """
    degisti = Kullanici.objects.filter(pk=kullanici.pk).exclude(durum=Kullanici.Durum.CEVRIMDISI).update(
        durum=Kullanici.Durum.CEVRIMDISI
    )
    kullanici.durum = Kullanici.Durum.CEVRIMDISI
    _cevrimdisi_olaylari(kullanici=kullanici)
    if degisti:
        _durum_yayinla(kullanici, neden=DURUM_KENDISI)
    return bool(degisti)


@transaction.atomic
def operator_erisilemez_yap(*, kullanici_id: int) -> bool:
    """Presence (CONTRACT 11): an operator no longer reachable becomes `cevrimdisi`, once.

    The conditional UPDATE makes two sweeping processes agree: only the one that changes the row
    emits `operator_cevrimdisi` per tenant and the `operator_durumu` frame. Returns whether it did.
    """
    degisti = Kullanici.objects.filter(
        pk=kullanici_id, durum__in=(Kullanici.Durum.CEVRIMICI, Kullanici.Durum.MESGUL)
    ).update(durum=Kullanici.Durum.CEVRIMDISI)
    if not degisti:
        return False
    kullanici = Kullanici.objects.get(pk=kullanici_id)
    _cevrimdisi_olaylari(kullanici=kullanici)
    _durum_yayinla(kullanici, neden=DURUM_ERISILEMEZ)
    return True


# Why an operator's status changed (`operator_durumu`'s `neden`, issue 39): its own choice (the
# status call, logout) or presence (its sockets and calls stopped: `operator_erisilemez_yap`). A
# visitor is told "the agent was disconnected" only for the latter.
DURUM_KENDISI, DURUM_ERISILEMEZ = "kendisi", "erisilemez"


def _durum_yayinla(kullanici: Kullanici, *, neden: str) -> None:
    # A conditional UPDATE sends no signal: this is the one statement of the change. The socket
    # listener names the operator's tenants after commit (`musteri_idleri` of the frame).
    yayinla("operator_durumu", musteri_id=None,
            veri={"operator_id": kullanici.pk, "durum": kullanici.durum, "neden": neden})


def _cevrimdisi_olaylari(*, kullanici: Kullanici) -> None:
    for musteri_id in kullanici_musteri_idleri(kullanici=kullanici):
        yayinla(
            "operator_cevrimdisi",
            musteri_id=musteri_id,
            veri={"operator_id": kullanici.pk, "musteri_id": musteri_id, "email": kullanici.email},
        )


@transaction.atomic
def musteri_ayarlari_guncelle(*, musteri: Musteri, kullanici: Kullanici | None, degisiklikler: dict,
                              ip: str | None = None, kayitli_calisma_saatleri: dict | None = None) -> list[str]:
    """Change the named CONTRACT 15 settings of a tenant, all or nothing; the names of the fields
    whose value changed (and `ayar_degisti` with them and their old and new values, when any did).
    The caller has checked the caller's role (`ayar_yetkisi`).

    "Always open" (`calisma_saatleri` null) does not erase the weekly days (issue 39.3): turning it
    on keeps the days it replaces, or `kayitli_calisma_saatleri` when given (the portal's days under
    its switch, checked like `calisma_saatleri`), for the portal to show when it is turned off."""
    hatalar = ayar_hatalari(degisiklikler)
    if kayitli_calisma_saatleri is not None and "calisma_saatleri" not in hatalar:
        if hata := calisma_saatleri_hatasi(kayitli_calisma_saatleri):
            hatalar["calisma_saatleri"] = hata
    if hatalar:
        raise GecersizIstek(alanlar=hatalar)
    musteri = Musteri.objects.select_for_update().get(pk=musteri.pk)
    kayitli = _kayitli_gunler(musteri, degisiklikler, kayitli_calisma_saatleri)
    if kayitli != musteri.kayitli_calisma_saatleri:
        musteri.kayitli_calisma_saatleri = kayitli
        musteri.save(update_fields=["kayitli_calisma_saatleri"])
    degisen = [alan for alan, deger in degisiklikler.items() if getattr(musteri, alan) != deger]
    if not degisen:
        return []
    degerler = {alan: [getattr(musteri, alan), degisiklikler[alan]] for alan in degisen}
    for alan in degisen:
        setattr(musteri, alan, degisiklikler[alan])
    musteri.save(update_fields=degisen)
    yayinla("ayar_degisti", musteri_id=musteri.pk, veri={
        "musteri_id": musteri.pk, "aktor_id": kullanici.pk if kullanici else None, "ip": ip, "alanlar": degisen,
        "degerler": degerler})
    return degisen


# What the Django admin's tenant form may change besides the CONTRACT 15 settings (`ayarlar.ALANLAR`).
# The keys rotate by `musteri_anahtar_yenile` (its admin actions) and a logo file is checked by
# `musteri_logo_yukle` (the portal): neither is edited there.
DUZENLENEN_ALANLAR = frozenset({
    "firma_adi", "logo_url", "renk_primary", "karsilama_metni", "baslatici_konum", "izinli_originler",
    "kimlik_dogrulama_zorunlu", "trial_bitis", "aktif", "olusturan"})


def musteri_duzenle_hatalari(degisiklikler: dict) -> dict[str, str]:
    """{field: message} for a change the admin's form would make (`musteri_duzenle`)."""
    hatalar = ayar_hatalari({a: d for a, d in degisiklikler.items() if a in AYAR_ALANLARI})
    for alan in degisiklikler.keys() - AYAR_ALANLARI - DUZENLENEN_ALANLAR:
        hatalar[alan] = gettext("Bilinmeyen alan.")
    if "renk_primary" in degisiklikler:
        try:
            renk_dogrula(degisiklikler["renk_primary"])
        except GecersizIstek as exc:
            hatalar.update(exc.alanlar or {})
    originler = degisiklikler.get("izinli_originler")
    if originler is not None:
        if not isinstance(originler, list) or not all(isinstance(o, str) for o in originler):
            hatalar["izinli_originler"] = gettext("Adres listesi olmalı.")
        else:
            for origin in originler:
                try:
                    origin_girdisini_normalle(origin)
                except ValueError as exc:
                    hatalar["izinli_originler"] = f"{origin}: {exc}"
                    break
    return hatalar


@transaction.atomic
def musteri_duzenle(*, musteri: Musteri, degisiklikler: dict, kullanici: Kullanici | None = None,
                    ip: str | None = None) -> list[str]:
    """A tenant edited as a whole (the Django admin's form): the CONTRACT 15 settings through
    `musteri_ayarlari_guncelle` (checked, `ayar_degisti`), the rest saved by name, so each change
    is announced with its fields (`musteri_degisti`: the audit log's `gorunum_degisti`,
    `origin_degisti`, `ayar_degisti`; the caches) as the portal's pages announce theirs.
    All or nothing; the names of the fields that changed."""
    hatalar = musteri_duzenle_hatalari(degisiklikler)
    if hatalar:
        raise GecersizIstek(alanlar=hatalar)
    if "izinli_originler" in degisiklikler:
        degisiklikler = {**degisiklikler, "izinli_originler": list(dict.fromkeys(
            origin_girdisini_normalle(o) for o in degisiklikler["izinli_originler"]))}
    kilitli = Musteri.objects.select_for_update().get(pk=musteri.pk)
    diger = [a for a, d in degisiklikler.items() if a not in AYAR_ALANLARI and getattr(kilitli, a) != d]
    for alan in diger:
        setattr(kilitli, alan, degisiklikler[alan])
    if diger:
        kilitli.save(update_fields=diger)
    ayarlar = {a: d for a, d in degisiklikler.items() if a in AYAR_ALANLARI}
    if ayarlar:
        diger += musteri_ayarlari_guncelle(musteri=kilitli, kullanici=kullanici, degisiklikler=ayarlar, ip=ip)
    return diger


def _kayitli_gunler(musteri: Musteri, degisiklikler: dict, verilen: dict | None) -> dict | None:
    """The weekly days to keep beside the settings after this change: a calendar set is kept as
    itself; "always open" keeps the days given, else the calendar it replaces, else those kept."""
    if "calisma_saatleri" not in degisiklikler:
        return verilen if verilen is not None and musteri.calisma_saatleri is None else musteri.kayitli_calisma_saatleri
    yeni = degisiklikler["calisma_saatleri"]
    if yeni is not None:
        return yeni
    return verilen if verilen is not None else (musteri.calisma_saatleri or musteri.kayitli_calisma_saatleri)


def ayar_yetkisi(uyelik: Uyelik) -> None:
    """Settings are written by `sahip` and `yonetici` only (CONTRACT 15)."""
    if not uyelik.yonetebilir:
        raise Yetkisiz()

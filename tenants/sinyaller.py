"""The tenants app's model signals, on its own models only: a save or delete that did not go
through a service (the admin, a management command, demo data, a cascade) must still renew the
caches and tell the sockets, so each is stated here as a domain event (supportdesk.core.olaylar).
Who reacts is read in the listeners (`*/dinleyiciler.py`), never here.

Services that write these models by `QuerySet.update()` (an operator's status) state their own
event (`operator_durumu`) instead: no signal is sent for them."""
from axes.signals import user_locked_out
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.db.models.signals import post_delete, post_save, pre_delete, pre_save

from supportdesk.core.olaylar import yayinla

from .models import Kullanici, Musteri, Uyelik


def _musteri_once(sender, instance: Musteri, raw=False, **kwargs) -> None:
    # The key it had before this save: a rotated key's cached entry must go too.
    if instance.pk and not raw:
        instance._onceki_api_key = Musteri.objects.filter(pk=instance.pk).values_list("api_key", flat=True).first()


def _musteri(sender, instance: Musteri, created=False, raw=False, update_fields=None, silindi=False, **kwargs) -> None:
    yayinla("musteri_degisti", musteri_id=instance.pk, veri={
        "api_keyler": (instance.api_key, getattr(instance, "_onceki_api_key", None) or ""),
        "aktif": instance.aktif,
        "olusturuldu": created,
        "alanlar": None if update_fields is None else frozenset(update_fields),
        "silindi": silindi,
        "ham": raw,
    })


def _musteri_siliniyor(sender, instance: Musteri, origin=None, **kwargs) -> None:
    # Before the cascade removes its rows, inside the deleting transaction: who keeps files or
    # guarded rows of the tenant acts now (gizlilik: the files; denetim: the audit log's guard).
    yayinla("musteri_siliniyor", musteri_id=instance.pk, veri={"musteri": instance})


def _musteri_silindi(sender, instance: Musteri, **kwargs) -> None:
    _musteri(sender, instance, silindi=True)


def _uyelik_once(sender, instance: Uyelik, raw=False, update_fields=None, **kwargs) -> None:
    # The role and chat cap it had before this save (the audit log's `uye_rol_degisti` and
    # `uye_limit_degisti`); read only when the save may change them.
    if instance.pk and not raw and (update_fields is None or {"rol", "max_chat_per_tenant"} & set(update_fields)):
        onceki = Uyelik.objects.filter(pk=instance.pk).values_list("rol", "max_chat_per_tenant").first()
        if onceki is not None:
            instance._onceki_rol, instance._onceki_limit = onceki


def _uyelik(sender, instance: Uyelik, created=False, raw=False, **kwargs) -> None:
    # Joining is what changes who is a member; a save of an existing one changes its order, role,
    # cap or muting only. A fixture's raw save is not a joining.
    olay = "uyelik_eklendi" if created and not raw else "uyelik_guncellendi"
    veri = {"kullanici_id": instance.kullanici_id, "rol": instance.rol, "onceki_rol": getattr(instance, "_onceki_rol", None),
            "max_chat_per_tenant": instance.max_chat_per_tenant}
    if hasattr(instance, "_onceki_limit"):
        veri["onceki_max_chat_per_tenant"] = instance._onceki_limit
        del instance._onceki_limit
    yayinla(olay, musteri_id=instance.musteri_id, veri=veri)
    instance._onceki_rol = None


def _uyelik_silindi(sender, instance: Uyelik, origin=None, **kwargs) -> None:
    # `kademeli`: the membership goes with its tenant or its user (the delete started elsewhere),
    # not as a member leaving a project that stays.
    kendisi = isinstance(origin, Uyelik) or getattr(origin, "model", None) is Uyelik
    yayinla("uyelik_silindi", musteri_id=instance.musteri_id, veri={
        "kullanici_id": instance.kullanici_id, "kademeli": origin is not None and not kendisi})


def _kullanici(sender, instance: Kullanici, update_fields=None, **kwargs) -> None:
    yayinla("kullanici_degisti", musteri_id=None, veri={
        "kullanici": instance, "alanlar": None if update_fields is None else frozenset(update_fields)})


def _kullanici_silindi(sender, instance: Kullanici, **kwargs) -> None:
    yayinla("kullanici_silindi", musteri_id=None, veri={"kullanici_id": instance.pk})


def giris_kanali(request) -> str:
    """Where a login happened, by the path it came to: `portal`, `konsol`, `api` or `admin`."""
    yol = getattr(request, "path", "") or ""
    if yol.startswith("/portal"):
        return "portal"
    if yol.startswith("/panel") or yol.startswith("/api/v1/panel"):
        return "konsol"
    if yol.startswith("/api/"):
        return "api"
    return "admin"


def giris_yayinla(*, kullanici: Kullanici, request) -> None:
    """A login succeeded (the audit log's `giris`): the session logins through `user_logged_in`,
    the token logins (API, console) from their view."""
    yayinla("giris", musteri_id=None, veri={"kullanici_id": kullanici.pk, "kanal": giris_kanali(request)})


def _oturum_acildi(sender, request, user, **kwargs) -> None:
    if request is not None:
        giris_yayinla(kullanici=user, request=request)


def _giris_basarisiz(sender, credentials, request=None, **kwargs) -> None:
    # `authenticate()` failed (wrong password, unknown or inactive account). An existing
    # account's failure is recorded per tenant it belongs to; an unknown address has no tenant.
    email = str(credentials.get("email") or credentials.get("username") or "").strip().lower()
    kullanici_id = Kullanici.objects.filter(email__iexact=email).values_list("pk", flat=True).first() if email else None
    yayinla("giris_basarisiz", musteri_id=None, veri={
        "kullanici_id": kullanici_id, "email": email, "kanal": giris_kanali(request)})


def _kilitlendi(sender, request=None, username=None, ip_address=None, **kwargs) -> None:
    # axes sends this for the failure that locks the pair and again for each attempt refused while
    # it is locked; only the first has counted failures (`axes_failures_since_start`): one audit
    # entry per lockout (CONTRACT 18, wave 4).
    if request is None or getattr(request, "axes_failures_since_start", None) is None:
        return
    email = str(username or "").strip().lower()
    kullanici_id = Kullanici.objects.filter(email__iexact=email).values_list("pk", flat=True).first() if email else None
    yayinla("giris_kilitlendi", musteri_id=None, veri={
        "kullanici_id": kullanici_id, "email": email, "kanal": giris_kanali(request), "ip": ip_address})


def bagla() -> None:
    user_logged_in.connect(_oturum_acildi, dispatch_uid="tenants_giris")
    user_login_failed.connect(_giris_basarisiz, dispatch_uid="tenants_giris_basarisiz")
    user_locked_out.connect(_kilitlendi, dispatch_uid="tenants_giris_kilitlendi")
    pre_save.connect(_musteri_once, sender=Musteri, dispatch_uid="tenants_musteri_once")
    post_save.connect(_musteri, sender=Musteri, dispatch_uid="tenants_musteri")
    pre_delete.connect(_musteri_siliniyor, sender=Musteri, dispatch_uid="tenants_musteri_siliniyor")
    post_delete.connect(_musteri_silindi, sender=Musteri, dispatch_uid="tenants_musteri_sil")
    pre_save.connect(_uyelik_once, sender=Uyelik, dispatch_uid="tenants_uyelik_once")
    post_save.connect(_uyelik, sender=Uyelik, dispatch_uid="tenants_uyelik")
    post_delete.connect(_uyelik_silindi, sender=Uyelik, dispatch_uid="tenants_uyelik_sil")
    post_save.connect(_kullanici, sender=Kullanici, dispatch_uid="tenants_kullanici")
    post_delete.connect(_kullanici_silindi, sender=Kullanici, dispatch_uid="tenants_kullanici_sil")

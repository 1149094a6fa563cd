"""The tenants app's model signals, on its own models only: a save or delete that did not go
through a service (the admin, a management command, demo data, a cascade) must still renew the
caches and tell the sockets, so each is stated here as a domain event (supportdesk.core.olaylar).
Who reacts is read in the listeners (`*/dinleyiciler.py`), never here.

Services that write these models by `QuerySet.update()` (an operator's status) state their own
event (`operator_durumu`) instead: no signal is sent for them."""
from django.db.models.signals import post_delete, post_save, pre_save

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


def _musteri_silindi(sender, instance: Musteri, **kwargs) -> None:
    _musteri(sender, instance, silindi=True)


def _uyelik(sender, instance: Uyelik, created=False, raw=False, **kwargs) -> None:
    # Joining is what changes who is a member; a save of an existing one changes its order, role,
    # cap or muting only. A fixture's raw save is not a joining.
    olay = "uyelik_eklendi" if created and not raw else "uyelik_guncellendi"
    yayinla(olay, musteri_id=instance.musteri_id, veri={"kullanici_id": instance.kullanici_id})


def _uyelik_silindi(sender, instance: Uyelik, **kwargs) -> None:
    yayinla("uyelik_silindi", musteri_id=instance.musteri_id, veri={"kullanici_id": instance.kullanici_id})


def _kullanici(sender, instance: Kullanici, update_fields=None, **kwargs) -> None:
    yayinla("kullanici_degisti", musteri_id=None, veri={
        "kullanici": instance, "alanlar": None if update_fields is None else frozenset(update_fields)})


def _kullanici_silindi(sender, instance: Kullanici, **kwargs) -> None:
    yayinla("kullanici_silindi", musteri_id=None, veri={"kullanici_id": instance.pk})


def bagla() -> None:
    pre_save.connect(_musteri_once, sender=Musteri, dispatch_uid="tenants_musteri_once")
    post_save.connect(_musteri, sender=Musteri, dispatch_uid="tenants_musteri")
    post_delete.connect(_musteri_silindi, sender=Musteri, dispatch_uid="tenants_musteri_sil")
    post_save.connect(_uyelik, sender=Uyelik, dispatch_uid="tenants_uyelik")
    post_delete.connect(_uyelik_silindi, sender=Uyelik, dispatch_uid="tenants_uyelik_sil")
    post_save.connect(_kullanici, sender=Kullanici, dispatch_uid="tenants_kullanici")
    post_delete.connect(_kullanici_silindi, sender=Kullanici, dispatch_uid="tenants_kullanici_sil")

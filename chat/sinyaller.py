"""The chat app's model signals, on its own models only: a chat or message row saved by any path
(services, the admin, demo data) is stated as a domain event, so the poll snapshots built from it
are renewed (chat/dinleyiciler.py). `QuerySet.update()` and raw SQL send no signal; the services
that use them state their own event (`chat_kabul_edildi`, `chat_okundu`, `mesaj_kaydedildi`).

No receiver for a message's delete: messages go only with their chat (whose delete is heard), and
a receiver would stop Django deleting a tenant's messages in one statement."""
from django.db.models.signals import post_delete, post_save

from supportdesk.core.olaylar import yayinla

from .models import Mesaj, Oturum


def _oturum(sender, instance: Oturum, **kwargs) -> None:
    yayinla("oturum_kaydedildi", musteri_id=instance.musteri_id, veri={"oturum_id": instance.pk})


def _mesaj(sender, instance: Mesaj, **kwargs) -> None:
    yayinla("mesaj_kaydedildi", musteri_id=instance.musteri_id, veri={"oturum_id": instance.oturum_id})


def bagla() -> None:
    post_save.connect(_oturum, sender=Oturum, dispatch_uid="chat_oturum")
    post_delete.connect(_oturum, sender=Oturum, dispatch_uid="chat_oturum_sil")
    post_save.connect(_mesaj, sender=Mesaj, dispatch_uid="chat_mesaj")

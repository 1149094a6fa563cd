"""Signal receivers of the chat app: the poll snapshots' invalidation (`chat.yoklama`) on every
save and delete of the models its answer is read from. `QuerySet.update()` and raw SQL send no
signal; their callers call `yoklama.degisti` themselves.

No receiver for a message's delete: messages go only with their chat (whose delete is heard), and
a receiver would stop Django deleting a tenant's messages in one statement."""
from django.db.models.signals import post_delete, post_save

from tenants.models import Kullanici, Uyelik
from tenants.selectors import kullanici_musteri_idleri
from tenants.sinyaller import operator_durumu_degisti

from . import yoklama
from .models import Mesaj, Oturum

# Kullanici fields a poll's answer depends on (who counts as online); a login's `last_login` or a
# profile edit changes none of them.
_KULLANICI_ALANLARI = frozenset({"durum", "is_active"})


def _oturum(sender, instance: Oturum, **kwargs) -> None:
    # Any change to a chat may move the queue of its tenant (created, taken, closed, deleted).
    yoklama.degisti(oturum_idleri=[instance.pk], musteri_idleri=[instance.musteri_id])


def _mesaj(sender, instance: Mesaj, **kwargs) -> None:
    yoklama.degisti(oturum_idleri=[instance.oturum_id])


def _uyelik(sender, instance: Uyelik, **kwargs) -> None:
    yoklama.degisti(musteri_idleri=[instance.musteri_id])


def _kullanici(sender, instance: Kullanici, update_fields=None, **kwargs) -> None:
    if update_fields is not None and not (_KULLANICI_ALANLARI & set(update_fields)):
        return
    _operator_durumu(sender, kullanici=instance)


def _operator_durumu(sender, kullanici: Kullanici, **kwargs) -> None:
    yoklama.degisti(musteri_idleri=kullanici_musteri_idleri(kullanici=kullanici))


def _kullanici_silindi(sender, instance: Kullanici, **kwargs) -> None:
    # Its chats lost their operator by SET NULL (no signal): every snapshot may name it.
    yoklama.degisti(genel=True)


def bagla() -> None:
    post_save.connect(_oturum, sender=Oturum, dispatch_uid="yoklama_oturum")
    post_delete.connect(_oturum, sender=Oturum, dispatch_uid="yoklama_oturum_sil")
    post_save.connect(_mesaj, sender=Mesaj, dispatch_uid="yoklama_mesaj")
    post_save.connect(_uyelik, sender=Uyelik, dispatch_uid="yoklama_uyelik")
    post_delete.connect(_uyelik, sender=Uyelik, dispatch_uid="yoklama_uyelik_sil")
    post_save.connect(_kullanici, sender=Kullanici, dispatch_uid="yoklama_kullanici")
    post_delete.connect(_kullanici_silindi, sender=Kullanici, dispatch_uid="yoklama_kullanici_sil")
    operator_durumu_degisti.connect(_operator_durumu, dispatch_uid="yoklama_operator_durumu")

from datetime import timedelta

import pytest
from django.core.files.storage import default_storage
from django.utils import timezone

from chat.models import Mesaj
from dosyalar.models import Dosya
from dosyalar.tasks import sahipsiz_dosyalari_temizle

from .yardimci import yuklenen_id

pytestmark = pytest.mark.django_db


def _eskit(dosya_id: int) -> Dosya:
    Dosya.objects.filter(pk=dosya_id).update(olusturulma=timezone.now() - timedelta(days=8))
    return Dosya.objects.get(pk=dosya_id)


def test_only_old_unattached_uploads_removed(widget, django_capture_on_commit_callbacks):
    sahipsiz = _eskit(yuklenen_id(widget))
    yeni = yuklenen_id(widget)
    ticketta = _eskit(yuklenen_id(widget))
    widget.post("/api/v1/widget/ticket/create", {"ziyaretci_id": "z1", "konu": "k", "mesaj": "m",
                                                  "ek_idleri": [ticketta.id]}, format="json")
    with django_capture_on_commit_callbacks(execute=True):
        assert sahipsiz_dosyalari_temizle() == 1
    assert set(Dosya.objects.values_list("id", flat=True)) == {yeni, ticketta.id}
    assert not default_storage.exists(sahipsiz.dosya.name)
    assert default_storage.exists(ticketta.dosya.name)


def test_upload_used_by_chat_message_kept(widget, musteri):
    dosya = _eskit(yuklenen_id(widget))
    from chat.models import Oturum

    oturum = Oturum.objects.create(musteri=musteri, ziyaretci_id="z1")
    Mesaj.objects.create(musteri=musteri, oturum=oturum, gonderen="ziyaretci", icerik="ek", ek=dosya)
    assert sahipsiz_dosyalari_temizle() == 0
    assert Dosya.objects.filter(pk=dosya.pk).exists()

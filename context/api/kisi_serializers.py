"""The contact's one shape (CONTRACT 25), for the API, the schema and the visitor profile alike."""
from django.utils.translation import gettext_lazy
from rest_framework import serializers

from kisiler.models import NitelikTanimi
from supportdesk.core.fields import ZamanField


class KisiSerializer(serializers.Serializer):
    """Fed with `context.kisi_ozeti.kisi_verileri`' dicts."""

    id = serializers.IntegerField()
    musteri_id = serializers.IntegerField()
    ad = serializers.CharField()
    email = serializers.CharField()
    telefon = serializers.CharField()
    sirket = serializers.CharField()
    nitelikler = serializers.DictField(help_text=gettext_lazy("Projenin tanımladığı nitelikler: anahtar → değer."))
    ziyaretci_idleri = serializers.ListField(child=serializers.CharField())
    ilk_gorulme = ZamanField()
    son_gorulme = ZamanField()
    oturum_sayisi = serializers.IntegerField()
    ticket_sayisi = serializers.IntegerField()


class KisiGuncelleSerializer(serializers.Serializer):
    # Checked by the service (kisiler.services.kisi_alanlari_dogrula): the schema only describes the body.
    ad = serializers.CharField(required=False, help_text="En çok 100 karakter.")
    email = serializers.CharField(required=False)
    telefon = serializers.CharField(required=False)
    sirket = serializers.CharField(required=False)
    nitelikler = serializers.DictField(required=False, help_text=gettext_lazy(
        "Verilen anahtarlar değişir (null siler); tanımsız anahtar ya da yanlış tür 400."))


class NitelikTanimiSerializer(serializers.Serializer):
    anahtar = serializers.CharField(help_text="^[a-z][a-z0-9_]{0,39}$")
    ad = serializers.CharField()
    tur = serializers.ChoiceField(choices=NitelikTanimi.Tur.values)
    secenekler = serializers.ListField(child=serializers.CharField(), required=False,
                                       help_text=gettext_lazy("Yalnızca 'secim' türünde."))


class BirlestirSerializer(serializers.Serializer):
    kisi_id = serializers.IntegerField(help_text=gettext_lazy("Bu kişiye katılıp silinecek kişi."))

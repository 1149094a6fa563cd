from rest_framework import serializers

from supportdesk.core.fields import ZamanField

from ..models import AramaKaydi


class OperatorAramaFiltreSerializer(serializers.Serializer):
    q = serializers.CharField(min_length=2, max_length=200)
    musteri_id = serializers.IntegerField(min_value=1, required=False)
    tur = serializers.ChoiceField(choices=AramaKaydi.Tur.values, required=False)
    cursor = serializers.CharField(required=False, trim_whitespace=False)
    limit = serializers.IntegerField(required=False)


class OperatorAramaSonucuSerializer(serializers.Serializer):
    """One result (CONTRACT 16): `id` is the chat's or the ticket's, by `tur`; `parca` is plain
    text with each match between « and »."""

    tur = serializers.ChoiceField(choices=AramaKaydi.Tur.values)
    id = serializers.IntegerField(source="belge_id")
    musteri_id = serializers.IntegerField()
    baslik = serializers.CharField()
    parca = serializers.CharField()
    zaman = ZamanField()

from rest_framework import serializers

from supportdesk.core.girdi import ZIYARETCI_ID_MAX


class MutlakUrlField(serializers.CharField):
    """A stored file's URL, absolute when the view passed its request in the context: the widget
    runs on the tenants' own sites, where a host-relative `/media/...` would point at their
    server (an S3 URL is absolute already)."""

    def to_representation(self, value):
        url = value.url
        request = self.context.get("request")
        return request.build_absolute_uri(url) if request is not None else url


# An upload as every API shows it (CONTRACT 5): the upload's own answer, a ticket reply's
# `ekler`, a chat message's `ek`. (A comment, not a docstring: the schema would publish it.)
class DosyaSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    ad = serializers.CharField()
    boyut = serializers.IntegerField()
    mime_tipi = serializers.CharField()
    url = MutlakUrlField(source="dosya")


def dosya_verisi(dosya, *, request=None) -> dict:
    """`DosyaSerializer` for callers that still build their answers as dicts (chat's `ek`)."""
    return DosyaSerializer(dosya, context={"request": request}).data


class YuklemeSerializer(serializers.Serializer):
    ziyaretci_id = serializers.CharField(max_length=ZIYARETCI_ID_MAX)
    dosya = serializers.FileField()


class OperatorYuklemeSerializer(serializers.Serializer):
    musteri_id = serializers.IntegerField()
    dosya = serializers.FileField()

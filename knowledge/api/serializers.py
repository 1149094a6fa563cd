from rest_framework import serializers

from supportdesk.core.fields import ZamanField

OZET_UZUNLUK = 200


def _kisalt(duz: str) -> str:
    if len(duz) <= OZET_UZUNLUK:
        return duz
    return duz[:OZET_UZUNLUK].rsplit(" ", 1)[0] + " …"


class OzetField(serializers.CharField):
    """The article's own summary, or the start of its text when it has none."""

    def __init__(self, **kwargs):
        super().__init__(source="*", **kwargs)

    def to_representation(self, makale):
        return makale.ozet or _kisalt(makale.duz_metin)


# --- output: each shape once, the same class builds the answer and describes it in the schema ---
class KategoriSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    ad = serializers.CharField()
    slug = serializers.CharField()
    aciklama = serializers.CharField()
    sira = serializers.IntegerField()
    makale_sayisi = serializers.IntegerField()


class KategoriOzetSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    ad = serializers.CharField()
    slug = serializers.CharField()


class MakaleSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    baslik = serializers.CharField()
    slug = serializers.CharField()
    ozet = OzetField()
    # The selectors join `kategori` (select_related): no query per article.
    kategori = KategoriOzetSerializer(allow_null=True)
    guncellenme = ZamanField()


class AramaSonucuSerializer(MakaleSerializer):
    # A search hit: the article as listed, with the selector's `vurgu` set on it.
    vurgu = serializers.CharField(help_text="HTML-escaped snippet; matches wrapped in <mark>.")


class MakaleDetaySerializer(MakaleSerializer):
    icerik = serializers.CharField(help_text="Sanitized HTML.")
    goruntulenme = serializers.IntegerField()


class GorselUrlField(serializers.CharField):
    """The uploaded image's absolute URL when there is one, else the linked `gorsel_url`."""

    def __init__(self, **kwargs):
        super().__init__(source="*", **kwargs)

    def to_representation(self, kampanya):
        if kampanya.gorsel_id and kampanya.gorsel is not None:
            url = kampanya.gorsel.dosya.url
            request = self.context.get("request")
            return request.build_absolute_uri(url) if request is not None else url
        return kampanya.gorsel_url


class KampanyaSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    baslik = serializers.CharField()
    icerik = serializers.CharField()
    gorsel_url = GorselUrlField()
    buton_metni = serializers.CharField()
    buton_url = serializers.CharField()
    baslangic = ZamanField()
    bitis = ZamanField()


# --- requests ----------------------------------------------------------------------------------
class AramaParametreSerializer(serializers.Serializer):
    q = serializers.CharField(max_length=200, required=False, allow_blank=True, trim_whitespace=True, default="")
    kategori = serializers.SlugField(max_length=150, required=False)
    limit = serializers.IntegerField(min_value=1, max_value=50, required=False, default=20)

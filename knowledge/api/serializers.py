from rest_framework import serializers

from supportdesk.core.fields import ZamanField

from ..metin import duz_metin

OZET_UZUNLUK = 200


def _kisalt(duz: str) -> str:
    if len(duz) <= OZET_UZUNLUK:
        return duz
    return duz[:OZET_UZUNLUK].rsplit(" ", 1)[0] + " …"


def ingilizce_mi(context) -> bool:
    # The widget's language (CONTRACT 19: the tenant's `dil`, `otomatik` following the browser),
    # decided by the view and passed as `dil`.
    return (context or {}).get("dil") == "en"


class DilliField(serializers.CharField):
    """A text with an English version (issue 43): `<alan>_en` in an English widget when it is not
    empty, else the project's own text."""

    def __init__(self, alan: str | None = None, **kwargs):
        self.alan = alan
        super().__init__(source="*", **kwargs)

    def bind(self, field_name, parent):
        super().bind(field_name, parent)
        self.alan = self.alan or field_name

    def to_representation(self, nesne):
        if ingilizce_mi(self.context):
            ceviri = getattr(nesne, f"{self.alan}_en", "")
            if ceviri:
                return ceviri
        return getattr(nesne, self.alan)


class OzetField(serializers.CharField):
    """The article's own summary, or the start of its text when it has none (in an English widget:
    its English summary, else its English text's start, else the Turkish ones)."""

    def __init__(self, **kwargs):
        super().__init__(source="*", **kwargs)

    def to_representation(self, makale):
        if ingilizce_mi(self.context) and (makale.ozet_en or makale.icerik_en):
            return makale.ozet_en or _kisalt(duz_metin(makale.icerik_en))
        return makale.ozet or _kisalt(makale.duz_metin)


# --- output: each shape once, the same class builds the answer and describes it in the schema ---
class KategoriSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    ad = DilliField()
    slug = serializers.CharField()
    aciklama = DilliField()
    sira = serializers.IntegerField()
    makale_sayisi = serializers.IntegerField()


class KategoriOzetSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    ad = DilliField()
    slug = serializers.CharField()


class MakaleSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    baslik = DilliField()
    slug = serializers.CharField()
    ozet = OzetField()
    # The selectors join `kategori` (select_related): no query per article.
    kategori = KategoriOzetSerializer(allow_null=True)
    guncellenme = ZamanField()


class AramaSonucuSerializer(MakaleSerializer):
    # A search hit: the article as listed, with the selector's `vurgu` set on it.
    vurgu = serializers.CharField(help_text="HTML-escaped snippet; matches wrapped in <mark>.")


class MakaleDetaySerializer(MakaleSerializer):
    icerik = DilliField(help_text="Sanitized HTML.")
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
    baslik = DilliField()
    icerik = DilliField()
    gorsel_url = GorselUrlField()
    buton_metni = DilliField()
    buton_url = serializers.CharField()
    baslangic = ZamanField()
    bitis = ZamanField()


# --- requests ----------------------------------------------------------------------------------
class AramaParametreSerializer(serializers.Serializer):
    q = serializers.CharField(max_length=200, required=False, allow_blank=True, trim_whitespace=True, default="")
    kategori = serializers.SlugField(max_length=150, required=False)
    limit = serializers.IntegerField(min_value=1, max_value=50, required=False, default=20)

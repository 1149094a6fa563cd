from rest_framework import serializers

from supportdesk.core.fields import ZamanField

OZET_UZUNLUK = 200


def kategori_verisi(kategori) -> dict:
    return {
        "id": kategori.id, "ad": kategori.ad, "slug": kategori.slug, "aciklama": kategori.aciklama,
        "sira": kategori.sira, "makale_sayisi": kategori.makale_sayisi,
    }


def makale_verisi(makale, *, detay: bool = False) -> dict:
    kategori = makale.kategori
    veri = {
        "id": makale.id,
        "baslik": makale.baslik,
        "slug": makale.slug,
        "ozet": makale.ozet or _kisalt(makale.duz_metin),
        "kategori": {"id": kategori.id, "ad": kategori.ad, "slug": kategori.slug} if kategori else None,
        "guncellenme": makale.guncellenme.isoformat(),
    }
    if detay:
        veri["icerik"] = makale.icerik
        veri["goruntulenme"] = makale.goruntulenme
    return veri


def _kisalt(duz: str) -> str:
    if len(duz) <= OZET_UZUNLUK:
        return duz
    return duz[:OZET_UZUNLUK].rsplit(" ", 1)[0] + " …"


def kampanya_verisi(k) -> dict:
    return {
        "id": k.id, "baslik": k.baslik, "icerik": k.icerik, "gorsel_url": k.gorsel_url, "buton_metni": k.buton_metni,
        "buton_url": k.buton_url, "baslangic": k.baslangic.isoformat(), "bitis": k.bitis.isoformat(),
    }


# --- OpenAPI shapes ---------------------------------------------------------------------------
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
    ozet = serializers.CharField()
    kategori = KategoriOzetSerializer(allow_null=True)
    guncellenme = ZamanField()


class AramaSonucuSerializer(MakaleSerializer):
    vurgu = serializers.CharField(help_text="HTML-escaped snippet; matches wrapped in <mark>.")


class MakaleDetaySerializer(MakaleSerializer):
    icerik = serializers.CharField(help_text="Sanitized HTML.")
    goruntulenme = serializers.IntegerField()


class KampanyaSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    baslik = serializers.CharField()
    icerik = serializers.CharField()
    gorsel_url = serializers.CharField()
    buton_metni = serializers.CharField()
    buton_url = serializers.CharField()
    baslangic = ZamanField()
    bitis = ZamanField()


class AramaParametreSerializer(serializers.Serializer):
    q = serializers.CharField(max_length=200, required=False, allow_blank=True, trim_whitespace=True, default="")
    kategori = serializers.SlugField(max_length=150, required=False)
    limit = serializers.IntegerField(min_value=1, max_value=50, required=False, default=20)

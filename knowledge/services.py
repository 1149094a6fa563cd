"""Writes of the knowledge base and campaigns. Article HTML is sanitized and the search columns
are derived here, on every save, so the admin, the command and the demo all stay consistent."""
from datetime import datetime

from django.contrib.postgres.search import SearchVector
from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from dosyalar.models import Dosya
from dosyalar.services import dosya_yukle
from dosyalar.yukleme import EN_BUYUK_BOYUT, mime_tipi_bul
from supportdesk.core.exceptions import DesteklenmeyenDosya, GecersizIstek
from supportdesk.core.olaylar import yayinla

from . import metin
from .models import HTTP_URL, Kampanya, KbKategori, KbMakale


def _zorunlu_metin(alan: str, deger, en_cok: int, *, bos_olabilir: bool = False) -> str:
    if not isinstance(deger, str):
        raise GecersizIstek(alanlar={alan: _("Metin olmalı.")})
    deger = deger.strip()
    if not deger and not bos_olabilir:
        raise GecersizIstek(alanlar={alan: _("Boş olamaz.")})
    if len(deger) > en_cok:
        raise GecersizIstek(alanlar={alan: ngettext("En çok %(sayi)d karakter.", "En çok %(sayi)d karakter.", en_cok)
                                     % {"sayi": en_cok}})
    return deger


def _slug(deger, en_cok: int) -> str:
    deger = _zorunlu_metin("slug", deger, en_cok)
    try:
        validate_slug(deger)
    except ValidationError:
        raise GecersizIstek(alanlar={"slug": _("Yalnızca a-z, 0-9, - ve _ kullanılabilir.")}) from None
    return deger


def kb_kategori_kaydet(
    *, musteri, slug: str, ad: str, aciklama: str = "", sira: int = 0, kategori: KbKategori | None = None,
    ad_en: str | None = None, aciklama_en: str | None = None,
) -> KbKategori:
    """Create, or update the tenant's category with this slug (or `kategori` itself). `*_en`: its
    English version (issue 43); None leaves it as it is."""
    slug = _slug(slug, 150)
    ad = _zorunlu_metin("ad", ad, 150)
    aciklama = _zorunlu_metin("aciklama", aciklama or "", 2000, bos_olabilir=True)
    ingilizce = _ingilizce(ad_en=(ad_en, 150), aciklama_en=(aciklama_en, 2000))
    sira = _sira(sira)
    with transaction.atomic():
        if kategori is None:
            kategori = KbKategori.objects.kapsamda([musteri.id]).filter(slug=slug).first() or KbKategori(musteri=musteri)
        _slug_bos_mu(KbKategori, musteri=musteri, slug=slug, haric=kategori.pk)
        kategori.slug, kategori.ad, kategori.aciklama, kategori.sira = slug, ad, aciklama, sira
        for alan, deger in ingilizce.items():
            setattr(kategori, alan, deger)
        kategori.save()
    return kategori


def kb_makale_kaydet(
    *, musteri, slug: str, baslik: str, icerik: str = "", ozet: str = "", kategori: KbKategori | None = None,
    yayinda: bool = False, sira: int = 0, makale: KbMakale | None = None, icerik_markdown: str | None = None,
    baslik_en: str | None = None, ozet_en: str | None = None, icerik_markdown_en: str | None = None,
) -> KbMakale:
    """Create, or update the tenant's article with this slug (or `makale` itself).

    With `icerik_markdown` (the portal's editor) the body is that Markdown rendered, and the
    source is kept for the next edit; `icerik` is then ignored. `*_en`: the English version
    (issue 43), its body from Markdown as the Turkish one; None leaves it as it is. An English
    widget searches the English columns (each field English, else the project's own).
    """
    ingilizce = _ingilizce(baslik_en=(baslik_en, 200), ozet_en=(ozet_en, 500),
                           icerik_markdown_en=(icerik_markdown_en, 200_000))
    if "icerik_markdown_en" in ingilizce:
        ingilizce["icerik_en"] = metin.html_temizle(metin.markdown_html(ingilizce["icerik_markdown_en"]))
    slug = _slug(slug, 200)
    baslik = _zorunlu_metin("baslik", baslik, 200)
    ozet = _zorunlu_metin("ozet", ozet or "", 500, bos_olabilir=True)
    kaynak = ""
    if icerik_markdown is not None:
        kaynak = _zorunlu_metin("icerik_markdown", icerik_markdown, 200_000, bos_olabilir=True)
        icerik = metin.markdown_html(kaynak)
    icerik = _zorunlu_metin("icerik", icerik or "", 400_000, bos_olabilir=True)
    if not isinstance(yayinda, bool):
        raise GecersizIstek(alanlar={"yayinda": _("true ya da false olmalı.")})
    if kategori is not None and kategori.musteri_id != musteri.id:
        raise GecersizIstek(alanlar={"kategori": _("Kategori bu projeye ait değil.")})
    temiz = metin.html_temizle(icerik)
    duz = metin.duz_metin(temiz)
    with transaction.atomic():
        if makale is None:
            makale = KbMakale.objects.kapsamda([musteri.id]).filter(slug=slug).first() or KbMakale(musteri=musteri)
        _slug_bos_mu(KbMakale, musteri=musteri, slug=slug, haric=makale.pk)
        onceden_yayinda = makale.pk is not None and makale.yayinda
        makale.slug, makale.baslik, makale.ozet, makale.icerik = slug, baslik, ozet, temiz
        makale.icerik_markdown = kaynak
        for alan, deger in ingilizce.items():
            setattr(makale, alan, deger)
        makale.kategori, makale.yayinda, makale.sira = kategori, yayinda, _sira(sira)
        makale.duz_metin = duz
        makale.arama_baslik = metin.arama_metni(baslik)
        makale.arama_govde = metin.arama_metni(ozet, duz)
        # English search (CONTRACT 19): field by field the English version, else the project's own.
        makale.duz_metin_en = metin.duz_metin(makale.icerik_en) or duz
        makale.arama_baslik_en = metin.arama_metni(makale.baslik_en or baslik)
        makale.arama_govde_en = metin.arama_metni(makale.ozet_en or ozet, makale.duz_metin_en)
        makale.guncellenme = timezone.now()
        makale.save()
        _vektoru_guncelle(makale)
        if makale.yayinda and not onceden_yayinda:
            # The audit log's `makale_yayinlandi` (CONTRACT 18): a new published article, or a draft published.
            yayinla("makale_yayinlandi", musteri_id=musteri.id, veri={"makale_id": makale.pk, "baslik": makale.baslik})
    return makale


def _vektoru_guncelle(makale: KbMakale) -> None:
    if connection.vendor != "postgresql":
        return
    KbMakale.objects.filter(pk=makale.pk).update(arama_vektoru=arama_vektoru_ifadesi(),
                                                 arama_vektoru_en=arama_vektoru_ifadesi(dil="en"))


def arama_vektoru_ifadesi(dil: str = "tr"):
    """The tsvector, built from the Python-folded columns so `İADE`/`iade` and `I`/`ı` agree
    whatever the database's locale; the title weighs A, the body B (ranking, CONTRACT 5).

    Each text goes in twice: Turkish stems, and the whole words (`simple`). Snowball's Turkish
    stemmer cuts a bare word and its inflections differently ("iade" → `ia`, "iadeler" → `iade`),
    so the query's prefix term (the crude stem, `iad:*`) needs the whole words to match against.
    `dil="en"`: the English columns with English stems (`arama_vektoru_en`).
    """
    ek, config = ("_en", "english") if dil == "en" else ("", "turkish")
    return (
        SearchVector(f"arama_baslik{ek}", weight="A", config=config)
        + SearchVector(f"arama_baslik{ek}", weight="A", config="simple")
        + SearchVector(f"arama_govde{ek}", weight="B", config=config)
        + SearchVector(f"arama_govde{ek}", weight="B", config="simple")
    )


def kb_makale_goruntulendi(*, makale: KbMakale) -> None:
    # One UPDATE with F(): concurrent views never lose a count.
    KbMakale.objects.filter(pk=makale.pk).update(goruntulenme=F("goruntulenme") + 1)


def kampanya_kaydet(
    *, musteri, baslik: str, baslangic: datetime, bitis: datetime, icerik: str = "", gorsel_url: str = "",
    buton_metni: str = "", buton_url: str = "", aktif: bool = True, kampanya: Kampanya | None = None,
    gorsel: Dosya | None = None, gorsel_kaldir: bool = False,
    baslik_en: str | None = None, icerik_en: str | None = None, buton_metni_en: str | None = None,
) -> Kampanya:
    """Create a campaign, or update `kampanya` (the command matches existing ones by title).
    `*_en`: its English version (issue 43); None leaves it as it is."""
    ingilizce = _ingilizce(baslik_en=(baslik_en, 200), icerik_en=(icerik_en, 5000), buton_metni_en=(buton_metni_en, 60))
    baslik = _zorunlu_metin("baslik", baslik, 200)
    icerik = _zorunlu_metin("icerik", icerik or "", 5000, bos_olabilir=True)
    buton_metni = _zorunlu_metin("buton_metni", buton_metni or "", 60, bos_olabilir=True)
    gorsel_url, buton_url = _url("gorsel_url", gorsel_url), _url("buton_url", buton_url)
    for alan, zaman in (("baslangic", baslangic), ("bitis", bitis)):
        if not isinstance(zaman, datetime) or timezone.is_naive(zaman):
            raise GecersizIstek(alanlar={alan: _("Saat dilimli bir tarih-saat olmalı.")})
    if bitis <= baslangic:
        raise GecersizIstek(alanlar={"bitis": _("Bitiş başlangıçtan sonra olmalı.")})
    if not isinstance(aktif, bool):
        raise GecersizIstek(alanlar={"aktif": _("true ya da false olmalı.")})
    with transaction.atomic():
        kampanya = kampanya or Kampanya(musteri=musteri)
        for alan, deger in dict(baslik=baslik, icerik=icerik, gorsel_url=gorsel_url, buton_metni=buton_metni,
                                buton_url=buton_url, baslangic=baslangic, bitis=bitis, aktif=aktif, **ingilizce).items():
            setattr(kampanya, alan, deger)
        if gorsel is not None:
            if gorsel.musteri_id != musteri.id:
                raise GecersizIstek(alanlar={"gorsel": _("Görsel bu projeye ait değil.")})
            kampanya.gorsel = gorsel
        elif gorsel_kaldir:
            kampanya.gorsel = None
        kampanya.save()
    return kampanya


KAMPANYA_GORSEL_TIPLERI = {"image/png", "image/jpeg", "image/gif", "image/webp"}


def kampanya_gorseli_yukle(*, musteri, dosya) -> Dosya:
    """A campaign image, stored by `dosyalar.services.dosya_yukle` (size and content rules of
    CONTRACT 5) and then limited to images. It belongs to the project, not to a visitor: its
    `ziyaretci_id` is empty, which no widget call can name, so no visitor can attach it."""
    if dosya.size and dosya.size <= EN_BUYUK_BOYUT and mime_tipi_bul(dosya) not in KAMPANYA_GORSEL_TIPLERI:
        raise DesteklenmeyenDosya(_("Görsel PNG, JPEG, GIF ya da WebP olmalı."))
    return dosya_yukle(musteri=musteri, ziyaretci_id="", dosya=dosya)


def _ingilizce(**alanlar: tuple[str | None, int]) -> dict[str, str]:
    """The English fields given (not None), checked as their Turkish ones; empty is allowed (the
    widget then shows the Turkish text)."""
    return {alan: _zorunlu_metin(alan, deger, en_cok, bos_olabilir=True)
            for alan, (deger, en_cok) in alanlar.items() if deger is not None}


def _url(alan: str, deger) -> str:
    deger = _zorunlu_metin(alan, deger or "", 500, bos_olabilir=True)
    if deger:
        try:
            HTTP_URL(deger)
        except ValidationError:
            raise GecersizIstek(alanlar={alan: _("http(s) ile başlayan geçerli bir adres olmalı.")}) from None
    return deger


def _sira(deger) -> int:
    if isinstance(deger, bool) or not isinstance(deger, int) or not 0 <= deger <= 1_000_000:
        raise GecersizIstek(alanlar={"sira": _("0 ya da pozitif bir tam sayı olmalı.")})
    return deger


def _slug_bos_mu(model, *, musteri, slug: str, haric) -> None:
    if model.objects.kapsamda([musteri.id]).filter(slug=slug).exclude(pk=haric).exists():
        raise GecersizIstek(alanlar={"slug": _("Bu projede bu slug zaten kullanılıyor.")})


def kb_slug_uret(*, musteri, baslik: str, model=KbMakale, haric=None) -> str:
    """A free slug of the tenant from a (Turkish) title: `fatura`, then `fatura-2`, `fatura-3`..."""
    en_cok = model._meta.get_field("slug").max_length
    kok = metin.slug_yap(baslik, en_cok - 6)
    alinmis = set(model.objects.kapsamda([musteri.id]).filter(slug__startswith=kok).exclude(pk=haric)
                  .values_list("slug", flat=True))
    aday, n = kok, 1
    while aday in alinmis:
        n += 1
        aday = f"{kok}-{n}"
    return aday


@transaction.atomic
def kb_makale_sil(*, makale: KbMakale) -> None:
    yayinla("makale_silindi", musteri_id=makale.musteri_id, veri={"makale_id": makale.pk, "baslik": makale.baslik})
    makale.delete()


@transaction.atomic
def kb_kategori_sil(*, kategori: KbKategori) -> None:
    """Delete a category; its articles stay, without a category (SET_NULL)."""
    kategori.delete()


@transaction.atomic
def kampanya_sil(*, kampanya: Kampanya) -> None:
    kampanya.delete()

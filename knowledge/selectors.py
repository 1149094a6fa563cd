"""Reads of the knowledge base and campaigns: only the caller's tenant, only published articles."""
import html
import re
from datetime import datetime

from django.contrib.postgres.search import SearchHeadline, SearchQuery, SearchRank
from django.db import connection
from django.db.models import Case, Count, F, Func, Q, QuerySet, Value, When, prefetch_related_objects
from django.utils import timezone

from supportdesk.core.derlenmis_sorgu import DerlenmisSorgu
from supportdesk.core.exceptions import Bulunamadi
from supportdesk.core.girdi import gecerli_id_mi
from supportdesk.core.katlama import ASCII, TABLO, TURKCE

from . import metin
from .models import Kampanya, KbKategori, KbMakale

# Sentinels around matches: the snippet is HTML-escaped first, then these become <mark>, so
# article text can never inject markup into the widget.
_BAS, _SON = "\x02", "\x03"
_AYRAC = " … "
# Title matches rank far above body matches (weights D, C, B, A).
AGIRLIKLAR = [0.02, 0.05, 0.2, 1.0]
SADECE_BASLIK = [0.0, 0.0, 0.0, 1.0]
FALLBACK_EN_COK = 500
EN_COK_KELIME = 8


def kb_kategori_list(*, musteri) -> QuerySet[KbKategori]:
    return (
        KbKategori.objects.kapsamda([musteri.id])
        .annotate(makale_sayisi=Count("makaleler", filter=Q(makaleler__yayinda=True)))
        .order_by("sira", "id")
    )


def kb_makale_list(*, musteri, kategori_slug: str | None = None) -> QuerySet[KbMakale]:
    qs = KbMakale.objects.kapsamda([musteri.id]).filter(yayinda=True).select_related("kategori")
    if kategori_slug:
        qs = qs.filter(kategori__slug=kategori_slug)
    return qs


def kb_kategori_bul(*, musteri, slug: str) -> KbKategori | None:
    """The tenant's category with this slug, any state (for writers: import, portal)."""
    return KbKategori.objects.kapsamda([musteri.id]).filter(slug=slug).first()


def kampanya_bul(*, musteri, baslik: str) -> Kampanya | None:
    """The tenant's oldest campaign with this title (imports match campaigns by title)."""
    return Kampanya.objects.kapsamda([musteri.id]).filter(baslik=baslik).order_by("id").first()


def kb_makale_get(*, musteri, slug: str) -> KbMakale:
    """A published article of the tenant; the same 404 for missing, unpublished and foreign."""
    if len(slug) > (KbMakale._meta.get_field("slug").max_length or 0) or not slug.isprintable():
        # No article has such a slug; and a NUL in the path must not reach PostgreSQL, which refuses it.
        raise Bulunamadi()
    try:
        return kb_makale_list(musteri=musteri).get(slug=slug)
    except KbMakale.DoesNotExist:
        raise Bulunamadi() from None


def kb_makale_ara(*, musteri, q: str, kategori_slug: str | None = None, limit: int = 20,
                  dil: str = "tr") -> list[KbMakale]:
    """Published articles matching `q`, best first, each with a highlighted snippet in `vurgu`
    and its rank in `skor` (CONTRACT 5). An empty `q` lists them in order, with no snippet.
    `dil="en"` (an English widget, CONTRACT 19): the English columns, each field the article's
    English version or else its own, English stems and fillers; the snippet is of that text."""
    if not q:
        qs = kb_makale_list(musteri=musteri, kategori_slug=kategori_slug)
        return list(qs.annotate(vurgu=Value("")).order_by("sira", "id")[:limit])
    ingilizce = dil == "en"
    katlanmis = " ".join(metin.anlamli_kelimeler(q, dolgu=metin.DOLGU_EN if ingilizce else metin.DOLGU))
    if not katlanmis:
        return []
    qs = kb_makale_list(musteri=musteri, kategori_slug=kategori_slug)
    if connection.vendor == "postgresql":
        return _postgres_ara(qs, katlanmis, limit, ingilizce=ingilizce)
    return _basit_ara(qs, katlanmis, limit, ingilizce=ingilizce)


def _postgres_sorgusu(katlanmis: str, *, ingilizce: bool = False) -> SearchQuery | None:
    """Each word matches by its Turkish stem or by the prefix of its crude stem; any word may
    match (a question like "kargom nerede" still finds the cargo article) and the rank rewards
    articles matching more of them.

    The prefix half is needed because Snowball's Turkish stemmer is not consistent across
    inflections ("fatura" → `fatur`, "faturamı" → `fatura`). The text holds only \\w characters
    (see `metin.kelimeler`), so the raw prefix term cannot carry tsquery syntax.
    """
    sorgu = None
    for kelime in list(dict.fromkeys(katlanmis.split()))[:EN_COK_KELIME]:
        terim = SearchQuery(kelime, config="english" if ingilizce else "turkish", search_type="plain")
        kok = metin.kok_en(kelime) if ingilizce else metin.kok(kelime)
        if len(kok) >= metin.EN_KISA_KOK:
            terim = terim | SearchQuery(f"{kok}:*", config="simple", search_type="raw")
        sorgu = terim if sorgu is None else sorgu | terim
    return sorgu


def _postgres_ara(qs, katlanmis: str, limit: int, *, ingilizce: bool = False) -> list[KbMakale]:
    sorgu = _postgres_sorgusu(katlanmis, ingilizce=ingilizce)
    if sorgu is None:
        return []
    vektor, duz = ("arama_vektoru_en", "duz_metin_en") if ingilizce else ("arama_vektoru", "duz_metin")
    rows = (
        qs.filter(**{vektor: sorgu})
        .annotate(
            skor=SearchRank(F(vektor), sorgu, weights=AGIRLIKLAR),
            baslik_skor=SearchRank(F(vektor), sorgu, weights=SADECE_BASLIK),
            # Headline over the text with its Turkish letters pre-folded to ASCII, as the search
            # columns are (and the database's lower() gets I/İ wrong for Turkish);
            # `_asli_harfler` puts the original letters back. Parsed into whole
            # words (`simple`): the query's prefix term marks every inflection of a word, where
            # Turkish stems of the text would miss some (see `services.arama_vektoru_ifadesi`).
            vurgu=SearchHeadline(
                Func(F(duz), Value(TURKCE), Value(ASCII), function="translate"), sorgu,
                config="simple", start_sel=_BAS, stop_sel=_SON,
                max_words=35, min_words=15, max_fragments=2, fragment_delimiter=_AYRAC,
            ),
        )
        # A title match always outranks body-only matches, however often the body repeats the
        # word (ts_rank alone lets many B hits approach one A hit).
        .annotate(baslikta=Case(When(baslik_skor__gt=0, then=Value(1)), default=Value(0)))
        .order_by("-baslikta", "-skor", "sira", "id")[:limit]
    )
    makaleler = list(rows)
    for m in makaleler:
        m.vurgu, m.skor = _isaretle(_asli_harfler(m.vurgu, getattr(m, duz))), float(m.skor)
    return makaleler


def _asli_harfler(vurgu: str, orijinal: str) -> str:
    """Map each headline fragment back onto the original text (folding kept every length)."""
    katli = orijinal.translate(TABLO)
    parcalar = []
    for parca in (vurgu or "").split(_AYRAC):
        duz = parca.replace(_BAS, "").replace(_SON, "")
        konum = katli.find(duz) if duz else -1
        if konum < 0:
            parcalar.append(parca)
            continue
        asli = iter(orijinal[konum:konum + len(duz)])
        parcalar.append("".join(ch if ch in (_BAS, _SON) else next(asli) for ch in parca))
    return _AYRAC.join(parcalar)


def _basit_ara(qs, katlanmis: str, limit: int, *, ingilizce: bool = False) -> list[KbMakale]:
    """SQLite fallback: Turkish-folded word-prefix match on crude stems, ranked in Python."""
    kokcu, ek = (metin.kok_en, "_en") if ingilizce else (metin.kok, "")
    kokler = list(dict.fromkeys(kokcu(k) for k in katlanmis.split()))[:EN_COK_KELIME]
    kosul = Q()
    for kok in kokler:
        kosul |= Q(**{f"arama_baslik{ek}__contains": " " + kok}) | Q(**{f"arama_govde{ek}__contains": " " + kok})
    qs = qs.filter(kosul)
    sonuclar = list(qs.order_by("sira", "id")[:FALLBACK_EN_COK])
    for makale in sonuclar:
        baslik, govde = getattr(makale, f"arama_baslik{ek}"), getattr(makale, f"arama_govde{ek}")
        baslikta = sum(1 for k in kokler if " " + k in baslik)
        govdede = sum(govde.count(" " + k) for k in kokler)
        # Words found in the title first (as on PostgreSQL), then body hits, capped per article.
        makale.skor = 100.0 * baslikta + min(govdede, 99)
        makale.vurgu = _basit_vurgu(getattr(makale, f"duz_metin{ek}"), kokler)
    sonuclar.sort(key=lambda m: (-m.skor, m.sira, m.id))
    return sonuclar[:limit]


def _basit_vurgu(duz: str, kokler: list[str], genislik: int = 200) -> str:
    katli = metin.arama_katla(duz)  # same length as `duz`, so positions carry over
    desen = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(k) for k in kokler) + r")\w*")
    ilk = desen.search(katli)
    bas = 0 if ilk is None else max(0, ilk.start() - 60)
    if bas and ilk is not None:
        bosluk = duz.find(" ", bas)
        bas = bosluk + 1 if 0 <= bosluk < ilk.start() else bas
    son = min(len(duz), bas + genislik)
    parca, parca_katli = duz[bas:son], katli[bas:son]
    out, konum = [], 0
    for eslesme in desen.finditer(parca_katli):
        out += [parca[konum:eslesme.start()], _BAS, parca[eslesme.start():eslesme.end()], _SON]
        konum = eslesme.end()
    out.append(parca[konum:])
    return _isaretle(("… " if bas else "") + "".join(out) + (" …" if son < len(duz) else ""))


def _isaretle(vurgu: str | None) -> str:
    return html.escape(vurgu or "", quote=False).replace(_BAS, "<mark>").replace(_SON, "</mark>")


def _aktif_kampanyalar(musteri_id, simdi):
    return Kampanya.objects.kapsamda([musteri_id]).filter(aktif=True, baslangic__lte=simdi, bitis__gt=simdi).order_by(
        "baslangic", "id")


# Asked on every page view of a tenant's site (static/widget): built and compiled once per process.
_AKTIF_KAMPANYALAR = DerlenmisSorgu(_aktif_kampanyalar, parametreler={"musteri_id": int, "simdi": datetime})


def kampanya_aktif_list(*, musteri, simdi: datetime | None = None) -> list[Kampanya]:
    """Active campaigns whose window [baslangic, bitis) contains now: instants compared in UTC, so
    a campaign ends at its stored moment whatever the tenant's or server's time zone. Their
    uploaded images come in a second statement, only when a campaign has one."""
    kampanyalar = _AKTIF_KAMPANYALAR(musteri_id=musteri.id, simdi=simdi or timezone.now())
    prefetch_related_objects([k for k in kampanyalar if k.gorsel_id], "gorsel")
    return kampanyalar


# --- for the tenant's own editors (the portal): every article, published or not -----------------
def kb_yonetim_makale_list(*, musteri) -> QuerySet[KbMakale]:
    return KbMakale.objects.kapsamda([musteri.id]).select_related("kategori").order_by("kategori__sira", "sira", "id")


def kb_yonetim_makale_get(*, musteri, makale_id: int) -> KbMakale:
    """Any article of the tenant by id; the same 404 for missing and another tenant's."""
    makale = kb_yonetim_makale_list(musteri=musteri).filter(pk=makale_id).first() if gecerli_id_mi(makale_id) else None
    if makale is None:
        raise Bulunamadi()
    return makale


def kb_kategori_get(*, musteri, kategori_id: int) -> KbKategori:
    kategori = KbKategori.objects.kapsamda([musteri.id]).filter(pk=kategori_id).first() if gecerli_id_mi(kategori_id) else None
    if kategori is None:
        raise Bulunamadi()
    return kategori


def kampanya_list(*, musteri) -> QuerySet[Kampanya]:
    return Kampanya.objects.kapsamda([musteri.id]).select_related("gorsel").order_by("-baslangic", "-id")


def kampanya_get(*, musteri, kampanya_id: int) -> Kampanya:
    kampanya = kampanya_list(musteri=musteri).filter(pk=kampanya_id).first() if gecerli_id_mi(kampanya_id) else None
    if kampanya is None:
        raise Bulunamadi()
    return kampanya

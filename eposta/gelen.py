"""Reading an inbound RFC 822 message (CONTRACT 14): the standard library's `email` package with
policy `default`, the reply text without quoted history and signature, HTML-only mail as text,
the attachments. Pure functions, no database: the service decides what to store."""
import hashlib
import re
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.parser import BytesParser
from email.policy import EmailPolicy
from email.utils import getaddresses
from html import unescape

ALICI_BASLIKLARI = ("To", "Cc")
# Added by the receiving MTA for the one address this copy was delivered to (Postfix's local and
# pipe delivery, Exim, qmail, most providers), the newest on top.
TESLIM_BASLIKLARI = ("Delivered-To", "X-Original-To", "Envelope-To")
# What reading one message may cost. The header registry's parser takes microseconds a character,
# more on some values (quadratic: a To: of 40 000 `"` took 16 s), and the feed parser parses each
# part's Content-Type several times: 1 MB of long Content-Type headers took 15 s, and 100 KB of
# empty MIME parts 0.8 s. Real mail is far below these bounds; a message over them is unreadable.
BASLIK_MAX = 1000  # characters of one header value that the registry parses (the rest is cut)
BASLIK_BUTCESI = 50_000  # characters it parses for one message, all parts together (~80 attachments)
PARCA_MAX = 200  # MIME parts


class OkunamayanEposta(ValueError):
    """Not a mail we can read: no sender, no recipient, not RFC 822 at all, or too costly."""


class _SinirliPolitika(EmailPolicy):
    """policy.default within the bounds above, for one message (a new instance each time)."""

    def __init__(self, **kw):
        super().__init__(**kw)
        # A policy is immutable: this message's counters live in a dict it holds.
        object.__setattr__(self, "_sayac", {"karakter": 0, "parca": 0})
        object.__setattr__(self, "message_factory", self._parca)

    def _parca(self, policy=None) -> EmailMessage:
        self._sayac["parca"] += 1
        if self._sayac["parca"] > PARCA_MAX:
            raise OkunamayanEposta(f"E-postada {PARCA_MAX} parçadan fazlası var.")  # ceviri: yok
        return EmailMessage(policy=policy or self)

    def header_fetch_parse(self, name, value):
        if not hasattr(value, "name"):  # not parsed yet (as in EmailPolicy.header_fetch_parse)
            value = value[:BASLIK_MAX]
            self._sayac["karakter"] += len(value)
            if self._sayac["karakter"] > BASLIK_BUTCESI:
                raise OkunamayanEposta("E-postanın başlıkları çok uzun.")  # ceviri: yok
        return super().header_fetch_parse(name, value)


@dataclass
class Ek:
    ad: str
    veri: bytes


@dataclass
class OkunanEposta:
    message_id: str
    gonderen: str
    gonderen_adi: str
    alicilar: list[str]  # To and Cc
    teslim_alicilari: list[str]  # Delivered-To, X-Original-To, Envelope-To, in the message's order
    konu: str
    metin: str  # the new text only: quoted history and signature removed
    ekler: list[Ek] = field(default_factory=list)
    otomatik: str = ""  # what marks it as sent by a machine (an auto-reply, a bounce, bulk mail), else ""


def eposta_oku(ham: bytes) -> OkunanEposta:
    try:
        mesaj = BytesParser(policy=_SinirliPolitika()).parsebytes(ham)
        gonderenler = getaddresses([str(h) for h in mesaj.get_all("From", [])])
        alicilar = _adresler(mesaj, ALICI_BASLIKLARI)
        teslim_alicilari = _adresler(mesaj, TESLIM_BASLIKLARI)
        konu = str(mesaj.get("Subject", "") or "")
        message_id = str(mesaj.get("Message-ID", "") or "").strip()
    except Exception as exc:  # the parser's header classes raise on some broken headers
        raise OkunamayanEposta(str(exc)) from exc
    gonderen_adi, gonderen = gonderenler[0] if gonderenler else ("", "")
    if "@" not in gonderen or not (alicilar or teslim_alicilari):
        raise OkunamayanEposta("Gönderen ya da alıcı yok.")  # ceviri: yok (internal: services answers its own message)
    if not message_id:
        # No Message-ID: the message's own bytes stand in, so a re-delivery is still stored once.
        message_id = f"<sha256-{hashlib.sha256(ham).hexdigest()}@gelen>"
    return OkunanEposta(
        message_id=message_id[:255], gonderen=gonderen.lower(), gonderen_adi=gonderen_adi.strip(),
        alicilar=alicilar, teslim_alicilari=teslim_alicilari, konu=" ".join(konu.split()),
        metin=alintiyi_ayikla(_govde(mesaj)), ekler=_ekler(mesaj), otomatik=otomatik_isareti(mesaj),
    )


def _ham_degerler(mesaj: EmailMessage, adlar: tuple[str, ...]) -> list[str]:
    """The raw values of these fields in the message's order, unfolded, 8-bit bytes read as UTF-8
    (as the header registry reads them), not parsed."""
    istenen = {ad.lower() for ad in adlar}
    return [str(deger).replace("\r", "").replace("\n", "").encode("utf-8", "surrogateescape").decode("utf-8", "replace")
            for ad, deger in mesaj.raw_items() if ad.lower() in istenen]


def _adresler(mesaj: EmailMessage, adlar: tuple[str, ...]) -> list[str]:
    """The addresses of these fields, read with `getaddresses` (linear), not through the header
    registry: a list of recipients may be long, and all of it counts."""
    return [adres for _, adres in getaddresses(_ham_degerler(mesaj, adlar)) if adres]


# Mail sent by a machine, not a person (RFC 3834 and the conventions before it), as Zammad
# (AutoResponseCheck), Chatwoot (auto_reply?) and FreeScout (isAutoResponder) tell it: it must
# neither reopen a ticket nor open one, or two auto-responders answer each other for ever.
_TOPLU = frozenset({"bulk", "junk", "list", "auto_reply"})


def _belirtec(deger: str) -> str:
    return deger.split(";")[0].strip().lower()


_OTOMATIK = (
    ("Auto-Submitted", lambda d: _belirtec(d) != "no"),  # RFC 3834: anything but "no"
    ("Precedence", lambda d: _belirtec(d) in _TOPLU),
    ("X-Precedence", lambda d: _belirtec(d) in _TOPLU),
    ("X-Autoreply", lambda d: _belirtec(d) not in ("no", "false")),
    ("X-Autorespond", lambda d: True),
    ("X-Auto-Response-Suppress", lambda d: "all" in {p.strip().lower() for p in d.split(",")}),  # Exchange
    ("X-Loop", lambda d: _belirtec(d) in ("yes", "true")),
)


def otomatik_isareti(mesaj: EmailMessage) -> str:
    """The header ("name: value") that marks this message as automatic, or ""."""
    for ad, otomatik_mi in _OTOMATIK:
        for deger in _ham_degerler(mesaj, (ad,))[:1]:
            deger = deger[:200].strip()
            if deger and otomatik_mi(deger):
                return f"{ad}: {deger}"
    if mesaj.get_content_type() == "multipart/report":  # a bounce (DSN) or a read receipt (MDN)
        return "Content-Type: multipart/report"
    return ""


def _govde(mesaj: EmailMessage) -> str:
    parca = mesaj.get_body(preferencelist=("plain",))
    if parca is not None:
        return _icerik(parca)
    parca = mesaj.get_body(preferencelist=("html",))
    return html_metne(_icerik(parca)) if parca is not None else ""


def _icerik(parca) -> str:
    try:
        return parca.get_content()
    except (LookupError, UnicodeError):  # an unknown or lying charset
        return (parca.get_payload(decode=True) or b"").decode("utf-8", errors="replace")


def _ekler(mesaj: EmailMessage) -> list[Ek]:
    ekler = []
    for parca in mesaj.walk():
        if parca.is_multipart() or parca.get_content_disposition() not in ("attachment", "inline"):
            continue
        ad = parca.get_filename()
        if not ad and parca.get_content_disposition() == "inline":
            continue  # an inline text part of the body, not a file
        ekler.append(Ek(ad=ad or "ek", veri=parca.get_payload(decode=True) or b""))
    return ekler


# --- quoted history and signature -----------------------------------------------------------
# Every marker is matched on a line already stripped and at most SATIR_MAX characters long, and
# no pattern has two repeats that can take the same characters (`\s*` before `.+`, one bounded
# repeat inside another): each line costs time linear in its length, so the whole text is linear
# in its size. (`^\s*(…|.+(dan|den) gönderildi)\s*$` on a line of 20 000 spaces took 17 s.)
SATIR_MAX = 700  # the longest marker: "On <300 characters> wrote:" wrapped over two lines
# A reply is stored up to 20 000 characters (services.YANIT_MAX): reading more of a body changes
# nothing that is kept and only costs time.
METIN_MAX = 100_000
_GMAIL_EN = re.compile(r"On\b.{0,300}\bwrote:", re.IGNORECASE)  # Gmail, Apple Mail
_GMAIL_TR_TARIH = re.compile(r"tarihinde", re.IGNORECASE)
_GMAIL_TR_SON = re.compile(r"yazdı:", re.IGNORECASE)  # ceviri: yok (senders' mail clients' markers)
_ORIJINAL = re.compile(r"-{2,}\s*(Original Message|Orijinal Mesaj|Özgün İleti|Özgün ileti)\s*-{2,}", re.IGNORECASE)  # ceviri: yok
_OUTLOOK_CIZGI = re.compile(r"_{10,}")  # Outlook's rule above the quoted header block
_OUTLOOK_BASLIK = re.compile(r"\*?(From|Kimden|Gönderen)\s*:\*?\s", re.IGNORECASE)  # ceviri: yok (senders' mail clients' markers)
_OUTLOOK_TARIH = re.compile(r"\*?(Sent|Date|Gönderildi|Gönderilme|Tarih)\s*:\*?\s", re.IGNORECASE)  # ceviri: yok
_IMZA = re.compile(r"-- ?")
_MOBIL_IMZA = re.compile(r"Sent from my .+|Get Outlook for .+|.+(dan|den|tan|ten) gönderildi\.?", re.IGNORECASE)  # ceviri: yok
MOBIL_IMZA_MAX = 200


def _alinti_basi(s: str) -> bool:
    """`s`: a stripped line (or two joined) of at most SATIR_MAX characters."""
    if _GMAIL_EN.fullmatch(s):
        return True
    # Gmail in Turkish: "23 Kas 2026 Pzt, 20:00 tarihinde Anadolu <destek@x> şunu yazdı:"
    return len(s) <= 620 and _GMAIL_TR_SON.fullmatch(s[-6:]) is not None and _GMAIL_TR_TARIH.search(s, 0, 309) is not None


def _kisa(satir: str) -> str | None:
    """The line stripped, or None when it is too long to be a marker (then no pattern sees it)."""
    s = satir.strip()
    return s if len(s) <= SATIR_MAX else None


def alintiyi_ayikla(metin: str) -> str:
    """The newly written part of a reply: up to the first quoted-history marker (a "On … wrote:"
    line, possibly wrapped over two lines; Outlook's rule or From/Sent block; "-----Original
    Message-----"; a run of `>` lines), without a signature after "-- " or a "Sent from my …"
    line. When nothing would be left, the whole text is kept: losing a message is worse."""
    metin = metin[:METIN_MAX]
    satirlar = metin.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    kisalar = [_kisa(satir) for satir in satirlar]
    son = len(satirlar)
    for i, satir in enumerate(satirlar):
        if satir.startswith(">") or _IMZA.fullmatch(satir):
            son = i
            break
        s = kisalar[i]
        if s is None:
            continue
        sonraki = kisalar[i + 1] if i + 1 < len(satirlar) else ""
        iki = f"{s} {sonraki}".strip() if sonraki is not None else None
        if _alinti_basi(s) or _ORIJINAL.match(s) or _OUTLOOK_CIZGI.fullmatch(s) or (
            iki is not None and len(iki) <= SATIR_MAX and iki.endswith(":") and _alinti_basi(iki)
        ):
            son = i
            break
        if _OUTLOOK_BASLIK.match(s) and any(k is not None and _OUTLOOK_TARIH.match(k) for k in kisalar[i + 1:i + 4]):
            son = i
            break
    yeni = satirlar[:son]
    while yeni and (not yeni[-1].strip() or _mobil_imza(yeni[-1])):
        yeni.pop()
    sonuc = "\n".join(s.rstrip() for s in yeni).strip()
    return sonuc or metin.strip()


def _mobil_imza(satir: str) -> bool:
    s = satir.strip()
    return len(s) <= MOBIL_IMZA_MAX and _MOBIL_IMZA.fullmatch(s) is not None


# --- HTML-only mail -------------------------------------------------------------------------
# Our own small tokenizer, not html.parser: on Python 3.11 HTMLParser is quadratic on constructs
# left open (80 KB of "<p\t" took 83 s, of "<!--" 4 s) and raises AssertionError on "<![<![".
# This one only moves forward (str.find, and patterns bounded to one tag), so it is linear; a
# comment, tag or script left open runs to the end, as in HTML5.
HTML_MAX = 500_000  # the new text is at the top; the rest is quoted history, styles, markup
_BLOK = frozenset({"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "table", "hr", "ul", "ol"})
_ETIKET = re.compile(r"<(/?)([A-Za-z][^\s/>]*)([^>]*)>")
# Raw text left out with its content (the text of <head> is its <title> and <style>).
_ATLA = {ad: re.compile(rf"</{ad}", re.IGNORECASE) for ad in ("script", "style", "title")}


def html_metne(html: str) -> str:
    html = html[:HTML_MAX]
    parcalar: list[str] = []
    alinti = 0  # inside quoted history (Gmail, Apple Mail, Thunderbird): left out
    i, n = 0, len(html)
    while i < n:
        j = html.find("<", i)
        j = n if j < 0 else j
        if j > i and not alinti:
            parcalar.append(unescape(html[i:j]))
        if j == n:
            break
        if html.startswith("<!--", j):
            k = html.find("-->", j + 4)
            i = n if k < 0 else k + 3
            continue
        ikinci = html[j + 1:j + 2]
        if not (ikinci.isascii() and ikinci.isalpha()) and ikinci not in ("/", "!", "?"):
            if not alinti:
                parcalar.append("<")  # "a < b" is text
            i = j + 1
            continue
        k = html.find(">", j + 1)
        if k < 0:
            break  # a tag cut off by the end of the text
        i = k + 1
        etiket = _ETIKET.match(html, j, i)
        if etiket is None:
            continue  # <!doctype>, <?xml?>, </ >: nothing to show
        kapanis, ad, oznitelikler = etiket.group(1) == "/", etiket.group(2).lower(), etiket.group(3)
        if not kapanis and ad in _ATLA:
            son = _ATLA[ad].search(html, i)
            i = n if son is None else son.start()
            continue
        if not kapanis:
            if ad == "blockquote" or "gmail_quote" in oznitelikler:
                alinti += 1
            elif ad in _BLOK:
                parcalar.append("\n")
        if kapanis or oznitelikler.endswith("/"):
            if ad == "blockquote":
                alinti = max(0, alinti - 1)
            elif ad in _BLOK:
                parcalar.append("\n")
    satirlar = [" ".join(s.split()) for s in "".join(parcalar).split("\n")]
    metin = "\n".join(satirlar)
    return re.sub(r"\n{3,}", "\n\n", metin).strip()

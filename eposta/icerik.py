"""The two parts of a mail: plain text and HTML in the tenant's name and colour, and the
one-line header values made from people's text. Both are written in the active language: a
caller builds a mail inside `supportdesk.core.dil.dilde(...)` (its visitor's or member's)."""
import re
from dataclasses import dataclass, field

from django.template.loader import render_to_string
from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

VARSAYILAN_RENK = "#2563EB"
# CR, LF and the other control characters (C0, DEL, C1, Unicode's line and paragraph separators).
_KONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")


def tek_satir(deger: str) -> str:
    """A header value made from people's text (a ticket's subject, a project's name, a sender's
    Message-ID) on one line: every run of control characters becomes one space. The widget takes
    a subject with CR/LF; in a header it would start a line of its own ("Bcc: …"), and Django
    refuses such a mail (BadHeaderError), so it was retried until it failed for good."""
    return _KONTROL.sub(" ", deger).strip()


# Visitor-written text in a mail is never a link: the HTML part is escaped and nothing is made a
# link, but mail clients link URLs, domains and addresses they see in either part by themselves,
# so a stranger could make our mail carry its link (the widget mails a receipt to any address).
# Such text is "defanged" the way security advisories write hostile links: `hxxps[://]` for a
# scheme and `[.]` for a dot between a name and a label that starts with a letter
# (`example[.]com`, `a@b[.]org`, `www[.]site[.]tr`); a reader still reads it, no client links it.
_SEMA = re.compile(r"\b([a-z][a-z0-9+.-]{0,30})://", re.IGNORECASE)
_HTTP = re.compile(r"\b(h)tt(ps?)\b", re.IGNORECASE)
_NOKTA = re.compile(r"(?<=[^\W_])[.\u3002\uff0e\uff61](?=[^\W\d_])")


def baglantisiz(metin: str) -> str:
    """People's text as it may appear in a mail without any client making a link of it."""
    metin = _SEMA.sub(lambda m: _HTTP.sub(r"\1xx\2", m.group(1)) + "[://]", metin)
    return _NOKTA.sub("[.]", metin)


@dataclass
class Icerik:
    konu: str
    baslik: str
    paragraflar: list[str] = field(default_factory=list)
    # Quoted material: a reply's text, a chat transcript (lines), shown as text, never as HTML.
    alinti: list[str] = field(default_factory=list)
    # The same quote as sanitized HTML (an operator's reply, tickets.bicim): the HTML part shows
    # it instead of `alinti`, which the text part keeps as typed.
    alinti_html: str = ""
    baglantilar: list[tuple[str, str]] = field(default_factory=list)  # (name, url): attachments
    dugme: tuple[str, str] | None = None  # (label, url)
    dipnot: str = ""


def metin_olustur(icerik: Icerik, *, firma_adi: str, durdur_url: str | None) -> str:
    satirlar = [icerik.baslik, "", *_aralikli(icerik.paragraflar)]
    if icerik.alinti:
        satirlar += ["", *("> " + s if s else ">" for s in icerik.alinti)]
    if icerik.baglantilar:
        satirlar += ["", _("Ekler:"), *(f"- {ad}: {url}" for ad, url in icerik.baglantilar)]
    if icerik.dugme:
        satirlar += ["", f"{icerik.dugme[0]}: {icerik.dugme[1]}"]
    satirlar += ["", "--", firma_adi]
    if icerik.dipnot:
        satirlar.append(icerik.dipnot)
    if durdur_url:
        satirlar.append(_("Bu e-postaları almak istemiyorsanız: %(url)s") % {"url": durdur_url})
    return "\n".join(satirlar) + "\n"


def html_olustur(icerik: Icerik, *, firma_adi: str, renk: str, durdur_url: str | None) -> str:
    # Autoescaped template: visitor and operator text never becomes markup.
    return render_to_string("eposta/mail.html", {
        "icerik": icerik, "firma_adi": firma_adi, "renk": renk or VARSAYILAN_RENK, "durdur_url": durdur_url,
    })


def tarih(deger) -> str:
    """A date in the active language's mail format (Turkish: 26.11.2026)."""
    return formats.date_format(deger, pgettext("e-posta tarih biçimi", "d.m.Y"))


def tarih_saat(deger) -> str:
    """A date and time in the active language's mail format (Turkish: 26.11.2026 17:05)."""
    return formats.date_format(deger, pgettext("e-posta tarih ve saat biçimi", "d.m.Y H:i"))


def _aralikli(paragraflar: list[str]) -> list[str]:
    cikti: list[str] = []
    for p in paragraflar:
        if cikti:
            cikti.append("")
        cikti.append(p)
    return cikti

"""How a ticket reply's text is shown: a small, safe subset of Markdown (docs/api.md, "Ticket
reply text"). The console and the widget build the same subset as DOM nodes in the browser
(static/panel/bicim.js, and its copy in static/widget/widget.js); this is the server's half, for
the HTML part of the ticket-reply mail (the text part keeps the Markdown as typed).

The subset: paragraphs and line breaks, `**bold**` / `__bold__`, `*italic*` / `_italic_`,
`` `code` ``, fenced code blocks, `-`/`*`/`+` and `1.` lists, `>` quotes, `[text](address)` and
`<address>` links to http(s) and mailto only. Everything else (headings, rules, images,
references, entities, raw HTML) stays the characters that were typed.

The output holds links: give it operator-written text only. A visitor's text in a mail is never
made a link (another visitor could plant one in a receipt).
"""
import re
import xml.etree.ElementTree as etree
from html import escape

import markdown
import nh3
from markdown.inlinepatterns import InlineProcessor
from markdown.preprocessors import Preprocessor

ETIKETLER = {"p", "br", "strong", "em", "code", "pre", "ul", "ol", "li", "blockquote", "a"}
OZNITELIKLER = {"a": {"href"}, "ol": {"start"}}
SEMALAR = {"http", "https", "mailto"}

# Python-Markdown's parts that are not in the subset: removed, their syntax is shown as typed.
_BLOKLAR = ("hashheader", "setextheader", "hr", "reference", "code")
_SATIR_ICI = ("reference", "image_link", "image_reference", "short_reference", "short_image_ref", "automail",
              "linebreak", "html", "entity")

_MADDE = re.compile(r" {0,3}(?:[-*+]|\d{1,9}[.)])[ \t]")
_CIT = re.compile(r" {0,3}(?:```|~~~)")
_MUTLAK = re.compile(r"(?:https?://|mailto:)", re.IGNORECASE)
# `[text](address "title")` with the bounds of the browsers' renderer (static/panel/bicim.js).
_BAGLANTI = r'(?<!!)\[([^\[\]\n]{1,500})\]\([ \t]*([^\s()<>]{1,2000})(?:[ \t]+"[^"\n]{0,200}")?[ \t]*\)'


class _Baglanti(InlineProcessor):
    """A link whose parts are bounded: Python-Markdown's own link pattern scans from every `[` to
    the end of the text for its brackets, quadratic in the text (20 000 `[` took 54 s)."""

    def handleMatch(self, m, data):
        el = etree.Element("a")
        el.text = m.group(1)
        el.set("href", m.group(2))
        return el, m.start(0), m.end(0)


class _ListeOncesiBosluk(Preprocessor):
    """A list may follow a line of text directly ("Adımlar:\\n1. …"), as in the browsers'
    renderer; Python-Markdown wants a blank line there, so one is put in (outside code fences)."""

    def run(self, lines: list[str]) -> list[str]:
        cikti: list[str] = []
        onceki_metin = cit_icinde = False
        for satir in lines:
            if _CIT.match(satir):
                cit_icinde = not cit_icinde
            madde = not cit_icinde and bool(_MADDE.match(satir))
            if madde and onceki_metin:
                cikti.append("")
            cikti.append(satir)
            onceki_metin = not cit_icinde and bool(satir.strip()) and not madde and not satir.lstrip().startswith(">")
        return cikti


def _isleyici() -> markdown.Markdown:
    md = markdown.Markdown(extensions=["sane_lists", "nl2br", "fenced_code"], output_format="html")
    md.preprocessors.deregister("html_block")
    md.preprocessors.register(_ListeOncesiBosluk(md), "liste_oncesi_bosluk", 27)
    for ad in _BLOKLAR:
        md.parser.blockprocessors.deregister(ad)
    for ad in _SATIR_ICI:
        md.inlinePatterns.deregister(ad)
    md.inlinePatterns.register(_Baglanti(_BAGLANTI, md), "link", 160)
    return md


def _mutlak_adres(etiket: str, oznitelik: str, deger: str) -> str | None:
    # nh3 keeps relative addresses (`//host`, `page`); a mail has no base to resolve them against.
    if etiket == "a" and oznitelik == "href":
        return deger if _MUTLAK.match(deger) else None
    return deger


def yanit_html(icerik: str) -> str:
    """A reply's text as sanitized HTML: only the subset's elements, links to absolute http(s)
    and mailto addresses only. Raw HTML in the text is escaped by the renderer, and nh3 removes
    anything else a renderer's quirk might let through."""
    try:
        html = _isleyici().convert(icerik or "")
    except RecursionError:
        # Python-Markdown parses a list item's text as blocks again: `1. 1. 1. …` (or `- - - …`)
        # nests a list per marker until the stack runs out. Such a text is shown as typed.
        html = "<p>" + escape(icerik).replace("\n", "<br>\n") + "</p>"
    return nh3.clean(html, tags=ETIKETLER, attributes=OZNITELIKLER, url_schemes=SEMALAR,
                     attribute_filter=_mutlak_adres, link_rel="noopener noreferrer")

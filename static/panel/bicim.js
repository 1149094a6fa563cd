// A ticket reply's text as a safe subset of Markdown (docs/api.md, "Ticket reply text"), built as
// DOM nodes: the text only ever becomes text nodes, the only elements made are p, br, strong, em,
// code, pre, ul, ol, li, blockquote and a, and a link only to an absolute http(s) or mailto
// address. Everything else (headings, images, HTML) shows as typed. The mail's HTML part renders
// the same subset on the server (tickets/bicim.py). static/widget/widget.js holds a copy of this
// file's functions (the widget is one file with no imports): change both.
// Linear in the text's length: a delimiter with no closer left is not searched for again.
// Chat messages never come here (CONTRACT 3: plain text).

const EN_DERIN = 4; // quotes in quotes, emphasis in emphasis
const MADDE = /^ {0,3}(?:([-*+])|(\d{1,9})[.)])[ \t]+(.*)$/;
const CIT = /^(`{3,}|~{3,})[ \t]*[\w+-]*[ \t]*$/;
const ALINTI = /^ {0,3}>/;
const BAGLANTI = /\[([^[\]\n]{1,500})\]\([ \t]*([^\s()<>]{1,2000})(?:[ \t]+"[^"\n]{0,200}")?[ \t]*\)/y;
const OTOMATIK = /<((?:https?:\/\/|mailto:)[^\s<>]{1,2000})>/iy;
const MUTLAK = /^(?:https?:\/\/|mailto:)/i;
const KACIS = "\\`*_{}[]()#+-.!>";
const KELIME = /[\p{L}\p{N}]/u;

export function markdownDugumleri(metin) {
  const kok = document.createDocumentFragment();
  mdBloklar(kok, String(metin ?? "").replace(/\r\n?/g, "\n").split("\n"), 0);
  return kok;
}

function mdEl(etiket, ...cocuklar) {
  const el = document.createElement(etiket);
  el.append(...cocuklar);
  return el;
}

function mdMadde(satir) {
  const m = MADDE.exec(satir);
  return m && { tur: m[1] ? "ul" : "ol", no: m[2] ? Number(m[2]) : 1, metin: m[3] };
}

function mdBlokBaslar(satir) {
  return CIT.test(satir) || ALINTI.test(satir) || Boolean(mdMadde(satir));
}

function mdBloklar(ebeveyn, satirlar, derinlik) {
  const kapanmayan = new Set(); // fences with no closing line left
  let i = 0;
  while (i < satirlar.length) {
    const satir = satirlar[i];
    if (!satir.trim()) { i++; continue; }
    const cit = CIT.exec(satir);
    if (cit && !kapanmayan.has(cit[1])) {
      // A fence without its closing line is no code block: its lines are text.
      let j = i + 1;
      while (j < satirlar.length && satirlar[j].trimEnd() !== cit[1]) j++;
      if (j === satirlar.length) kapanmayan.add(cit[1]);
      else {
        ebeveyn.append(mdEl("pre", mdEl("code", satirlar.slice(i + 1, j).join("\n"))));
        i = j + 1;
        continue;
      }
    }
    if (ALINTI.test(satir) && derinlik < EN_DERIN) {
      // A quote runs to the next blank line; its lines may leave out the `>` (lazy lines).
      const ic = [];
      for (; i < satirlar.length && satirlar[i].trim(); i++) ic.push(satirlar[i].replace(/^ {0,3}> ?/, ""));
      const alinti = mdEl("blockquote");
      mdBloklar(alinti, ic, derinlik + 1);
      ebeveyn.append(alinti);
      continue;
    }
    const ilk = mdMadde(satir);
    if (ilk) {
      i = mdListe(ebeveyn, satirlar, i, ilk, derinlik);
      continue;
    }
    const paragraf = [satir];
    for (i++; i < satirlar.length && satirlar[i].trim() && !mdBlokBaslar(satirlar[i]); i++) paragraf.push(satirlar[i]);
    const p = mdEl("p");
    mdSatirIci(p, paragraf.join("\n"), derinlik, false);
    ebeveyn.append(p);
  }
}

// Items of one kind (`-`/`*`/`+`, or numbers), with their lazy lines; a blank line between two
// items keeps the list going, another kind of item starts another list.
function mdListe(ebeveyn, satirlar, i, ilk, derinlik) {
  const liste = mdEl(ilk.tur);
  if (ilk.tur === "ol" && ilk.no !== 1) liste.setAttribute("start", String(ilk.no));
  let metin = null;
  const bitir = () => {
    if (metin === null) return;
    const li = mdEl("li");
    mdSatirIci(li, metin.join("\n"), derinlik, false);
    liste.append(li);
  };
  while (i < satirlar.length) {
    const satir = satirlar[i];
    if (!satir.trim()) {
      let j = i;
      while (j < satirlar.length && !satirlar[j].trim()) j++;
      const sonraki = j < satirlar.length && mdMadde(satirlar[j]);
      if (!sonraki || sonraki.tur !== ilk.tur) break;
      i = j;
      continue;
    }
    const madde = mdMadde(satir);
    if (madde && madde.tur !== ilk.tur) break;
    if (!madde && (CIT.test(satir) || ALINTI.test(satir))) break;
    if (madde) { bitir(); metin = [madde.metin]; } else metin.push(satir.trim());
    i++;
  }
  bitir();
  ebeveyn.append(liste);
  return i;
}

function mdSatirIci(ebeveyn, s, derinlik, baglantida) {
  let yazi = "";
  const kapanissiz = new Set(); // delimiters with no closer left in `s`
  const yaz = () => { if (yazi) { ebeveyn.append(yazi); yazi = ""; } };
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (c === "\n") { yaz(); ebeveyn.append(mdEl("br")); i++; continue; }
    if (c === "\\" && i + 1 < s.length && KACIS.includes(s[i + 1])) { yazi += s[i + 1]; i += 2; continue; }
    if (c === "`") {
      let n = 1;
      while (s[i + n] === "`") n++;
      const j = kapanissiz.has("`" + n) ? -1 : mdKodSonu(s, i + n, n);
      if (j < 0) { kapanissiz.add("`" + n); yazi += s.slice(i, i + n); i += n; continue; }
      yaz();
      ebeveyn.append(mdEl("code", s.slice(i + n, j).trim()));
      i = j + n;
      continue;
    }
    if (c === "[" && !baglantida && s[i - 1] !== "!") {
      BAGLANTI.lastIndex = i;
      const m = BAGLANTI.exec(s);
      if (m) {
        yaz();
        ebeveyn.append(mdBaglanti(m[2], m[1], derinlik));
        i = BAGLANTI.lastIndex;
        continue;
      }
    }
    if (c === "<" && !baglantida) {
      OTOMATIK.lastIndex = i;
      const m = OTOMATIK.exec(s);
      if (m) {
        yaz();
        ebeveyn.append(mdBaglanti(m[1], m[1], EN_DERIN));
        i = OTOMATIK.lastIndex;
        continue;
      }
    }
    if ((c === "*" || c === "_") && derinlik < EN_DERIN) {
      const vurgu = mdVurgu(s, i, c, kapanissiz);
      if (vurgu) {
        yaz();
        const el = mdEl(vurgu.etiket);
        mdSatirIci(el, s.slice(vurgu.bas, vurgu.son), derinlik + 1, baglantida);
        ebeveyn.append(el);
        i = vurgu.son + vurgu.uzunluk;
        continue;
      }
    }
    yazi += c;
    i++;
  }
  yaz();
}

function mdKodSonu(s, bas, n) {
  // The next run of exactly `n` backticks.
  for (let j = s.indexOf("`".repeat(n), bas); j >= 0; j = s.indexOf("`".repeat(n), j + 1)) {
    let k = j;
    while (s[k] === "`") k++;
    if (k - j === n) return j;
    j = k;
  }
  return -1;
}

function mdBaglanti(adres, metin, derinlik) {
  // Any other scheme (javascript:, data:, a relative address) leaves the text without a link.
  const el = mdEl(MUTLAK.test(adres) ? "a" : "span");
  if (el.tagName === "A") {
    el.href = adres;
    el.title = adres;
    el.target = "_blank";
    el.rel = "noopener noreferrer nofollow";
  }
  mdSatirIci(el, metin, derinlik, true);
  return el;
}

// `**x**` / `__x__` strong, `*x*` / `_x_` em: an opener is followed by a non-space, a closer
// preceded by one; `_` never opens or closes inside a word (snake_case stays as typed).
function mdVurgu(s, i, c, kapanissiz) {
  if (c === "_" && i > 0 && KELIME.test(s[i - 1])) return null;
  const uzunluk = s[i + 1] === c ? 2 : 1;
  const isaret = c.repeat(uzunluk);
  const bas = i + uzunluk;
  if (kapanissiz.has(isaret) || bas >= s.length || /\s/.test(s[bas])) return null;
  const son = mdKapanis(s, bas + 1, c, uzunluk);
  if (son < 0) { kapanissiz.add(isaret); return null; }
  return { etiket: uzunluk === 2 ? "strong" : "em", bas, son, uzunluk };
}

function mdKapanis(s, bas, c, uzunluk) {
  for (let j = s.indexOf(c, bas); j >= 0; j = s.indexOf(c, j + 1)) {
    let k = j;
    while (s[k] === c) k++;
    const run = k - j;
    // A run of three closes both: `***x***` is strong around em, `*a **b***` em around strong.
    const aday = run === 3 ? k - uzunluk : run === uzunluk ? j : -1;
    if (aday >= bas && !/\s/.test(s[aday - 1]) && !(c === "_" && k < s.length && KELIME.test(s[k]))) return aday;
    j = k - 1;
  }
  return -1;
}

// Comforts of the console's writing boxes (issue 27): an emoji picker, files by drag-and-drop and
// paste, @-mention completion of the tenant's members in notes, and canned-response variables.
import { bosalt, h } from "./dom.js";
import { kucukHarf, M } from "./metinler.js";

// --- canned-response variables (CONTRACT 16) --------------------------------------------------
// `{ziyaretci_adi}`, `{ziyaretci_email}`, `{operator_adi}`, `{firma_adi}` are filled in; an unknown
// `{name}` stays as typed; a known one with no value becomes empty.
export const HAZIR_DEGISKENLER = ["ziyaretci_adi", "ziyaretci_email", "operator_adi", "firma_adi"];
export function hazirDoldur(icerik, degerler) {
  return String(icerik).replace(/\{([a-z_]+)\}/g, (butun, ad) =>
    (HAZIR_DEGISKENLER.includes(ad) ? String(degerler[ad] ?? "") : butun));
}

// Put `metin` at the caret of a textarea (replacing a selection), as typing would.
export function imleceEkle(alan, metin) {
  const bas = alan.selectionStart ?? alan.value.length;
  const son = alan.selectionEnd ?? bas;
  alan.setRangeText(metin, bas, son, "end");
  alan.dispatchEvent(new Event("input", { bubbles: true }));
  alan.focus();
}

// --- emoji picker --------------------------------------------------------------------------------
const EMOJILER = ["😀", "😊", "🙂", "😉", "😂", "😍", "🤔", "😅", "😢", "😮", "🙏", "👍", "👎", "👋", "👏", "🙌",
  "💪", "✅", "❌", "⚠️", "❗", "❓", "🎉", "🔥", "⭐", "💡", "📎", "📄", "📦", "💳", "🔒", "🔑",
  "⏳", "🚀", "❤️", "💬"];

// A button opening a small grid; a click (or Enter) inserts the emoji at the caret of `alan()`.
export function emojiSecici(alan) {
  const izgara = h("div", { class: "emoji-izgara", role: "listbox", "aria-label": M.emojiler, hidden: true });
  const dugme = h("button", { type: "button", class: "ikincil emoji-dugme", "aria-label": M.emojiEkle, title: M.emojiEkle,
    "aria-haspopup": "listbox", "aria-expanded": "false", onclick: () => ac(izgara.hidden) }, "☺");
  const ac = (acik) => {
    izgara.hidden = !acik;
    dugme.setAttribute("aria-expanded", String(acik));
    if (acik) izgara.querySelector("button").focus();
  };
  bosalt(izgara, EMOJILER.map((e) => h("button", { type: "button", role: "option", class: "emoji", "aria-label": e, text: e,
    onclick: () => { ac(false); imleceEkle(alan(), e); } })));
  izgara.addEventListener("keydown", (e) => {
    const dugmeler = [...izgara.querySelectorAll("button")];
    const i = dugmeler.indexOf(document.activeElement);
    const adim = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: 8, ArrowUp: -8 }[e.key];
    if (adim) { e.preventDefault(); dugmeler[Math.max(0, Math.min(dugmeler.length - 1, i + adim))].focus(); }
    if (e.key === "Escape") { e.preventDefault(); e.stopPropagation(); ac(false); dugme.focus(); }
  });
  izgara.addEventListener("focusout", (e) => { if (!izgara.contains(e.relatedTarget) && e.relatedTarget !== dugme) ac(false); });
  return h("span", { class: "emoji-kap" }, dugme, izgara);
}

// --- files by drag-and-drop and paste ---------------------------------------------------------------
// `hedef` takes dropped files (shown as a drop zone while dragged over); `alan` takes pasted ones
// (a screenshot pasted from the clipboard). Each file goes to `yukle(file)`.
// The console calls this on every chat or ticket it opens, with the same lasting pane as `hedef`:
// the pane gets its drop listeners once and a later call only replaces where its files go, so one
// drop is one upload however many chats were opened before (issue 39). `alan` is new each time.
const birakmaHedefleri = new WeakMap(); // hedef -> the `yukle` of the latest call
export function dosyaBirakma(hedef, alan, yukle) {
  if (!birakmaHedefleri.has(hedef)) birakmaAlaniKur(hedef);
  birakmaHedefleri.set(hedef, yukle);
  if (alan) alan.addEventListener("paste", (e) => {
    const dosyalar = [...((e.clipboardData && e.clipboardData.files) || [])];
    if (!dosyalar.length) return; // text pastes as text
    e.preventDefault();
    for (const f of dosyalar) yukle(adlandir(f));
  });
}

function birakmaAlaniKur(hedef) {
  let derinlik = 0;
  const dosyaVar = (e) => e.dataTransfer && [...e.dataTransfer.types].includes("Files");
  hedef.addEventListener("dragenter", (e) => { if (!dosyaVar(e)) return; e.preventDefault(); derinlik += 1; hedef.classList.add("birakma"); });
  hedef.addEventListener("dragover", (e) => { if (!dosyaVar(e)) return; e.preventDefault(); e.dataTransfer.dropEffect = "copy"; });
  hedef.addEventListener("dragleave", () => { derinlik = Math.max(0, derinlik - 1); if (!derinlik) hedef.classList.remove("birakma"); });
  hedef.addEventListener("drop", (e) => {
    if (!dosyaVar(e)) return;
    e.preventDefault();
    derinlik = 0;
    hedef.classList.remove("birakma");
    const yukle = birakmaHedefleri.get(hedef);
    for (const f of e.dataTransfer.files) yukle(f);
  });
}

// A pasted screenshot comes as "image.png": named by the time it was pasted.
function adlandir(f) {
  if (f.name && f.name !== "image.png") return f;
  const d = new Date();
  const p = (n) => String(n).padStart(2, "0");
  const ad = `${M.ekranGoruntusuDosya}-${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}.png`;
  try { return new File([f], ad, { type: f.type || "image/png" }); } catch { return f; }
}

// --- @-mentions ------------------------------------------------------------------------------------
// Completion of `@…` before the caret from `uyeler()` (a promise of [{id, ad, email}]), while
// `etkin()` says so (notes only). `tus(e)` is called first by the box's keydown and says whether
// it used the key; `bahsedilenler()` are the ids whose `@name` is still in the text.
export class Bahsetme {
  constructor(alan, { uyeler, etkin }) {
    this.alan = alan;
    this.uyeler = uyeler;
    this.etkin = etkin;
    this.secilen = new Map(); // "@name" -> id
    this.liste = h("ul", { id: "bahsetme-liste", class: "hazir bahsetme", role: "listbox", "aria-label": M.bahset, hidden: true });
    this.uyanlar = [];
    this.secim = 0;
    this.sira = 0;
    alan.addEventListener("input", () => this.suz());
    alan.addEventListener("blur", () => setTimeout(() => { if (document.activeElement !== alan) this.liste.hidden = true; }, 150));
  }

  parca() {
    const once = this.alan.value.slice(0, this.alan.selectionStart ?? this.alan.value.length);
    const m = /(^|\s)@([^\s@]{0,40})$/u.exec(once);
    return m ? { q: m[2], bas: once.length - m[2].length - 1 } : null;
  }

  async suz() {
    const p = this.etkin() ? this.parca() : null;
    const sira = ++this.sira;
    if (!p) { this.liste.hidden = true; return; }
    let uyeler;
    try { uyeler = await this.uyeler(); } catch { return; }
    if (sira !== this.sira) return;
    const q = kucukHarf(p.q);
    this.uyanlar = uyeler.filter((u) => kucukHarf(u.ad || "").split(/\s+/).some((k) => k.startsWith(q))
      || kucukHarf(u.ad || "").startsWith(q) || kucukHarf(u.email).startsWith(q)).slice(0, 8);
    this.secim = Math.min(this.secim, Math.max(0, this.uyanlar.length - 1));
    if (!this.uyanlar.length) { this.liste.hidden = true; return; }
    bosalt(this.liste, this.uyanlar.map((u, i) => h("li", { role: "option", id: `bahset-${u.id}`, "aria-selected": String(i === this.secim),
      onmousedown: (e) => { e.preventDefault(); this.sec(u); } }, h("strong", { text: `@${this.ad(u)}` }), " ", h("span", { class: "k-alt", text: u.email }))));
    this.liste.hidden = false;
  }

  ad(u) { return (u.ad || u.email.split("@")[0]).trim(); }

  sec(u) {
    const p = this.parca();
    if (!p) return;
    const ad = `@${this.ad(u)}`;
    this.alan.setRangeText(`${ad} `, p.bas, this.alan.selectionStart, "end");
    this.secilen.set(ad, u.id);
    this.liste.hidden = true;
    this.alan.dispatchEvent(new Event("input", { bubbles: true }));
    this.alan.focus();
  }

  tus(e) {
    if (this.liste.hidden || !this.uyanlar.length) return false;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      this.secim = (this.secim + (e.key === "ArrowDown" ? 1 : this.uyanlar.length - 1)) % this.uyanlar.length;
      this.suz();
      return true;
    }
    if ((e.key === "Enter" || e.key === "Tab") && !e.shiftKey) { e.preventDefault(); this.sec(this.uyanlar[this.secim]); return true; }
    if (e.key === "Escape") { e.preventDefault(); e.stopPropagation(); this.liste.hidden = true; return true; }
    return false;
  }

  bahsedilenler() {
    const metin = this.alan.value;
    return [...new Set([...this.secilen].filter(([ad]) => metin.includes(ad)).map(([, id]) => id))];
  }

  sifirla() { this.secilen.clear(); this.liste.hidden = true; }
}

// --- reply or internal note ------------------------------------------------------------------------
// Two pressed-state buttons above a writing box. A note is drawn apart (class `not-modu`), its
// button and placeholder say so. `yalnizNot`: a closed chat or ticket takes notes only.
export function yazmaModu(alan, gonderDugme, { not, yalnizNot, yer, degisti }) {
  const yanitB = h("button", { type: "button", "data-mod": "yanit", text: M.yanitModu, onclick: () => ayarla(false) });
  const notB = h("button", { type: "button", "data-mod": "not", "aria-keyshortcuts": "n", text: M.notModu, onclick: () => ayarla(true) });
  const kap = h("div", { class: "yazma-modu", role: "group", "aria-label": M.yazmaTuru }, yanitB, notB);
  let simdi = false;
  const ayarla = (n, ilk) => {
    simdi = Boolean(n) || Boolean(yalnizNot);
    yanitB.setAttribute("aria-pressed", String(!simdi));
    notB.setAttribute("aria-pressed", String(simdi));
    yanitB.disabled = Boolean(yalnizNot);
    alan.classList.toggle("not-modu", simdi);
    alan.placeholder = simdi ? M.notYaz : yer;
    alan.setAttribute("aria-label", simdi ? M.notYaz : yer);
    gonderDugme.textContent = simdi ? M.notEkle : gonderDugme.dataset.yanit;
    kap.dataset.not = simdi ? "1" : "0";
    if (!ilk) { degisti(simdi); alan.focus(); }
  };
  gonderDugme.dataset.yanit = gonderDugme.textContent;
  kap.ayarla = ayarla;
  kap.notMu = () => simdi;
  ayarla(not, true);
  return kap;
}

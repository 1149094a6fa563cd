// Search over the whole history of the operator's tenants (CONTRACT 16, `GET /operator/ara`):
// a dialog opened by `/` in the list. A result's snippet is plain text with the match between
// « and »: drawn as text nodes, the part between the marks in a <mark>, nothing as HTML.
import { api } from "./api.js";
import { bosalt, h } from "./dom.js";
import { M, sayiyla, tarihSaat } from "./metinler.js";

export function parcaDugumleri(parca) {
  const kok = document.createDocumentFragment();
  const metin = String(parca ?? "");
  let i = 0;
  while (i < metin.length) {
    const a = metin.indexOf("«", i);
    const b = a < 0 ? -1 : metin.indexOf("»", a + 1);
    if (a < 0 || b < 0) { kok.append(document.createTextNode(metin.slice(i))); break; }
    if (a > i) kok.append(document.createTextNode(metin.slice(i, a)));
    const m = document.createElement("mark");
    m.textContent = metin.slice(a + 1, b);
    kok.append(m);
    i = b + 1;
  }
  return kok;
}

// `ac(sonuc)` opens a result (the chat or the ticket); `musteriAdi(id)` names a tenant.
export function aramaAc(dialog, { musteriId, musteriAdi, ac }) {
  const girdi = h("input", { id: "arama-q", type: "search", autocomplete: "off", maxlength: "200",
    placeholder: M.aramaYer, "aria-label": M.ara, "aria-controls": "arama-sonuclar" });
  const tur = h("select", { id: "arama-tur", "aria-label": M.aramaTuru },
    Object.entries(M.aramaTurleri).map(([k, v]) => h("option", { value: k, text: v })));
  const durum = h("p", { class: "arama-durum", role: "status" });
  const liste = h("ul", { id: "arama-sonuclar", class: "arama-sonuclar", "aria-label": M.aramaSonuclari });
  let sira = 0;
  let zaman = null;
  let sonraki = null;
  const sonucSatiri = (s) => h("li", {}, h("button", { type: "button", class: "arama-sonuc",
    dataset: { tur: s.tur, id: String(s.id) }, onclick: () => { dialog.close(); ac(s); } },
  h("span", { class: "arama-ust" },
    h("span", { class: "arama-tur", text: M.aramaTurleri[s.tur] || s.tur }),
    h("span", { class: "arama-baslik", text: s.baslik || `#${s.id}` }),
    h("span", { class: "arama-zaman", text: s.zaman ? tarihSaat(s.zaman) : "" })),
  h("span", { class: "arama-proje", text: musteriAdi(s.musteri_id) }),
  h("span", { class: "arama-parca" }, parcaDugumleri(s.parca))));
  const getir = async (ekle) => {
    const q = girdi.value.trim();
    const benim = ++sira;
    if (q.length < 2) { bosalt(liste); durum.textContent = q ? M.aramaKisa : ""; sonraki = null; return; }
    durum.textContent = M.yukleniyor;
    let veri;
    try {
      veri = await api.ara(q, { musteri_id: musteriId || undefined, tur: tur.value || undefined, cursor: ekle ? sonraki : undefined });
    } catch (e) {
      if (benim === sira) durum.textContent = e.message || M.hata;
      return;
    }
    if (benim !== sira) return;
    sonraki = veri.sonraki || null;
    const satirlar = veri.sonuclar.map(sonucSatiri);
    if (ekle) liste.append(...satirlar); else bosalt(liste, satirlar);
    durum.textContent = liste.children.length ? sayiyla(sonraki ? "aramaSayisiDahasi" : "aramaSayisi", liste.children.length) : M.aramaBos;
    devam.hidden = !sonraki;
  };
  const devam = h("button", { type: "button", class: "ikincil", hidden: true, onclick: () => getir(true), text: M.dahaFazla });
  girdi.addEventListener("input", () => { clearTimeout(zaman); zaman = setTimeout(() => getir(false), 250); });
  girdi.addEventListener("keydown", (e) => {
    if (e.key === "Enter") { e.preventDefault(); clearTimeout(zaman); getir(false); }
    // One Esc closes the search (issue 39): a search box's own Esc would only empty it first.
    if (e.key === "Escape") { e.preventDefault(); clearTimeout(zaman); dialog.close(); }
    if (e.key === "ArrowDown") { const b = liste.querySelector("button"); if (b) { e.preventDefault(); b.focus(); } }
  });
  liste.addEventListener("keydown", (e) => {
    if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
    const dugmeler = [...liste.querySelectorAll("button")];
    const i = dugmeler.indexOf(document.activeElement) + (e.key === "ArrowDown" ? 1 : -1);
    e.preventDefault();
    (i < 0 ? girdi : dugmeler[Math.min(i, dugmeler.length - 1)]).focus();
  });
  tur.addEventListener("change", () => getir(false));
  bosalt(dialog, h("div", { class: "arama" },
    h("h2", { id: "arama-baslik", text: M.ara }),
    h("div", { class: "arama-girdi" }, girdi, tur),
    durum, liste, devam,
    h("div", { class: "dugmeler" }, h("button", { type: "button", class: "ikincil", onclick: () => dialog.close(), text: M.kapatDugme }))));
  dialog.setAttribute("aria-labelledby", "arama-baslik");
  dialog.classList.add("arama-dialog");
  dialog.addEventListener("close", () => { dialog.classList.remove("arama-dialog"); dialog.removeAttribute("aria-labelledby"); }, { once: true });
  dialog.showModal();
  girdi.focus();
}

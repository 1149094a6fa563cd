// Labels on chats and tickets (CONTRACT 16, issue 27): coloured chips, the editor (any member may
// create a label inline), and the per-tenant list the filters offer. The list of a tenant is read
// once and kept until the editor changes it or `yenile` is asked.
import { api } from "./api.js";
import { bosalt, h } from "./dom.js";
import { M, soz } from "./metinler.js";

const VARSAYILAN_RENK = "#6b7280";
const onbellek = new Map(); // musteriId -> Promise<etiket[]>

export function etiketleriGetir(musteriId, taze = false) {
  if (taze || !onbellek.has(musteriId)) {
    const istek = api.etiketler(musteriId).then((v) => (v.etiketler || []).map((e) => ({ ...e, musteri_id: musteriId })));
    onbellek.set(musteriId, istek);
    istek.catch(() => { if (onbellek.get(musteriId) === istek) onbellek.delete(musteriId); });
  }
  return onbellek.get(musteriId);
}

// Every label of the given tenants (a tenant whose list cannot be read adds none).
export async function tumEtiketler(musteriIdleri) {
  const listeler = await Promise.all(musteriIdleri.map((id) => etiketleriGetir(id).catch(() => [])));
  return listeler.flat();
}

export function unut(musteriId) {
  if (musteriId === undefined) onbellek.clear(); else onbellek.delete(musteriId);
}

// Black or white text, whichever reads better on the label's colour (both pass AA on one of them).
function yaziRengi(renk) {
  const m = /^#([0-9a-f]{6})$/i.exec(renk || "");
  if (!m) return "#fff";
  const k = [0, 2, 4].map((i) => {
    const v = parseInt(m[1].slice(i, i + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  const L = 0.2126 * k[0] + 0.7152 * k[1] + 0.0722 * k[2];
  return 1.05 / (L + 0.05) >= (L + 0.05) / 0.05 ? "#fff" : "#111827";
}

export function etiketCipi(e) {
  const renk = /^#[0-9a-f]{6}$/i.test(e.renk || "") ? e.renk : VARSAYILAN_RENK;
  const cip = h("span", { class: "etiket-cip", dataset: { etiketId: String(e.id) }, text: e.ad });
  cip.style.background = renk;
  cip.style.color = yaziRengi(renk);
  return cip;
}

export function etiketCipleri(etiketler) {
  if (!etiketler || !etiketler.length) return null;
  return h("span", { class: "etiketler", "aria-label": soz("etiketlerEtiket", { adlar: etiketler.map((e) => e.ad).join(", ") }) },
    etiketler.map(etiketCipi));
}

// The editor: a dialog of the tenant's labels as checkboxes, plus a field that creates one.
// `kaydet(idler)` writes the whole list (PUT .../etiketler) and resolves with the new item.
export async function etiketDuzenle(dialog, { musteriId, secili, kaydet }) {
  const secim = new Set((secili || []).map((e) => e.id));
  const liste = h("ul", { class: "etiket-secim" });
  const hataEl = h("p", { class: "hata", role: "alert" });
  const yeniAd = h("input", { id: "etiket-yeni", maxlength: "40", autocomplete: "off", placeholder: M.etiketYeniYer });
  const yeniRenk = h("input", { id: "etiket-yeni-renk", type: "color", value: "#2563eb", "aria-label": M.etiketRengi });
  let etiketler = [];
  const ciz = () => bosalt(liste, etiketler.length ? etiketler.map((e) => {
    const kutu = h("input", { type: "checkbox", id: `etiket-sec-${e.id}`, value: String(e.id), checked: secim.has(e.id),
      onchange: () => { if (kutu.checked) secim.add(e.id); else secim.delete(e.id); } });
    return h("li", {}, kutu, h("label", { for: `etiket-sec-${e.id}` }, etiketCipi(e)));
  }) : h("li", { class: "bos", text: M.etiketYok }));
  const olustur = async () => {
    const ad = yeniAd.value.trim();
    if (!ad) return;
    hataEl.textContent = "";
    try {
      const yanit = await api.etiketOlustur(musteriId, ad, yeniRenk.value);
      const etiket = yanit.etiket || yanit;
      secim.add(etiket.id);
      etiketler = await etiketleriGetir(musteriId, true);
      yeniAd.value = "";
      ciz();
    } catch (err) { hataEl.textContent = (err.alanlar && Object.values(err.alanlar).flat()[0]) || err.message || M.hata; }
  };
  yeniAd.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); olustur(); } });
  bosalt(dialog, h("form", { method: "dialog", class: "etiket-duzen", onsubmit: async (e) => {
    e.preventDefault();
    hataEl.textContent = "";
    try {
      await kaydet([...secim]);
      dialog.close();
    } catch (err) { hataEl.textContent = err.message || M.hata; }
  } },
  h("h2", { text: M.etiketleriDuzenle }), liste,
  h("div", { class: "etiket-yeni" }, h("label", { for: "etiket-yeni", text: M.etiketYeni }), yeniAd, yeniRenk,
    h("button", { type: "button", class: "ikincil", onclick: olustur, text: M.etiketEkle })),
  hataEl,
  h("div", { class: "dugmeler" }, h("button", { type: "submit", class: "birincil", text: M.kaydet }),
    h("button", { type: "button", class: "ikincil", onclick: () => dialog.close(), text: M.vazgec }))));
  bosalt(liste, h("li", { class: "bos", text: M.yukleniyor }));
  dialog.showModal();
  try { etiketler = await etiketleriGetir(musteriId, true); } catch (err) { hataEl.textContent = err.message || M.hata; }
  ciz();
  const ilk = liste.querySelector("input") || yeniAd;
  ilk.focus();
}

// A <select> of labels for a list filter: "" is every label.
export function etiketSuzgeci({ id, etiketler, secili, degisti, cokluProje }) {
  const s = h("select", { id, "aria-label": M.etiketSuzgeci, onchange: () => degisti(s.value ? Number(s.value) : null) },
    h("option", { value: "", text: M.tumEtiketler }),
    etiketler.map((e) => h("option", { value: String(e.id), selected: e.id === secili,
      text: cokluProje && e.firma_adi ? `${e.ad} · ${e.firma_adi}` : e.ad })));
  return s;
}

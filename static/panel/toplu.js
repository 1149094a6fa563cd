// Multi-select and bulk changes (CONTRACT 24): a checkbox on each row of the chat and ticket lists
// (and `x` on the focused row), and a bar of actions over the selection that sends one
// `POST /operator/toplu` and says how many items changed. The selection holds one kind of item at
// a time (chats or tickets); it is kept across redraws of the list.
import { istek } from "./api.js";
import { bosalt, h } from "./dom.js";
import { M, sayiyla, soz } from "./metinler.js";

const T = {
  tur: "chat",
  secili: new Set(),
  capa: null, // the last row toggled: the start of a Shift-click range
  cubuk: null,
  bitti: () => {},
  etiketler: async () => [],
  bildir: () => {},
  operatorId: () => null,
};

// `bitti(tur)`: the lists to read again after a change; `etiketler()`: the labels to offer;
// `bildir(metin)`: a notice; `operatorId()`: the caller (for "assign to me").
export function topluKur({ bitti, etiketler, bildir, operatorId }) {
  Object.assign(T, { bitti, etiketler, bildir, operatorId });
  T.cubuk = h("div", { class: "toplu-cubuk", role: "toolbar", "aria-label": M.topluEylemler, hidden: true });
  return T.cubuk;
}

export const seciliMi = (tur, id) => T.tur === tur && T.secili.has(id);

function kutulariGuncelle() {
  for (const kutu of document.querySelectorAll(".secim-kutusu")) {
    const secili = seciliMi(kutu.dataset.tur, Number(kutu.dataset.id));
    kutu.checked = secili;
    const satir = kutu.closest(".satir");
    if (satir) satir.classList.toggle("secili-satir", secili);
  }
  cubuguCiz();
}

export function secimDegistir(tur, id) {
  if (T.tur !== tur) { T.secili.clear(); T.tur = tur; }
  if (T.secili.has(id)) T.secili.delete(id); else T.secili.add(id);
  T.capa = { tur, id };
  kutulariGuncelle();
}

// Shift-click (as in every inbox): every row of the same list from the last row clicked or
// toggled with `x` to this one takes this row's new state. Rows are read in the list's order on
// screen; the anchor must be in the same list (a chat may show in the queue and in a view).
function kutuTiklandi(olay, tur, id) {
  const kutu = olay.currentTarget;
  const liste = kutu.closest(".satir")?.parentElement;
  const capa = T.capa;
  if (!olay.shiftKey || !liste || !capa || capa.tur !== tur || T.tur !== tur || capa.id === id) {
    secimDegistir(tur, id);
    return;
  }
  const kutular = [...liste.querySelectorAll(`.secim-kutusu[data-tur="${tur}"]`)];
  const idler = kutular.map((k) => Number(k.dataset.id));
  const [a, b] = [idler.indexOf(capa.id), idler.indexOf(id)];
  if (a < 0 || b < 0) { secimDegistir(tur, id); return; }
  const sec = kutu.checked;
  for (const aradaki of idler.slice(Math.min(a, b), Math.max(a, b) + 1)) {
    if (sec) T.secili.add(aradaki); else T.secili.delete(aradaki);
  }
  T.capa = { tur, id };
  kutulariGuncelle();
}

export function secimiTemizle() {
  T.secili.clear();
  kutulariGuncelle();
}

// The row's checkbox (the mouse's way to select).
export function secimKutusu(tur, id, ad) {
  return h("input", { type: "checkbox", class: "secim-kutusu", dataset: { tur, id: String(id) },
    checked: seciliMi(tur, id), "aria-label": soz("satirSec", { ad }), onclick: (e) => kutuTiklandi(e, tur, id) });
}

async function uygula(eylem) {
  const idler = [...T.secili];
  const tur = T.tur;
  if (!idler.length) return;
  let sonuclar;
  try { sonuclar = (await istek("POST", "/operator/toplu", { govde: { tur, idler, eylem } })).sonuclar; } catch (e) {
    T.bildir(e.message);
    return;
  }
  const hatalar = sonuclar.filter((s) => !s.basarili);
  T.bildir(hatalar.length
    ? `${soz("topluSonuc", { basarili: sonuclar.length - hatalar.length, hatali: hatalar.length })} ${hatalar[0].hata.mesaj}`
    : sayiyla("topluHepsi", sonuclar.length));
  // What changed leaves the selection; what was refused stays selected, to see and try again.
  T.secili = new Set(hatalar.map((s) => s.id));
  kutulariGuncelle();
  T.bitti(tur);
}

async function cubuguCiz() {
  const cubuk = T.cubuk;
  if (!cubuk) return;
  cubuk.hidden = T.secili.size === 0;
  if (cubuk.hidden) { bosalt(cubuk); return; }
  const chat = T.tur === "chat";
  const etiket = h("select", { id: "toplu-etiket", "aria-label": M.topluEtiketSec },
    h("option", { value: "", text: M.topluEtiketSec }));
  const etiketli = (tur) => () => { if (etiket.value) uygula({ tur, etiket_id: Number(etiket.value) }); };
  const ertele = h("select", { id: "toplu-ertele", "aria-label": M.ertele,
    onchange: () => {
      const ad = ertele.value;
      if (!ad) return;
      const kadar = ad === "ziyaretci" ? null : new Date(Date.now() + (ad === "saat" ? 3600e3 : ad === "hafta" ? 7 * 86400e3 : 86400e3)).toISOString();
      uygula({ tur: "ertele", kadar });
    } }, h("option", { value: "", text: M.ertele }),
  Object.entries(M.erteleSecenekleri).map(([ad, metin]) => h("option", { value: ad, text: metin })));
  const durum = chat ? null : h("select", { id: "toplu-durum", "aria-label": M.topluDurum,
    onchange: () => { if (durum.value) uygula({ tur: "durum", durum: durum.value }); } },
  h("option", { value: "", text: M.topluDurum }),
  Object.entries(M.talepDurumlari).filter(([k]) => k).map(([k, v]) => h("option", { value: k, text: v })));
  bosalt(cubuk,
    h("span", { class: "secili-sayisi", "aria-live": "polite", text: sayiyla("seciliSayisi", T.secili.size) }),
    etiket,
    h("button", { type: "button", class: "ikincil kucuk", onclick: etiketli("etiket_ekle"), text: M.topluEtiketEkle }),
    h("button", { type: "button", class: "ikincil kucuk", onclick: etiketli("etiket_kaldir"), text: M.topluEtiketKaldir }),
    h("button", { type: "button", class: "ikincil kucuk", onclick: () => uygula({ tur: "ata", operator_id: T.operatorId() }),
      text: M.topluBanaAta }),
    ertele, durum,
    chat ? h("button", { type: "button", class: "tehlike kucuk", onclick: () => uygula({ tur: "kapat" }), text: M.topluKapat }) : null,
    h("button", { type: "button", class: "ikincil kucuk", onclick: secimiTemizle, text: M.topluTemizle }));
  let liste = [];
  try { liste = await T.etiketler(); } catch { /* no labels to offer */ }
  if (etiket.isConnected) {
    for (const e of liste) etiket.append(h("option", { value: String(e.id), text: e.firma_adi ? `${e.ad} · ${e.firma_adi}` : e.ad }));
  }
}

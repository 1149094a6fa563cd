// Views and snooze (CONTRACT 24): a sidebar of the caller's views with live counts (GET
// /operator/gorunumler, counted again at most once a second after a frame that may change a
// queue), the chat views' lists, the snooze action of an open chat or ticket, and the notice of an
// item back from its snooze (`ertelemeden_dondu`). uygulama.js draws the rows and calls in here.
import { istek } from "./api.js";
import { bosalt, h } from "./dom.js";
import { M, sayiYaz, soz, tarihSaat } from "./metinler.js";

export const GORUNUMLER = ["acik", "atanmamis", "benim", "ertelenen"];
// Frames after which a view may hold something else.
const DEGISTIRENLER = new Set(["chat_yeni", "chat_guncellendi", "ticket_yeni", "ticket_guncellendi", "ertelemeden_dondu",
  "hazir"]);
const SAYIM_MS = 1000;

const D = {
  sohbet: null, // the chat view shown instead of the live queue (null: the queue)
  talep: null, // the ticket view (null: the state filter)
  sayilar: null,
  kap: null,
  liste: [], // the chat view's rows, as last read
  sira: 0,
  zaman: null,
  secildi: () => {},
  listeDegisti: () => {},
};

// `secildi(tur, gorunum)`: "sohbet" or "talep", the view or null; `listeDegisti()`: the chat view's
// rows were read again (redraw the list).
export function gorunumKenari({ secildi, listeDegisti }) {
  D.secildi = secildi;
  D.listeDegisti = listeDegisti;
  D.kap = h("nav", { class: "gorunumler", "aria-label": M.gorunumler });
  ciz();
  return D.kap;
}

// The counts are read again every second in a busy queue. The buttons are drawn once and then
// changed in place: a button replaced between a press and its release makes no click (the
// operator's choice of a view lost to a count).
function ciz() {
  if (!D.kap) return;
  if (!D.kap.querySelector("button.gorunum")) {
    const grup = (tur, baslik) => h("div", { class: "gorunum-grup" }, h("h3", { text: baslik }),
      h("ul", {}, GORUNUMLER.map((g) => h("li", {}, h("button", { type: "button", class: "gorunum", dataset: { tur, gorunum: g },
        onclick: () => sec(tur, D[tur] === g ? null : g) },
      h("span", { class: "ad", text: M.gorunumAdlari[g] }),
      h("span", { class: "sayi", dataset: { sayi: `${tur}-${g}` } }))))));
    bosalt(D.kap, grup("sohbet", M.sohbetler), grup("talep", M.talepler));
  }
  for (const dugme of D.kap.querySelectorAll("button.gorunum")) {
    const { tur, gorunum: g } = dugme.dataset;
    const sayi = D.sayilar ? D.sayilar[tur === "sohbet" ? "chat" : "ticket"][g] : null;
    const metin = sayi === null ? "…" : sayiYaz(sayi);
    dugme.setAttribute("aria-pressed", String(D[tur] === g));
    dugme.setAttribute("aria-label", soz("gorunumSayisi", { ad: M.gorunumAdlari[g], n: metin }));
    const yer = dugme.querySelector(".sayi");
    if (yer.textContent !== metin) yer.textContent = metin;
  }
}

function sec(tur, g) {
  D[tur] = g;
  if (tur === "sohbet") D.liste = [];
  ciz();
  D.secildi(tur, g);
  if (tur === "sohbet" && g) sohbetGorunumunuYenile();
}

export const sohbetGorunumu = () => D.sohbet;
export const talepGorunumu = () => D.talep;
export const gorunumSohbetleri = () => D.liste;

export async function sayilariYenile() {
  try { D.sayilar = (await istek("GET", "/operator/gorunumler")).gorunumler; } catch { return; }
  ciz();
}

// A frame: the counts (and an open chat view) are read again, once for a burst of frames.
export function gorunumCercevesi(tip) {
  if (!DEGISTIRENLER.has(tip)) return;
  clearTimeout(D.zaman);
  D.zaman = setTimeout(() => { sayilariYenile(); if (D.sohbet) sohbetGorunumunuYenile(); }, SAYIM_MS);
}

// Logout: a count or a view read still waiting on its timer would ask without a session (a 401).
export function gorunumleriDurdur() {
  clearTimeout(D.zaman);
  D.zaman = null;
  D.sira += 1;
  D.sayilar = null;
}

export async function sohbetGorunumunuYenile() {
  const g = D.sohbet;
  if (!g) return;
  const sira = ++D.sira;
  let veri;
  try { veri = await istek("GET", "/operator/chats", { sorgu: { gorunum: g, limit: 200 } }); } catch { return; }
  if (sira !== D.sira || g !== D.sohbet) return;
  D.liste = veri.oturumlar;
  D.listeDegisti();
}

// The chat view's list (the rows `suz` keeps: the tenant tab), drawn by the console's own `satir`.
export function gorunumListesi(suz) { return D.liste.filter(suz); }

export function gorunumListesiCiz(kap, satir, suz) {
  const liste = gorunumListesi(suz);
  bosalt(kap, h("h2", { text: `${M.gorunumAdlari[D.sohbet]} (${liste.length})` }),
    liste.length ? h("ul", { class: "satirlar", id: "gorunum-listesi" }, liste.map(satir))
      : h("p", { class: "bos", text: M.gorunumBos }));
}

// --- snooze --------------------------------------------------------------------------------------
const yol = (tur, id) => `/operator/${tur === "chat" ? "chat" : "ticket"}/${id}/ertele`;

export function ertelemeMetni(nesne) {
  if (!nesne || !nesne.ertelendi_kadar) return "";
  return nesne.ertelendi_kadar === "ziyaretci" ? M.ertelendiZiyaretci
    : soz("ertelendiKadar", { zaman: tarihSaat(nesne.ertelendi_kadar, { dateStyle: "medium", timeStyle: "short" }) });
}

function secenekZamani(ad) {
  const t = new Date();
  if (ad === "saat") return new Date(t.getTime() + 3600e3);
  if (ad === "hafta") return new Date(t.getTime() + 7 * 86400e3);
  const yarin = new Date(t.getFullYear(), t.getMonth(), t.getDate() + 1, 9, 0, 0);
  return yarin;
}

// The snooze button of an open chat (`tur` "chat") or ticket: a dialog of choices, or "unsnooze"
// when it is snoozed. `bitti(nesne)` gets the item as the answer has it; `hata(mesaj)` a refusal.
export function erteleDugmesi({ tur, nesne, dialog, bitti, hata }) {
  const anahtar = tur === "chat" ? "oturum" : "ticket";
  const gonder = async (yontem, govde) => {
    try {
      const veri = await istek(yontem, yol(tur, nesne.id), { govde });
      if (dialog.open) dialog.close();
      bitti(veri[anahtar]);
      gorunumCercevesi("hazir");
    } catch (e) { if (dialog.open) dialog.close(); hata(e.message); }
  };
  if (nesne.ertelendi_kadar) {
    return h("button", { type: "button", class: "ikincil kucuk erteleme", title: ertelemeMetni(nesne),
      onclick: () => gonder("DELETE"), text: M.erteleKaldir });
  }
  const ac = () => {
    const ozel = h("input", { type: "datetime-local", id: "ertele-zaman", "aria-label": M.erteleZaman });
    bosalt(dialog, h("form", { method: "dialog", class: "ertele-dialog", onsubmit: (e) => {
      e.preventDefault();
      if (ozel.value) gonder("POST", { kadar: new Date(ozel.value).toISOString() });
    } },
    h("h2", { text: M.erteleBaslik }),
    h("div", { class: "dugmeler ertele-secenekleri" }, Object.entries(M.erteleSecenekleri).map(([ad, metin]) =>
      h("button", { type: "button", class: "ikincil", dataset: { secenek: ad }, text: metin,
        onclick: () => gonder("POST", { kadar: ad === "ziyaretci" ? null : secenekZamani(ad).toISOString() }) }))),
    h("label", { for: "ertele-zaman", text: M.erteleZaman }), ozel,
    h("div", { class: "dugmeler" }, h("button", { type: "submit", class: "birincil", text: M.ertele }),
      h("button", { type: "button", class: "ikincil", onclick: () => dialog.close(), text: M.vazgec }))));
    dialog.showModal();
    const ilk = dialog.querySelector(".ertele-secenekleri button");
    if (ilk) ilk.focus();
  };
  return h("button", { type: "button", class: "ikincil kucuk erteleme", onclick: ac, text: M.ertele });
}

// `ertelemeden_dondu`: a notice that stays until closed, with a button that opens the item.
export function ertelemedenDondu(d, { duyurular, sohbetAc, talepAc }) {
  const chat = d.tur === "chat";
  const nesne = chat ? d.oturum : d.ticket;
  if (!nesne) return;
  const ad = chat ? nesne.ziyaretci_adi || nesne.ziyaretci_id : `#${nesne.id} ${nesne.konu}`;
  const kutu = h("div", { class: "duyuru", role: "status", "data-test": "ertelemeden-dondu" },
    h("span", { text: soz(chat ? "sohbetDondu" : "talepDondu", { ad }) }),
    h("span", { class: "dugmeler" },
      h("button", { type: "button", class: "birincil kucuk", text: M.gorunumAc,
        onclick: () => { kutu.remove(); (chat ? sohbetAc : talepAc)(nesne.id); } }),
      h("button", { type: "button", class: "ikincil kucuk", onclick: () => kutu.remove(), text: M.kapatDugme })));
  duyurular.append(kutu);
}

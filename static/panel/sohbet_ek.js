// Chats' service level and chat-to-ticket in the console (CONTRACT 24, issue 43): the queue's
// waiting time coloured by the chat's first-response target (amber within the tenant's `uyari_dk`,
// red once breached), the `sla_uyari` / `sla_ihlal` frames of chats and tickets raised as a toast
// and a sound, and the "Talebe dönüştür" action of the open chat. Kept apart from uygulama.js,
// which calls these exports from a few hooks.
import { istek } from "./api.js";
import { h } from "./dom.js";
import { M, soz } from "./metinler.js";

const uyariDakikalari = new Map(); // tenant id -> its `uyari_dk` (a promise, read once)

function uyariDk(musteriId) {
  if (!uyariDakikalari.has(musteriId)) {
    uyariDakikalari.set(musteriId, istek("GET", `/operator/tenants/${musteriId}/sla`, { sessiz401: true })
      .then((v) => v.sla.uyari_dk).catch(() => 15));
  }
  return uyariDakikalari.get(musteriId);
}

// The class of a queue row's waiting time: "" (no target, or met), `sla-yaklasan` within the
// warning, `sla-ihlal` once due. Read from the due time, so a redraw moves it as time passes;
// the warning's minutes arrive later and then colour the element (`el`) in place.
export function beklemeSlaIsaretle(el, oturum) {
  const s = oturum.sla && oturum.sla.ilk_yanit;
  if (!s || !s.hedef || (s.durum !== "bekliyor" && s.durum !== "ihlal")) return el;
  const kalan = (Date.parse(s.hedef) - Date.now()) / 1000;
  el.dataset.sla = "bekliyor";
  if (s.durum === "ihlal" || kalan <= 0) {
    el.classList.add("sla-ihlal");
    el.dataset.sla = "ihlal";
    return el;
  }
  uyariDk(oturum.musteri_id).then((dk) => {
    if (kalan <= dk * 60) { el.classList.add("sla-yaklasan"); el.dataset.sla = "yaklasan"; }
  });
  return el;
}

// An `sla_uyari` / `sla_ihlal` frame (a chat's `{oturum}` or a ticket's `{ticket}`): a toast in
// `kap` that opens the item, and a sound through `uyar` (the console's own ring). True when it was one.
export function slaDuyurusu(tip, data, { kap, uyar, sohbetAc, talepAc, projeAdi }) {
  if ((tip !== "sla_uyari" && tip !== "sla_ihlal") || !data) return false;
  const oturum = data.oturum;
  const ticket = data.ticket;
  const nesne = oturum || ticket;
  if (!nesne) return false;
  const ad = oturum ? (oturum.ziyaretci_adi || oturum.ziyaretci_id) : `#${ticket.id} ${ticket.konu}`;
  const baslik = soz(tip === "sla_ihlal" ? "slaIhlalDuyurusu" : "slaUyariDuyurusu",
    { tur: oturum ? M.sohbetKisa : M.talepKisa, ad, proje: projeAdi(nesne.musteri_id) });
  uyar(baslik, ad, nesne.musteri_id);
  const kutu = h("div", { class: `duyuru sla-duyuru ${tip === "sla_ihlal" ? "sla-ihlal" : "sla-yaklasan"}`, role: "status",
    "data-test": "sla-duyurusu", dataset: { tip, tur: oturum ? "oturum" : "ticket", id: String(nesne.id) } },
  h("strong", { text: baslik }),
  h("span", { class: "dugmeler" },
    h("button", { type: "button", class: "birincil kucuk", text: M.bahsedilmeAc,
      onclick: () => { kutu.remove(); if (oturum) sohbetAc(oturum.id); else talepAc(ticket.id); } }),
    h("button", { type: "button", class: "ikincil kucuk", onclick: () => kutu.remove(), text: M.kapatDugme })));
  kap.append(kutu);
  return true;
}

// The open chat's header button: "Talebe dönüştür" (a dialog: subject and priority), or, once
// made, a button to its ticket. `donustu(oturum, ticket)` tells the console.
export function sohbetTicketDugmesi(oturum, { dialog, talepAc, donustu }) {
  if (oturum.ticket_id) {
    return h("button", { type: "button", class: "ikincil", "data-test": "sohbet-talebi", onclick: () => talepAc(oturum.ticket_id),
      text: soz("sohbetTalebi", { id: oturum.ticket_id }) });
  }
  return h("button", { type: "button", class: "ikincil", "data-test": "ticketa-donustur",
    onclick: () => donusturAc(oturum, { dialog, donustu }), text: M.ticketaDonustur });
}

function donusturAc(oturum, { dialog, donustu }) {
  const konu = h("input", { id: "donustur-konu", type: "text", maxlength: "200", required: true,
    value: (oturum.son_mesaj || "").slice(0, 80) });
  const oncelik = h("select", { id: "donustur-oncelik" },
    ["dusuk", "normal", "yuksek", "acil"].map((o) => h("option", { value: o, selected: o === "normal", text: M.oncelikler[o] || o })));
  const hataEl = h("p", { class: "hata", role: "alert" });
  dialog.replaceChildren(h("form", { method: "dialog", onsubmit: async (e) => {
    e.preventDefault();
    let ticket;
    try {
      ticket = (await istek("POST", `/operator/chat/${oturum.id}/ticket`, { govde: { konu: konu.value.trim(), oncelik: oncelik.value } })).ticket;
    } catch (err) { hataEl.textContent = err.message; return; }
    dialog.close();
    donustu({ ...oturum, ticket_id: ticket.id }, ticket);
  } },
  h("h2", { text: M.ticketaDonustur }), h("p", { class: "soluk", text: M.ticketaDonusturAciklama }),
  h("label", { for: "donustur-konu", text: M.talepKonusu }), konu,
  h("label", { for: "donustur-oncelik", text: M.oncelik }), oncelik, hataEl,
  h("div", { class: "dugmeler" }, h("button", { type: "submit", class: "birincil", text: M.ticketaDonustur }),
    h("button", { type: "button", class: "ikincil", onclick: () => dialog.close(), text: M.vazgec }))));
  dialog.showModal();
  konu.focus();
}

// Service levels in the console (CONTRACT 17, 21): a ticket's due times as badges (amber within
// its tenant's `uyari_dk`, red when breached), the `sla` sort of the ticket list, and the
// `sla_uyari` / `sla_ihlal` frames. Kept apart from uygulama.js, which calls the three exports.
import { istek } from "./api.js";
import { h } from "./dom.js";
import { M, sayiyla, soz, tarihSaat } from "./metinler.js";

const politikalar = new Map(); // tenant id -> its `uyari_dk` (read once, again after a frame)


async function uyariDk(musteriId) {
  if (!politikalar.has(musteriId)) {
    politikalar.set(musteriId, istek("GET", `/operator/tenants/${musteriId}/sla`, { sessiz401: true })
      .then((v) => v.sla.uyari_dk).catch(() => 15));
  }
  return politikalar.get(musteriId);
}

function sure(sn) {
  const mutlak = Math.abs(sn);
  return mutlak >= 86400 ? sayiyla("gun", Math.floor(mutlak / 86400)) : mutlak >= 3600 ? sayiyla("sa", Math.floor(mutlak / 3600))
    : sayiyla("dk", Math.max(1, Math.floor(mutlak / 60)));
}

// The badges of one ticket (an empty span when it has no target): appended to its list row
// and to the open ticket's header. `uyari_dk` arrives later and colours them amber.
export function slaRozetleri(ticket) {
  const kap = h("span", { class: "sla-rozetler", dataset: { test: "sla-rozetleri" } });
  const sla = ticket.sla || {};
  for (const [anahtar, ad] of Object.entries(M.slaHedefleri)) {
    const s = sla[anahtar];
    if (!s || s.durum === "karsilandi") continue;
    const metin = s.durum === "duraklatildi" ? soz("slaDurdu", { hedef: ad }) : s.durum === "ihlal" ? soz("slaIhlal", { hedef: ad })
      : soz(s.kalan_sn < 0 ? "slaGecikti" : "slaKalan", { hedef: ad, sure: sure(s.kalan_sn) });
    const rozet = h("span", { class: `sla-rozet sla-${s.durum}`, text: metin, title: s.hedef ? tarihSaat(s.hedef) : ad,
      dataset: { hedef: anahtar, durum: s.durum } });
    kap.append(rozet);
    if (s.durum === "bekliyor" && s.kalan_sn !== null) {
      uyariDk(ticket.musteri_id).then((dk) => { if (s.kalan_sn <= dk * 60) rozet.classList.add("sla-yaklasan"); });
    }
  }
  return kap;
}

// A socket frame: true when it was an SLA frame (the caller then refreshes the ticket list).
export function slaCercevesi(tip, data) {
  if (tip !== "sla_uyari" && tip !== "sla_ihlal") return false;
  if (data && data.ticket) politikalar.delete(data.ticket.musteri_id);
  return true;
}

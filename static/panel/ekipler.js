// Teams in the console (CONTRACT 22): the transfer dialog offers the chat's tenant's teams beside
// its operators ("to a team" = back to that team's routing). A team's option value is
// `ekip:<id>`; an operator's stays its id. The teams of a tenant are read once per dialog.
import { api, istek } from "./api.js";
import { h } from "./dom.js";
import { M } from "./metinler.js";

const ONEK = "ekip:";

export const ekipleriGetir = (musteriId) =>
  istek("GET", `/operator/tenants/${musteriId}/ekipler`).then((v) => v.ekipler || []);

// Adds an optgroup of the tenant's teams to the transfer's <select> (nothing when it has none or
// they cannot be read: the operators stay the choice).
export async function ekipSecenekleriEkle(secim, musteriId) {
  let ekipler = [];
  try { ekipler = await ekipleriGetir(musteriId); } catch { return; }
  if (!ekipler.length) return;
  secim.append(h("optgroup", { label: M.ekipler },
    ekipler.map((e) => h("option", { value: ONEK + e.id, text: `${M.ekibe} ${e.ad}` }))));
}

export const ekipSecildi = (deger) => typeof deger === "string" && deger.startsWith(ONEK);

// The transfer the dialog's value asks for: to a team, to an operator, or back to the queue ("").
export function aktarHedefe(oturumId, deger) {
  if (ekipSecildi(deger)) {
    return istek("POST", `/operator/chat/${oturumId}/transfer`, { govde: { ekip_id: Number(deger.slice(ONEK.length)) } });
  }
  return api.aktar(oturumId, deger ? Number(deger) : null);
}

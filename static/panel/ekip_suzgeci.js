// The team filter of the console's lists (CONTRACT 22): every team (""), the caller's teams
// ("benim"), items of no team ("yok"), or one team (its id). Chats are filtered here, from the
// live list the sockets keep (`ekip_id` of each chat; "benim" from the teams' members); tickets by
// the server (`GET /operator/tickets?ekip_id=`). The choice is remembered per browser tab
// (sessionStorage: a reload keeps it, another tab chooses its own), for chats and tickets apart,
// as the console's other filters live per tab.
import { ekipleriGetir } from "./ekipler.js";
import { h } from "./dom.js";
import { M } from "./metinler.js";

const ANAHTAR = "sd-panel-ekip-suzgeci:";
const onbellek = new Map(); // musteriId -> Promise<ekip[]>

export function kayitliEkipSuzgeci(tur) {
  try { return sessionStorage.getItem(ANAHTAR + tur) || ""; } catch { return ""; }
}

function kaydet(tur, deger) {
  try {
    if (deger) sessionStorage.setItem(ANAHTAR + tur, deger); else sessionStorage.removeItem(ANAHTAR + tur);
  } catch { /* storage blocked: the choice lasts until the page goes */ }
}

function tenantEkipleri(musteriId) {
  if (!onbellek.has(musteriId)) {
    const istek = ekipleriGetir(musteriId).then((ekipler) => ekipler.map((e) => ({ ...e, musteri_id: musteriId })));
    onbellek.set(musteriId, istek);
    istek.catch(() => { if (onbellek.get(musteriId) === istek) onbellek.delete(musteriId); });
  }
  return onbellek.get(musteriId);
}

// Every team of the given tenants (a tenant whose teams cannot be read adds none).
export async function ekipListesi(musteriIdleri) {
  const listeler = await Promise.all(musteriIdleri.map((id) => tenantEkipleri(id).catch(() => [])));
  return listeler.flat();
}

// The ids of the teams `operatorId` is a member of.
export const benimEkiplerim = (ekipler, operatorId) =>
  new Set(ekipler.filter((e) => (e.uyeler || []).includes(operatorId)).map((e) => e.id));

// Whether a chat (or ticket) shape passes the filter `deger`.
export function ekipUyar(nesne, deger, benim) {
  if (!deger) return true;
  const ekip = nesne.ekip_id ?? null;
  if (deger === "yok") return ekip === null;
  if (deger === "benim") return ekip !== null && benim.has(ekip);
  return ekip === Number(deger);
}

// A <select> (keyboard reachable as any form control) for the list of `tur` ("sohbet", "talep").
// `secili`: the current value; a team no longer listed falls back to every team, and `degisti`
// hears of it. `ekipler` empty: nothing to choose (null: no control).
export function ekipSuzgeci({ id, tur, ekipler, secili, cokluProje, firmaAdi, degisti }) {
  const ekipVar = (d) => ekipler.some((e) => String(e.id) === d);
  let deger = secili || "";
  if (deger && deger !== "benim" && deger !== "yok" && !ekipVar(deger)) deger = "";
  if (!ekipler.length) deger = "";
  if (deger !== (secili || "")) { kaydet(tur, deger); degisti(deger); }
  if (!ekipler.length) return null;
  const s = h("select", { id, "aria-label": M.ekipSuzgeci, dataset: { test: `${tur}-ekip-suzgeci` },
    onchange: () => { kaydet(tur, s.value); degisti(s.value); } },
  h("option", { value: "", text: M.tumEkipler, selected: deger === "" }),
  h("option", { value: "benim", text: M.ekiplerim, selected: deger === "benim" }),
  h("option", { value: "yok", text: M.ekipsiz, selected: deger === "yok" }),
  ekipler.map((e) => h("option", { value: String(e.id), selected: String(e.id) === deger,
    text: cokluProje ? `${e.ad} · ${firmaAdi(e.musteri_id)}` : e.ad })));
  return s;
}

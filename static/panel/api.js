// A thin client of the public REST API (/api/v1). The token lives in an HttpOnly cookie that no
// script reads; unsafe calls carry the CSRF value the server derived from that token.
import { dil, M } from "./metinler.js";

const TABAN = "/api/v1";
let csrf = "";
const dinleyiciler = { oturumDustu: () => {}, baglanti: () => {} };

export class ApiHatasi extends Error {
  constructor(status, hata) {
    super((hata && hata.mesaj) || insanca(status));
    this.status = status;
    this.kod = hata && hata.kod;
    this.alanlar = (hata && hata.alanlar) || {};
  }
}

// What an operator reads when the server gave no message of its own (issue 39): never the
// browser's "Failed to fetch" or a bare status, but what happened and what to do, in its language.
function insanca(status) {
  if (!status) return M.baglantiHatasi;
  return status >= 500 ? M.sunucuHatasi : M.hata;
}

export function ayarla({ csrfDegeri, oturumDustu, baglanti } = {}) {
  if (csrfDegeri !== undefined) csrf = csrfDegeri;
  if (oturumDustu) dinleyiciler.oturumDustu = oturumDustu;
  if (baglanti) dinleyiciler.baglanti = baglanti;
}

// Requests on their way (to their answer's headers). A logout waits for them (`yoldakiler`): one
// answered after the session ended would be a 401 of a session closed on purpose.
const yolda = new Set();

export async function yoldakiler(enCok = 3000) {
  const son = Date.now() + enCok;
  while (yolda.size && Date.now() < son) {
    await Promise.race([Promise.allSettled([...yolda]), new Promise((r) => setTimeout(r, son - Date.now()))]);
  }
}

export async function istek(yontem, yol, { govde, sorgu, form, sessiz401 } = {}) {
  let url = TABAN + yol;
  if (sorgu) {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries(sorgu)) if (v !== undefined && v !== null && v !== "") p.set(k, v);
    const s = p.toString();
    if (s) url += "?" + s;
  }
  // Server messages (`hata.mesaj`) in the console's language, not the browser's list (CONTRACT 19).
  const basliklar = { Accept: "application/json", "Accept-Language": dil() };
  if (yontem !== "GET") basliklar["X-CSRF-Token"] = csrf;
  let body;
  if (form) body = form;
  else if (govde !== undefined) { body = JSON.stringify(govde); basliklar["Content-Type"] = "application/json"; }
  let yanit;
  try {
    const yanitSozu = fetch(url, { method: yontem, headers: basliklar, body, credentials: "same-origin", cache: "no-store" });
    yolda.add(yanitSozu);
    try { yanit = await yanitSozu; } finally { yolda.delete(yanitSozu); }
  } catch (e) {
    dinleyiciler.baglanti(false);
    throw new ApiHatasi(0, { kod: "BAGLANTI_YOK", mesaj: insanca(0) });
  }
  dinleyiciler.baglanti(yanit.status < 502 || yanit.status > 504);
  let veri = null;
  try { veri = await yanit.json(); } catch { veri = null; }
  if (!yanit.ok || !veri || veri.basarili !== true) {
    const hata = new ApiHatasi(yanit.status, veri && veri.hata);
    if (yanit.status === 401 && !sessiz401) dinleyiciler.oturumDustu();
    throw hata;
  }
  return veri.data;
}

export const api = {
  // `kod`: the TOTP code of a user with two-factor login on (CONTRACT 18); sent only when typed.
  giris: (email, sifre, kod) => istek("POST", "/panel/giris", { govde: kod ? { email, sifre, kod } : { email, sifre }, sessiz401: true }),
  oturum: () => istek("GET", "/panel/oturum", { sessiz401: true }),
  cikis: () => istek("POST", "/panel/cikis"),
  soketBileti: () => istek("POST", "/panel/soket-bileti"),
  tenants: () => istek("GET", "/operator/tenants"),
  sira: (order) => istek("PUT", "/operator/tenants/sira", { govde: { order } }),
  sessize: (id, sessize) => istek("PUT", `/operator/tenants/${id}/sessize`, { govde: { sessize } }),
  uyeler: (id) => istek("GET", `/operator/tenants/${id}/operatorler`),
  dashboard: () => istek("GET", "/operator/dashboard"),
  sohbetler: () => istek("GET", "/operator/chats", { sorgu: { limit: 200 } }),
  // Issue 27 (CONTRACT 16): notes and mentions, labels, ticket owner and priority, search, profile.
  etiketler: (musteriId) => istek("GET", `/operator/tenants/${musteriId}/etiketler`),
  etiketOlustur: (musteriId, ad, renk) => istek("POST", `/operator/tenants/${musteriId}/etiketler`, { govde: renk ? { ad, renk } : { ad } }),
  sohbetEtiketle: (id, etiket_idleri) => istek("PUT", `/operator/chat/${id}/etiketler`, { govde: { etiket_idleri } }),
  talepEtiketle: (id, etiket_idleri) => istek("PUT", `/operator/ticket/${id}/etiketler`, { govde: { etiket_idleri } }),
  talepGuncelle: (id, alanlar) => istek("PATCH", `/operator/ticket/${id}`, { govde: alanlar }),
  ara: (q, { musteri_id, tur, cursor } = {}) => istek("GET", "/operator/ara", { sorgu: { q, musteri_id, tur, cursor } }),
  ziyaretci: (ziyaretci_id, musteri_id) =>
    istek("GET", `/operator/ziyaretci/${encodeURIComponent(ziyaretci_id)}`, { sorgu: { musteri_id } }),
  mesajlar: (id, sonra) => istek("GET", `/operator/chat/${id}/messages`, { sorgu: { sonra, limit: 200 } }),
  mesajGonder: (id, icerik, ek_id, not) => istek("POST", `/operator/chat/${id}/message`,
    { govde: { icerik, ...(ek_id ? { ek_id } : {}), ...(not ? { ozel: true, bahsedilenler: not.bahsedilenler || [] } : {}) } }),
  kabul: (id) => istek("POST", `/operator/chat/${id}/accept`),
  aktar: (id, operator_id) => istek("POST", `/operator/chat/${id}/transfer`, { govde: { operator_id } }),
  kapat: (id) => istek("POST", `/operator/chat/${id}/close`),
  hazirDoldur: (id, yer) => istek("GET", `/operator/canned-responses/${id}/doldur`, { sorgu: yer }),
  hazirYanitlar: (musteri_id, cursor) => istek("GET", "/operator/canned-responses", { sorgu: { musteri_id, cursor, limit: 100 } }),
  baglam: (ziyaretci_id, musteri_id) =>
    istek("GET", `/operator/context/${encodeURIComponent(ziyaretci_id)}`, { sorgu: { musteri_id } }),
  // suzgec: durum, musteri_id, oncelik, operator_id (id, "ben", "yok"), etiket_id, q, siralama
  talepler: (suzgec) => istek("GET", "/operator/tickets", { sorgu: { ...suzgec, limit: 100 } }),
  talep: (id) => istek("GET", `/operator/ticket/${id}`),
  talepYanitla: (id, icerik, ek_idleri, durum, not) =>
    istek("POST", `/operator/ticket/${id}/reply`, { govde: { icerik, ek_idleri, ...(durum ? { durum } : {}),
      ...(not ? { ozel: true, bahsedilenler: not.bahsedilenler || [] } : {}) } }),
  talepDurum: (id, durum) => istek("PUT", `/operator/ticket/${id}/status`, { govde: { durum } }),
  durum: (durum) => istek("POST", "/operator/status", { govde: { durum } }),
  yukle: (musteri_id, dosya) => {
    const f = new FormData();
    f.append("musteri_id", String(musteri_id));
    f.append("dosya", dosya);
    return istek("POST", "/operator/upload", { form: f });
  },
};

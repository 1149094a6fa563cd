// The contact behind the open visitor (CONTRACT 25), in the profile pane: its phone, company and the
// tenant's typed attributes, and an editor for them (`PATCH /operator/kisiler/{id}`). The tenant's
// declarations (`GET /operator/tenants/{id}/nitelikler`) are read once per tenant and kept; a field
// the server refuses shows its message under the field (`alanlar`, e.g. `nitelikler.koltuk`).
import { istek } from "./api.js";
import { bosalt, h } from "./dom.js";
import { M } from "./metinler.js";

const tanimlar = new Map(); // musteri_id -> Promise of its declarations

function nitelikTanimlari(musteriId) {
  if (!tanimlar.has(musteriId)) {
    const p = istek("GET", `/operator/tenants/${musteriId}/nitelikler`).then((v) => v.nitelikler || []);
    p.catch(() => tanimlar.delete(musteriId));
    tanimlar.set(musteriId, p);
  }
  return tanimlar.get(musteriId);
}

const yazi = (t, deger) => {
  if (deger === null || deger === undefined || deger === "") return M.yok;
  if (t && t.tur === "evet_hayir") return deger ? M.evet : M.hayir;
  return String(deger);
};

// `kisi`: the profile's `kisi` (null for a visitor known only from context: nothing is drawn).
// `degisti(kisi)`: told after a save, with the contact as the server now has it.
export function kisiCiz(kisi, { degisti } = {}) {
  if (!kisi) return null;
  const kap = h("section", { class: "kisi", "aria-label": M.kisi, "data-test": "kisi", dataset: { kisi: String(kisi.id) } });
  nitelikTanimlari(kisi.musteri_id).then((liste) => goster(kap, kisi, liste, degisti))
    .catch(() => goster(kap, kisi, [], degisti));
  return kap;
}

function goster(kap, kisi, liste, degisti) {
  const alan = (etiket, deger, anahtar) => h("div", { dataset: { alan: anahtar } }, h("dt", { text: etiket }), h("dd", { text: deger }));
  bosalt(kap,
    h("h3", { text: M.kisi }),
    h("dl", { class: "alanlar" },
      alan(M.telefon, yazi(null, kisi.telefon), "telefon"), alan(M.sirket, yazi(null, kisi.sirket), "sirket"),
      liste.map((t) => alan(t.ad, yazi(t, (kisi.nitelikler || {})[t.anahtar]), `nitelikler.${t.anahtar}`)),
      alan(M.kisiKimlikleri, (kisi.ziyaretci_idleri || []).join(", "), "ziyaretci_idleri")),
    h("button", { type: "button", class: "dugme dugme-kucuk", "data-test": "kisi-duzenle", text: M.kisiDuzenle,
      onclick: () => duzenle(kap, kisi, liste, degisti) }));
}

function girdi(t, deger) {
  const ad = `nitelikler.${t.anahtar}`;
  if (t.tur === "evet_hayir") return h("input", { type: "checkbox", name: ad, checked: deger === true });
  if (t.tur === "secim") {
    return h("select", { name: ad }, h("option", { value: "", text: M.yok }),
      (t.secenekler || []).map((s) => h("option", { value: s, text: s, selected: deger === s })));
  }
  const tur = { sayi: "number", tarih: "date" }[t.tur] || "text";
  return h("input", { type: tur, name: ad, value: deger === null || deger === undefined ? "" : String(deger), step: tur === "number" ? "any" : null });
}

function deger(t, el) {
  if (t.tur === "evet_hayir") return el.checked;
  if (el.value === "") return null;
  if (t.tur === "sayi") return Number.isFinite(Number(el.value)) ? Number(el.value) : el.value;
  return el.value;
}

function duzenle(kap, kisi, liste, degisti) {
  const satir = (etiket, el, anahtar) => h("label", { class: "kisi-alan", dataset: { alan: anahtar } },
    h("span", { text: etiket }), el, h("span", { class: "alan-hata", role: "alert" }));
  const metin = (ad, d, tur = "text") => h("input", { type: tur, name: ad, value: d || "" });
  const form = h("form", { class: "kisi-form", "data-test": "kisi-form", novalidate: true },
    satir(M.ad, metin("ad", kisi.ad), "ad"), satir(M.eposta, metin("email", kisi.email, "email"), "email"),
    satir(M.telefon, metin("telefon", kisi.telefon, "tel"), "telefon"), satir(M.sirket, metin("sirket", kisi.sirket), "sirket"),
    liste.map((t) => satir(t.ad, girdi(t, (kisi.nitelikler || {})[t.anahtar]), `nitelikler.${t.anahtar}`)),
    h("p", { class: "alan-hata genel", role: "alert" }),
    h("div", { class: "dugmeler" },
      h("button", { type: "submit", class: "dugme dugme-ana dugme-kucuk", "data-test": "kisi-kaydet", text: M.kaydet }),
      h("button", { type: "button", class: "dugme dugme-kucuk", text: M.vazgec, onclick: () => goster(kap, kisi, liste, degisti) })));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    form.querySelectorAll(".alan-hata").forEach((x) => { x.textContent = ""; });
    const govde = { nitelikler: {} };
    for (const a of ["ad", "email", "telefon", "sirket"]) govde[a] = form.elements[a].value;
    for (const t of liste) govde.nitelikler[t.anahtar] = deger(t, form.elements[`nitelikler.${t.anahtar}`]);
    const dugme = form.querySelector('button[type="submit"]');
    dugme.disabled = true;
    try {
      const v = await istek("PATCH", `/operator/kisiler/${kisi.id}`, { govde });
      goster(kap, v.kisi, liste, degisti);
      if (degisti) degisti(v.kisi);
    } catch (hata) {
      dugme.disabled = false;
      const alanlar = hata.alanlar || {};
      let gosterildi = false;
      for (const [anahtar, mesaj] of Object.entries(alanlar)) {
        const yer = form.querySelector(`[data-alan="${CSS.escape(anahtar)}"] .alan-hata`);
        if (yer) { yer.textContent = String(mesaj); gosterildi = true; }
      }
      if (!gosterildi) form.querySelector(".alan-hata.genel").textContent = hata.message || M.hata;
    }
  });
  bosalt(kap, h("h3", { text: M.kisi }), form);
  form.elements.ad.focus();
}

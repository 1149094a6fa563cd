// The visitor profile beside a chat or a ticket (CONTRACT 16, `GET /operator/ziyaretci/{id}`):
// who it is, verified or not, first and last seen, the average rating, and its past chats and
// tickets (a click opens one to read). The context banner is drawn below it by uygulama.js.
import { api } from "./api.js";
import { h } from "./dom.js";
import { ikon } from "./ikonlar.js";
import { kisiCiz } from "./kisi.js";
import { M, sayiYaz, sayiyla, soz, tarihSaat } from "./metinler.js";

const zamanYaz = (iso) => (iso ? tarihSaat(iso, { dateStyle: "short", timeStyle: "short" }) : M.yok);

export function profilGetir(ziyaretciId, musteriId) {
  return api.ziyaretci(ziyaretciId, musteriId);
}

// `veri` is the endpoint's answer; `simdiki` = {tur, id} of the open item (marked, not a link);
// `sohbetAc(id)` and `talepAc(id)` open a past item.
export function profilCiz(veri, { simdiki, sohbetAc, talepAc }) {
  const z = veri.ziyaretci || {};
  const alan = (etiket, deger) => h("div", {}, h("dt", { text: etiket }),
    h("dd", { text: deger === null || deger === undefined || deger === "" ? M.yok : String(deger) }));
  const oge = (tur, id, baslik, alt, ac) => {
    const bu = simdiki && simdiki.tur === tur && simdiki.id === id;
    return h("li", { dataset: { tur, id: String(id) } },
      bu ? h("span", { class: "k-baslik", "aria-current": "true", text: `${baslik} · ${M.buKayit}` })
        : h("button", { type: "button", class: "baglanti-dugme k-baslik", onclick: () => ac(id), text: baslik }),
      h("span", { class: "k-alt", text: alt }));
  };
  const oturumlar = veri.oturumlar || [];
  const ticketlar = veri.ticketlar || [];
  const ad = alan(M.ad, z.ad);
  const eposta = alan(M.eposta, z.email);
  // CONTRACT 25: the name and e-mail are the contact's; an edit there shows here at once.
  const kisiDegisti = (k) => {
    ad.querySelector("dd").textContent = k.ad || M.yok;
    eposta.querySelector("dd").textContent = k.email || M.yok;
  };
  return h("section", { class: "profil", "aria-label": M.profil, "data-test": "profil" },
    h("h2", { text: M.profil }),
    h("dl", { class: "alanlar" },
      ad, eposta,
      alan(M.ilkGorulme, zamanYaz(z.ilk_gorulme)), alan(M.sonGorulme, zamanYaz(z.son_gorulme)),
      alan(M.ortalamaPuan, z.ortalama_puan === null || z.ortalama_puan === undefined ? null : sayiYaz(Number(z.ortalama_puan), { minimumFractionDigits: 1, maximumFractionDigits: 1 })),
      alan(M.gecmisSayilari, soz("sohbetTalepSayisi", { sohbetler: sayiyla("sohbetSayisi", z.oturum_sayisi ?? oturumlar.length),
        talepler: sayiyla("talepSayisi", z.ticket_sayisi ?? ticketlar.length) }))),
    h("p", { class: "dogrulama", dataset: { dogrulandi: z.identity_dogrulandi ? "1" : "0" } },
      z.identity_dogrulandi ? [ikon("onay", 14), ` ${M.dogrulandi}`] : M.dogrulanmadi),
    kisiCiz(veri.kisi, { degisti: kisiDegisti }),
    h("h3", { text: M.gecmisSohbetler }),
    oturumlar.length ? h("ul", { class: "kayitlar gecmis", id: "profil-sohbetler" }, oturumlar.map((o) => {
      const li = oge("chat", o.id, sohbetBasligi(o), sohbetAlti(o), sohbetAc);
      li.dataset.durum = o.durum;
      return li;
    }))
      : h("p", { class: "bos", text: M.gecmisYok }),
    h("h3", { text: M.gecmisTalepler }),
    ticketlar.length ? h("ul", { class: "kayitlar gecmis", id: "profil-talepler" }, ticketlar.map((t) => oge("ticket", t.id,
      `#${t.id} ${t.konu}`, `${M.talepDurumlari[t.durum] || t.durum} · ${zamanYaz(t.guncellenme || t.olusturulma)}`, talepAc)))
      : h("p", { class: "bos", text: M.gecmisYok }));
}

const sohbetBasligi = (o) => `${zamanYaz(o.baslangic)} · ${M.sohbetDurumlari[o.durum] || o.durum}`;
const sohbetAlti = (o) => [o.son_mesaj || "", o.puan ? ` · ★ ${o.puan}` : ""].join("");

// A chat listed in the open profile changed (accepted, claimed by an answer, transferred, closed):
// its line shows the new state at once (issue 39: a claimed chat still read "Bekliyor"), from the
// `oturum` the console already holds, without reading the profile again.
export function profilSohbetiGuncelle(kap, o) {
  const li = kap && o && kap.querySelector(`#profil-sohbetler li[data-tur="chat"][data-id="${o.id}"]`);
  if (!li || !o.durum) return;
  li.dataset.durum = o.durum;
  const baslik = li.querySelector(".k-baslik");
  baslik.textContent = baslik.getAttribute("aria-current") ? `${sohbetBasligi(o)} · ${M.buKayit}` : sohbetBasligi(o);
  if (o.son_mesaj !== undefined) li.querySelector(".k-alt").textContent = sohbetAlti(o);
}

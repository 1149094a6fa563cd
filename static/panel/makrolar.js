// Macros (CONTRACT 23): the shared and own macros of the open chat's or ticket's project, in a
// dialog (button "Makro" or the key `u`). Choosing one applies it (POST /operator/makrolar/{id}/uygula)
// as the operator, all or nothing: a refusal shows the service's message and nothing changed.
import { istek } from "./api.js";
import { bosalt, h } from "./dom.js";
import { M } from "./metinler.js";

// `uygulandi(veri)` gets the answer (`{oturum}` or `{ticket}`) once the macro ran.
export async function makrolariAc(dialog, { musteriId, tur, id, uygulandi }) {
  const liste = h("ul", { class: "makro-secim", "data-test": "makrolar" });
  const hataEl = h("p", { class: "hata", role: "alert" });
  bosalt(dialog, h("div", { class: "makro-menu" },
    h("h2", { text: M.makrolar }), liste, hataEl,
    h("div", { class: "dugmeler" }, h("button", { type: "button", class: "ikincil", onclick: () => dialog.close(), text: M.vazgec }))));
  bosalt(liste, h("li", { class: "bos", text: M.yukleniyor }));
  dialog.showModal();
  let makrolar = [];
  try {
    makrolar = (await istek("GET", `/operator/tenants/${musteriId}/makrolar`)).makrolar || [];
  } catch (err) { hataEl.textContent = err.message || M.hata; }
  const uygula = async (makro, dugme) => {
    hataEl.textContent = "";
    dugme.disabled = true;
    try {
      const veri = await istek("POST", `/operator/makrolar/${makro.id}/uygula`, { govde: { tur, id } });
      dialog.close();
      uygulandi(veri);
    } catch (err) {
      hataEl.textContent = err.message || M.hata;
      dugme.disabled = false;
    }
  };
  bosalt(liste, makrolar.length ? makrolar.map((m) => {
    const dugme = h("button", { type: "button", class: "ikincil", dataset: { makroId: String(m.id) },
      text: m.paylasimli ? m.ad : `${m.ad} · ${M.makroKisisel}`, onclick: () => uygula(m, dugme) });
    return h("li", {}, dugme);
  }) : h("li", { class: "bos", text: M.makroYok }));
  const ilk = liste.querySelector("button");
  if (ilk) ilk.focus();
}

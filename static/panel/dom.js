// DOM helpers. Server text only ever becomes a text node (never innerHTML): a message such as
// `<img src=x onerror=...>` shows as those characters and runs nothing.
export function h(etiket, ozellikler, ...cocuklar) {
  const el = document.createElement(etiket);
  for (const [k, v] of Object.entries(ozellikler || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k === "text") el.textContent = v;
    else if (k === "value") el.value = v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  ekle(el, cocuklar);
  return el;
}

function ekle(el, cocuklar) {
  for (const c of cocuklar.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

export function bosalt(el, ...cocuklar) {
  el.replaceChildren();
  ekle(el, cocuklar);
  return el;
}

export const $ = (secici, kok = document) => kok.querySelector(secici);

// Icons drawn as inline SVG (issue 24): emoji need a colour-emoji font, which many machines (and
// every headless server) lack, and then show as empty boxes. The API keeps returning its `icon`
// value (CONTRACT 6); the console picks the drawing by that value, else by the item's kind.
const NS = "http://www.w3.org/2000/svg";
const YOLLAR = {
  paket: "M21 8 12 3 3 8v8l9 5 9-5zM3 8l9 5 9-5M12 13v8",
  kontor: "M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20zM15 9.5a3 3 0 0 0-3-1.5c-1.7 0-3 .9-3 2s1.3 2 3 2 3 .9 3 2-1.3 2-3 2a3 3 0 0 1-3-1.5M12 6v2m0 8v2",
  trial: "M6 2h12M6 22h12M7 2v4l5 6-5 6v4M17 2v4l-5 6 5 6v4",
  depolama: "M4 6c0-1.7 3.6-3 8-3s8 1.3 8 3-3.6 3-8 3-8-1.3-8-3zm0 0v12c0 1.7 3.6 3 8 3s8-1.3 8-3V6M4 12c0 1.7 3.6 3 8 3s8-1.3 8-3",
  uyari: "M12 9v4m0 4h.01M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0z",
  bilgi: "M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20zm0-6v-4m0-4h.01",
  dosya: "M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8zm0 0v6h6",
  onay: "M20 6 9 17l-5-5",
  sohbet: "M21 11.5a8.4 8.4 0 0 1-.9 3.8 8.5 8.5 0 0 1-7.6 4.7 8.4 8.4 0 0 1-3.8-.9L3 21l1.9-5.7a8.4 8.4 0 0 1-.9-3.8 8.5 8.5 0 0 1 4.7-7.6 8.4 8.4 0 0 1 3.8-.9h.5a8.5 8.5 0 0 1 8 8z",
};
// The banner's icon values (context/banner.py); an unknown one falls back to the item's kind.
const EMOJI = { "📦": "paket", "💰": "kontor", "⏳": "trial", "💾": "depolama", "⚠️": "uyari", "⚠": "uyari" };

export function ikon(ad, boyut = 16) {
  const s = document.createElementNS(NS, "svg");
  const oz = { viewBox: "0 0 24 24", width: boyut, height: boyut, fill: "none", stroke: "currentColor", "stroke-width": 2,
    "stroke-linecap": "round", "stroke-linejoin": "round", "aria-hidden": "true", focusable: "false", class: "svg-ikon",
    "data-ikon": ad };
  for (const [k, v] of Object.entries(oz)) s.setAttribute(k, String(v));
  const p = document.createElementNS(NS, "path");
  p.setAttribute("d", YOLLAR[ad] || YOLLAR.bilgi);
  s.append(p);
  return s;
}

export function bannerIkonu(oge) {
  return ikon(EMOJI[oge.icon] || (YOLLAR[oge.tip] ? oge.tip : "bilgi"));
}

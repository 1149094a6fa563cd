// The operator console (CONTRACT 12): a client of the public operator REST API and the
// operator socket only. Plain ES modules, no build step.
import { api, ayarla, ApiHatasi } from "./api.js";
import { markdownDugumleri } from "./bicim.js";
import { $, bosalt, h } from "./dom.js";
import { bannerIkonu, ikon } from "./ikonlar.js";
import { M } from "./metinler.js";
import { slaCercevesi, slaRozetleri, slaSiralamaSecimi } from "./sla.js";
import { OperatorSoketi } from "./soket.js";

const YOKLAMA_MS = 1000;
const DURUM_ANAHTARI = "supportdesk:panel:durum";
const IPUCU_CEREZI = "sd_operator_girisli"; // tenants.kimlik.PANEL_IPUCU_CEREZI
const S = {
  operator: null,
  musteriler: [],
  secilenMusteri: 0,
  gorunum: "sohbet",
  sohbetler: new Map(),
  acikSohbet: null,
  mesajlar: new Map(),
  taslaklar: new Map(),
  okunan: new Map(),
  mesajOkumalari: new Map(),
  imlecler: new Map(), // per chat: the last message id a read brought (`sonra` of the next read)
  // Chats this console is taking itself (accept, or an answer to a waiting chat) until the
  // server's word comes: any other chat that becomes ours was handed to us (CONTRACT 3a).
  kendiAldiklarim: new Set(),
  yaziyor: new Map(),
  uyeler: new Map(),
  hazirYanitlar: new Map(),
  pano: null,
  talepler: [],
  acikTalep: null,
  talepDurum: "acik",
  talepSiralama: "",
  secim: 0,
  soketAcik: false,
  bagli: true,
  ilkYukleme: true,
  oturumVar: false,
  tik: 0,
};
let soket = null;
let yoklamaZamani = null;
const el = {};

// --- start and session -----------------------------------------------------------------------
async function basla() {
  ayarla({ oturumDustu, baglanti: baglantiDurumu });
  iskeletKur();
  // The token cookie is HttpOnly: the server's hint cookie (no secret, as long-lived as the token)
  // says whether there may be a session, so a logged-out load makes no call that must fail (401).
  if (!document.cookie.split("; ").includes(IPUCU_CEREZI + "=1")) return girisGoster(false);
  try {
    const veri = await api.oturum();
    await oturumAc(veri);
  } catch {
    ipucunuSil();  // revoked or expired elsewhere: one 401, not one on every load
    girisGoster(false);
  }
}

function ipucunuSil() {
  document.cookie = `${IPUCU_CEREZI}=; path=/panel/; max-age=0; samesite=strict`;
}

async function oturumAc(veri) {
  ayarla({ csrfDegeri: veri.csrf });
  S.operator = veri.operator;
  S.musteriler = veri.operator.musteriler;
  S.oturumVar = true;
  el.govde.hidden = false;
  sekmeleriCiz();
  // Opening the console puts the operator at the status it last chose here (online the first time).
  const durum = localStorage.getItem(DURUM_ANAHTARI) || "cevrimici";
  el.durum.value = durum;
  durumAyarla(durum);
  await tamYenile();
  if (!soket) {
    soket = new OperatorSoketi({ biletAl: api.soketBileti, olay: soketOlayi, durum: soketDurumu });
    soket.baglan();
  }
  yoklamaBaslat();
}

function oturumDustu() {
  if (!S.oturumVar) return;
  S.oturumVar = false;
  ipucunuSil();
  if (soket) { soket.kapat(); soket = null; }
  clearInterval(yoklamaZamani);
  girisGoster(true);
}

function girisGoster(dustu) {
  const hataEl = h("p", { class: "hata", role: "alert", id: "giris-hata" });
  const email = h("input", { id: "giris-email", type: "email", name: "email", autocomplete: "username", required: true });
  const sifre = h("input", { id: "giris-sifre", type: "password", name: "sifre", autocomplete: "current-password", required: true });
  const kod = h("input", { id: "giris-kod", type: "text", name: "kod", autocomplete: "one-time-code", inputmode: "numeric" });
  if (S.operator) email.value = S.operator.email;
  const form = h("form", { class: "giris", onsubmit: async (e) => {
    e.preventDefault();
    hataEl.textContent = "";
    try {
      const veri = await api.giris(email.value.trim(), sifre.value, kod.value.trim());
      el.giris.close();
      await oturumAc(veri);
    } catch (err) {
      const kodHatasi = err instanceof ApiHatasi && err.alanlar && err.alanlar.kod;
      hataEl.textContent = kodHatasi ? M.girisKodHatasi
        : err instanceof ApiHatasi && err.status === 401 ? M.girisHatasi : err.message || M.hata;
    }
  } },
  h("h1", { text: M.girisBaslik }),
  h("p", { text: dustu ? M.oturumDustu : M.girisAciklama }),
  h("label", { for: "giris-email", text: M.eposta }), email,
  h("label", { for: "giris-sifre", text: M.sifre }), sifre,
  h("label", { for: "giris-kod", text: M.girisKod }), kod,
  hataEl,
  h("button", { type: "submit", class: "birincil", text: M.girisYap }));
  bosalt(el.giris, form);
  if (!el.giris.open) el.giris.showModal();
  (S.operator ? sifre : email).focus();
}

async function cikisYap() {
  try { await api.cikis(); } catch { /* the cookie is cleared or already dead */ }
  S.oturumVar = false;
  if (soket) { soket.kapat(); soket = null; }
  clearInterval(yoklamaZamani);
  S.operator = null;
  el.govde.hidden = true;
  girisGoster(false);
}

// --- skeleton --------------------------------------------------------------------------------
function iskeletKur() {
  document.title = M.baslik;
  const kok = $("#uygulama");
  el.baglanti = h("div", { class: "baglanti-yok", role: "status", hidden: true, text: M.baglantiYok });
  el.pano = h("dl", { class: "pano", "aria-label": M.pano });
  el.durum = h("select", { id: "durum", "aria-label": M.durum, onchange: () => durumAyarla(el.durum.value) },
    Object.entries(M.durumlar).map(([k, v]) => h("option", { value: k, text: v })));
  el.mod = h("span", { class: "mod", "aria-live": "polite" });
  el.bildirimDugme = h("button", { type: "button", class: "ikincil", onclick: bildirimIzniIste, text: M.bildirimIzni });
  if (!("Notification" in window) || Notification.permission !== "default") el.bildirimDugme.hidden = true;
  const ust = h("header", { class: "ust" },
    h("strong", { class: "marka", text: M.baslik }),
    el.pano,
    h("div", { class: "ust-sag" }, el.mod, el.durum, el.bildirimDugme,
      h("button", { type: "button", class: "ikincil", "aria-keyshortcuts": "?", onclick: yardimAc, text: "?",
        "aria-label": M.kisayollar }),
      h("button", { type: "button", class: "ikincil", onclick: cikisYap, text: M.cikis })));
  el.sekmeler = h("div", { class: "sekmeler", role: "tablist", "aria-label": M.projeler });
  el.liste = h("div", { class: "liste-icerik" });
  el.gorunumSec = h("div", { class: "gorunum-sec", role: "group" },
    h("button", { type: "button", "data-gorunum": "sohbet", "aria-pressed": "true", "aria-keyshortcuts": "c",
      onclick: () => gorunumDegistir("sohbet"), text: M.sohbetler }),
    h("button", { type: "button", "data-gorunum": "talep", "aria-pressed": "false", "aria-keyshortcuts": "v",
      onclick: () => gorunumDegistir("talep"), text: M.talepler }));
  el.orta = h("section", { class: "orta", "aria-label": M.sohbet }, bosBolme("sohbet"));
  el.baglam = h("aside", { class: "baglam", "aria-label": M.baglam });
  el.main = h("main", { class: "bolmeler", "data-bolme": "liste" },
    h("section", { class: "liste", "aria-label": M.sohbetler }, el.gorunumSec, el.liste), el.orta, el.baglam);
  const telNav = h("nav", { class: "telefon-nav" },
    h("button", { type: "button", onclick: () => bolme("liste"), text: M.listeye }),
    h("button", { type: "button", onclick: () => bolme("orta"), text: M.sohbet }),
    h("button", { type: "button", onclick: () => bolme("baglam"), text: M.baglamKisa }));
  el.govde = h("div", { class: "govde", hidden: true }, ust, el.baglanti, el.sekmeler, el.main, telNav);
  el.giris = h("dialog", { class: "giris-dialog", "aria-label": M.girisBaslik });
  el.giris.addEventListener("cancel", (e) => e.preventDefault());
  el.yardim = h("dialog", { class: "yardim", "aria-labelledby": "yardim-baslik" },
    h("h2", { id: "yardim-baslik", text: M.kisayollar }),
    h("table", {}, h("tbody", {}, M.kisayolListesi.map(([k, a]) => h("tr", {}, h("th", { scope: "row" }, h("kbd", { text: k })), h("td", { text: a }))))),
    h("button", { type: "button", class: "birincil", onclick: () => el.yardim.close(), text: M.kapatDugme }));
  el.dialog = h("dialog", { class: "islem" });
  el.dosya = h("input", { type: "file", accept: "image/png,image/jpeg,image/gif,image/webp,application/pdf", hidden: true,
    onchange: () => sohbeteDosyaGonder() });
  bosalt(kok, el.govde, el.giris, el.yardim, el.dialog, el.dosya);
  document.addEventListener("keydown", kisayol);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) okunduBildir(); });
  setInterval(() => { if (S.oturumVar && S.gorunum === "sohbet") listeyiCiz(); }, 15000);
}

function bolme(ad) { el.main.dataset.bolme = ad; }

// The middle pane before anything is opened: what to do, and where the shortcuts are (issue 24).
function bosBolme(tur) {
  const talep = tur === "talep";
  return h("div", { class: "bos-bolme", "data-test": "bos-bolme" }, ikon(talep ? "dosya" : "sohbet", 40),
    h("h2", { text: talep ? M.talepSec : M.bosSohbet }), h("p", { text: talep ? M.bosTalepNe : M.bosSohbetNe }),
    h("p", { class: "bos" }, M.bosKisayol.map((x, i) => (i % 2 ? h("kbd", { text: x }) : x))));
}

function baglantiDurumu(var_) {
  if (S.bagli === var_) return;
  S.bagli = var_;
  el.baglanti.hidden = var_;
  modCiz();
}

function modCiz() {
  el.mod.textContent = S.soketAcik ? M.canli : M.yoklama;
  el.mod.dataset.canli = S.soketAcik ? "1" : "0";
}

// --- polling and the socket -----------------------------------------------------------------
function yoklamaBaslat() {
  clearInterval(yoklamaZamani);
  yoklamaZamani = setInterval(async () => {
    if (!S.oturumVar) return;
    S.tik += 1;
    if (!S.soketAcik || !S.bagli) {
      await tamYenile(S.tik % 5 !== 0);
    } else if (S.tik % 30 === 0) {
      panoYenile();
    }
  }, YOKLAMA_MS);
}

async function tamYenile(panosuz = false) {
  try {
    await Promise.all([sohbetleriYenile(), panosuz ? null : panoYenile(),
      S.gorunum === "talep" && !panosuz ? talepleriYenile() : null]);
    if (S.acikSohbet) await mesajlariYenile(S.acikSohbet);
  } catch { /* shown by the connection banner or the login form */ }
}

function soketDurumu(acik) {
  S.soketAcik = acik;
  modCiz();
  // A (re)connect may have missed frames: fill the gap by REST (CONTRACT 11).
  if (acik) { S.hazirYanitlar.clear(); tamYenile(); }
}

// A fresh `hazir` on an open socket: the operator joined or left a project (CONTRACT 11). The
// chats come again by REST (soketDurumu); the tabs follow here.
async function projelerDegistiyse(idler) {
  const simdiki = S.musteriler.map((m) => m.id).sort((a, b) => a - b).join(",");
  if (!Array.isArray(idler) || [...idler].sort((a, b) => a - b).join(",") === simdiki) return;
  try { S.musteriler = (await api.tenants()).musteriler; } catch { return; }
  if (S.secilenMusteri && !musteri(S.secilenMusteri)) S.secilenMusteri = 0;
  for (const [id, o] of S.sohbetler) if (!musteri(o.musteri_id)) S.sohbetler.delete(id);
  sekmeleriCiz();
  listeyiCiz();
}

function soketOlayi(tip, d) {
  if (tip === "hazir") {
    projelerDegistiyse(d.musteri_idleri);
  } else if (tip === "chat_yeni" || tip === "chat_guncellendi") {
    sohbetGuncelle(d.oturum, tip === "chat_yeni");
    panoGecikmeli();
  } else if (tip === "mesaj") {
    const m = d.mesaj;
    const o = S.sohbetler.get(m.oturum_id);
    if (m.oturum_id === S.acikSohbet) {
      mesajlariYenile(m.oturum_id);
    } else if (o) {
      // Counts and previews come from REST (the chat's own first message is in `chat_yeni`
      // already); a waiting chat rang when it arrived, so only a chat of mine rings again.
      if (m.gonderen === "ziyaretci" && o.durum === "aktif") uyar(M.yeniMesaj(musteriAdi(o.musteri_id)), m.icerik, o.musteri_id);
      listeGecikmeli();
    }
  } else if (tip === "yaziyor") {
    clearTimeout(S.yaziyor.get(d.oturum_id));
    S.yaziyor.set(d.oturum_id, setTimeout(() => { S.yaziyor.delete(d.oturum_id); yaziyorCiz(); }, 4000));
    yaziyorCiz();
  } else if (tip === "okundu") {
    S.okunan.set(d.oturum_id, Math.max(S.okunan.get(d.oturum_id) || 0, d.mesaj_id));
    if (d.oturum_id === S.acikSohbet) okunduIsaretle();
  } else if (slaCercevesi(tip, d)) {
    if (S.gorunum === "talep") talepleriYenile();
  } else if (tip === "ticket_yeni" || tip === "ticket_guncellendi") {
    if (S.gorunum === "talep") talepleriYenile();
    if (S.acikTalep && d.ticket && d.ticket.id === S.acikTalep.id) talepAc(d.ticket.id);
    panoGecikmeli();
  } else if (tip === "hazir_yanitlar_degisti") {
    hazirYanitlarDegisti(d.musteri_id);
  } else if (tip === "operator_durumu") {
    if (S.operator && d.operator_id === S.operator.id) el.durum.value = d.durum;
    panoGecikmeli();
  }
}

let listeZamani = null;
function listeGecikmeli() { clearTimeout(listeZamani); listeZamani = setTimeout(() => sohbetleriYenile().catch(() => {}), 300); }

let panoZamani = null;
function panoGecikmeli() { clearTimeout(panoZamani); panoZamani = setTimeout(panoYenile, 800); }

// --- tenants: tabs, order, mute --------------------------------------------------------------
const musteri = (id) => S.musteriler.find((m) => m.id === id);
const musteriAdi = (id) => (musteri(id) || {}).firma_adi || String(id);
const sessizMi = (id) => Boolean((musteri(id) || {}).sessize_alindi);

function bekleyenSayisi(id) {
  const satir = S.pano && S.pano.musteriler.find((m) => m.musteri_id === id);
  if (satir) return satir.bekleyen_chat;
  return [...S.sohbetler.values()].filter((o) => o.musteri_id === id && o.durum === "bekliyor").length;
}

function sekmeleriCiz() {
  // Redrawn on every refresh: the focused tab keeps the focus (keyboard users, Alt+←/→).
  const odakta = el.sekmeler.contains(document.activeElement) ? document.activeElement.id : "";
  const toplam = S.musteriler.reduce((t, m) => t + bekleyenSayisi(m.id), 0);
  const sekme = (id, ad, sayi, ek) => h("div", { class: "sekme-kap", dataset: { id: String(id) } },
    h("button", { type: "button", role: "tab", class: "sekme", id: `sekme-${id}`, "aria-selected": String(S.secilenMusteri === id),
      tabindex: S.secilenMusteri === id ? "0" : "-1", onclick: () => musteriSec(id) },
    ek && ek.renk ? h("span", { class: "renk", "aria-hidden": "true", dataset: { renk: ek.renk } }) : null,
    h("span", { class: "ad", text: ad }),
    h("span", { class: "sayi", "aria-label": M.bekleyenEtiket(sayi), text: String(sayi), dataset: { sifir: sayi ? "0" : "1" } })),
    ek ? h("button", { type: "button", class: "sessiz", "aria-pressed": String(ek.sessiz),
      "aria-label": ek.sessiz ? M.sesiAc(ad) : M.sessizeAl(ad), title: ek.sessiz ? M.sesiAc(ad) : M.sessizeAl(ad),
      onclick: () => sessizeAl(id, !ek.sessiz), text: "♪" }) : null);
  bosalt(el.sekmeler, sekme(0, M.tumu, toplam, null),
    S.musteriler.map((m) => {
      const kap = sekme(m.id, m.firma_adi, bekleyenSayisi(m.id), { renk: m.renk_primary, sessiz: m.sessize_alindi });
      kap.draggable = true;
      kap.title = M.sekmeTasi;
      kap.addEventListener("dragstart", (e) => { e.dataTransfer.setData("text/plain", String(m.id)); kap.classList.add("suruklenen"); });
      kap.addEventListener("dragend", () => kap.classList.remove("suruklenen"));
      kap.addEventListener("dragover", (e) => e.preventDefault());
      kap.addEventListener("drop", (e) => {
        e.preventDefault();
        const kaynak = Number(e.dataTransfer.getData("text/plain"));
        if (kaynak && kaynak !== m.id) sekmeTasi(kaynak, S.musteriler.findIndex((x) => x.id === m.id));
      });
      return kap;
    }));
  for (const r of el.sekmeler.querySelectorAll(".renk")) r.style.background = r.dataset.renk;
  const odak = odakta && document.getElementById(odakta);
  if (odak) odak.focus();
}

async function sekmeTasi(id, hedef) {
  // Drawn at once in the new order; the server's answer then replaces it, or, if the
  // order could not be saved, the tabs go back to the order they had.
  const onceki = S.musteriler;
  const sira = onceki.map((m) => m.id).filter((x) => x !== id);
  sira.splice(Math.max(0, Math.min(hedef, sira.length)), 0, id);
  const odakla = () => { const odak = $(`#sekme-${id}`); if (odak) odak.focus(); };
  S.musteriler = sira.map((x) => onceki.find((m) => m.id === x));
  sekmeleriCiz();
  odakla();
  try {
    S.musteriler = (await api.sira(sira)).musteriler;
  } catch (hata) {
    // Refused (a project left the team meanwhile, say): show the server's list as it is now.
    S.musteriler = onceki;
    try { S.musteriler = (await api.tenants()).musteriler; } catch { /* the order it had */ }
    bildir(hata.message);
  }
  sekmeleriCiz();
  odakla();
}

async function sessizeAl(id, sessize) {
  try {
    S.musteriler = (await api.sessize(id, sessize)).musteriler;
  } catch { return; }
  sekmeleriCiz();
  listeyiCiz();
}

function musteriSec(id) {
  S.secilenMusteri = id;
  S.secim = 0;
  sekmeleriCiz();
  if (S.gorunum === "talep") talepleriYenile(); else listeyiCiz();
  const b = $(`#sekme-${id}`);
  if (b) b.focus();
}

// --- dashboard and own status ----------------------------------------------------------------
async function panoYenile() {
  try { S.pano = await api.dashboard(); } catch { return; }
  const t = S.pano.toplam;
  bosalt(el.pano, Object.entries(M.panoAlanlari).map(([k, etiket]) => h("div", { class: "pano-oge" },
    h("dt", { text: etiket }), h("dd", { dataset: { alan: k }, text: t[k] === null ? M.yok : String(t[k]) }))));
  sekmeleriCiz();
}

async function durumAyarla(durum) {
  try { localStorage.setItem(DURUM_ANAHTARI, durum); } catch { /* storage blocked */ }
  try { await api.durum(durum); } catch { /* the select shows what was chosen; the next event corrects it */ }
}

// --- chats: list -----------------------------------------------------------------------------
async function sohbetleriYenile() {
  const veri = await api.sohbetler();
  const yeni = new Map(veri.oturumlar.map((o) => [o.id, o]));
  // While the socket is live its frames ring; a REST read then only brings counts up to date.
  if (!S.ilkYukleme && !S.soketAcik) {
    for (const [id, o] of yeni) {
      const eski = S.sohbetler.get(id);
      if (!eski && o.durum === "bekliyor") uyar(M.yeniSohbet(musteriAdi(o.musteri_id)), o.ziyaretci_adi, o.musteri_id);
      else if (bizeDevredildi(eski, o)) uyar(M.sizeAktarildi(musteriAdi(o.musteri_id)), o.ziyaretci_adi || o.son_mesaj, o.musteri_id);
      else if (eski && id !== S.acikSohbet && o.okunmamis > eski.okunmamis)
        uyar(M.yeniMesaj(musteriAdi(o.musteri_id)), o.son_mesaj || "", o.musteri_id);
    }
  }
  S.ilkYukleme = false;
  S.sohbetler = yeni;
  if (S.acikSohbet && !yeni.has(S.acikSohbet)) sohbetGitti();
  listeyiCiz();
}

const benimMi = (o) => Boolean(o) && o.durum === "aktif" && o.operator_id === S.operator.id;

// A chat that became ours without this console taking it: a transfer, or (later) an automatic
// assignment. It reaches us as a new chat does (CONTRACT 3a): it rings, and the server counts it unread.
function bizeDevredildi(eski, o) {
  if (!benimMi(o) || benimMi(eski)) return false;
  return !S.kendiAldiklarim.delete(o.id);
}

function sohbetGuncelle(o, yeniMi) {
  const benim = benimMi(o);
  if (o.durum === "bekliyor" || benim) {
    const eski = S.sohbetler.get(o.id);
    if (yeniMi && !eski) uyar(M.yeniSohbet(musteriAdi(o.musteri_id)), o.ziyaretci_adi, o.musteri_id);
    else if (bizeDevredildi(eski, o)) uyar(M.sizeAktarildi(musteriAdi(o.musteri_id)), o.ziyaretci_adi || o.son_mesaj, o.musteri_id);
    S.sohbetler.set(o.id, o);
    if (o.id === S.acikSohbet) sohbetBasligiCiz();
  } else {
    // Taken by a colleague, or closed: it leaves this console at once (CONTRACT 12).
    S.sohbetler.delete(o.id);
    if (o.id === S.acikSohbet) sohbetGitti();
  }
  listeyiCiz();
}

function beklemeSuresi(iso) {
  const sn = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
  if (sn < 60) return M.sn(sn);
  if (sn < 3600) return M.dk(Math.floor(sn / 60));
  return M.sa(Math.floor(sn / 3600));
}

function gorunenSohbetler() {
  const hepsi = [...S.sohbetler.values()].filter((o) => !S.secilenMusteri || o.musteri_id === S.secilenMusteri);
  const siraliBaslangic = (a, b) => Date.parse(a.baslangic) - Date.parse(b.baslangic) || a.id - b.id;
  return {
    kuyruk: hepsi.filter((o) => o.durum === "bekliyor").sort(siraliBaslangic),
    aktif: hepsi.filter((o) => o.durum === "aktif").sort(siraliBaslangic),
  };
}

function sohbetSatiri(o) {
  const m = musteri(o.musteri_id) || {};
  const secili = o.id === S.acikSohbet;
  const renk = h("span", { class: "renk", "aria-hidden": "true" });
  renk.style.background = m.renk_primary || "#6b7280";
  return h("li", { class: "satir", dataset: { id: String(o.id), durum: o.durum } },
    h("button", { type: "button", class: "satir-ac", "aria-current": secili ? "true" : null, onclick: () => sohbetAc(o.id) },
      renk,
      h("span", { class: "satir-govde" },
        h("span", { class: "satir-ust" },
          h("span", { class: "ziyaretci", text: o.ziyaretci_adi || o.ziyaretci_id }),
          o.okunmamis ? h("span", { class: "rozet", "aria-label": M.okunmamis(o.okunmamis), text: String(o.okunmamis) }) : null),
        h("span", { class: "proje", text: m.firma_adi || "" }, m.sessize_alindi ? h("span", { class: "sessiz-isaret", text: " ♪" }) : null),
        h("span", { class: "onizleme", text: o.son_mesaj || "" }),
        o.durum === "bekliyor" ? h("span", { class: "bekleme", text: M.bekliyor(beklemeSuresi(o.baslangic)) }) : null)),
    o.durum === "bekliyor" ? h("button", { type: "button", class: "birincil kucuk", onclick: () => kabulEt(o.id), text: M.kabulEt,
      "aria-label": `${M.kabulEt}: ${o.ziyaretci_adi || o.ziyaretci_id}` }) : null);
}

function listeyiCiz() {
  basligiGuncelle();
  sekmeleriCiz();
  if (S.gorunum !== "sohbet") return;
  const { kuyruk, aktif } = gorunenSohbetler();
  bosalt(el.liste,
    h("h2", { text: `${M.sohbetlerim} (${aktif.length})` }),
    aktif.length ? h("ul", { class: "satirlar", id: "aktifler" }, aktif.map(sohbetSatiri)) : h("p", { class: "bos", text: M.bosAktif }),
    h("h2", { text: `${M.kuyruk} (${kuyruk.length})` }),
    kuyruk.length ? h("ul", { class: "satirlar", id: "kuyruk" }, kuyruk.map(sohbetSatiri)) : h("p", { class: "bos", text: M.bosKuyruk }));
}

function basligiGuncelle() {
  const n = [...S.sohbetler.values()].reduce((t, o) => t + (o.okunmamis || 0), 0);
  document.title = n ? `(${n}) ${M.baslik}` : M.baslik;
}

// --- notifications: sound and desktop, never for a muted tenant -----------------------------
let sesBaglami = null;
function uyar(baslik, govde, musteriId) {
  if (S.ilkYukleme || sessizMi(musteriId)) return;
  try {
    const Ses = window.AudioContext || window.webkitAudioContext;
    if (Ses) {
      sesBaglami = sesBaglami || new Ses();
      const osc = sesBaglami.createOscillator();
      const kazanc = sesBaglami.createGain();
      osc.frequency.value = 880;
      kazanc.gain.value = 0.08;
      osc.connect(kazanc).connect(sesBaglami.destination);
      osc.start();
      osc.stop(sesBaglami.currentTime + 0.15);
    }
  } catch { /* no sound device */ }
  if ("Notification" in window && Notification.permission === "granted") {
    try { new Notification(baslik, { body: String(govde || "").slice(0, 140), tag: `sd-${musteriId}` }); } catch { /* ignored */ }
  }
}

async function bildirimIzniIste() {
  if (!("Notification" in window)) return;
  await Notification.requestPermission();
  el.bildirimDugme.hidden = Notification.permission !== "default";
}

// --- chats: actions --------------------------------------------------------------------------
async function kabulEt(id) {
  S.kendiAldiklarim.add(id);
  try {
    const { oturum } = await api.kabul(id);
    S.kendiAldiklarim.delete(id);
    S.sohbetler.set(oturum.id, oturum);
    listeyiCiz();
    // Already open (read before accepting): only its header changes; the accept's `sistem` line
    // comes with the next read like any message.
    if (S.acikSohbet === oturum.id && S.gorunum === "sohbet") { sohbetBasligiCiz(); mesajlariYenile(oturum.id); } else sohbetAc(oturum.id);
  } catch (e) {
    S.kendiAldiklarim.delete(id);
    bildir(e.message);
    sohbetleriYenile().catch(() => {});
  }
}

async function aktarAc() {
  const o = S.sohbetler.get(S.acikSohbet);
  if (!o || o.durum !== "aktif") return;
  let uyeler = [];
  try { uyeler = (await api.uyeler(o.musteri_id)).operatorler.filter((u) => u.id !== S.operator.id); } catch { return; }
  const secim = h("select", { id: "aktar-hedef" },
    h("option", { value: "", text: M.siraya }),
    uyeler.map((u) => h("option", { value: String(u.id), text: `${u.ad || u.email} · ${M.durumlar[u.durum] || u.durum}` })));
  const hataEl = h("p", { class: "hata", role: "alert" });
  bosalt(el.dialog, h("form", { method: "dialog", onsubmit: async (e) => {
    e.preventDefault();
    try {
      const { oturum } = await api.aktar(o.id, secim.value ? Number(secim.value) : null);
      el.dialog.close();
      sohbetGuncelle(oturum, false);
    } catch (err) { hataEl.textContent = err.message; }
  } },
  h("h2", { text: M.aktarBaslik }), h("label", { for: "aktar-hedef", text: M.aktarHedef }), secim, hataEl,
  h("div", { class: "dugmeler" }, h("button", { type: "submit", class: "birincil", text: M.aktar }),
    h("button", { type: "button", class: "ikincil", onclick: () => el.dialog.close(), text: M.vazgec }))));
  el.dialog.showModal();
  secim.focus();
}

function kapatAc() {
  const o = S.sohbetler.get(S.acikSohbet);
  if (!o) return;
  const evet = h("button", { type: "button", class: "tehlike", onclick: async () => {
    try {
      const { oturum } = await api.kapat(o.id);
      el.dialog.close();
      sohbetGuncelle(oturum, false);
    } catch (e) { el.dialog.close(); bildir(e.message); }
  }, text: M.evet });
  bosalt(el.dialog, h("h2", { text: M.kapatOnay }),
    h("div", { class: "dugmeler" }, evet, h("button", { type: "button", class: "ikincil", onclick: () => el.dialog.close(), text: M.vazgec })));
  el.dialog.showModal();
  evet.focus();
}

function bildir(metin) {
  if (!el.bildirim) return;
  el.bildirim.textContent = metin || M.hata;
}

// --- chats: conversation ---------------------------------------------------------------------
function sohbetGitti() {
  S.acikSohbet = null;
  bosalt(el.orta, h("p", { class: "bos", role: "status", text: M.sohbetGitti }));
  bosalt(el.baglam);
}

async function sohbetAc(id) {
  if (S.acikSohbet && el.yazi) S.taslaklar.set(S.acikSohbet, el.yazi.value);
  S.acikSohbet = id;
  S.gorunum = "sohbet";
  const o = S.sohbetler.get(id);
  if (!o) return;
  el.log = h("ol", { class: "mesajlar", role: "log", "aria-live": "polite", "aria-label": M.sohbet });
  el.yaziyor = h("p", { class: "yaziyor", "aria-live": "polite" });
  el.bildirim = h("p", { class: "hata", role: "alert" });
  el.yazi = h("textarea", { id: "yazi", rows: "3", placeholder: M.mesajYaz, "aria-label": M.mesajYaz,
    "aria-autocomplete": "list", "aria-controls": "hazir-liste" });
  el.yazi.value = S.taslaklar.get(id) || "";
  el.yazi.addEventListener("keydown", yaziTusu);
  el.yazi.addEventListener("input", yaziDegisti);
  el.hazir = h("ul", { id: "hazir-liste", class: "hazir", role: "listbox", "aria-label": M.hazirYanitlar, hidden: true });
  el.sohbetBaslik = h("div", { class: "sohbet-baslik" });
  bosalt(el.orta, el.sohbetBaslik, el.log, el.yaziyor, el.bildirim,
    h("form", { class: "yazma", onsubmit: (e) => { e.preventDefault(); mesajGonder(); } },
      el.hazir, el.yazi,
      h("div", { class: "yazma-dugmeler" },
        h("button", { type: "button", class: "ikincil", "aria-keyshortcuts": "f", onclick: () => el.dosya.click(), text: `+ ${M.dosyaEkle}` }),
        h("button", { type: "submit", class: "birincil", text: M.gonder }))));
  sohbetBasligiCiz();
  S.mesajlar.set(id, new Map());
  S.imlecler.delete(id);
  bolme("orta");
  listeyiCiz();
  await mesajlariYenile(id);
  baglamYukle(o);
  el.yazi.focus();
}

function sohbetBasligiCiz() {
  const o = S.sohbetler.get(S.acikSohbet);
  if (!o || !el.sohbetBaslik) return;
  const m = musteri(o.musteri_id) || {};
  const renk = h("span", { class: "renk", "aria-hidden": "true" });
  renk.style.background = m.renk_primary || "#6b7280";
  bosalt(el.sohbetBaslik,
    h("div", {}, h("h2", { text: o.ziyaretci_adi || o.ziyaretci_id }), h("span", { class: "proje" }, renk, " ", m.firma_adi || "")),
    h("div", { class: "dugmeler" },
      o.durum === "bekliyor" ? h("button", { type: "button", class: "birincil", "aria-keyshortcuts": "a", onclick: () => kabulEt(o.id), text: M.kabulEt }) : null,
      o.durum === "aktif" ? h("button", { type: "button", class: "ikincil", "aria-keyshortcuts": "t", onclick: aktarAc, text: M.aktar }) : null,
      h("button", { type: "button", class: "tehlike", "aria-keyshortcuts": "x", onclick: kapatAc, text: M.kapat })));
}

// One read of a chat's messages at a time: a call while one is on its way (a socket frame, the
// accept's answer) asks for one more read after it. Two reads in flight from the same `sonra`
// would each draw what is new: the accept's `sistem` line twice until a reload.
function mesajlariYenile(id) {
  const suren = S.mesajOkumalari.get(id);
  if (suren) { suren.tekrar = true; return suren.bitti; }
  const kayit = { tekrar: false };
  kayit.bitti = (async () => {
    try {
      do { kayit.tekrar = false; await mesajlariOku(id); } while (kayit.tekrar);
    } finally { S.mesajOkumalari.delete(id); }
  })();
  S.mesajOkumalari.set(id, kayit);
  return kayit.bitti;
}

async function mesajlariOku(id) {
  if (!S.mesajlar.has(id)) { S.mesajlar.set(id, new Map()); S.imlecler.delete(id); }
  const harita = S.mesajlar.get(id);
  // From the last message a read brought, not the newest shown: a sent message is shown from its
  // answer at once, and what was written just before it (an accept's line) must still come.
  const sonra = S.imlecler.get(id);
  let veri;
  try { veri = await api.mesajlar(id, sonra); } catch (e) {
    if (e.status === 404) { S.sohbetler.delete(id); if (S.acikSohbet === id) sohbetGitti(); listeyiCiz(); }
    return;
  }
  // Re-opened meanwhile (a fresh list on the screen): the opening asked for a read of its own.
  if (S.acikSohbet !== id || S.mesajlar.get(id) !== harita) return;
  const o = S.sohbetler.get(id);
  if (o) { o.okunmamis = 0; Object.assign(o, veri.oturum); }
  // The visitor's read position as the server kept it: read marks survive a reload.
  if (veri.ziyaretci_son_okunan) S.okunan.set(id, Math.max(S.okunan.get(id) || 0, veri.ziyaretci_son_okunan));
  if (veri.mesajlar.length) S.imlecler.set(id, Math.max(sonra || 0, veri.mesajlar[veri.mesajlar.length - 1].id));
  let yeni = 0;
  for (const m of veri.mesajlar) if (!harita.has(m.id)) { harita.set(m.id, m); mesajCiz(m); yeni += 1; }
  if (yeni) { el.log.scrollTop = el.log.scrollHeight; okunduBildir(); }
  okunduIsaretle();
  listeyiCiz();
}

function mesajCiz(m) {
  const kendi = m.gonderen === "operator" && m.operator_id === S.operator.id;
  const kim = m.gonderen === "operator" && !kendi ? M.meslektas : M.gonderen[m.gonderen] || m.gonderen;
  const zaman = new Date(m.zaman).toLocaleTimeString("tr-TR", { hour: "2-digit", minute: "2-digit" });
  // In id order: a message shown from its send's answer may precede one a read brings later.
  const son = el.log.lastElementChild;
  const sonraki = son && Number(son.dataset.id) > m.id ? [...el.log.children].find((li) => Number(li.dataset.id) > m.id) : null;
  el.log.insertBefore(h("li", { class: `mesaj ${m.gonderen}${kendi ? " kendi" : ""}`, dataset: { id: String(m.id) } },
    h("span", { class: "kim", text: `${kim} · ${zaman}` }),
    h("p", { class: "metin", text: m.icerik }),
    m.ek ? ekCiz(m.ek) : null,
    m.gonderen === "operator" ? h("span", { class: "okundu-isaret", text: `✓ ${M.iletildi}` }) : null), sonraki);
}

function ekCiz(ek) {
  const resim = /^image\//.test(ek.mime_tipi);
  return h("a", { class: "ek", href: ek.url, target: "_blank", rel: "noopener noreferrer" },
    resim ? h("img", { src: ek.url, alt: ek.ad, loading: "lazy" }) : ikon("dosya", 14),
    h("span", { text: `${resim ? "" : " "}${ek.ad} · ${Math.max(1, Math.round(ek.boyut / 1024))} KB` }));
}

function okunduIsaretle() {
  const sinir = S.okunan.get(S.acikSohbet) || 0;
  for (const li of el.log.querySelectorAll(".mesaj.operator")) {
    if (Number(li.dataset.id) <= sinir) {
      const i = li.querySelector(".okundu-isaret");
      if (i) { i.textContent = `✓✓ ${M.okundu}`; i.dataset.okundu = "1"; }
    }
  }
}

function okunduBildir() {
  if (!soket || !S.acikSohbet || document.hidden) return;
  const harita = S.mesajlar.get(S.acikSohbet);
  const son = harita && [...harita.values()].filter((m) => m.gonderen === "ziyaretci").pop();
  if (son) soket.gonder("okundu", { oturum_id: S.acikSohbet, mesaj_id: son.id });
}

function yaziyorCiz() {
  if (el.yaziyor) el.yaziyor.textContent = S.yaziyor.has(S.acikSohbet) ? M.yaziyor : "";
}

async function mesajGonder(ek) {
  const id = S.acikSohbet;
  const metin = el.yazi.value.trim() || (ek ? ek.ad : "");
  if (!id || !metin) return;
  el.bildirim.textContent = "";
  // An answer to a waiting chat takes it, as an accept does (CONTRACT 3a).
  const aliyorum = S.sohbetler.get(id)?.durum === "bekliyor";
  if (aliyorum) S.kendiAldiklarim.add(id);
  try {
    const { mesaj } = await api.mesajGonder(id, metin, ek && ek.id);
    if (aliyorum) bekleyeniAldim(id);
    if (!ek || el.yazi.value.trim()) el.yazi.value = "";
    S.taslaklar.delete(id);
    const harita = S.mesajlar.get(id);
    if (harita && !harita.has(mesaj.id) && S.acikSohbet === id) { harita.set(mesaj.id, mesaj); mesajCiz(mesaj); el.log.scrollTop = el.log.scrollHeight; }
  } catch (e) {
    if (aliyorum) { S.kendiAldiklarim.delete(id); listeGecikmeli(); }
    // The draft stays in the box (a dropped session brings the login form over it).
    if (e.status !== 401) el.bildirim.textContent = e.message;
  }
}

// The server's 201 says the waiting chat is ours now: shown so at once (its frame may come later).
function bekleyeniAldim(id) {
  S.kendiAldiklarim.delete(id);
  const o = S.sohbetler.get(id);
  if (o && o.durum === "bekliyor") Object.assign(o, { durum: "aktif", operator_id: S.operator.id });
  sohbetBasligiCiz();
  listeyiCiz();
  listeGecikmeli();
  if (S.acikSohbet === id) mesajlariYenile(id); // the claim's `sistem` line, before this answer
}

async function sohbeteDosyaGonder() {
  const dosya = el.dosya.files[0];
  el.dosya.value = "";
  if (!dosya) return;
  if (S.gorunum === "talep") return talebeDosyaEkle(dosya);
  const o = S.sohbetler.get(S.acikSohbet);
  if (!o) return;
  try {
    const { dosya: ek } = await api.yukle(o.musteri_id, dosya);
    await mesajGonder(ek);
  } catch (e) { el.bildirim.textContent = e.message; }
}

let yaziyorSon = 0;
function yaziDegisti() {
  S.taslaklar.set(S.acikSohbet, el.yazi.value);
  if (soket && Date.now() - yaziyorSon > 2000 && el.yazi.value) {
    yaziyorSon = Date.now();
    soket.gonder("yaziyor", { oturum_id: S.acikSohbet });
  }
  hazirYanitSuz();
}

// --- canned responses: "/" opens them, filtered as typed ---------------------------------------
let hazirSecim = 0;
let hazirSira = 0;
async function hazirYanitSuz() {
  const v = el.yazi.value;
  const sira = ++hazirSira; // only the latest call draws (typed on, or a fresher list came)
  if (!v.startsWith("/") || /\s/.test(v)) { el.hazir.hidden = true; return; }
  const o = S.sohbetler.get(S.acikSohbet);
  if (!o) return;
  // Without the socket (polling) no frame says the list changed: read it each time it opens.
  if (!S.soketAcik && el.hazir.hidden) S.hazirYanitlar.delete(o.musteri_id);
  if (!S.hazirYanitlar.has(o.musteri_id)) {
    const istek = hazirYanitlariGetir(o.musteri_id);
    S.hazirYanitlar.set(o.musteri_id, istek);
    istek.catch(() => { if (S.hazirYanitlar.get(o.musteri_id) === istek) S.hazirYanitlar.delete(o.musteri_id); });
  }
  let liste;
  try { liste = await S.hazirYanitlar.get(o.musteri_id); } catch { return; }
  if (sira !== hazirSira) return;
  const q = v.slice(1).toLocaleLowerCase("tr");
  const uyan = liste.filter((y) =>
    y.kisayol.toLocaleLowerCase("tr").replace(/^\//, "").startsWith(q) || y.baslik.toLocaleLowerCase("tr").includes(q));
  hazirSecim = Math.min(hazirSecim, Math.max(0, uyan.length - 1));
  bosalt(el.hazir, uyan.length ? uyan.map((y, i) => h("li", { role: "option", id: `hazir-${y.id}`, "aria-selected": String(i === hazirSecim),
    onmousedown: (e) => { e.preventDefault(); hazirSec(y); } },
  h("kbd", { text: y.kisayol }), " ", h("span", { text: y.baslik }))) : h("li", { class: "bos", text: M.hazirYok }));
  el.hazir.hidden = false;
  el.hazir.uyanlar = uyan;
  el.yazi.setAttribute("aria-activedescendant", uyan[hazirSecim] ? `hazir-${uyan[hazirSecim].id}` : "");
}

// The project's whole list (filtered here as typed), kept until the project's
// `hazir_yanitlar_degisti` frame or a reconnect says it may have changed.
async function hazirYanitlariGetir(musteriId) {
  const liste = [];
  let cursor;
  for (let sayfa = 0; sayfa < 20; sayfa++) {
    const veri = await api.hazirYanitlar(musteriId, cursor);
    liste.push(...veri.hazir_yanitlar);
    if (!veri.sonraki) break;
    cursor = veri.sonraki;
  }
  return liste;
}

function hazirYanitlarDegisti(musteriId) {
  S.hazirYanitlar.delete(musteriId);
  // An open list of that project is drawn again from the fresh one.
  const o = S.sohbetler.get(S.acikSohbet);
  if (el.hazir && !el.hazir.hidden && o && o.musteri_id === musteriId) hazirYanitSuz();
}

function hazirSec(y) {
  el.yazi.value = y.icerik;
  el.hazir.hidden = true;
  S.taslaklar.set(S.acikSohbet, y.icerik);
  el.yazi.focus();
}

function yaziTusu(e) {
  const liste = !el.hazir.hidden && el.hazir.uyanlar;
  if (liste && liste.length && (e.key === "ArrowDown" || e.key === "ArrowUp")) {
    e.preventDefault();
    hazirSecim = (hazirSecim + (e.key === "ArrowDown" ? 1 : liste.length - 1)) % liste.length;
    hazirYanitSuz();
    return;
  }
  if (liste && liste.length && (e.key === "Enter" || e.key === "Tab") && !e.shiftKey) {
    e.preventDefault();
    hazirSec(liste[hazirSecim]);
    return;
  }
  if (e.key === "Escape") {
    if (!el.hazir.hidden) { el.hazir.hidden = true; e.stopPropagation(); return; }
    el.yazi.blur();
    return;
  }
  if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
    e.preventDefault();
    mesajGonder();
  }
}

// --- visitor context (spec 2.5) ----------------------------------------------------------------
async function baglamYukle(o) {
  bosalt(el.baglam, h("h2", { text: M.baglam }), h("p", { class: "bos", text: M.yukleniyor }));
  let b;
  try { b = await api.baglam(o.ziyaretci_id, o.musteri_id); } catch {
    if (S.acikSohbet === o.id) bosalt(el.baglam, h("h2", { text: M.baglam }), h("p", { class: "bos", text: M.baglamYok }));
    return;
  }
  if (S.acikSohbet !== o.id) return;
  const kritikler = b.banner.filter((x) => x.kritik);
  const alan = (etiket, deger) => h("div", {}, h("dt", { text: etiket }), h("dd", { text: deger === null || deger === "" || deger === undefined ? M.yok : String(deger) }));
  bosalt(el.baglam,
    h("h2", { text: M.baglam }),
    kritikler.length ? h("div", { class: "kritik-serit", role: "alert" },
      kritikler.map((x) => h("span", { class: "kritik-oge", dataset: { tip: x.tip } }, bannerIkonu(x), ` ${x.label}: ${x.deger}`))) : null,
    b.banner.length ? h("ul", { class: "banner" }, b.banner.map((x) => h("li", { class: x.kritik ? "kritik" : "", dataset: { tip: x.tip } },
      h("span", { class: "ikon", "aria-hidden": "true" }, bannerIkonu(x)), h("span", { class: "etiket", text: x.label }),
      h("span", { class: "deger", text: x.deger })))) : null,
    h("dl", { class: "alanlar" },
      alan(M.ad, [b.musteri.ad, b.musteri.soyad].filter(Boolean).join(" ")), alan(M.eposta, b.musteri.email),
      alan(M.paket, b.musteri.paket), alan(M.kontor, b.musteri.kontor)),
    h("p", { class: "dogrulama" }, b.identity_dogrulandi ? [ikon("onay", 14), ` ${M.dogrulandi}`] : M.dogrulanmadi),
    h("h3", { text: M.sayfalar }),
    h("ul", { class: "kayitlar" }, b.sayfalar.slice(0, 10).map((p) => h("li", {},
      h("span", { class: "k-baslik", text: p.baslik || p.url }), h("span", { class: "k-alt", text: p.url })))),
    h("h3", { text: M.hatalar }),
    h("ul", { class: "kayitlar" }, b.hatalar.slice(0, 10).map((x) => h("li", {},
      h("span", { class: "k-baslik", text: x.mesaj }), h("span", { class: "k-alt", text: `${x.kaynak || ""}${x.satir ? ":" + x.satir : ""}` })))),
    h("h3", { text: M.ekranlar }),
    h("div", { class: "ekranlar" }, b.ekran_goruntuleri.slice(0, 6).map((x) => h("a", { href: x.gorsel_url, target: "_blank", rel: "noopener noreferrer" },
      h("img", { src: x.gorsel_url, alt: M.ekranGoruntusu, loading: "lazy" })))));
}

// --- tickets -----------------------------------------------------------------------------------
function gorunumDegistir(g) {
  S.gorunum = g;
  S.secim = 0;
  for (const b of el.gorunumSec.querySelectorAll("button")) b.setAttribute("aria-pressed", String(b.dataset.gorunum === g));
  if (g === "talep") {
    el.baglam.hidden = true;
    bosalt(el.orta, bosBolme("talep"));
    talepleriYenile();
  } else {
    el.baglam.hidden = false;
    S.acikTalep = null;
    if (S.acikSohbet && S.sohbetler.has(S.acikSohbet)) sohbetAc(S.acikSohbet);
    else bosalt(el.orta, bosBolme("sohbet"));
    listeyiCiz();
  }
  bolme("liste");
}

async function talepleriYenile() {
  let veri;
  try { veri = await api.talepler(S.talepDurum, S.secilenMusteri || undefined, S.talepSiralama); } catch { return; }
  S.talepler = veri.ticketlar;
  if (S.gorunum !== "talep") return;
  const filtre = h("select", { id: "talep-durum", "aria-label": M.talepSuzgeci, onchange: () => { S.talepDurum = filtre.value; talepleriYenile(); } },
    Object.entries(M.talepDurumlari).map(([k, v]) => h("option", { value: k, text: v, selected: k === S.talepDurum })));
  const siralama = slaSiralamaSecimi(S.talepSiralama, (v) => { S.talepSiralama = v; talepleriYenile(); });
  bosalt(el.liste, h("h2", { text: M.talepler }), filtre, siralama,
    S.talepler.length ? h("ul", { class: "satirlar", id: "talepler" }, S.talepler.map((t) => {
      const m = musteri(t.musteri_id) || {};
      const renk = h("span", { class: "renk", "aria-hidden": "true" });
      renk.style.background = m.renk_primary || "#6b7280";
      return h("li", { class: "satir", dataset: { id: String(t.id) } },
        h("button", { type: "button", class: "satir-ac", "aria-current": S.acikTalep && S.acikTalep.id === t.id ? "true" : null, onclick: () => talepAc(t.id) },
          renk, h("span", { class: "satir-govde" },
            h("span", { class: "satir-ust" }, h("span", { class: "ziyaretci", text: `#${t.id} ${t.konu}` }), slaRozetleri(t)),
            h("span", { class: "proje", text: `${m.firma_adi || ""} · ${M.talepDurumlari[t.durum] || t.durum} · ${M.oncelikler[t.oncelik] || t.oncelik}` }),
            h("span", { class: "onizleme", text: t.ad || t.email || t.ziyaretci_id }))));
    })) : h("p", { class: "bos", text: M.bosTalep }));
}

let talepEkleri = [];
async function talepAc(id) {
  let t;
  try { t = (await api.talep(id)).ticket; } catch (e) { bildir(e.message); return; }
  // Redrawn for a frame (the visitor answered, a colleague changed it): what the operator was
  // writing, and the files it attached, stay.
  const onceki = S.acikTalep && S.acikTalep.id === t.id ? $("#talep-yanit") : null;
  const odakta = Boolean(onceki) && onceki === document.activeElement;
  S.acikTalep = t;
  if (!onceki) talepEkleri = [];
  const yanit = h("textarea", { id: "talep-yanit", rows: "4", "aria-label": M.yanitYaz, placeholder: M.yanitYaz,
    value: onceki ? onceki.value : "" });
  const ekDurum = h("select", { id: "talep-yanit-durum", "aria-label": M.durumuda },
    h("option", { value: "", text: `${M.durumuda}: ${M.degistirme}` }),
    Object.entries(M.talepDurumlari).filter(([k]) => k).map(([k, v]) => h("option", { value: k, text: v })));
  const durum = h("select", { id: "talep-durum-degistir", "aria-label": M.durumDegistir, disabled: t.durum === "kapandi",
    onchange: async () => {
      try { S.acikTalep = (await api.talepDurum(t.id, durum.value)).ticket; talepleriYenile(); talepAc(t.id); } catch (e) { el.bildirim.textContent = e.message; }
    } }, Object.entries(M.talepDurumlari).filter(([k]) => k).map(([k, v]) => h("option", { value: k, text: v, selected: k === t.durum })));
  el.bildirim = h("p", { class: "hata", role: "alert" });
  el.talepEkListe = h("ul", { class: "ek-listesi" }, talepEkleri.map((d) => h("li", { text: M.dosyaYuklendi(d.ad) })));
  el.yazi = null;
  bosalt(el.orta,
    h("div", { class: "sohbet-baslik" },
      h("div", {}, h("h2", { text: `#${t.id} ${t.konu}` }), slaRozetleri(t),
        h("span", { class: "proje", text: `${musteriAdi(t.musteri_id)} · ${t.ad || ""} ${t.email || ""}` })),
      h("label", { class: "satir-ici" }, `${M.durumDegistir} `, durum)),
    h("ol", { class: "mesajlar", "aria-label": M.talepler }, t.yanitlar.map((y) => h("li", { class: `mesaj ${y.gonderen}` },
      h("span", { class: "kim", text: `${M.gonderen[y.gonderen] || y.gonderen} · ${new Date(y.zaman).toLocaleString("tr-TR")}` }),
      h("div", { class: "metin md" }, markdownDugumleri(y.icerik)), y.ekler.map(ekCiz)))),
    el.bildirim,
    t.durum === "kapandi" ? null : h("form", { class: "yazma", onsubmit: async (e) => {
      e.preventDefault();
      if (!yanit.value.trim()) return;
      try {
        await api.talepYanitla(t.id, yanit.value, talepEkleri.map((d) => d.id), ekDurum.value || undefined);
        yanit.value = "";
        talepEkleri = [];
        talepleriYenile();
        talepAc(t.id);
      } catch (err) { if (err.status !== 401) el.bildirim.textContent = err.message; }
    } }, yanit, el.talepEkListe, h("div", { class: "yazma-dugmeler" }, ekDurum,
      h("button", { type: "button", class: "ikincil", onclick: () => el.dosya.click(), text: `+ ${M.dosyaEkle}` }),
      h("button", { type: "submit", class: "birincil", text: M.yanitla }))));
  if (odakta) {
    yanit.focus();
    yanit.setSelectionRange(onceki.selectionStart, onceki.selectionEnd);
  }
  bolme("orta");
}

async function talebeDosyaEkle(dosya) {
  if (!S.acikTalep) return;
  try {
    const { dosya: d } = await api.yukle(S.acikTalep.musteri_id, dosya);
    talepEkleri.push(d);
    el.talepEkListe.append(h("li", { text: M.dosyaYuklendi(d.ad) }));
  } catch (e) { el.bildirim.textContent = e.message; }
}

// --- keyboard ------------------------------------------------------------------------------------
function yardimAc() { if (el.yardim.open) el.yardim.close(); else el.yardim.showModal(); }

function listedekiler() {
  if (S.gorunum === "talep") return S.talepler.map((t) => t.id);
  const { kuyruk, aktif } = gorunenSohbetler();
  return [...aktif, ...kuyruk].map((o) => o.id);
}

function secimiTasi(adim) {
  const ids = listedekiler();
  if (!ids.length) return;
  S.secim = (S.secim + adim + ids.length) % ids.length;
  const b = el.liste.querySelector(`.satir[data-id="${ids[S.secim]}"] .satir-ac`);
  if (b) b.focus();
}

function kisayol(e) {
  if (!S.oturumVar || e.ctrlKey || e.metaKey) return;
  const hedef = e.target;
  if (e.altKey && (e.key === "ArrowLeft" || e.key === "ArrowRight") && hedef.closest && hedef.closest(".sekme-kap")) {
    const id = Number(hedef.closest(".sekme-kap").dataset.id);
    const i = S.musteriler.findIndex((m) => m.id === id);
    if (i >= 0) { e.preventDefault(); sekmeTasi(id, i + (e.key === "ArrowRight" ? 1 : -1)); }
    return;
  }
  if (e.altKey) return;
  const yaziyor = ["INPUT", "TEXTAREA", "SELECT"].includes(hedef.tagName) || hedef.isContentEditable;
  if (document.querySelector("dialog[open]") && e.key !== "?") return;
  if (yaziyor) return;
  if (hedef.getAttribute && hedef.getAttribute("role") === "tab" && (e.key === "ArrowLeft" || e.key === "ArrowRight")) {
    const sekmeler = [...el.sekmeler.querySelectorAll('[role="tab"]')];
    const i = sekmeler.indexOf(hedef) + (e.key === "ArrowRight" ? 1 : -1);
    if (sekmeler[i]) { e.preventDefault(); sekmeler[i].focus(); }
    return;
  }
  const o = S.sohbetler.get(S.acikSohbet);
  const eylemler = {
    "?": yardimAc,
    j: () => secimiTasi(1), ArrowDown: () => secimiTasi(1),
    k: () => secimiTasi(-1), ArrowUp: () => secimiTasi(-1),
    o: () => { const id = listedekiler()[S.secim]; if (id) (S.gorunum === "talep" ? talepAc : sohbetAc)(id); },
    a: () => { const id = o && o.durum === "bekliyor" ? o.id : listedekiler()[S.secim]; if (id && S.sohbetler.get(id)?.durum === "bekliyor") kabulEt(id); },
    t: aktarAc,
    x: kapatAc,
    r: () => { const y = el.orta.querySelector("textarea"); if (y) y.focus(); },
    f: () => { if (S.acikSohbet || S.acikTalep) el.dosya.click(); },
    c: () => gorunumDegistir("sohbet"),
    v: () => gorunumDegistir("talep"),
    b: () => bolme("baglam"),
    m: () => { if (S.secilenMusteri) sessizeAl(S.secilenMusteri, !sessizMi(S.secilenMusteri)); },
    d: () => { el.durum.focus(); },
    Escape: () => bolme("liste"),
  };
  let eylem = eylemler[e.key];
  if (!eylem && /^[0-9]$/.test(e.key)) {
    const n = Number(e.key);
    eylem = () => musteriSec(n === 0 ? 0 : (S.musteriler[n - 1] || {}).id || 0);
  }
  if (eylem) { e.preventDefault(); eylem(); }
}

basla();

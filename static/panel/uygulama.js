// The operator console (CONTRACT 12): a client of the public operator REST API and the
// operator socket only. Plain ES modules, no build step.
import { api, ayarla, ApiHatasi, yoldakiler } from "./api.js";
import { aramaAc } from "./arama.js";
import { markdownDugumleri } from "./bicim.js";
import { $, bosalt, h } from "./dom.js";
import { etiketCipleri, etiketDuzenle, etiketSuzgeci, tumEtiketler } from "./etiketler.js";
import { aktarHedefe, ekipSecenekleriEkle, ekipSecildi } from "./ekipler.js";
import { benimEkiplerim, ekipListesi, ekipSuzgeci, ekipUyar, kayitliEkipSuzgeci } from "./ekip_suzgeci.js";
import { erteleDugmesi, ertelemedenDondu, gorunumCercevesi, gorunumleriDurdur, gorunumKenari, gorunumListesi, gorunumListesiCiz, sayilariYenile,
  sohbetGorunumu, sohbetGorunumunuYenile, talepGorunumu } from "./gorunumler.js";
import { bannerIkonu, ikon } from "./ikonlar.js";
import { makrolariAc } from "./makrolar.js";
import { dil, dilAyarla, kucukHarf, M, saat, sayiYaz, sayiyla, soz, tarihSaat } from "./metinler.js";
import { profilCiz, profilGetir, profilSohbetiGuncelle } from "./profil.js";
import { slaCercevesi, slaRozetleri } from "./sla.js";
import { beklemeSlaIsaretle, slaDuyurusu, sohbetTicketDugmesi } from "./sohbet_ek.js";
import { OperatorSoketi } from "./soket.js";
import { secimDegistir, secimiTemizle, secimKutusu, topluKur } from "./toplu.js";
import { Bahsetme, dosyaBirakma, emojiSecici, hazirDoldur, yazmaModu } from "./yazma.js";

const YOKLAMA_MS = 1000;
const DURUM_ANAHTARI = "supportdesk:panel:durum";
const IPUCU_CEREZI = "sd_operator_girisli"; // tenants.kimlik.PANEL_IPUCU_CEREZI
const S = {
  operator: null,
  musteriler: [],
  secilenMusteri: 0,
  gorunum: "sohbet",
  sohbetler: new Map(),
  // Chats opened to read that are not in this console's lists (a search result, a visitor's past
  // chat, a colleague's chat): kept here so that a list refresh does not close them.
  arsiv: new Map(),
  acikSohbet: null,
  mesajlar: new Map(),
  taslaklar: new Map(),
  arayaGirilen: new Set(), // colleagues' chats this manager stepped into (CONTRACT 3a)
  okunan: new Map(),
  mesajOkumalari: new Map(),
  imlecler: new Map(), // per chat: the last message id a read brought (`sonra` of the next read)
  // Chats this console is taking itself (accept, or an answer to a waiting chat) until the
  // server's word comes: any other chat that becomes ours was handed to us (CONTRACT 3a).
  kendiAldiklarim: new Set(),
  yaziyor: new Map(),
  uyeler: new Map(), // musteriId -> Promise of the tenant's members (transfer, mentions, owners)
  uyeAdlari: new Map(), // operator id -> name, as the member lists said
  notModu: false, // the open chat's composer writes an internal note
  talepNotModu: false, // the same for the open ticket
  sohbetEtiketi: null, // label filter of the chat lists
  sohbetEkibi: kayitliEkipSuzgeci("sohbet"), // team filter of the chat lists ("", "benim", "yok", an id)
  talepEkibi: kayitliEkipSuzgeci("talep"), // team filter of the ticket list
  benimEkiplerim: new Set(), // ids of the caller's teams ("benim")
  talepSuzgec: { operator_id: "", oncelik: "", etiket_id: null, q: "", siralama: "guncellenme" },
  kendiAdim: "", // this operator's display name (its member entry), for {operator_adi}
  yanPanel: null, // what the side pane (profile, context) shows: "chat:12", "ticket:7"
  acikProfil: null, // the open item's visitor (`ziyaretci` of its profile), for canned-response variables
  hazirYanitlar: new Map(),
  pano: null,
  talepler: [],
  acikTalep: null,
  talepDurum: "acik",
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
  // The member's own language (or the browser's, the server says which): the words switch at once.
  const geriAc = dilAyarla(veri.dil || dil()) ? dilDegisti() : null;
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
  if (geriAc) geriAc();
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
  // Nothing asks any more (socket, polls, timers), and what is on its way is answered, before the
  // session ends: a read answered after it would be a 401 of a logout asked for.
  S.oturumVar = false;
  if (soket) { soket.kapat(); soket = null; }
  clearInterval(yoklamaZamani);
  clearTimeout(listeZamani);
  clearTimeout(panoZamani);
  gorunumleriDurdur();
  await yoldakiler();
  try { await api.cikis(); } catch { /* the cookie is cleared or already dead */ }
  S.operator = null;
  el.govde.hidden = true;
  girisGoster(false);
}

// The console's language changed (a member whose own language is not the page's): the skeleton is
// drawn again in it before the session fills it. Answers what reopens the chat or ticket that was
// open (a login after the session dropped keeps it, and its draft).
function dilDegisti() {
  const { acikSohbet, gorunum } = S;
  const acikTalep = S.acikTalep && S.acikTalep.id;
  if (acikSohbet && el.yazi) S.taslaklar.set(acikSohbet, el.yazi.value);
  S.acikSohbet = null;
  S.acikTalep = null;
  S.yanPanel = null;
  S.gorunum = "sohbet";
  iskeletCiz();
  return () => {
    if (gorunum === "talep") { gorunumDegistir("talep"); if (acikTalep) talepAc(acikTalep); } else if (acikSohbet) sohbetAc(acikSohbet);
  };
}

// --- skeleton --------------------------------------------------------------------------------
function iskeletKur() {
  iskeletCiz();
  document.addEventListener("keydown", kisayol);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) okunduBildir(); });
  setInterval(() => { if (S.oturumVar && S.gorunum === "sohbet") listeyiCiz(); }, 15000);
}

function iskeletCiz() {
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
  el.sekmeler = h("div", { class: "sekmeler", role: "tablist", "aria-label": M.projeler, onpointerdown: listeTutuldu });
  el.liste = h("div", { class: "liste-icerik", onpointerdown: listeTutuldu });
  el.gorunumSec = h("div", { class: "gorunum-sec", role: "group" },
    h("button", { type: "button", "data-gorunum": "sohbet", "aria-pressed": "true", "aria-keyshortcuts": "c",
      onclick: () => gorunumDegistir("sohbet"), text: M.sohbetler }),
    h("button", { type: "button", "data-gorunum": "talep", "aria-pressed": "false", "aria-keyshortcuts": "v",
      onclick: () => gorunumDegistir("talep"), text: M.talepler }),
    h("button", { type: "button", class: "ara-dugme", "aria-keyshortcuts": "/", onclick: aramayiAc, text: M.ara }));
  el.orta = h("section", { class: "orta", "aria-label": M.sohbet, onpointerdown: listeTutuldu }, bosBolme("sohbet"));
  el.baglam = h("aside", { class: "baglam", "aria-label": M.baglam });
  // CONTRACT 24: the views with their counts, and the bulk bar over the selected rows (gorunumler.js, toplu.js).
  el.gorunumKenari = gorunumKenari({ secildi: gorunumSecildi, listeDegisti: () => listeyiCiz() });
  el.topluCubuk = topluKur({ bitti: topluBitti, etiketler: etiketListesi, bildir, operatorId: () => benimId() });
  el.main = h("main", { class: "bolmeler", "data-bolme": "liste" },
    h("section", { class: "liste", "aria-label": M.sohbetler }, el.gorunumSec, el.gorunumKenari, el.topluCubuk, el.liste),
    el.orta, el.baglam);
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
  el.duyurular = h("div", { class: "duyurular", "aria-live": "polite" });
  el.dosya = h("input", { type: "file", accept: "image/png,image/jpeg,image/gif,image/webp,application/pdf", hidden: true,
    onchange: () => sohbeteDosyaGonder() });
  bosalt(kok, el.govde, el.giris, el.yardim, el.dialog, el.dosya, el.duyurular);
}

function bolme(ad) { el.main.dataset.bolme = ad; }

// A tenant's members, read once per tenant (and again after a reconnect): transfer targets,
// @-mentions, ticket owners, and the names of colleagues' notes.
function uyelerGetir(musteriId) {
  if (!S.uyeler.has(musteriId)) {
    const istek = api.uyeler(musteriId).then((v) => {
      for (const u of v.operatorler) {
        S.uyeAdlari.set(u.id, u.ad || u.email);
        if (u.id === benimId()) S.kendiAdim = (u.ad || "").trim();
      }
      return v.operatorler;
    });
    S.uyeler.set(musteriId, istek);
    istek.catch(() => { if (S.uyeler.get(musteriId) === istek) S.uyeler.delete(musteriId); });
  }
  return S.uyeler.get(musteriId);
}

const sohbetBul = (id) => S.sohbetler.get(id) || S.arsiv.get(id);
// As visitors see the operator (CONTRACT 16, docs/api.md): its display name, never its e-mail.
const benimAdim = () => S.kendiAdim || M.temsilci;

// Canned-response variables (CONTRACT 16) of the open chat or ticket.
function hazirDegerleri(musteriId, ziyaretciAdi) {
  const p = S.acikProfil || {};
  return { ziyaretci_adi: ziyaretciAdi || p.ad || "", ziyaretci_email: p.email || "",
    operator_adi: benimAdim(), firma_adi: musteriAdi(musteriId) };
}

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
    await Promise.all([sohbetleriYenile(), panosuz ? null : panoYenile(), panosuz ? null : sayilariYenile(),
      S.gorunum === "talep" && !panosuz ? talepleriYenile() : null]);
    if (S.acikSohbet) await mesajlariYenile(S.acikSohbet);
  } catch { /* shown by the connection banner or the login form */ }
}

function soketDurumu(acik) {
  S.soketAcik = acik;
  modCiz();
  // A (re)connect may have missed frames: fill the gap by REST (CONTRACT 11).
  if (acik) { S.hazirYanitlar.clear(); S.uyeler.clear(); tamYenile(); }
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
  gorunumCercevesi(tip);
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
      if (m.gonderen === "ziyaretci" && o.durum === "aktif") uyar(soz("yeniMesaj", { proje: musteriAdi(o.musteri_id) }), m.icerik, o.musteri_id);
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
    slaDuyurusu(tip, d, { kap: el.duyurular, uyar, projeAdi: musteriAdi, talepAc: talebiAc,
      sohbetAc: (id) => { if (S.gorunum !== "sohbet") gorunumDegistir("sohbet"); sohbetAc(id); } });
    if (d.oturum) sohbetGuncelle(d.oturum, false);
    if (S.gorunum === "talep") talepleriYenile();
  } else if (tip === "ticket_yeni" || tip === "ticket_guncellendi") {
    if (S.gorunum === "talep") talepleriYenile();
    if (S.acikTalep && d.ticket && d.ticket.id === S.acikTalep.id) acikTalebiYenile();
    panoGecikmeli();
  } else if (tip === "bahsedilme") {
    bahsedilme(d);
  } else if (tip === "ertelemeden_dondu") {
    ertelemedenDondu(d, { duyurular: el.duyurular, sohbetAc, talepAc: talebiAc });
    if (d.oturum) sohbetGuncelle(d.oturum, false);
  } else if (tip === "hazir_yanitlar_degisti") {
    hazirYanitlarDegisti(d.musteri_id);
  } else if (tip === "operator_durumu") {
    if (S.operator && d.operator_id === benimId()) el.durum.value = d.durum;
    panoGecikmeli();
  }
}

// A colleague named this operator in a note (CONTRACT 16): it rings (even in a muted project: it is
// addressed to this operator) and stays on screen with a button that opens the chat or ticket.
function bahsedilme(d) {
  const kayit = d.mesaj || d.yanit || {};
  const baslik = soz("bahsedildin", { proje: musteriAdi(d.musteri_id) });
  sohbetIcinUyar(d.oturum_id, baslik, kayit.icerik, d.musteri_id, true);
  const ac = () => {
    kutu.remove();
    if (d.oturum_id) { if (S.gorunum !== "sohbet") gorunumDegistir("sohbet"); sohbetAc(d.oturum_id); } else if (d.ticket_id) talebiAc(d.ticket_id);
  };
  const kutu = h("div", { class: "duyuru", role: "status", "data-test": "bahsedilme" },
    h("strong", { text: baslik }), h("span", { class: "duyuru-metin", text: String(kayit.icerik || "").slice(0, 140) }),
    h("span", { class: "dugmeler" }, h("button", { type: "button", class: "birincil kucuk", onclick: ac, text: M.bahsedilmeAc }),
      h("button", { type: "button", class: "ikincil kucuk", onclick: () => kutu.remove(), text: M.kapatDugme })));
  el.duyurular.append(kutu);
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
  // Redrawn on every refresh: the focused tab keeps the focus (keyboard users, Alt+←/→). Like the
  // list's rows, not while a pointer is held on them: a tab or its mute button pressed as a chat
  // arrives would lose its click (see tutulurken).
  if (tutulurken(sekmeleriCiz)) return;
  const odakta = el.sekmeler.contains(document.activeElement) ? document.activeElement.id : "";
  const toplam = S.musteriler.reduce((t, m) => t + bekleyenSayisi(m.id), 0);
  const sekme = (id, ad, sayi, ek) => h("div", { class: "sekme-kap", dataset: { id: String(id) } },
    h("button", { type: "button", role: "tab", class: "sekme", id: `sekme-${id}`, "aria-selected": String(S.secilenMusteri === id),
      tabindex: S.secilenMusteri === id ? "0" : "-1", onclick: () => musteriSec(id) },
    ek && ek.renk ? h("span", { class: "renk", "aria-hidden": "true", dataset: { renk: ek.renk } }) : null,
    h("span", { class: "ad", text: ad }),
    h("span", { class: "sayi", "aria-label": sayiyla("bekleyenEtiket", sayi), text: String(sayi), dataset: { sifir: sayi ? "0" : "1" } })),
    ek ? h("button", { type: "button", class: "sessiz", "aria-pressed": String(ek.sessiz),
      "aria-label": ek.sessiz ? soz("sesiAc", { ad }) : soz("sessizeAl", { ad }), title: ek.sessiz ? soz("sesiAc", { ad }) : soz("sessizeAl", { ad }),
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
  if (S.gorunum === "talep") { talepSuzgeciCiz(); talepleriYenile(); } else { sohbetSuzgeciCiz(); listeyiCiz(); }
  const b = $(`#sekme-${id}`);
  if (b) b.focus();
}

// --- dashboard and own status ----------------------------------------------------------------
async function panoYenile() {
  try { S.pano = await api.dashboard(); } catch { return; }
  const t = S.pano.toplam;
  bosalt(el.pano, Object.entries(M.panoAlanlari).map(([k, etiket]) => h("div", { class: "pano-oge" },
    h("dt", { text: etiket }), h("dd", { dataset: { alan: k }, text: t[k] === null ? M.yok : sayiYaz(t[k]) }))));
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
      if (!eski && o.durum === "bekliyor") uyar(soz("yeniSohbet", { proje: musteriAdi(o.musteri_id) }), o.ziyaretci_adi, o.musteri_id);
      else if (bizeDevredildi(eski, o)) sohbetIcinUyar(o.id, soz("sizeAktarildi", { proje: musteriAdi(o.musteri_id) }), o.ziyaretci_adi || o.son_mesaj, o.musteri_id);
      else if (eski && id !== S.acikSohbet && o.okunmamis > eski.okunmamis)
        uyar(soz("yeniMesaj", { proje: musteriAdi(o.musteri_id) }), o.son_mesaj || "", o.musteri_id);
    }
  }
  S.ilkYukleme = false;
  const acik = S.acikSohbet;
  const gorulen = acik ? S.sohbetler.get(acik) : null;
  S.sohbetler = yeni;
  if (acik && !yeni.has(acik) && !S.arsiv.has(acik)) {
    // Left the list (a colleague took it, or it closed). As with the socket's frame (sohbetGuncelle),
    // one with a draft in its box stays open to read, and its read brings its new state.
    if (gorulen && taslakliAcik(acik)) {
      S.arsiv.set(acik, gorulen);
      mesajlariYenile(acik).then(sohbetBasligiCiz);
    } else sohbetGitti();
  }
  listeyiCiz();
}

// The open chat `id` with a draft in its box: kept open when it leaves this console's list.
function taslakliAcik(id) {
  return id === S.acikSohbet && Boolean(el.yazi && el.yazi.value.trim());
}

// The caller's id; null once logged out (a read answered after the logout draws nothing of ours,
// and does not throw).
function benimId() { return S.operator ? S.operator.id : null; }

const benimMi = (o) => Boolean(o) && o.durum === "aktif" && o.operator_id === benimId();

// A chat that became ours without this console taking it: a transfer, or (later) an automatic
// assignment. It reaches us as a new chat does (CONTRACT 3a): it rings, and the server counts it unread.
function bizeDevredildi(eski, o) {
  if (!benimMi(o) || benimMi(eski)) return false;
  return !S.kendiAldiklarim.delete(o.id);
}

function sohbetGuncelle(o, yeniMi) {
  profilSohbetiGuncelle(el.baglam, o);
  const benim = benimMi(o);
  if (o.durum === "bekliyor" || benim) {
    const eski = S.sohbetler.get(o.id);
    if (yeniMi && !eski) uyar(soz("yeniSohbet", { proje: musteriAdi(o.musteri_id) }), o.ziyaretci_adi, o.musteri_id);
    else if (bizeDevredildi(eski, o)) sohbetIcinUyar(o.id, soz("sizeAktarildi", { proje: musteriAdi(o.musteri_id) }), o.ziyaretci_adi || o.son_mesaj, o.musteri_id);
    S.sohbetler.set(o.id, o);
    if (o.id === S.acikSohbet) sohbetBasligiCiz();
  } else if (S.arsiv.has(o.id) || taslakliAcik(o.id)) {
    // A chat opened to read (search, profile), or one with a draft in its box (taken by a
    // colleague while being answered: the draft is kept): it stays open and shows its new state.
    S.arsiv.set(o.id, o);
    S.sohbetler.delete(o.id);
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
  if (sn < 60) return sayiyla("sn", sn);
  if (sn < 3600) return sayiyla("dk", Math.floor(sn / 60));
  return sayiyla("sa", Math.floor(sn / 3600));
}

function gorunenSohbetler() {
  const hepsi = [...S.sohbetler.values()].filter((o) => !o.ertelendi_kadar && (!S.secilenMusteri || o.musteri_id === S.secilenMusteri)
    && (!S.sohbetEtiketi || (o.etiketler || []).some((e) => e.id === S.sohbetEtiketi)) && ekipte(o));
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
    secimKutusu("chat", o.id, o.ziyaretci_adi || o.ziyaretci_id),
    h("button", { type: "button", class: "satir-ac", "aria-current": secili ? "true" : null, onclick: () => sohbetAc(o.id) },
      renk,
      h("span", { class: "satir-govde" },
        h("span", { class: "satir-ust" },
          h("span", { class: "ziyaretci", text: o.ziyaretci_adi || o.ziyaretci_id }),
          o.okunmamis ? h("span", { class: "rozet", "aria-label": sayiyla("okunmamis", o.okunmamis), text: String(o.okunmamis) }) : null),
        h("span", { class: "proje", text: m.firma_adi || "" }, m.sessize_alindi ? h("span", { class: "sessiz-isaret", text: " ♪" }) : null),
        h("span", { class: "onizleme", text: o.son_mesaj || "" }),
        etiketCipleri(o.etiketler),
        o.durum === "bekliyor" ? beklemeSlaIsaretle(h("span", { class: "bekleme", text: soz("bekliyor", { sure: beklemeSuresi(o.baslangic) }) }), o) : null)),
    o.durum === "bekliyor" ? h("button", { type: "button", class: "birincil kucuk", onclick: () => kabulEt(o.id), text: M.kabulEt,
      "aria-label": `${M.kabulEt}: ${o.ziyaretci_adi || o.ziyaretci_id}` }) : null);
}

// A redraw of the rows between a pointer's press and its release swallows the click (the press
// and the release land on different elements: a checkbox or an Accept lost in a busy queue, a
// project's tab or mute button, the open chat's Close, the open ticket's Reply). While a pointer is
// held on the list, the tabs or the middle pane, their redraws wait for the release, and run after
// the click.
const tutma = { basili: false, bekleyenler: new Set(), zaman: null };
// True when a redraw must wait for the release (it runs then).
function tutulurken(ciz) {
  if (!tutma.basili) return false;
  tutma.bekleyenler.add(ciz);
  return true;
}
function listeTutuldu() {
  tutma.basili = true;
  clearTimeout(tutma.zaman);
  tutma.zaman = setTimeout(listeBirakildi, 3000); // a release the page never saw (a drag out of the window)
}
function listeBirakildi() {
  if (!tutma.basili) return;
  tutma.basili = false;
  clearTimeout(tutma.zaman);
  const bekleyenler = [...tutma.bekleyenler];
  tutma.bekleyenler.clear();
  if (bekleyenler.length) setTimeout(() => { for (const ciz of bekleyenler) ciz(); }, 0);
}

for (const olay of ["pointerup", "pointercancel"]) document.addEventListener(olay, listeBirakildi, true);

function listeyiCiz() {
  if (tutulurken(listeyiCiz)) return;
  basligiGuncelle();
  sekmeleriCiz();
  if (S.gorunum !== "sohbet") return;
  const { kuyruk, aktif } = gorunenSohbetler();
  // The filter stays in place (its focus and open menu too); only the lists below are redrawn.
  if (!el.liste.contains(el.sohbetUst)) {
    el.sohbetUst = h("div", { class: "liste-suzgec" });
    el.sohbetGovde = h("div", {});
    bosalt(el.liste, el.sohbetUst, el.sohbetGovde);
    sohbetSuzgeciCiz();
  }
  if (sohbetGorunumu()) {
    gorunumListesiCiz(el.sohbetGovde, sohbetSatiri, projedeVeEkipte);
    return;
  }
  bosalt(el.sohbetGovde,
    h("h2", { text: `${M.sohbetlerim} (${aktif.length})` }),
    aktif.length ? h("ul", { class: "satirlar", id: "aktifler" }, aktif.map(sohbetSatiri)) : h("p", { class: "bos", text: M.bosAktif }),
    h("h2", { text: `${M.kuyruk} (${kuyruk.length})` }),
    kuyruk.length ? h("ul", { class: "satirlar", id: "kuyruk" }, kuyruk.map(sohbetSatiri)) : h("p", { class: "bos", text: M.bosKuyruk }));
}

// Labels and teams of the selected tenant (or all of them) for the chat lists' filters.
async function sohbetSuzgeciCiz() {
  const kap = el.sohbetUst;
  if (!kap) return;
  const [etiketler, ekipler] = await Promise.all([etiketListesi(), ekipleriOku()]);
  if (kap !== el.sohbetUst) return;
  if (S.sohbetEtiketi && !etiketler.some((e) => e.id === S.sohbetEtiketi)) S.sohbetEtiketi = null;
  bosalt(kap, etiketSuzgeci({ id: "sohbet-etiket", etiketler, secili: S.sohbetEtiketi, cokluProje: !S.secilenMusteri,
    degisti: (id) => { S.sohbetEtiketi = id; S.secim = 0; listeyiCiz(); } }),
  ekipSuzgeci({ id: "sohbet-ekip", tur: "sohbet", ekipler, secili: S.sohbetEkibi, cokluProje: !S.secilenMusteri,
    firmaAdi: musteriAdi, degisti: (d) => { S.sohbetEkibi = d; S.secim = 0; listeyiCiz(); } }));
  if (S.sohbetEkibi) listeyiCiz(); // "benim" needs the caller's teams, known only now
}

// The teams of the selected tenant (or of all), and which of them are the caller's ("benim").
async function ekipleriOku() {
  const hepsi = await ekipListesi(S.musteriler.map((m) => m.id));
  S.benimEkiplerim = benimEkiplerim(hepsi, benimId());
  return S.secilenMusteri ? hepsi.filter((e) => e.musteri_id === S.secilenMusteri) : hepsi;
}

const projede = (o) => !S.secilenMusteri || o.musteri_id === S.secilenMusteri;
const ekipte = (o) => ekipUyar(o, S.sohbetEkibi, S.benimEkiplerim);
const projedeVeEkipte = (o) => projede(o) && ekipte(o);

// A view chosen in the sidebar (CONTRACT 24): its list in place of the queue, or of the state filter.
function gorunumSecildi(tur, g) {
  secimiTemizle();
  if (tur === "talep") {
    if (S.gorunum !== "talep") gorunumDegistir("talep"); else talepleriYenile();
  } else if (S.gorunum !== "sohbet") gorunumDegistir("sohbet");
  else listeyiCiz();
}

function topluBitti(tur) {
  sayilariYenile();
  if (tur === "ticket") talepleriYenile();
  else { sohbetleriYenile().catch(() => {}); sohbetGorunumunuYenile(); }
}

async function etiketListesi() {
  const idler = S.secilenMusteri ? [S.secilenMusteri] : S.musteriler.map((m) => m.id);
  return (await tumEtiketler(idler)).map((e) => ({ ...e, firma_adi: musteriAdi(e.musteri_id) }));
}

function basligiGuncelle() {
  const n = [...S.sohbetler.values()].reduce((t, o) => t + (o.okunmamis || 0), 0);
  document.title = n ? `(${n}) ${M.baslik}` : M.baslik;
}

// --- notifications: sound and desktop, never for a muted tenant -----------------------------
let sesBaglami = null;
function uyar(baslik, govde, musteriId, sessizeRagmen = false) {
  if (S.ilkYukleme || (sessizMi(musteriId) && !sessizeRagmen)) return false;
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
  return true;
}

// One event of a chat rings once (issue 39): a transfer with a handover note reaches its new
// operator as the transfer (`sizeAktarildi`) and as the note's mention; the second, coming within
// a few seconds for the same chat, shows its toast but rings no more.
const BIR_KEZ_MS = 10000;
const calanSohbetler = new Map(); // oturum id -> when it last rang
function sohbetIcinUyar(oturumId, ...uyari) {
  const once = calanSohbetler.get(oturumId);
  if (oturumId && once && Date.now() - once < BIR_KEZ_MS) return;
  if (uyar(...uyari) && oturumId) calanSohbetler.set(oturumId, Date.now());
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
    profilSohbetiGuncelle(el.baglam, oturum);
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
  const o = sohbetBul(S.acikSohbet);
  if (!o || o.durum !== "aktif") return;
  let uyeler = [];
  // Fresh each time: the list shows who is online now.
  S.uyeler.delete(o.musteri_id);
  try { uyeler = (await uyelerGetir(o.musteri_id)).filter((u) => u.id !== benimId()); } catch { return; }
  const secim = h("select", { id: "aktar-hedef" },
    h("option", { value: "", text: M.siraya }),
    uyeler.map((u) => h("option", { value: String(u.id), text: `${u.ad || u.email} · ${M.durumlar[u.durum] || u.durum}` })));
  await ekipSecenekleriEkle(secim, o.musteri_id); // CONTRACT 22: teams too (ekipler.js)
  const hataEl = h("p", { class: "hata", role: "alert" });
  const not = h("textarea", { id: "aktar-not", rows: "3", maxlength: "5000", class: "not-modu" });
  bosalt(el.dialog, h("form", { method: "dialog", onsubmit: async (e) => {
    e.preventDefault();
    let oturum;
    try {
      oturum = (await aktarHedefe(o.id, secim.value)).oturum;
    } catch (err) { hataEl.textContent = err.message; return; }
    // The handover note goes in after the transfer, as an internal note (the visitor never sees it).
    const notMetni = not.value.trim();
    if (notMetni) {
      try { await api.mesajGonder(o.id, notMetni, null, { bahsedilenler: secim.value && !ekipSecildi(secim.value) ? [Number(secim.value)] : [] }); } catch (err) {
        hataEl.textContent = err.message;
      }
    }
    el.dialog.close();
    sohbetGuncelle(oturum, false);
  } },
  h("h2", { text: M.aktarBaslik }), h("label", { for: "aktar-hedef", text: M.aktarHedef }), secim,
  h("label", { for: "aktar-not", text: M.aktarNotu }), not, hataEl,
  h("div", { class: "dugmeler" }, h("button", { type: "submit", class: "birincil", text: M.aktar }),
    h("button", { type: "button", class: "ikincil", onclick: () => el.dialog.close(), text: M.vazgec }))));
  el.dialog.showModal();
  secim.focus();
}

function kapatAc() {
  const o = sohbetBul(S.acikSohbet);
  if (!o || o.durum === "kapandi") return;
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
  if (el.bildirim && el.bildirim.isConnected) {
    el.bildirim.textContent = metin || M.hata;
    return;
  }
  // No chat or ticket open (a fresh console, a chat that just left): a refusal, such as losing a
  // claim race from the queue (issue 39), is still shown, as a notice beside the lists.
  const kutu = h("div", { class: "duyuru", role: "alert", "data-test": "hata-duyurusu" },
    h("span", { text: metin || M.hata }),
    h("span", { class: "dugmeler" }, h("button", { type: "button", class: "ikincil kucuk", onclick: () => kutu.remove(), text: M.kapatDugme })));
  el.duyurular.append(kutu);
  setTimeout(() => kutu.remove(), 15000);
}

// --- chats: conversation ---------------------------------------------------------------------
function sohbetGitti() {
  S.acikSohbet = null;
  S.yanPanel = null;
  bosalt(el.orta, h("p", { class: "bos", role: "status", text: M.sohbetGitti }));
  bosalt(el.baglam);
}

let acmaSirasi = 0;
async function sohbetAc(id) {
  const sira = ++acmaSirasi; // a later opening wins over one still reading
  if (S.acikSohbet && el.yazi) S.taslaklar.set(S.acikSohbet, el.yazi.value);
  let o = S.sohbetler.get(id);
  if (!o) {
    // Not in the lists (a search result, a past chat): read it to show it.
    try { o = (await api.mesajlar(id)).oturum; } catch (e) { bildir(e.message); return; }
    if (sira !== acmaSirasi) return;
    S.arsiv.set(id, o);
  }
  if (S.gorunum !== "sohbet") gorunumDugmeleri("sohbet");
  S.acikSohbet = id;
  S.acikTalep = null;
  S.gorunum = "sohbet";
  const kapali = o.durum === "kapandi";
  S.notModu = kapali;
  el.log = h("ol", { class: "mesajlar", role: "log", "aria-live": "polite", "aria-label": M.sohbet });
  el.yaziyor = h("p", { class: "yaziyor", "aria-live": "polite" });
  el.bildirim = h("p", { class: "hata", role: "alert" });
  el.yazi = h("textarea", { id: "yazi", rows: "3", placeholder: M.mesajYaz, "aria-label": M.mesajYaz,
    "aria-autocomplete": "list", "aria-controls": "hazir-liste" });
  el.yazi.value = S.taslaklar.get(id) || "";
  el.bahsetme = new Bahsetme(el.yazi, { uyeler: () => uyelerGetir(o.musteri_id), etkin: () => S.notModu });
  el.yazi.addEventListener("keydown", yaziTusu);
  el.yazi.addEventListener("input", yaziDegisti);
  el.hazir = h("ul", { id: "hazir-liste", class: "hazir", role: "listbox", "aria-label": M.hazirYanitlar, hidden: true });
  el.sohbetBaslik = h("div", { class: "sohbet-baslik" });
  const gonder = h("button", { type: "submit", class: "birincil", text: M.gonder });
  el.yazmaModu = yazmaModu(el.yazi, gonder, { not: S.notModu, yalnizNot: kapali, yer: M.mesajYaz,
    degisti: (n) => { S.notModu = n; el.hazir.hidden = true; } });
  const form = h("form", { class: "yazma", onsubmit: (e) => { e.preventDefault(); mesajGonder(); } },
    el.yazmaModu, el.hazir, el.bahsetme.liste, el.yazi,
    h("div", { class: "yazma-dugmeler" },
      emojiSecici(() => el.yazi),
      h("button", { type: "button", class: "ikincil", "aria-keyshortcuts": "f", onclick: () => el.dosya.click(), text: `+ ${M.dosyaEkle}` }),
      gonder));
  bosalt(el.orta, el.sohbetBaslik, el.log, el.yaziyor, el.bildirim, form);
  dosyaBirakma(el.orta, el.yazi, (f) => sohbeteDosyaGonder(f));
  sohbetBasligiCiz();
  S.mesajlar.set(id, new Map());
  S.imlecler.delete(id);
  bolme("orta");
  listeyiCiz();
  yanPanelYukle({ tur: "chat", id, ziyaretci_id: o.ziyaretci_id, musteri_id: o.musteri_id });
  await uyelerGetir(o.musteri_id).catch(() => null); // colleagues' names on their notes
  if (sira !== acmaSirasi) return;
  await mesajlariYenile(id);
  if (sira === acmaSirasi) el.yazi.focus();
}
function sohbetBasligiCiz() {
  // A frame about the open chat (a label, an SLA warning, a colleague's transfer) redraws its
  // buttons: a press on Close or Transfer waits for its release (see tutulurken).
  if (tutulurken(sohbetBasligiCiz)) return;
  const o = sohbetBul(S.acikSohbet);
  if (!o || !el.sohbetBaslik) return;
  const m = musteri(o.musteri_id) || {};
  const renk = h("span", { class: "renk", "aria-hidden": "true" });
  renk.style.background = m.renk_primary || "#6b7280";
  const listede = S.sohbetler.has(o.id);
  bosalt(el.sohbetBaslik,
    h("div", {}, h("h2", { text: o.ziyaretci_adi || o.ziyaretci_id }),
      h("span", { class: "proje" }, renk, " ", m.firma_adi || "", listede ? "" : ` · ${M.sohbetDurumlari[o.durum] || o.durum}`),
      h("div", { class: "baslik-etiketler" }, etiketCipleri(o.etiketler))),
    h("div", { class: "dugmeler" },
      h("button", { type: "button", class: "ikincil", "aria-keyshortcuts": "l", onclick: etiketleriAc, text: M.etiketDuzenleKisa }),
      o.durum !== "kapandi" ? h("button", { type: "button", class: "ikincil", "aria-keyshortcuts": "u", "data-test": "makro-ac", onclick: makroAc, text: M.makroKisa }) : null,
      o.durum === "bekliyor" ? h("button", { type: "button", class: "birincil", "aria-keyshortcuts": "a", onclick: () => kabulEt(o.id), text: M.kabulEt }) : null,
      arayaGirmeDugmesi(o),
      sohbetTicketDugmesi(o, { dialog: el.dialog, talepAc: talebiAc,
        donustu: (oturum) => { (S.sohbetler.has(oturum.id) ? S.sohbetler : S.arsiv).set(oturum.id, oturum); sohbetBasligiCiz(); } }),
      o.durum === "aktif" && !yalnizOkunur(o) ? h("button", { type: "button", class: "ikincil", "aria-keyshortcuts": "t", onclick: aktarAc, text: M.aktar }) : null,
      o.durum !== "kapandi" && !yalnizOkunur(o) ? erteleDugmesi({ tur: "chat", nesne: o, dialog: el.dialog,
        hata: bildir, bitti: (yeni) => { sohbetGuncelle(yeni, false); sohbetBasligiCiz(); } }) : null,
      o.durum !== "kapandi" && !yalnizOkunur(o) ? h("button", { type: "button", class: "tehlike", "aria-keyshortcuts": "Shift+X", onclick: kapatAc, text: M.kapat }) : null),
    arayaGirmeNotu(o) || (listede ? null : h("p", { class: "salt-okunur", text: M.saltOkunur })));
  yazmaIzniniUygula(o);
}

// --- stepping in (CONTRACT 3a, wave 4) ------------------------------------------------------------
// A colleague's active chat is read-only in fact: a plain operator reads it and writes notes (a
// reply, transfer or close would be 409); a `yonetici` or `sahip` too, until it steps in with the
// explicit button, after which the composer answers the visitor and the chat keeps its operator.
function meslektasinSohbeti(o) {
  return Boolean(o) && o.durum === "aktif" && o.operator_id != null && o.operator_id !== benimId();
}
function arayaGirebilir(o) {
  const m = musteri(o.musteri_id);
  return Boolean(m) && (m.rol === "yonetici" || m.rol === "sahip");
}
function yalnizOkunur(o) {
  return meslektasinSohbeti(o) && !S.arayaGirilen.has(o.id);
}
function arayaGirmeDugmesi(o) {
  if (!yalnizOkunur(o) || !arayaGirebilir(o)) return null;
  return h("button", { type: "button", class: "birincil", "data-test": "araya-gir", onclick: () => arayaGir(o.id), text: M.arayaGir });
}
function arayaGirmeNotu(o) {
  if (!meslektasinSohbeti(o)) return null;
  const metin = !arayaGirebilir(o) ? M.meslektasSohbeti : yalnizOkunur(o) ? M.arayaGirBilgi : M.arayaGirildi;
  return h("p", { class: "salt-okunur", role: "status", text: metin });
}
// The composer follows: notes only while the chat is read-only (or closed), the reply mode back
// once stepped in.
function yazmaIzniniUygula(o) {
  if (!el.yazmaModu || !el.yazi || o.id !== S.acikSohbet) return;
  const yalnizNot = o.durum === "kapandi" || yalnizOkunur(o);
  const yanit = el.yazmaModu.querySelector('[data-mod="yanit"]');
  if (yalnizNot && !el.yazmaModu.notMu()) { S.notModu = true; el.yazmaModu.ayarla(true, true); }
  if (yanit) yanit.disabled = yalnizNot;
}
function arayaGir(id) {
  S.arayaGirilen.add(id);
  sohbetBasligiCiz();
  if (S.acikSohbet === id && el.yazmaModu) el.yazmaModu.ayarla(false);
}
// A send refused with 409 (a colleague took the chat first, or stepping in is not this operator's):
// the draft stays in the box and the chat stays open to read, in its new state.
async function gonderimReddedildi(id) {
  const o = sohbetBul(id);
  if (!o || S.acikSohbet !== id) return;
  S.taslaklar.set(id, el.yazi.value);
  S.arsiv.set(id, o);
  await mesajlariYenile(id);
  sohbetBasligiCiz();
}

// The label editor of the open chat or ticket (`l`).
function etiketleriAc() {
  if (S.gorunum === "talep" && S.acikTalep) {
    const t = S.acikTalep;
    return etiketDuzenle(el.dialog, { musteriId: t.musteri_id, secili: t.etiketler, kaydet: async (idler) => {
      const { ticket } = await api.talepEtiketle(t.id, idler);
      talepleriYenile();
      if (S.acikTalep && S.acikTalep.id === ticket.id) talepAc(ticket.id);
      talepSuzgeciCiz();
    } });
  }
  const o = sohbetBul(S.acikSohbet);
  if (!o) return;
  return etiketDuzenle(el.dialog, { musteriId: o.musteri_id, secili: o.etiketler, kaydet: async (idler) => {
    const { oturum } = await api.sohbetEtiketle(o.id, idler);
    if (S.sohbetler.has(oturum.id)) S.sohbetler.set(oturum.id, { ...S.sohbetler.get(oturum.id), ...oturum });
    if (S.arsiv.has(oturum.id)) S.arsiv.set(oturum.id, oturum);
    sohbetBasligiCiz();
    listeyiCiz();
    sohbetSuzgeciCiz();
  } });
}
// CONTRACT 23: the macro menu (static/panel/makrolar.js) on the open ticket or chat.
function makroAc() {
  if (S.gorunum === "talep" && S.acikTalep) {
    const t = S.acikTalep;
    return makrolariAc(el.dialog, { musteriId: t.musteri_id, tur: "ticket", id: t.id, uygulandi: () => {
      talepleriYenile();
      if (S.acikTalep && S.acikTalep.id === t.id) talepAc(t.id);
    } });
  }
  const o = sohbetBul(S.acikSohbet);
  if (!o) return;
  return makrolariAc(el.dialog, { musteriId: o.musteri_id, tur: "chat", id: o.id, uygulandi: ({ oturum }) => {
    if (S.sohbetler.has(oturum.id)) S.sohbetler.set(oturum.id, { ...S.sohbetler.get(oturum.id), ...oturum });
    if (S.arsiv.has(oturum.id)) S.arsiv.set(oturum.id, oturum);
    sohbetBasligiCiz();
    listeyiCiz();
    mesajlariYenile(oturum.id);
  } });
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
  const o = sohbetBul(id);
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
  const kendi = m.gonderen === "operator" && m.operator_id === benimId();
  // The canned response of a rule: a `sistem` message with a name (`operator_adi`), M.otomatikYanit.
  const kim = m.gonderen === "sistem" && m.operator_adi ? M.otomatikYanit
    : m.gonderen === "operator" && !kendi ? S.uyeAdlari.get(m.operator_id) || M.meslektas : M.gonderen[m.gonderen] || m.gonderen;
  const zaman = saat(m.zaman);
  // In id order: a message shown from its send's answer may precede one a read brings later.
  const son = el.log.lastElementChild;
  const sonraki = son && Number(son.dataset.id) > m.id ? [...el.log.children].find((li) => Number(li.dataset.id) > m.id) : null;
  // An internal note: drawn apart, labelled, never with a read mark (the visitor never gets it).
  const not = Boolean(m.ozel);
  el.log.insertBefore(h("li", { class: `mesaj ${m.gonderen}${kendi ? " kendi" : ""}${not ? " not" : ""}`, dataset: { id: String(m.id) } },
    h("span", { class: "kim", text: `${not ? soz("notKimden", { kim }) : kim} · ${zaman}` }),
    h("p", { class: "metin", text: m.icerik }),
    m.ek ? ekCiz(m.ek) : null,
    m.gonderen === "operator" && !not ? h("span", { class: "okundu-isaret", text: `✓ ${M.iletildi}` }) : null), sonraki);
}
function ekCiz(ek) {
  const resim = /^image\//.test(ek.mime_tipi);
  return h("a", { class: "ek", href: ek.url, target: "_blank", rel: "noopener noreferrer" },
    resim ? h("img", { src: ek.url, alt: ek.ad, loading: "lazy" }) : ikon("dosya", 14),
    h("span", { text: `${resim ? "" : " "}${ek.ad} · ${sayiYaz(Math.max(1, Math.round(ek.boyut / 1024)))} KB` }));
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
  if (!ek && kisayolBekliyor(metin)) return;
  el.bildirim.textContent = "";
  // A note changes no state and claims no chat (CONTRACT 16); an answer to a waiting chat takes
  // it, as an accept does (CONTRACT 3a).
  const not = S.notModu ? { bahsedilenler: el.bahsetme.bahsedilenler() } : null;
  const aliyorum = !not && S.sohbetler.get(id)?.durum === "bekliyor";
  if (aliyorum) S.kendiAldiklarim.add(id);
  // The box as sent: what is typed while the send is on its way (the next message) is kept, and
  // another chat opened meanwhile keeps its own box.
  const kutu = el.yazi;
  const gonderilen = kutu.value;
  try {
    const { mesaj } = await api.mesajGonder(id, metin, ek && ek.id, not);
    if (aliyorum) bekleyeniAldim(id);
    if (kutu === el.yazi && kutu.value === gonderilen && (!ek || gonderilen.trim())) {
      kutu.value = "";
      el.bahsetme.sifirla();
      S.taslaklar.delete(id);
    } else if (S.taslaklar.get(id) === gonderilen) S.taslaklar.delete(id);
    const harita = S.mesajlar.get(id);
    if (harita && !harita.has(mesaj.id) && S.acikSohbet === id) { harita.set(mesaj.id, mesaj); mesajCiz(mesaj); el.log.scrollTop = el.log.scrollHeight; }
  } catch (e) {
    if (aliyorum) { S.kendiAldiklarim.delete(id); listeGecikmeli(); }
    // The draft stays in the box (a dropped session brings the login form over it).
    if (e.status !== 401) el.bildirim.textContent = e.message;
    if (e.status === 409) gonderimReddedildi(id);
  }
}
// An unmatched `/shortcut` is never sent as typed (issue 39): in reply mode a box holding a lone
// `/word` is a look-up of the chat's tenant's canned responses. Enter on a match inserts it
// (yaziTusu); otherwise nothing reaches the visitor and the operator is told (the list, drawn over
// that line, closes until the text changes).
function kisayolBekliyor(metin) {
  if (S.notModu || !/^\/\S*$/.test(metin)) return false;
  el.bildirim.textContent = soz("hazirGonderilmedi", { kisayol: metin });
  el.hazir.hidden = true;
  return true;
}

// The server's 201 says the waiting chat is ours now: shown so at once (its frame may come later).
function bekleyeniAldim(id) {
  S.kendiAldiklarim.delete(id);
  const o = S.sohbetler.get(id);
  if (o && o.durum === "bekliyor") Object.assign(o, { durum: "aktif", operator_id: benimId() });
  profilSohbetiGuncelle(el.baglam, o);
  sohbetBasligiCiz();
  listeyiCiz();
  listeGecikmeli();
  if (S.acikSohbet === id) mesajlariYenile(id); // the claim's `sistem` line, before this answer
}

// A file chosen, dropped or pasted: into the open ticket's reply, or sent in the open chat.
async function sohbeteDosyaGonder(birakilan) {
  const dosya = birakilan || el.dosya.files[0];
  el.dosya.value = "";
  if (!dosya) return;
  if (S.gorunum === "talep") return talebeDosyaEkle(dosya);
  const o = sohbetBul(S.acikSohbet);
  if (!o) return;
  try {
    const { dosya: ek } = await api.yukle(o.musteri_id, dosya);
    await mesajGonder(ek);
  } catch (e) { el.bildirim.textContent = e.message; }
}
let yaziyorSon = 0;
function yaziDegisti() {
  S.taslaklar.set(S.acikSohbet, el.yazi.value);
  // A note is no answer: the visitor is not told that someone is typing one.
  if (soket && !S.notModu && Date.now() - yaziyorSon > 2000 && el.yazi.value) {
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
  if (!v.startsWith("/") || /\s/.test(v) || S.notModu) { el.hazir.hidden = true; return; }
  const o = sohbetBul(S.acikSohbet);
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
  const q = kucukHarf(v.slice(1));
  const uyan = liste.filter((y) =>
    kucukHarf(y.kisayol).replace(/^\//, "").startsWith(q) || kucukHarf(y.baslik).includes(q));
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
  const o = sohbetBul(S.acikSohbet);
  if (el.hazir && !el.hazir.hidden && o && o.musteri_id === musteriId) hazirYanitSuz();
}

// Inserted with its variables filled (CONTRACT 16): the visitor's name and e-mail, the operator's
// name, the project's name; an unknown `{name}` stays as typed. Filled here at once from what the
// console holds, then by the server's answer (`.../doldur`, which knows the chat's e-mail) if the
// box still holds what was inserted.
function hazirSec(y) {
  const id = S.acikSohbet;
  const o = sohbetBul(id);
  const metin = o ? hazirDoldur(y.icerik, hazirDegerleri(o.musteri_id, o.ziyaretci_adi)) : y.icerik;
  el.yazi.value = metin;
  el.hazir.hidden = true;
  S.taslaklar.set(id, metin);
  el.yazi.focus();
  const kutu = el.yazi;
  api.hazirDoldur(y.id, { oturum_id: id }).then(({ icerik }) => {
    if (S.acikSohbet !== id || kutu !== el.yazi || kutu.value !== metin || icerik === metin) return;
    kutu.value = icerik;
    S.taslaklar.set(id, icerik);
  }).catch(() => { /* the console's own filling stays */ });
}
function yaziTusu(e) {
  if (el.bahsetme && el.bahsetme.tus(e)) return;
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

// --- the side pane: visitor profile (CONTRACT 16) and context (spec 2.5) -------------------------
// Beside every chat and ticket: `kayit` = {tur, id, ziyaretci_id, musteri_id} of the open item.
function yanPanelYukle(kayit) {
  const anahtar = `${kayit.tur}:${kayit.id}`;
  S.yanPanel = anahtar;
  S.acikProfil = null;
  const gecerli = () => S.yanPanel === anahtar;
  const profilKap = h("div", { class: "profil-kap" }, h("p", { class: "bos", text: M.yukleniyor }));
  const baglamKap = h("div", { class: "baglam-kap" });
  bosalt(el.baglam, profilKap, baglamKap);
  if (!kayit.ziyaretci_id) { bosalt(profilKap); return; }
  profilGetir(kayit.ziyaretci_id, kayit.musteri_id).then((v) => {
    if (!gecerli()) return;
    S.acikProfil = v.ziyaretci || null;
    bosalt(profilKap, profilCiz(v, { simdiki: { tur: kayit.tur, id: kayit.id }, sohbetAc: gecmisSohbetAc, talepAc: talebiAc }));
  }).catch(() => { if (gecerli()) bosalt(profilKap, h("h2", { text: M.profil }), h("p", { class: "bos", text: M.profilYok })); });
  baglamYukle(kayit, gecerli, baglamKap);
}

// A past chat from the profile: opened to read (bolme stays on the conversation on a phone).
function gecmisSohbetAc(id) {
  if (S.gorunum !== "sohbet") gorunumDugmeleri("sohbet");
  sohbetAc(id);
}

async function baglamYukle(o, gecerli, kap) {
  bosalt(kap, h("h2", { text: M.baglam }), h("p", { class: "bos", text: M.yukleniyor }));
  let b;
  try { b = await api.baglam(o.ziyaretci_id, o.musteri_id); } catch {
    if (gecerli()) bosalt(kap, h("h2", { text: M.baglam }), h("p", { class: "bos", text: M.baglamYok }));
    return;
  }
  if (!gecerli()) return;
  const kritikler = b.banner.filter((x) => x.kritik);
  const alan = (etiket, deger) => h("div", {}, h("dt", { text: etiket }), h("dd", { text: deger === null || deger === "" || deger === undefined ? M.yok : String(deger) }));
  bosalt(kap,
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
function gorunumDugmeleri(g) {
  S.gorunum = g;
  for (const b of el.gorunumSec.querySelectorAll("button[data-gorunum]")) b.setAttribute("aria-pressed", String(b.dataset.gorunum === g));
}

function gorunumDegistir(g) {
  if (g !== S.gorunum) secimiTemizle();
  gorunumDugmeleri(g);
  S.secim = 0;
  if (g === "talep") {
    S.yanPanel = null;
    bosalt(el.baglam);
    bosalt(el.orta, bosBolme("talep"));
    talepleriYenile();
  } else {
    S.acikTalep = null;
    if (S.acikSohbet && sohbetBul(S.acikSohbet)) sohbetAc(S.acikSohbet);
    else { bosalt(el.orta, bosBolme("sohbet")); bosalt(el.baglam); }
    listeyiCiz();
  }
  bolme("liste");
}

// A ticket from anywhere (search, profile, a mention): the ticket view, with that ticket open.
function talebiAc(id) {
  if (S.gorunum !== "talep") gorunumDegistir("talep");
  talepAc(id);
}

let talepSirasi = 0;
async function talepleriYenile() {
  const f = S.talepSuzgec;
  const sira = ++talepSirasi; // only the latest answer draws (filters changed meanwhile)
  let veri;
  try {
    veri = await api.talepler({ durum: talepGorunumu() ? undefined : S.talepDurum, gorunum: talepGorunumu() || undefined,
      musteri_id: S.secilenMusteri || undefined, operator_id: f.operator_id,
      oncelik: f.oncelik, etiket_id: f.etiket_id, ekip_id: S.talepEkibi || undefined, q: f.q.trim(), siralama: f.siralama === "guncellenme" ? undefined : f.siralama });
  } catch { return; }
  if (sira !== talepSirasi) return;
  S.talepler = veri.ticketlar;
  talepleriCiz();
}

function talepleriCiz() {
  if (S.gorunum !== "talep") return;
  if (tutulurken(talepleriCiz)) return;
  // The filters stay in place (a half-typed search keeps its focus); only the rows are redrawn.
  if (!el.liste.contains(el.talepUst)) {
    el.talepUst = h("div", { class: "liste-suzgec talep-suzgec" });
    el.talepGovde = h("div", {});
    bosalt(el.liste, h("h2", { text: M.talepler }), el.talepUst, el.talepGovde);
    talepSuzgeciCiz();
  }
  bosalt(el.talepGovde, S.talepler.length ? h("ul", { class: "satirlar", id: "talepler" }, S.talepler.map((t) => {
    const m = musteri(t.musteri_id) || {};
    const renk = h("span", { class: "renk", "aria-hidden": "true" });
    renk.style.background = m.renk_primary || "#6b7280";
    return h("li", { class: "satir", dataset: { id: String(t.id), oncelik: t.oncelik } },
      secimKutusu("ticket", t.id, `#${t.id} ${t.konu}`),
      h("button", { type: "button", class: "satir-ac", "aria-current": S.acikTalep && S.acikTalep.id === t.id ? "true" : null, onclick: () => talepAc(t.id) },
        renk, h("span", { class: "satir-govde" },
          h("span", { class: "satir-ust" }, h("span", { class: "ziyaretci", text: `#${t.id} ${t.konu}` }), slaRozetleri(t),
            t.oncelik && t.oncelik !== "normal" ? h("span", { class: "oncelik-rozet", dataset: { oncelik: t.oncelik }, text: M.oncelikler[t.oncelik] || t.oncelik }) : null),
          h("span", { class: "proje", text: `${m.firma_adi || ""} · ${M.talepDurumlari[t.durum] || t.durum} · ${M.oncelikler[t.oncelik] || t.oncelik}` }),
          h("span", { class: "onizleme", text: `${t.ad || t.email || t.ziyaretci_id || ""}` }),
          "operator_id" in t ? h("span", { class: "sahip", text: `${M.sahip}: ${t.operator_id ? (t.operator_id === benimId() ? M.ben : t.operator_adi || S.uyeAdlari.get(t.operator_id) || t.operator_id) : M.sahipYok}` }) : null,
          etiketCipleri(t.etiketler))));
  })) : h("p", { class: "bos", text: M.bosTalep }));
}

// The ticket list's filters (CONTRACT 16): state, owner, priority, label, text; and the order.
async function talepSuzgeciCiz() {
  const kap = el.talepUst;
  if (!kap) return;
  const f = S.talepSuzgec;
  const yenile = () => { S.secim = 0; talepleriYenile(); };
  const secici = (id, etiket, secenekler, deger, degisti) => {
    const s = h("select", { id, "aria-label": etiket, onchange: () => { degisti(s.value); yenile(); } },
      Object.entries(secenekler).map(([k, v]) => h("option", { value: k, text: v, selected: k === String(deger ?? "") })));
    return s;
  };
  let zaman = null;
  const ara = h("input", { id: "talep-ara", type: "search", placeholder: M.talepAra, "aria-label": M.talepAra, value: f.q, maxlength: "200",
    oninput: () => { clearTimeout(zaman); zaman = setTimeout(() => { f.q = ara.value; yenile(); }, 300); } });
  const etiketKap = h("span", { class: "etiket-suzgec-kap" });
  const ekipKap = h("span", { class: "ekip-suzgec-kap" });
  bosalt(kap,
    secici("talep-durum", M.talepSuzgeci, M.talepDurumlari, S.talepDurum, (v) => { S.talepDurum = v; }),
    secici("talep-sahip", M.sahipSuzgeci, M.sahipSuzgecleri, f.operator_id, (v) => { f.operator_id = v; }),
    secici("talep-oncelik", M.oncelikSuzgeci, { "": M.tumOncelikler, ...M.oncelikler }, f.oncelik, (v) => { f.oncelik = v; }),
    etiketKap,
    ekipKap,
    secici("talep-siralama", M.siralama, M.siralamalar, f.siralama, (v) => { f.siralama = v; }),
    ara);
  const [etiketler, ekipler] = await Promise.all([etiketListesi(), ekipleriOku()]);
  if (kap !== el.talepUst) return;
  if (f.etiket_id && !etiketler.some((e) => e.id === f.etiket_id)) { f.etiket_id = null; yenile(); }
  bosalt(ekipKap, ekipSuzgeci({ id: "talep-ekip", tur: "talep", ekipler, secili: S.talepEkibi, cokluProje: !S.secilenMusteri,
    firmaAdi: musteriAdi, degisti: (d) => { S.talepEkibi = d; yenile(); } }));
  bosalt(etiketKap, etiketSuzgeci({ id: "talep-etiket", etiketler, secili: f.etiket_id, cokluProje: !S.secilenMusteri,
    degisti: (id) => { f.etiket_id = id; yenile(); } }));
}

let talepEkleri = [];
let talepAcmaSirasi = 0;
// A frame about the open ticket (the customer's reply, a colleague's change) draws it again, its
// buttons and composer too: after the release of a press on it (tutulurken).
function acikTalebiYenile() {
  if (tutulurken(acikTalebiYenile)) return;
  if (S.acikTalep) talepAc(S.acikTalep.id);
}

async function talepAc(id) {
  const sira = ++talepAcmaSirasi; // a later opening (or redraw) wins over one still reading
  let t;
  try { t = (await api.talep(id)).ticket; } catch (e) { bildir(e.message); return; }
  if (sira !== talepAcmaSirasi) return;
  // Redrawn for a frame (the visitor answered, a colleague changed it): what the operator was
  // writing, the files it attached, and reply-or-note stay.
  const ayni = S.acikTalep && S.acikTalep.id === t.id;
  const onceki = ayni ? $("#talep-yanit") : null;
  const odakta = Boolean(onceki) && onceki === document.activeElement;
  if (!ayni) { S.talepNotModu = false; talepEkleri = []; }
  S.acikTalep = t;
  S.acikSohbet = null;
  let uyeler = [];
  try { uyeler = await uyelerGetir(t.musteri_id); } catch { /* the owner list shows the current owner only */ }
  if (sira !== talepAcmaSirasi || !S.acikTalep || S.acikTalep.id !== t.id) return;
  const kapali = t.durum === "kapandi";
  const yanit = h("textarea", { id: "talep-yanit", rows: "4", "aria-label": M.yanitYaz, placeholder: M.yanitYaz,
    value: onceki ? onceki.value : "" });
  const bahsetme = new Bahsetme(yanit, { uyeler: () => uyelerGetir(t.musteri_id), etkin: () => S.talepNotModu });
  yanit.addEventListener("keydown", (e) => bahsetme.tus(e));
  const ekDurum = h("select", { id: "talep-yanit-durum", "aria-label": M.durumuda },
    h("option", { value: "", text: `${M.durumuda}: ${M.degistirme}` }),
    Object.entries(M.talepDurumlari).filter(([k]) => k).map(([k, v]) => h("option", { value: k, text: v })));
  const guncelle = async (alanlar) => {
    try { S.acikTalep = (await api.talepGuncelle(t.id, alanlar)).ticket; talepleriYenile(); talepAc(t.id); } catch (e) { el.bildirim.textContent = e.message; }
  };
  const durum = h("select", { id: "talep-durum-degistir", "aria-label": M.durumDegistir, disabled: kapali,
    onchange: async () => {
      try { S.acikTalep = (await api.talepDurum(t.id, durum.value)).ticket; talepleriYenile(); talepAc(t.id); } catch (e) { el.bildirim.textContent = e.message; }
    } }, Object.entries(M.talepDurumlari).filter(([k]) => k).map(([k, v]) => h("option", { value: k, text: v, selected: k === t.durum })));
  const sahipVar = "operator_id" in t;
  const sahiplerde = uyeler.some((u) => u.id === t.operator_id);
  const sahip = h("select", { id: "talep-sahip-degistir", "aria-label": M.sahip,
    onchange: () => guncelle({ operator_id: sahip.value ? Number(sahip.value) : null }) },
  h("option", { value: "", text: M.sahipYok, selected: !t.operator_id }),
  t.operator_id && !sahiplerde ? h("option", { value: String(t.operator_id), selected: true, text: t.operator_adi || String(t.operator_id) }) : null,
  uyeler.map((u) => h("option", { value: String(u.id), selected: u.id === t.operator_id, text: u.id === benimId() ? `${u.ad || u.email} (${M.ben})` : u.ad || u.email })));
  const oncelik = h("select", { id: "talep-oncelik-degistir", "aria-label": M.oncelik,
    onchange: () => guncelle({ oncelik: oncelik.value }) },
  Object.entries(M.oncelikler).map(([k, v]) => h("option", { value: k, text: v, selected: k === t.oncelik })));
  el.bildirim = h("p", { class: "hata", role: "alert" });
  el.talepEkListe = h("ul", { class: "ek-listesi" }, talepEkleri.map((d) => h("li", { text: soz("dosyaYuklendi", { ad: d.ad }) })));
  el.yazi = null;
  const gonder = h("button", { type: "submit", class: "birincil", text: M.yanitla });
  const mod = yazmaModu(yanit, gonder, { not: S.talepNotModu, yalnizNot: kapali, yer: M.yanitYaz,
    degisti: (n) => { S.talepNotModu = n; ekDurum.hidden = n; } });
  S.talepNotModu = mod.notMu();
  ekDurum.hidden = S.talepNotModu;
  const yanitAdi = (y) => {
    if (y.gonderen !== "operator") return M.gonderen[y.gonderen] || y.gonderen;
    // No operator: the reply or note of a rule (CONTRACT 23), named M.otomatikYanit.
    const kim = y.operator_id === null ? M.otomatikYanit
      : y.operator_id === benimId() ? M.gonderen.operator : S.uyeAdlari.get(y.operator_id) || M.meslektas;
    return y.ozel ? soz("notKimden", { kim }) : kim;
  };
  bosalt(el.orta,
    h("div", { class: "sohbet-baslik" },
      h("div", {}, h("h2", { text: `#${t.id} ${t.konu}` }), slaRozetleri(t),
        h("span", { class: "proje", text: `${musteriAdi(t.musteri_id)} · ${t.ad || ""} ${t.email || ""}` }),
        h("div", { class: "baslik-etiketler" }, etiketCipleri(t.etiketler))),
      h("div", { class: "talep-alanlar" },
        h("label", { class: "satir-ici" }, `${M.durumDegistir} `, durum),
        sahipVar ? h("label", { class: "satir-ici" }, `${M.sahip} `, sahip) : null,
        sahipVar && t.operator_id !== benimId() ? h("button", { type: "button", class: "ikincil kucuk", onclick: () => guncelle({ operator_id: benimId() }), text: M.ustlen }) : null,
        h("label", { class: "satir-ici" }, `${M.oncelik} `, oncelik),
        ["acik", "beklemede"].includes(t.durum) ? erteleDugmesi({ tur: "ticket", nesne: t, dialog: el.dialog,
          hata: (m) => { el.bildirim.textContent = m; }, bitti: () => { talepleriYenile(); talepAc(t.id); } }) : null,
        h("button", { type: "button", class: "ikincil kucuk", "aria-keyshortcuts": "l", onclick: etiketleriAc, text: M.etiketDuzenleKisa }),
        h("button", { type: "button", class: "ikincil kucuk", "aria-keyshortcuts": "u", "data-test": "makro-ac", onclick: makroAc, text: M.makroKisa }))),
    h("ol", { class: "mesajlar", "aria-label": M.talepler }, t.yanitlar.map((y) => h("li", { class: `mesaj ${y.gonderen}${y.ozel ? " not" : ""}` },
      h("span", { class: "kim", text: `${yanitAdi(y)} · ${tarihSaat(y.zaman)}` }),
      h("div", { class: "metin md" }, markdownDugumleri(y.icerik)), y.ekler.map(ekCiz)))),
    el.bildirim,
    h("form", { class: "yazma", onsubmit: async (e) => {
      e.preventDefault();
      if (!yanit.value.trim()) return;
      const not = S.talepNotModu ? { bahsedilenler: bahsetme.bahsedilenler() } : null;
      try {
        await api.talepYanitla(t.id, yanit.value, talepEkleri.map((d) => d.id), not ? undefined : ekDurum.value || undefined, not);
        yanit.value = "";
        bahsetme.sifirla();
        talepEkleri = [];
        talepleriYenile();
        talepAc(t.id);
      } catch (err) { if (err.status !== 401) el.bildirim.textContent = err.message; }
    } }, mod, bahsetme.liste, yanit, el.talepEkListe, h("div", { class: "yazma-dugmeler" }, ekDurum,
      emojiSecici(() => yanit),
      h("button", { type: "button", class: "ikincil", onclick: () => el.dosya.click(), text: `+ ${M.dosyaEkle}` }),
      gonder)));
  dosyaBirakma(el.orta, yanit, (f) => talebeDosyaEkle(f));
  if (odakta) {
    yanit.focus();
    yanit.setSelectionRange(onceki.selectionStart, onceki.selectionEnd);
  }
  if (!ayni || S.yanPanel !== `ticket:${t.id}`) yanPanelYukle({ tur: "ticket", id: t.id, ziyaretci_id: t.ziyaretci_id, musteri_id: t.musteri_id });
  for (const b of el.liste.querySelectorAll("#talepler .satir-ac")) b.setAttribute("aria-current", String(b.closest(".satir").dataset.id === String(t.id)));
  bolme("orta");
}

async function talebeDosyaEkle(dosya) {
  if (!S.acikTalep) return;
  try {
    const { dosya: d } = await api.yukle(S.acikTalep.musteri_id, dosya);
    talepEkleri.push(d);
    el.talepEkListe.append(h("li", { text: soz("dosyaYuklendi", { ad: d.ad }) }));
  } catch (e) { el.bildirim.textContent = e.message; }
}

// --- search (CONTRACT 16): `/` in the list -------------------------------------------------------
function aramayiAc() {
  aramaAc(el.dialog, { musteriId: S.secilenMusteri, musteriAdi, ac: (s) => {
    if (s.tur === "ticket") talebiAc(s.id);
    else gecmisSohbetAc(s.id);
  } });
}

// --- keyboard ------------------------------------------------------------------------------------
function yardimAc() { if (el.yardim.open) el.yardim.close(); else el.yardim.showModal(); }

function listedekiler() {
  if (S.gorunum === "talep") return S.talepler.map((t) => t.id);
  if (sohbetGorunumu()) return gorunumListesi(projedeVeEkipte).map((o) => o.id);
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
    "/": aramayiAc,
    n: () => {
      const mod = el.orta.querySelector(".yazma-modu");
      if (mod) mod.ayarla(mod.dataset.not !== "1");
    },
    l: () => { if (S.acikSohbet || S.acikTalep) etiketleriAc(); },
    u: () => { if (S.acikSohbet || S.acikTalep) makroAc(); },
    j: () => secimiTasi(1), ArrowDown: () => secimiTasi(1),
    k: () => secimiTasi(-1), ArrowUp: () => secimiTasi(-1),
    o: () => { const id = listedekiler()[S.secim]; if (id) (S.gorunum === "talep" ? talepAc : sohbetAc)(id); },
    a: () => { const id = o && o.durum === "bekliyor" ? o.id : listedekiler()[S.secim]; if (id && S.sohbetler.get(id)?.durum === "bekliyor") kabulEt(id); },
    t: aktarAc,
    // `x` selects the focused row for a bulk action (CONTRACT 24); Shift+X closes the open chat.
    x: () => { const id = listedekiler()[S.secim]; if (id) secimDegistir(S.gorunum === "talep" ? "ticket" : "chat", id); },
    X: kapatAc,
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

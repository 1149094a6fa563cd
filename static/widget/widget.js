/*! SupportDesk widget: one file, no dependencies, no build step.
 * <script src="https://HOST/static/widget/widget.js" data-api-key="pk_..." async></script>
 * Optional: data-ziyaretci-id (the site's own visitor id), data-api-url (default: this
 * script's origin + /api/v1); data-timestamp, data-signature, data-email (the site's server
 * signs the visitor, spec 5.3, so that a second device gets its token). Public API: window.SupportDesk.identify({...}), open(), close().
 * data-onizleme="ID": the portal's look preview (issue 39): the tenant's look and the states to show
 * come from the JSON element ID and from the portal page (postMessage); nothing is sent or stored.
 */
(() => {
  "use strict";
  const W = window;
  const D = document;
  if (W.SupportDesk && W.SupportDesk.surum) return; // the tag pasted twice: keep the first

  const betik = D.currentScript || D.querySelector("script[data-api-key]");
  if (!betik) return;
  const ayar = betik.dataset;
  const ONIZLEME = ayar.onizleme !== undefined;
  const API_KEY = (ayar.apiKey || "").trim();
  const API = (ayar.apiUrl || new URL(betik.src, location.href).origin + "/api/v1").replace(/\/+$/, "");
  const KOK = new URL(API, location.href).origin;
  const MAX_DOSYA = 10 * 1024 * 1024;
  const EN_COK_EK = 10; // files staged for one Send

  // --- the widget's words (CONTRACT 19): one dictionary per language, the same keys in each
  // (widget/tests/test_widget_katalog.py checks them). `M` is Turkish, the source; `{n}`-style
  // placeholders; a value that counts is {one, other} (Intl.PluralRules), or one string for all.
  // Only `t()` reads them. Text the service sends (system lines, closed text, articles, the
  // tenant's greeting) is shown as sent.
  const M = {
    ac: "Destek penceresini aç",
    kapat: "Destek penceresini kapat",
    kucult: "Pencereyi küçült",
    baslik: "Destek",
    cevrimici: "Temsilcilerimiz çevrimiçi",
    cevrimdisi: "Şu an çevrimdışıyız",
    sohbet: "Sohbet",
    talepler: "Talepler",
    yardim: "Yardım",
    hosgeldin: "Merhaba! Size nasıl yardımcı olabiliriz?",
    hosgeldinAlt: "Bir mesaj yazın, ekibimiz en kısa sürede yanıtlasın.",
    kimseYokKisa: "Şu an çevrimiçi temsilcimiz yok.",
    kapaliSecenek: "Mesajınızı bırakabilir ya da destek talebi oluşturabilirsiniz; size e-postayla döneriz.",
    acilis: "Yeniden açılış: {zaman}.",
    yazKapali: "Mesajınızı bırakın; size döneceğiz…",
    talepBirak: "Destek talebi oluştur",
    ad: "Adınız",
    email: "E-posta adresiniz",
    mesaj: "Mesajınız",
    aciklama: "Açıklama",
    istege: "(isteğe bağlı)",
    baslat: "Sohbeti başlat",
    ekip: "Hangi departman?",
    ekipSec: "Seçiniz",
    sira: "Sıranız: {n}. Bir temsilci birazdan bağlanacak.",
    bekle: "Bir temsilci birazdan bağlanacak.",
    kimseYok: "Şu an çevrimiçi temsilcimiz yok. Destek talebi bırakabilirsiniz; size e-postayla döneriz.",
    bagli: "Bir temsilciyle görüşüyorsunuz.",
    bitti: "Görüşme sona erdi.",
    bitir: "Sohbeti bitir",
    bitirSor: "Sohbet sonlandırılsın mı?",
    evetBitir: "Evet, bitir",
    yaz: "Mesajınızı yazın…",
    gonder: "Gönder",
    dosyaEkle: "Dosya ekle",
    ekiKaldir: "Eki kaldır: {ad}",
    yukleniyor: "Yükleniyor…",
    puanla: "Görüşmeyi nasıl buldunuz?",
    yildiz: "{n} yıldız",
    yorum: "Yorumunuz (isteğe bağlı)",
    puanGonder: "Değerlendirmeyi gönder",
    puanSec: "Lütfen 1 ile 5 arasında bir puan seçin.",
    tesekkur: "Değerlendirmeniz için teşekkürler!",
    yeniSohbet: "Yeni sohbet başlat",
    yaziyor: "Temsilci yazıyor…",
    siz: "Siz",
    temsilci: "Temsilci",
    otomatikYanit: "Otomatik yanıt",
    okunmamis: "{n} okunmamış mesaj",
    yeniTalep: "Yeni talep",
    talepYok: "Henüz bir destek talebiniz yok.",
    konu: "Konu",
    oncelik: "Öncelik",
    oncelik_dusuk: "Düşük",
    oncelik_normal: "Normal",
    oncelik_yuksek: "Yüksek",
    oncelik_acil: "Acil",
    ekler: "Ekler",
    ekMesaji: "Ekler: {ad}",
    dosyaSec: "Dosya seç",
    dosyaYok: "Dosya seçilmedi",
    talepGonder: "Talebi gönder",
    geri: "Geri",
    yanitYaz: "Yanıtınızı yazın…",
    yanitla: "Yanıtla",
    kapaliTalep: "Bu talep kapatıldı; yeni bir talep oluşturabilirsiniz.",
    durum_acik: "Açık",
    durum_beklemede: "Beklemede",
    durum_cozuldu: "Çözüldü",
    durum_kapandi: "Kapandı",
    ara: "Yardım merkezinde ara",
    araIpucu: "Sorunuzu yazın, ör. fatura",
    sonucYok: "Sonuç bulunamadı. Farklı kelimelerle deneyin ya da bize yazın.",
    kategoriler: "Kategoriler",
    makale: "{n} makale",
    kapatDugme: "Kapat",
    kullanilamaz: "Destek penceresi bu sitede şu an kullanılamıyor. Lütfen daha sonra tekrar deneyin.",
    dokum: "Sohbet dökümünü e-postayla gönder",
    dokumGitti: "Döküm e-posta adresinize gönderildi.",
    limit: "Kısa sürede çok fazla işlem yapıldı. Lütfen birkaç saniye sonra tekrar deneyin.",
    ag: "Bağlantı kurulamadı. İnternet bağlantınızı kontrol edip tekrar deneyin.",
    sunucu: "Beklenmeyen bir sorun oluştu. Lütfen biraz sonra tekrar deneyin.",
    buyuk: "Dosya çok büyük; en çok 10 MB yükleyebilirsiniz.",
    tur: "Bu dosya türü desteklenmiyor. PNG, JPEG, GIF, WebP, PDF ya da metin dosyası yükleyin.",
    bulunamadi: "Aradığınız kayıt bulunamadı.",
    alanlar: "Lütfen işaretli alanları kontrol edin.",
    guc: "SupportDesk ile destekleniyor",
    // issue 13 (daily use)
    oneriBaslik: "Beklemek yerine destek talebi bırakın",
    oneriDugme: "Destek talebine dönüştür",
    oneriAciklama: "Sohbetiniz ve e-posta adresiniz talebe eklenir; düzenleyip gönderebilirsiniz.",
    vazgec: "Vazgeç",
    onizleme: "Bu bir önizleme: gönderilen bir şey yok.",
  };
  const EN = {
    ac: "Open support window",
    kapat: "Close support window",
    kucult: "Minimize window",
    baslik: "Support",
    cevrimici: "We're online",
    cevrimdisi: "We're offline right now",
    sohbet: "Chat",
    talepler: "Requests",
    yardim: "Help",
    hosgeldin: "Hi there! How can we help?",
    hosgeldinAlt: "Send us a message and our team will reply as soon as possible.",
    kimseYokKisa: "No agents are online right now.",
    kapaliSecenek: "You can leave a message or create a support request; we'll get back to you by email.",
    acilis: "We open again {zaman}.",
    yazKapali: "Leave your message; we'll get back to you…",
    talepBirak: "Create a support request",
    ad: "Your name",
    email: "Your email address",
    mesaj: "Your message",
    aciklama: "Description",
    istege: "(optional)",
    baslat: "Start chat",
    ekip: "Which department?",
    ekipSec: "Choose",
    sira: "You're number {n} in the queue. An agent will be with you shortly.",
    bekle: "An agent will be with you shortly.",
    kimseYok: "No agents are online right now. You can leave a request and we'll get back to you by email.",
    bagli: "You're chatting with an agent.",
    bitti: "This chat has ended.",
    bitir: "End chat",
    bitirSor: "End this chat?",
    evetBitir: "Yes, end chat",
    yaz: "Type your message…",
    gonder: "Send",
    dosyaEkle: "Attach a file",
    ekiKaldir: "Remove attachment: {ad}",
    yukleniyor: "Uploading…",
    puanla: "How was your conversation?",
    yildiz: { one: "{n} star", other: "{n} stars" },
    yorum: "Your comment (optional)",
    puanGonder: "Submit rating",
    puanSec: "Please choose a rating from 1 to 5.",
    tesekkur: "Thanks for your feedback!",
    yeniSohbet: "Start a new chat",
    yaziyor: "Agent is typing…",
    siz: "You",
    temsilci: "Agent",
    otomatikYanit: "Automatic reply",
    okunmamis: { one: "{n} unread message", other: "{n} unread messages" },
    yeniTalep: "New request",
    talepYok: "You don't have any support requests yet.",
    konu: "Subject",
    oncelik: "Priority",
    oncelik_dusuk: "Low",
    oncelik_normal: "Normal",
    oncelik_yuksek: "High",
    oncelik_acil: "Urgent",
    ekler: "Attachments",
    ekMesaji: "Attachments: {ad}",
    dosyaSec: "Choose files",
    dosyaYok: "No file chosen",
    talepGonder: "Submit request",
    geri: "Back",
    yanitYaz: "Write your reply…",
    yanitla: "Reply",
    kapaliTalep: "This request is closed. You can create a new one.",
    durum_acik: "Open",
    durum_beklemede: "Pending",
    durum_cozuldu: "Solved",
    durum_kapandi: "Closed",
    ara: "Search the help center",
    araIpucu: "Type your question, e.g. invoice",
    sonucYok: "No results found. Try different words or send us a message.",
    kategoriler: "Categories",
    makale: { one: "{n} article", other: "{n} articles" },
    kapatDugme: "Close",
    kullanilamaz: "Support isn't available on this site right now. Please try again later.",
    dokum: "Email me the chat transcript",
    dokumGitti: "The transcript has been sent to your email address.",
    limit: "Too many actions in a short time. Please try again in a few seconds.",
    ag: "Couldn't connect. Check your internet connection and try again.",
    sunucu: "Something went wrong. Please try again in a moment.",
    buyuk: "This file is too large; the limit is 10 MB.",
    tur: "This file type isn't supported. Upload a PNG, JPEG, GIF, WebP, PDF or text file.",
    bulunamadi: "We couldn't find what you were looking for.",
    alanlar: "Please check the highlighted fields.",
    guc: "Powered by SupportDesk",
    // issue 13 (daily use)
    oneriBaslik: "Leave a request instead of waiting",
    oneriDugme: "Turn into a support request",
    oneriAciklama: "Your chat and email address are added to the request; you can edit it before sending.",
    vazgec: "Cancel",
    onizleme: "This is a preview: nothing is sent.",
  };
  const SOZLUKLER = { tr: M, en: EN };
  // Before `widget/init` answers: the tenant's language last seen in this browser, else the
  // browser's first supported one, else Turkish. `dilKur` switches (widget/init's `data.dil`).
  const dilKodu = (k) => {
    const kod = String(k || "").split(/[-_]/)[0].toLowerCase();
    return Object.keys(SOZLUKLER).includes(kod) ? kod : null;
  };
  let dil = "tr";
  let cogul = null;
  function t(anahtar, degerler) {
    let s = SOZLUKLER[dil][anahtar] ?? M[anahtar];
    if (typeof s === "object") s = s[(cogul = cogul || new Intl.PluralRules(dil)).select(degerler.n)] || s.other;
    return degerler ? s.replace(/\{(\w+)\}/g, (x, ad) => (degerler[ad] ?? x)) : s;
  }

  // --- storage and the visitor id --------------------------------------------------------
  const bellek = new Map(); // the preview keeps nothing in the member's browser
  const depo = ONIZLEME ? { al: (k) => bellek.get(k) ?? null, yaz: (k, v) => { bellek.set(k, v); } } : {
    al(k) { try { return W.localStorage.getItem(k); } catch (e) { return null; } },
    yaz(k, v) { try { W.localStorage.setItem(k, v); } catch (e) { /* private mode: memory only */ } },
  };
  // Keyed by the widget key, i.e. per tenant: one browser is a different visitor to each tenant.
  const onek = `supportdesk:${API_KEY}:`;
  const KENDI_KIMLIGI = /^z_[0-9a-f]{32}$/; // what rastgeleId makes; CONTRACT 2a
  const rastgeleId = () => {
    const b = new Uint8Array(16);
    W.crypto.getRandomValues(b);
    return "z_" + Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  };
  let ziyaretciId = (ayar.ziyaretciId || "").trim().slice(0, 128);
  const siteKimligi = Boolean(ziyaretciId);
  const yeniKimlik = (id) => { ziyaretciId = id; depo.yaz(onek + "ziyaretci", id); };
  if (!siteKimligi) yeniKimlik(depo.al(onek + "ziyaretci") || rastgeleId());
  dil = dilKodu(depo.al(onek + "dil")) || (navigator.languages || [navigator.language]).map(dilKodu).find(Boolean) || "tr";
  // CONTRACT 2a: the visitor's token (its key to its own chats), kept per widget key and visitor.
  let token = "";
  const tokenYaz = (t) => { token = t || ""; depo.yaz(`${onek}token:${ziyaretciId}`, token); };
  const tokenOku = () => { token = depo.al(`${onek}token:${ziyaretciId}`) || ""; };
  tokenOku();

  const S = {
    durdu: false,
    hazir: false,
    acik: false,
    sekme: "sohbet",
    cevrimici: true,
    mesai: { acik: true, mesaj: "" },
    oturum: null,
    sonMesajId: null,
    mesajIdleri: new Set(),
    okunmamis: 0,
    ekler: [], // files staged for the next Send (uploaded only then), issue 39
    operatorOkunan: 0, // the last message an operator has read: the ✓✓ marks (kept by the server)

    puan: 0,
    profil: {},
  };
  // canli: the widget socket's state (the block "canli" below).
  const canli = { ws: null, acik: false, deneme: 0, zaman: null, yaziyorSon: 0, okunanSon: 0, notZaman: null,
    not: h("div", { class: "yn", hidden: true, "aria-live": "polite", text: t("yaziyor") }) };

  // --- HTTP ------------------------------------------------------------------------------
  class ApiHatasi extends Error {
    constructor(durum, kod, mesaj, alanlar, bekle) {
      super(mesaj);
      Object.assign(this, { durum, kod, alanlar: alanlar || null, bekle: bekle || 0 });
    }
  }

  function hataMesaji(durum, kod, sunucuMesaji) {
    if (durum === 0) return t("ag");
    if (durum === 403 && kod === "ORIGIN_IZINSIZ") return t("kullanilamaz");
    if (durum === 401 && kod !== "GECERSIZ_IMZA" && kod !== "IMZA_GEREKLI") return t("kullanilamaz");
    if (durum === 429) return t("limit");
    if (durum === 413) return t("buyuk");
    if (durum === 415) return t("tur");
    if (durum >= 500) return t("sunucu");
    if (durum === 404) return t("bulunamadi");
    return sunucuMesaji || t("sunucu");
  }

  async function api(yontem, yol, govde, sorgu) {
    if (S.durdu) throw new ApiHatasi(403, "ORIGIN_IZINSIZ", t("kullanilamaz"));
    if (ONIZLEME) return onizlemeYaniti(yontem, yol);
    // Every call but init's own waits for init: it brings the visitor's token (CONTRACT 2a). A
    // visitor quicker than a slow init would otherwise start a chat without it, refused once init
    // has bound the id (a start whose message never showed). Init failing for good rejects them.
    if (!S.hazir && yol !== "/widget/init") await hazirOl;
    let url = API + yol;
    const basliklar = { "X-API-Key": API_KEY, Accept: "application/json" };
    if (token) basliklar["X-Ziyaretci-Token"] = token;
    // Once widget/init has named the widget's language, the service's own words (field errors)
    // come in it too; widget/init itself carries the browser's own preference (`otomatik`).
    if (S.hazir) basliklar["Accept-Language"] = dil;
    const secenek = { method: yontem, headers: basliklar, credentials: "omit", mode: "cors" };
    if (yontem === "GET") {
      url += "?" + new URLSearchParams({ ziyaretci_id: ziyaretciId, ...(sorgu || {}) });
    } else if (govde instanceof FormData) {
      govde.append("ziyaretci_id", ziyaretciId);
      secenek.body = govde;
    } else {
      basliklar["Content-Type"] = "application/json";
      secenek.body = JSON.stringify({ ziyaretci_id: ziyaretciId, ...(govde || {}) });
    }
    let yanit;
    try {
      yanit = await fetch(url, secenek);
    } catch (e) {
      throw new ApiHatasi(0, "AG_HATASI", t("ag"));
    }
    let zarf = null;
    try { zarf = await yanit.json(); } catch (e) { /* not JSON: a proxy page, handled below */ }
    if (yanit.ok && zarf && zarf.basarili) return { ...(zarf.data || {}), _zarf: zarf };
    const hata = (zarf && zarf.hata) || {};
    const kod = hata.kod || "SUNUCU_HATASI";
    // A refused origin or a revoked key will not heal by retrying: stop calling (issue 8).
    if ((yanit.status === 403 && kod === "ORIGIN_IZINSIZ") || kod === "GECERSIZ_API_ANAHTARI" || kod === "KIMLIK_GEREKLI") {
      durdur();
    }
    const bekle = parseInt(yanit.headers.get("Retry-After") || "0", 10) || 0;
    throw new ApiHatasi(yanit.status, kod, hataMesaji(yanit.status, kod, hata.mesaj), hata.alanlar, bekle);
  }

  // --- DOM helpers (server text always goes in as text nodes) -----------------------------
  function h(etiket, ozellik, ...cocuklar) {
    const el = D.createElement(etiket);
    for (const [k, v] of Object.entries(ozellik || {})) {
      if (v == null || v === false) continue;
      if (k === "class") el.className = v;
      else if (k === "text") el.textContent = v;
      else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
      else el.setAttribute(k, v === true ? "" : v);
    }
    ekle(el, cocuklar);
    return el;
  }
  function ekle(el, ...cocuklar) {
    for (const c of cocuklar.flat(5)) if (c != null && c !== false) el.append(c.nodeType ? c : String(c));
    return el;
  }
  const bosalt = (el, ...cocuklar) => { el.replaceChildren(); return ekle(el, cocuklar); };

  const NS = "http://www.w3.org/2000/svg";
  const IKON = {
    sohbet: "M21 11.5a8.4 8.4 0 0 1-.9 3.8 8.5 8.5 0 0 1-7.6 4.7 8.4 8.4 0 0 1-3.8-.9L3 21l1.9-5.7a8.4 8.4 0 0 1-.9-3.8 8.5 8.5 0 0 1 4.7-7.6 8.4 8.4 0 0 1 3.8-.9h.5a8.5 8.5 0 0 1 8 8z",
    kapat: "M18 6 6 18M6 6l12 12",
    asagi: "m6 9 6 6 6-6",
    gonder: "M22 2 11 13M22 2l-7 20-4-9-9-4z",
    ek: "m21.4 11.1-9.2 9.1a6 6 0 0 1-8.5-8.5l9.2-9.2a4 4 0 0 1 5.7 5.7l-9.2 9.2a2 2 0 0 1-2.8-2.8l8.5-8.5",
    yildiz: "m12 2 3.1 6.3 6.9 1-5 4.9 1.2 6.8-6.2-3.2-6.2 3.2L7 14.2 2 9.3l6.9-1z",
    geri: "m15 18-6-6 6-6",
    ara: "M11 19a8 8 0 1 0 0-16 8 8 0 0 0 0 16zm10 2-4.4-4.4",
    talep: "M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8zm0 0v6h6M16 13H8m8 4H8",
    kitap: "M2 3h6a4 4 0 0 1 4 4v14a3 3 0 0 0-3-3H2zm20 0h-6a4 4 0 0 0-4 4v14a3 3 0 0 1 3-3h7z",
    arti: "M12 5v14m-7-7h14",
    uyari: "M12 9v4m0 4h.01M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0z",
  };
  function ikon(ad, boyut = 20) {
    const s = D.createElementNS(NS, "svg");
    for (const [k, v] of Object.entries({ viewBox: "0 0 24 24", width: boyut, height: boyut, "aria-hidden": "true", focusable: "false" })) s.setAttribute(k, v);
    const p = D.createElementNS(NS, "path");
    p.setAttribute("d", IKON[ad]);
    s.append(p);
    return s;
  }

  // Only http(s) or same-service relative addresses become links or images.
  function guvenliUrl(deger) {
    if (!deger || typeof deger !== "string") return null;
    try {
      const u = new URL(deger, KOK);
      return u.protocol === "https:" || u.protocol === "http:" ? u.href : null;
    } catch (e) { return null; }
  }
  const zamanYaz = (z, bicim) => {
    const an = z ? new Date(z) : null;
    return an && !isNaN(an) ? new Intl.DateTimeFormat(dil, bicim).format(an) : "";
  };
  // Turkish writes 09:05, English 9:05 AM.
  const saat = (z) => zamanYaz(z, { hour: dil === "tr" ? "2-digit" : "numeric", minute: "2-digit" });
  const tarih = (z) => zamanYaz(z, { day: "numeric", month: "short", hour: dil === "tr" ? "2-digit" : "numeric", minute: "2-digit" });
  const boyutYaz = (b) => (b >= 1048576 ? (b / 1048576).toFixed(1) + " MB" : Math.max(1, Math.round(b / 1024)) + " KB");

  // Article bodies are sanitized on the server; this second pass keeps the shadow root safe
  // even if a stored article predates that, and never touches the live DOM while parsing.
  const IZINLI = new Set("P BR B STRONG I EM U S MARK SMALL SUB SUP CODE PRE BLOCKQUOTE UL OL LI H1 H2 H3 H4 H5 H6 A IMG HR TABLE THEAD TBODY TR TH TD FIGURE FIGCAPTION SPAN DIV".split(" "));
  const ATILACAK = new Set("SCRIPT STYLE IFRAME OBJECT EMBED LINK META TEMPLATE FORM INPUT BUTTON TEXTAREA SELECT SVG MATH NOSCRIPT".split(" "));
  function temizHtml(html) {
    const govde = new DOMParser().parseFromString(String(html || ""), "text/html").body;
    const gez = (kok) => {
      for (const el of Array.from(kok.children)) {
        if (ATILACAK.has(el.tagName)) { el.remove(); continue; }
        gez(el);
        if (!IZINLI.has(el.tagName)) { el.replaceWith(...el.childNodes); continue; }
        for (const a of Array.from(el.attributes)) {
          const ad = a.name.toLowerCase();
          const korunur = ["alt", "title", "colspan", "rowspan"].includes(ad) || (ad === "href" && el.tagName === "A") || (ad === "src" && el.tagName === "IMG");
          if (!korunur) el.removeAttribute(a.name);
          else if ((ad === "href" || ad === "src") && !(guvenliUrl(a.value) || (ad === "href" && /^mailto:/i.test(a.value)))) el.removeAttribute(a.name);
        }
        if (el.tagName === "A") { el.setAttribute("target", "_blank"); el.setAttribute("rel", "noopener noreferrer nofollow"); }
        if (el.tagName === "IMG") el.setAttribute("loading", "lazy");
      }
    };
    gez(govde);
    const parca = D.createDocumentFragment();
    parca.append(...Array.from(govde.childNodes).map((n) => D.adoptNode(n)));
    return parca;
  }
  // --- ticket reply text: a copy of static/panel/bicim.js (change both; a test compares them) ---
  // A safe subset of Markdown built as DOM nodes, for ticket replies only (chat messages stay
  // plain text, CONTRACT 3): text nodes, a few elements, links to http(s) and mailto only.
  const EN_DERIN = 4; // quotes in quotes, emphasis in emphasis
  const MADDE = /^ {0,3}(?:([-*+])|(\d{1,9})[.)])[ \t]+(.*)$/;
  const CIT = /^(`{3,}|~{3,})[ \t]*[\w+-]*[ \t]*$/;
  const ALINTI = /^ {0,3}>/;
  const BAGLANTI = /\[([^[\]\n]{1,500})\]\([ \t]*([^\s()<>]{1,2000})(?:[ \t]+"[^"\n]{0,200}")?[ \t]*\)/y;
  const OTOMATIK = /<((?:https?:\/\/|mailto:)[^\s<>]{1,2000})>/iy;
  const MUTLAK = /^(?:https?:\/\/|mailto:)/i;
  const KACIS = "\\`*_{}[]()#+-.!>";
  const KELIME = /[\p{L}\p{N}]/u;

  function markdownDugumleri(metin) {
    const kok = document.createDocumentFragment();
    mdBloklar(kok, String(metin ?? "").replace(/\r\n?/g, "\n").split("\n"), 0);
    return kok;
  }

  function mdEl(etiket, ...cocuklar) {
    const el = document.createElement(etiket);
    el.append(...cocuklar);
    return el;
  }

  function mdMadde(satir) {
    const m = MADDE.exec(satir);
    return m && { tur: m[1] ? "ul" : "ol", no: m[2] ? Number(m[2]) : 1, metin: m[3] };
  }

  function mdBlokBaslar(satir) {
    return CIT.test(satir) || ALINTI.test(satir) || Boolean(mdMadde(satir));
  }

  function mdBloklar(ebeveyn, satirlar, derinlik) {
    const kapanmayan = new Set(); // fences with no closing line left
    let i = 0;
    while (i < satirlar.length) {
      const satir = satirlar[i];
      if (!satir.trim()) { i++; continue; }
      const cit = CIT.exec(satir);
      if (cit && !kapanmayan.has(cit[1])) {
        // A fence without its closing line is no code block: its lines are text.
        let j = i + 1;
        while (j < satirlar.length && satirlar[j].trimEnd() !== cit[1]) j++;
        if (j === satirlar.length) kapanmayan.add(cit[1]);
        else {
          ebeveyn.append(mdEl("pre", mdEl("code", satirlar.slice(i + 1, j).join("\n"))));
          i = j + 1;
          continue;
        }
      }
      if (ALINTI.test(satir) && derinlik < EN_DERIN) {
        // A quote runs to the next blank line; its lines may leave out the `>` (lazy lines).
        const ic = [];
        for (; i < satirlar.length && satirlar[i].trim(); i++) ic.push(satirlar[i].replace(/^ {0,3}> ?/, ""));
        const alinti = mdEl("blockquote");
        mdBloklar(alinti, ic, derinlik + 1);
        ebeveyn.append(alinti);
        continue;
      }
      const ilk = mdMadde(satir);
      if (ilk) {
        i = mdListe(ebeveyn, satirlar, i, ilk, derinlik);
        continue;
      }
      const paragraf = [satir];
      for (i++; i < satirlar.length && satirlar[i].trim() && !mdBlokBaslar(satirlar[i]); i++) paragraf.push(satirlar[i]);
      const p = mdEl("p");
      mdSatirIci(p, paragraf.join("\n"), derinlik, false);
      ebeveyn.append(p);
    }
  }

  // Items of one kind (`-`/`*`/`+`, or numbers), with their lazy lines; a blank line between two
  // items keeps the list going, another kind of item starts another list.
  function mdListe(ebeveyn, satirlar, i, ilk, derinlik) {
    const liste = mdEl(ilk.tur);
    if (ilk.tur === "ol" && ilk.no !== 1) liste.setAttribute("start", String(ilk.no));
    let metin = null;
    const bitir = () => {
      if (metin === null) return;
      const li = mdEl("li");
      mdSatirIci(li, metin.join("\n"), derinlik, false);
      liste.append(li);
    };
    while (i < satirlar.length) {
      const satir = satirlar[i];
      if (!satir.trim()) {
        let j = i;
        while (j < satirlar.length && !satirlar[j].trim()) j++;
        const sonraki = j < satirlar.length && mdMadde(satirlar[j]);
        if (!sonraki || sonraki.tur !== ilk.tur) break;
        i = j;
        continue;
      }
      const madde = mdMadde(satir);
      if (madde && madde.tur !== ilk.tur) break;
      if (!madde && (CIT.test(satir) || ALINTI.test(satir))) break;
      if (madde) { bitir(); metin = [madde.metin]; } else metin.push(satir.trim());
      i++;
    }
    bitir();
    ebeveyn.append(liste);
    return i;
  }

  function mdSatirIci(ebeveyn, s, derinlik, baglantida) {
    let yazi = "";
    const kapanissiz = new Set(); // delimiters with no closer left in `s`
    const yaz = () => { if (yazi) { ebeveyn.append(yazi); yazi = ""; } };
    let i = 0;
    while (i < s.length) {
      const c = s[i];
      if (c === "\n") { yaz(); ebeveyn.append(mdEl("br")); i++; continue; }
      if (c === "\\" && i + 1 < s.length && KACIS.includes(s[i + 1])) { yazi += s[i + 1]; i += 2; continue; }
      if (c === "`") {
        let n = 1;
        while (s[i + n] === "`") n++;
        const j = kapanissiz.has("`" + n) ? -1 : mdKodSonu(s, i + n, n);
        if (j < 0) { kapanissiz.add("`" + n); yazi += s.slice(i, i + n); i += n; continue; }
        yaz();
        ebeveyn.append(mdEl("code", s.slice(i + n, j).trim()));
        i = j + n;
        continue;
      }
      if (c === "[" && !baglantida && s[i - 1] !== "!") {
        BAGLANTI.lastIndex = i;
        const m = BAGLANTI.exec(s);
        if (m) {
          yaz();
          ebeveyn.append(mdBaglanti(m[2], m[1], derinlik));
          i = BAGLANTI.lastIndex;
          continue;
        }
      }
      if (c === "<" && !baglantida) {
        OTOMATIK.lastIndex = i;
        const m = OTOMATIK.exec(s);
        if (m) {
          yaz();
          ebeveyn.append(mdBaglanti(m[1], m[1], EN_DERIN));
          i = OTOMATIK.lastIndex;
          continue;
        }
      }
      if ((c === "*" || c === "_") && derinlik < EN_DERIN) {
        const vurgu = mdVurgu(s, i, c, kapanissiz);
        if (vurgu) {
          yaz();
          const el = mdEl(vurgu.etiket);
          mdSatirIci(el, s.slice(vurgu.bas, vurgu.son), derinlik + 1, baglantida);
          ebeveyn.append(el);
          i = vurgu.son + vurgu.uzunluk;
          continue;
        }
      }
      yazi += c;
      i++;
    }
    yaz();
  }

  function mdKodSonu(s, bas, n) {
    // The next run of exactly `n` backticks.
    for (let j = s.indexOf("`".repeat(n), bas); j >= 0; j = s.indexOf("`".repeat(n), j + 1)) {
      let k = j;
      while (s[k] === "`") k++;
      if (k - j === n) return j;
      j = k;
    }
    return -1;
  }

  function mdBaglanti(adres, metin, derinlik) {
    // Any other scheme (javascript:, data:, a relative address) leaves the text without a link.
    const el = mdEl(MUTLAK.test(adres) ? "a" : "span");
    if (el.tagName === "A") {
      el.href = adres;
      el.title = adres;
      el.target = "_blank";
      el.rel = "noopener noreferrer nofollow";
    }
    mdSatirIci(el, metin, derinlik, true);
    return el;
  }

  // `**x**` / `__x__` strong, `*x*` / `_x_` em: an opener is followed by a non-space, a closer
  // preceded by one; `_` never opens or closes inside a word (snake_case stays as typed).
  function mdVurgu(s, i, c, kapanissiz) {
    if (c === "_" && i > 0 && KELIME.test(s[i - 1])) return null;
    const uzunluk = s[i + 1] === c ? 2 : 1;
    const isaret = c.repeat(uzunluk);
    const bas = i + uzunluk;
    if (kapanissiz.has(isaret) || bas >= s.length || /\s/.test(s[bas])) return null;
    const son = mdKapanis(s, bas + 1, c, uzunluk);
    if (son < 0) { kapanissiz.add(isaret); return null; }
    return { etiket: uzunluk === 2 ? "strong" : "em", bas, son, uzunluk };
  }

  function mdKapanis(s, bas, c, uzunluk) {
    for (let j = s.indexOf(c, bas); j >= 0; j = s.indexOf(c, j + 1)) {
      let k = j;
      while (s[k] === c) k++;
      const run = k - j;
      // A run of three closes both: `***x***` is strong around em, `*a **b***` em around strong.
      const aday = run === 3 ? k - uzunluk : run === uzunluk ? j : -1;
      if (aday >= bas && !/\s/.test(s[aday - 1]) && !(c === "_" && k < s.length && KELIME.test(s[k]))) return aday;
      j = k - 1;
    }
    return -1;
  }
  // --- /bicim.js ---
  // A search snippet marks the matches with tags; keep the marks, turn everything else to text.
  function vurguluMetin(snippet) {
    const govde = new DOMParser().parseFromString(String(snippet || ""), "text/html").body;
    return Array.from(govde.childNodes).map((n) =>
      n.nodeType === 1 && /^(MARK|B|STRONG|EM)$/.test(n.tagName) ? h("mark", { text: n.textContent }) : D.createTextNode(n.textContent));
  }

  // --- styles ------------------------------------------------------------------------------
  const CSS = `
:host{all:initial!important;display:block!important;position:fixed!important;z-index:2147483000!important;inset:auto 0 0 auto!important;width:0!important;height:0!important;visibility:visible!important;opacity:1!important;transform:none!important;pointer-events:none!important}
*,*::before,*::after{box-sizing:border-box}
.k{--r:#2563eb;--ry:#fff;--m:#0f172a;--g:#64748b;--c:#e2e8f0;--z:#f8fafc;font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,"Noto Sans","DejaVu Sans",sans-serif;color:var(--m);-webkit-font-smoothing:antialiased;pointer-events:none}
.k *{pointer-events:auto}
[hidden]{display:none!important}
button,input,textarea,select{font:inherit;color:inherit}
button{cursor:pointer;border:0;background:none;padding:0}
:focus-visible{outline:3px solid color-mix(in srgb,var(--r) 55%,transparent);outline-offset:2px}
svg{fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;stroke-linejoin:round;flex:none}
.l{position:fixed;right:20px;bottom:20px;width:60px;height:60px;border-radius:50%;background:var(--r);color:var(--ry);display:grid;place-items:center;box-shadow:0 10px 28px rgba(15,23,42,.28),0 2px 6px rgba(15,23,42,.18);transition:transform .18s ease}
.l:hover{transform:scale(1.06)}
.rz{position:absolute;top:-3px;right:-3px;min-width:22px;height:22px;padding:0 6px;border-radius:11px;background:#ef4444;color:#fff;font-size:12px;font-weight:700;display:grid;place-items:center;border:2px solid #fff}
.p{position:fixed;right:20px;bottom:92px;width:384px;height:min(640px,calc(100vh - 112px));background:#fff;border-radius:18px;box-shadow:0 24px 64px rgba(15,23,42,.28),0 4px 14px rgba(15,23,42,.12);display:flex;flex-direction:column;overflow:hidden;animation:g .2s ease}
@keyframes g{from{opacity:0;transform:translateY(12px)}}
@media (prefers-reduced-motion:reduce){.p{animation:none}.l{transition:none}}
.u{background:var(--r);color:var(--ry);padding:16px 16px 14px;display:flex;gap:12px;align-items:center}
.u h2{margin:0;font-size:16px;font-weight:700;line-height:1.3}
.u p{margin:2px 0 0;font-size:12.5px;opacity:.88;display:flex;align-items:center;gap:6px}
.nk{width:8px;height:8px;border-radius:50%;background:#4ade80;box-shadow:0 0 0 2px rgba(255,255,255,.35)}
.nk.x{background:#cbd5e1}
.lg{width:40px;height:40px;border-radius:12px;background:rgba(255,255,255,.2);display:grid;place-items:center;font-weight:700;font-size:17px;overflow:hidden;flex:none}
.lg img{width:100%;height:100%;object-fit:cover}
.u .ib{margin-left:auto;color:inherit}
.ib{width:34px;height:34px;border-radius:10px;display:grid;place-items:center;color:var(--g)}
.ib:hover{background:rgba(127,127,127,.14)}
.sk{display:flex;border-bottom:1px solid var(--c);background:#fff}
.sk button{flex:1;padding:11px 4px 10px;font-weight:600;font-size:13.5px;color:var(--g);display:flex;gap:6px;align-items:center;justify-content:center;border-bottom:2px solid transparent}
.sk button[aria-selected=true]{color:var(--r);border-bottom-color:var(--r)}
.uy{margin:10px 12px 0;padding:10px 12px;border-radius:12px;background:#fffbeb;border:1px solid #fde68a;color:#92400e;font-size:13px;display:flex;gap:8px;align-items:flex-start}
.b{flex:1;display:flex;flex-direction:column;min-height:0;background:var(--z)}
.ic{flex:1;overflow-y:auto;padding:16px;display:flex;flex-direction:column;gap:10px}
.hg{background:#fff;border:1px solid var(--c);border-radius:14px;padding:16px}
.hg h3{margin:0 0 4px;font-size:17px}
.hg p{margin:0;color:var(--g)}
.bl{background:#eff6ff;border:1px solid #bfdbfe;color:#1e3a8a;border-radius:12px;padding:12px;font-size:13px;display:grid;gap:8px}
form{display:grid;gap:10px}
label{display:grid;gap:4px;font-size:12.5px;font-weight:600;color:#334155}
label small{font-weight:400;color:var(--g)}
input,textarea,select{font-weight:400;width:100%;border:1px solid #cbd5e1;border-radius:10px;padding:9px 11px;background:#fff;font-size:14px}
textarea{resize:vertical;min-height:76px}
input:focus,textarea:focus,select:focus{outline:none;border-color:var(--r);box-shadow:0 0 0 3px color-mix(in srgb,var(--r) 22%,transparent)}
[aria-invalid=true]{border-color:#ef4444}
.ah{color:#b91c1c;font-weight:500;font-size:12px}
.d{background:var(--r);color:var(--ry);border-radius:10px;padding:10px 14px;font-weight:600;display:inline-flex;gap:8px;align-items:center;justify-content:center}
.d:hover{filter:brightness(1.07)}
.d:disabled{opacity:.6;cursor:default}
.d2{border:1px solid var(--c);background:#fff;color:var(--m);border-radius:10px;padding:8px 12px;font-weight:600;display:inline-flex;gap:6px;align-items:center}
.d2:hover{background:#f1f5f9}
.ic>.d2{align-self:flex-start}
.fr{display:flex;align-items:center;gap:10px;font-weight:400;color:var(--g);min-width:0}
.fs{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.fd:focus-within .d2{outline:3px solid color-mix(in srgb,var(--r) 55%,transparent);outline-offset:2px}
.ln{color:var(--r);font-weight:600;font-size:13px}
.ds{display:flex;align-items:center;gap:8px;padding:8px 12px;border-bottom:1px solid var(--c);background:#fff;font-size:12.5px;color:var(--g)}
.ds span{flex:1}
.ds.w{background:color-mix(in srgb,var(--r) 9%,#fff);color:var(--m)}
.ds.w span::before{content:"";display:inline-block;width:8px;height:8px;border-radius:50%;background:var(--r);margin-right:8px;animation:n 1.4s ease-in-out infinite}
@keyframes n{50%{opacity:.25}}
.ds .d2{padding:5px 10px;font-size:12.5px}
.ms{flex:1;overflow-y:auto;padding:14px 12px;display:flex;flex-direction:column;gap:8px}
.m{max-width:82%;display:grid;gap:3px}
.m .bb{padding:9px 12px;border-radius:16px;white-space:pre-wrap;overflow-wrap:anywhere;background:#fff;border:1px solid var(--c);border-bottom-left-radius:5px}
.m.z{align-self:flex-end}
.m.z .bb{background:var(--r);color:var(--ry);border:0;border-bottom-left-radius:16px;border-bottom-right-radius:5px}
.m .zm{font-size:11px;color:var(--g);padding:0 4px}
.m .oa{font-weight:600;display:flex;align-items:center;gap:6px}
.av{width:22px;height:22px;border-radius:50%;object-fit:cover;flex:none}
.m.z .zm{text-align:right}
.m.z.ok .zm::after{content:" ✓✓"}
.yn{padding:2px 14px;font-size:12px;color:var(--g);font-style:italic}
.m.s{align-self:center;max-width:92%}
.m.s .bb{background:transparent;border:0;color:var(--g);font-size:12.5px;text-align:center;padding:2px}
.m.s.oto{align-self:flex-start;max-width:82%}
.m.s.oto .bb{background:#fff;border:1px solid var(--c);border-bottom-left-radius:5px;color:inherit;font-size:inherit;text-align:left;padding:9px 12px}
.ek{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin-top:6px;padding:6px 8px;border-radius:8px;background:rgba(127,127,127,.12);color:inherit;text-decoration:none;font-size:12.5px}
.ek img{max-width:100%;max-height:140px;border-radius:6px;display:block;flex-basis:100%;object-fit:contain;background:#fff}
.y{border-top:1px solid var(--c);background:#fff;padding:10px}
.y form{grid-template-columns:auto 1fr auto;align-items:end;gap:6px}
.y textarea{min-height:42px;max-height:120px;resize:none;border-radius:12px}
.y .d{width:42px;height:42px;padding:0;border-radius:12px}
.b.db{outline:2px dashed var(--r);outline-offset:-6px}
.el{grid-column:1/-1;display:grid;gap:4px}
.ec{display:flex;gap:6px;align-items:center;font-size:12.5px;background:#f1f5f9;border-radius:8px;padding:4px 6px 4px 10px}
.ec span{flex:1;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.ec .ib{width:26px;height:26px}
.pn{background:#fff;border:1px solid var(--c);border-radius:14px;padding:16px;text-align:center;display:grid;gap:10px;margin:4px 0}
.pn h3{margin:0;font-size:15px}
.yz{display:flex;justify-content:center;gap:4px}
.yz button{color:#cbd5e1;width:38px;height:38px;display:grid;place-items:center;border-radius:8px}
.yz button.on{color:#f59e0b}
.yz button.on svg{fill:currentColor}
.yz button:hover{color:#fbbf24}
.tl{display:grid;gap:8px;list-style:none;margin:0;padding:0}
.tl button,.tl a{width:100%;text-align:left;background:#fff;border:1px solid var(--c);border-radius:12px;padding:11px 12px;display:grid;gap:3px;color:inherit;text-decoration:none}
.tl button:hover{border-color:color-mix(in srgb,var(--r) 45%,#fff)}
.tl strong{font-size:14px}
.tl small{color:var(--g);font-size:12px}
.tl mark{background:#fef08a;color:inherit;border-radius:3px;padding:0 1px}
.ch{display:inline-block;font-size:11px;font-weight:700;border-radius:999px;padding:1px 8px;background:#e2e8f0;color:#334155;justify-self:start}
.ch.acik{background:#dbeafe;color:#1d4ed8}.ch.beklemede{background:#fef3c7;color:#92400e}.ch.cozuldu{background:#dcfce7;color:#166534}
.st{display:flex;justify-content:space-between;align-items:center;gap:8px}
.st h3{margin:0;font-size:15px}
.ar{position:relative}
.ar svg{position:absolute;left:11px;top:50%;transform:translateY(-50%);color:var(--g)}
.ar input{padding-left:36px;border-radius:12px}
.bs{font-size:12px;font-weight:700;text-transform:uppercase;letter-spacing:.04em;color:var(--g);margin:4px 2px 0}
.ms.ta{padding:0;overflow:visible}
.m .bb.md{white-space:normal}
.md>*{margin:6px 0 0}.md>:first-child{margin-top:0}
.md ul,.md ol{padding-left:20px}
.md blockquote{padding-left:8px;border-left:3px solid currentColor;opacity:.9}
.md code{font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:rgba(127,127,127,.16);border-radius:4px;padding:0 3px}
.md pre{white-space:pre-wrap;background:rgba(127,127,127,.16);border-radius:8px;padding:6px 8px}
.md pre code{background:transparent;padding:0}
.md a{color:inherit;text-decoration:underline}
.mk{margin-top:10px;background:#fff;border:1px solid var(--c);border-radius:14px;padding:16px;overflow-wrap:anywhere}
.mk h3{margin:0 0 8px;font-size:18px;line-height:1.3}
.mk img{max-width:100%;height:auto}
.mk a{color:var(--r)}
.mk pre{overflow-x:auto;background:#f1f5f9;padding:8px;border-radius:8px}
.bos{color:var(--g);text-align:center;padding:18px 8px}
.kp{position:fixed;right:20px;bottom:92px;width:300px;background:#fff;border-radius:16px;box-shadow:0 16px 44px rgba(15,23,42,.25);overflow:hidden;animation:g .25s ease}
.kp img{width:100%;height:128px;object-fit:cover;display:block}
.kp div{padding:14px 16px 16px;display:grid;gap:6px}
.kp h3{margin:0;font-size:15px;padding-right:24px}
.kp p{margin:0;color:var(--g);font-size:13px}
.kp .ib{position:absolute;top:8px;right:8px;background:rgba(255,255,255,.92)}
.kp .d{justify-self:start;text-decoration:none;margin-top:4px;font-size:13px;padding:8px 12px}
.ft{text-align:center;font-size:11px;color:#94a3b8;padding:6px;background:#fff;border-top:1px solid var(--c)}
.k.sol .l,.k.sol .p,.k.sol .kp{right:auto;left:20px}
@media (max-width:480px){.k .p,.k.sol .p{inset:0;width:auto;height:auto;border-radius:0}.k.a .l{display:none}}
.gz{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
`;

  // --- skeleton ------------------------------------------------------------------------------
  const ev = D.createElement("supportdesk-widget");
  const golge = ev.attachShadow({ mode: "open" });
  const kok = h("div", { class: "k", lang: dil });
  // A constructed sheet is not an inline <style>, so a host page whose CSP forbids inline
  // styles still gets a styled widget; older browsers get the <style> element.
  try {
    const sayfa = new CSSStyleSheet();
    sayfa.replaceSync(CSS);
    golge.adoptedStyleSheets = [sayfa];
  } catch (e) {
    golge.append(h("style", { text: CSS }));
  }
  golge.append(kok);

  const rozet = h("span", { class: "rz", hidden: true, "aria-hidden": "true" });
  const baslatici = h("button", { class: "l", type: "button", "aria-label": t("ac"), "aria-expanded": "false", "aria-controls": "sd-panel", onclick: () => (S.acik ? kapat() : ac()) }, ikon("sohbet", 28), rozet);
  const logo = h("div", { class: "lg", "aria-hidden": "true", text: "?" });
  const firmaAdi = h("h2", { id: "sd-baslik", text: t("baslik") });
  const nokta = h("span", { class: "nk" });
  const durumYazi = h("span", { text: t("cevrimici") });
  const uyari = h("div", { class: "uy", role: "alert", hidden: true });
  const sekmeler = {};
  const sekmeAdlari = {};
  const govdeler = {};
  const sekmeCubugu = h("div", { class: "sk", role: "tablist", "aria-label": t("baslik") });
  for (const [ad, ik] of [["sohbet", "sohbet"], ["talepler", "talep"], ["yardim", "kitap"]]) {
    sekmeAdlari[ad] = h("span", { text: t(ad) });
    sekmeler[ad] = h("button", { role: "tab", type: "button", id: `sd-t-${ad}`, "aria-controls": `sd-g-${ad}`, "aria-selected": "false", tabindex: "-1", onclick: () => sekmeSec(ad, true) }, ikon(ik, 16), sekmeAdlari[ad]);
    govdeler[ad] = h("section", { class: "b", role: "tabpanel", id: `sd-g-${ad}`, "aria-labelledby": `sd-t-${ad}`, hidden: true });
    sekmeCubugu.append(sekmeler[ad]);
  }
  sekmeCubugu.addEventListener("keydown", (e) => {
    const adlar = Object.keys(sekmeler);
    const i = adlar.indexOf(S.sekme);
    const j = e.key === "ArrowRight" ? i + 1 : e.key === "ArrowLeft" ? i - 1 : e.key === "Home" ? 0 : e.key === "End" ? adlar.length - 1 : null;
    if (j === null) return;
    e.preventDefault();
    sekmeSec(adlar[(j + adlar.length) % adlar.length], true);
  });
  const kucult = h("button", { class: "ib", type: "button", "aria-label": t("kucult"), onclick: () => kapat() }, ikon("asagi", 22));
  const altYazi = h("div", { class: "ft", text: t("guc") });
  const panel = h("div", { class: "p", id: "sd-panel", role: "dialog", "aria-labelledby": "sd-baslik", hidden: true },
    h("div", { class: "u" }, logo, h("div", null, firmaAdi, h("p", null, nokta, durumYazi)), kucult),
    sekmeCubugu, uyari, Object.values(govdeler), altYazi);
  const kampanyaYeri = h("div", { hidden: true });
  // Launcher before the panel: Tab from the launcher enters the panel it opened.
  kok.append(kampanyaYeri, baslatici, panel);
  // Escape closes from anywhere in the widget, and from the page body when focus fell there
  // (a button disabled mid-request drops focus to <body>).
  D.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && S.acik && (e.target === ev || e.target === D.body)) kapat();
  });

  function tak() { (D.body || D.documentElement).append(ev); }
  if (D.body) tak(); else D.addEventListener("DOMContentLoaded", tak);

  // --- calm errors -----------------------------------------------------------------------------
  let uyariZamanlayici = null;
  function uyariGoster(metin, sure) {
    clearTimeout(uyariZamanlayici);
    bosalt(uyari, ikon("uyari", 18), h("span", { text: metin }));
    uyari.hidden = false;
    if (sure) uyariZamanlayici = setTimeout(() => { if (!S.durdu) uyari.hidden = true; }, sure);
  }
  const uyariGizle = () => { if (!S.durdu) uyari.hidden = true; };
  const alanMetni = (e) => Object.values(e.alanlar || {}).flat().join(" ");
  function hataGoster(e) {
    if (!(e instanceof ApiHatasi)) return uyariGoster(t("sunucu"), 8000);
    uyariGoster((e.durum === 400 && alanMetni(e)) || e.message, e.durum === 0 || e.durum >= 500 ? 0 : 8000);
  }
  function durdur() {
    if (S.durdu) return;
    S.durdu = true;
    clearTimeout(pollZamanlayici);
    canliKapat(); // canli
    sekmeCubugu.hidden = true;
    for (const g of Object.values(govdeler)) g.hidden = true;
    kampanyaYeri.hidden = true;
    uyariGoster(t("kullanilamaz"));
    hazirCoz.red(new ApiHatasi(403, "ORIGIN_IZINSIZ", t("kullanilamaz")));
  }
  // Field errors from a 400 go next to their inputs.
  function alanHatalari(form, e) {
    for (const el of form.querySelectorAll(".ah")) el.remove();
    for (const el of form.querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
    if (!(e instanceof ApiHatasi) || !e.alanlar) return hataGoster(e);
    let yer = false;
    for (const [ad, metin] of Object.entries(e.alanlar)) {
      const girdi = form.querySelector(`[name="${ad}"]`);
      if (!girdi) continue;
      yer = true;
      girdi.setAttribute("aria-invalid", "true");
      girdi.closest("label").append(h("span", { class: "ah", text: Array.isArray(metin) ? metin.join(" ") : String(metin) }));
    }
    uyariGoster(yer ? t("alanlar") : alanMetni(e) || e.message, 8000);
  }
  async function mesgul(dugme, is) {
    dugme.disabled = true;
    try { return await is(); } finally { dugme.disabled = false; }
  }

  // --- open / close / tabs ---------------------------------------------------------------------
  // `odakla` false: the portal's preview opens without taking the focus from the page around it.
  function ac(odakla = true) {
    S.acik = true;
    kok.classList.add("a");
    panel.hidden = false;
    kampanyaYeri.hidden = true;
    baslatici.setAttribute("aria-expanded", "true");
    baslatici.setAttribute("aria-label", t("kapat"));
    bosalt(baslatici, ikon("kapat", 26), rozet);
    sekmeSec(S.sekme, false);
    if (S.sekme === "sohbet") okundu();
    const ilk = S.durdu ? panel.querySelector("button") : odakYeri();
    if (odakla !== false) (ilk || sekmeler[S.sekme]).focus();
    if (S.oturum) pollPlanla(0);
  }
  // Where opening puts the focus (issue 39): an open chat's composer; else the first empty field of
  // the form on screen (the message, when name and e-mail are filled in); else the first control.
  function odakYeri() {
    const govde = govdeler[S.sekme];
    if (S.sekme === "sohbet" && yaziKutusu && yaziKutusu.isConnected && !yazmaAlani.hidden) return yaziKutusu;
    const alanlar = [...govde.querySelectorAll("form input:not([type=file]), form textarea")];
    return alanlar.find((a) => !a.value) || alanlar[0] || govde.querySelector("input, textarea, button");
  }
  function kapat() {
    S.acik = false;
    kok.classList.remove("a");
    panel.hidden = true;
    baslatici.setAttribute("aria-expanded", "false");
    baslatici.setAttribute("aria-label", t("ac"));
    bosalt(baslatici, ikon("sohbet", 28), rozet);
    baslatici.focus();
  }
  function sekmeSec(ad, odakla) {
    S.sekme = ad;
    for (const [k, b] of Object.entries(sekmeler)) {
      const secili = k === ad;
      b.setAttribute("aria-selected", String(secili));
      b.tabIndex = secili ? 0 : -1;
      govdeler[k].hidden = !secili || S.durdu;
    }
    if (odakla) sekmeler[ad].focus();
    if (ad === "sohbet") okundu();
    if (ad === "talepler" && !govdeler.talepler.firstChild) talepListesi();
    if (ad === "yardim" && !govdeler.yardim.firstChild) yardimEkrani();
  }
  function okundu() {
    if (!S.acik || S.sekme !== "sohbet" || D.hidden) return;
    S.okunmamis = 0;
    rozetGuncelle();
    canliOkundu(); // canli
  }
  function rozetGuncelle() {
    rozet.hidden = S.okunmamis === 0;
    rozet.textContent = S.okunmamis > 9 ? "9+" : String(S.okunmamis);
    baslatici.setAttribute("aria-label", (S.acik ? t("kapat") : t("ac")) + (S.okunmamis ? ` (${t("okunmamis", { n: S.okunmamis })})` : ""));
  }

  // --- chat --------------------------------------------------------------------------------------
  const durumCubugu = h("div", { class: "ds", role: "status" });
  const mesajListesi = h("div", { class: "ms", role: "log", "aria-live": "polite", "aria-label": t("sohbet") });
  const yazmaAlani = h("div", { class: "y" });
  const dosyaGirdisi = h("input", { type: "file", multiple: true, class: "gz", tabindex: "-1", "aria-hidden": "true", accept: "image/png,image/jpeg,image/gif,image/webp,application/pdf,text/plain" });

  let cevrimdisiNotu = null;
  let yaziKutusu = null; // the open chat's composer
  // CONTRACT 22: "which department?" before a chat or a ticket starts, when `widget/init` lists
  // teams (`ekipler`). Drawn hidden with the forms and filled once init answers (`ekiplerAyarla`).
  const ekipSecicileri = [];
  function ekipSecici() {
    const secim = h("select", { name: "ekip_id" });
    const etiket = h("label", { class: "ek-ekip", hidden: true }, t("ekip"), secim);
    ekipSecicileri.push(etiket);
    ekipSeciciDoldur(etiket);
    return etiket;
  }
  function ekipSeciciDoldur(etiket) {
    const secim = etiket.querySelector("select");
    const onceki = secim.value;
    bosalt(secim, h("option", { value: "", text: t("ekipSec") }), ...(S.ekipler || []).map((e) => h("option", { value: String(e.id), text: e.ad })));
    secim.value = onceki;
    etiket.hidden = !(S.ekipler && S.ekipler.length);
  }
  function ekiplerAyarla(ekipler) {
    S.ekipler = Array.isArray(ekipler) ? ekipler : [];
    for (const etiket of ekipSecicileri.splice(0)) if (etiket.isConnected) { ekipSeciciDoldur(etiket); ekipSecicileri.push(etiket); }
  }
  function ekipSecimi(govde, v) {
    if (v.ekip_id) govde.ekip_id = Number(v.ekip_id);
  }
  function sohbetBaslangici() {
    clearTimeout(pollZamanlayici);
    const form = h("form", { novalidate: true },
      ekipSecici(),
      h("label", null, h("span", null, t("ad"), " ", h("small", { text: t("istege") })), h("input", { name: "ad", autocomplete: "name", maxlength: "100", value: S.profil.ad || "" })),
      h("label", null, h("span", null, t("email"), " ", h("small", { text: t("istege") })), h("input", { name: "email", type: "email", autocomplete: "email", maxlength: "254", value: S.profil.email || "" })),
      h("label", null, t("mesaj"), h("textarea", { name: "mesaj", required: true, maxlength: "5000", rows: "3" })),
      h("button", { class: "d", type: "submit" }, ikon("gonder", 18), t("baslat")));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const v = Object.fromEntries(new FormData(form));
      mesgul(form.querySelector("button[type=submit]"), async () => {
        try {
          const govde = { ad: v.ad.trim(), email: v.email.trim(), mesaj: v.mesaj.trim() };
          for (const k of ["ad", "email", "mesaj"]) if (!govde[k]) delete govde[k];
          ekipSecimi(govde, v);
          const d = await api("POST", "/widget/chat/start", govde);
          if (d.mesai) mesaiAyarla(d.mesai);
          profilHatirla(govde);
          S.eposta = govde.email || S.eposta;
          uyariGizle();
          sohbetAc(d.oturum, true);
        } catch (err) { alanHatalari(form, err); }
      });
    });
    // Always drawn, shown while nobody is online: `widget/init` answering later must not redraw
    // the form (and lose what the visitor is typing), only show or hide this note.
    const bilgi = h("div", { class: "bl", hidden: !kapali() }, h("span", { text: t("kapaliSecenek") }),
      h("button", { class: "d2", type: "button", onclick: () => { sekmeSec("talepler", false); talepFormu(); } }, ikon("talep", 16), t("talepBirak")));
    bosalt(govdeler.sohbet, h("div", { class: "ic" },
      h("div", { class: "hg" }, h("h3", { text: t("hosgeldin") }), h("p", { class: "kr", text: karsilamaMetni() })), bilgi, form));
    cevrimdisiNotu = bilgi;
  }

  function sohbetAc(oturum, yeni) {
    S.oturum = oturum;
    S.bitirSor = false;
    S.sonMesajId = null;
    S.mesajIdleri.clear();
    S.ekler = [];
    S.operatorOkunan = 0;
    okunanAyarla(oturum && oturum.operator_son_okunan);
    bosalt(mesajListesi);
    const ekle2 = h("button", { class: "ib", type: "button", "aria-label": t("dosyaEkle"), onclick: () => dosyaGirdisi.click() }, ikon("ek", 20));
    const metin = yaziKutusu = h("textarea", { name: "icerik", rows: "1", maxlength: "5000", placeholder: (kapaliBekliyor() ? t("yazKapali") : t("yaz")), "aria-label": t("mesaj") });
    const ekListesi = h("div", { class: "el", hidden: true });
    const gonderDugmesi = h("button", { class: "d", type: "submit", "aria-label": t("gonder") }, ikon("gonder", 18));
    const form = h("form", null, ekListesi, ekle2, metin, gonderDugmesi);
    metin.addEventListener("input", canliYaziyor); // canli
    metin.addEventListener("keydown", (e) => { if (e.key === "Enter" && !e.shiftKey && !e.isComposing) { e.preventDefault(); form.requestSubmit(); } });
    // Files chosen, dropped on the conversation or pasted (a screenshot) into the box are staged,
    // several at once, each removable, and uploaded only on Send (issue 39: a second file never
    // silently replaces the first, and nothing is uploaded that is not sent).
    const ekleriCiz = (yuklenen) => {
      bosalt(ekListesi, S.ekler.map((dosya) => h("div", { class: "ec" }, ikon("ek", 14),
        h("span", { text: `${dosya === yuklenen ? t("yukleniyor") + " " : ""}${dosya.name} · ${boyutYaz(dosya.size)}` }),
        h("button", { class: "ib", type: "button", "aria-label": t("ekiKaldir", { ad: dosya.name }), disabled: Boolean(yuklenen),
          onclick: () => { S.ekler = S.ekler.filter((x) => x !== dosya); ekleriCiz(); metin.focus(); } }, ikon("kapat", 14)))));
      ekListesi.hidden = !S.ekler.length;
    };
    const ekSec = (dosyalar) => {
      for (const dosya of Array.from(dosyalar || [])) {
        if (dosya.size > MAX_DOSYA) hataGoster(new ApiHatasi(413, "DOSYA_COK_BUYUK", t("buyuk")));
        else if (S.ekler.length < EN_COK_EK) S.ekler.push(dosya);
      }
      ekleriCiz();
    };
    dosyaGirdisi.onchange = () => { const dosyalar = [...dosyaGirdisi.files]; dosyaGirdisi.value = ""; ekSec(dosyalar); };
    metin.addEventListener("paste", (e) => {
      const dosyalar = e.clipboardData && e.clipboardData.files;
      if (dosyalar && dosyalar.length) { e.preventDefault(); ekSec(dosyalar); }
    });
    const dosyaVar = (e) => e.dataTransfer && [...e.dataTransfer.types].includes("Files");
    govdeler.sohbet.ondragover = (e) => { if (dosyaVar(e)) { e.preventDefault(); govdeler.sohbet.classList.add("db"); } };
    govdeler.sohbet.ondragleave = (e) => { if (!govdeler.sohbet.contains(e.relatedTarget)) govdeler.sohbet.classList.remove("db"); };
    govdeler.sohbet.ondrop = (e) => {
      govdeler.sohbet.classList.remove("db");
      if (!dosyaVar(e) || !S.oturum || S.oturum.durum === "kapandi") return;
      e.preventDefault();
      ekSec(e.dataTransfer.files);
    };
    const mesajGonder = async (icerik, ekId) => {
      const govde = { oturum_id: S.oturum.id, icerik };
      if (ekId) govde.ek_id = ekId;
      const d = await api("POST", "/widget/chat/message", govde);
      // Shown at once, in id order, but the cursor stays: a line written just before it
      // (an operator's) whose frame is still on its way comes with the next read.
      mesajlariIsle([d.mesaj], false, true);
    };
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const icerik = metin.value.trim();
      if (!icerik && !S.ekler.length) return;
      mesgul(gonderDugmesi, async () => {
        try {
          // A message carries one attachment (CONTRACT 3): one message per file, the text with the first.
          if (!S.ekler.length) await mesajGonder(icerik, null);
          let yazi = icerik;
          while (S.ekler.length) {
            const dosya = S.ekler[0];
            ekleriCiz(dosya);
            const ek = await yukle(dosya);
            await mesajGonder(yazi || t("ekMesaji", { ad: ek.ad || dosya.name }), ek.id);
            S.ekler = S.ekler.filter((x) => x !== dosya);
            yazi = "";
            metin.value = "";
          }
          metin.value = "";
          uyariGizle();
        } catch (err) {
          hataGoster(err);
          if (err.durum === 409) mesajlariGetir().catch(() => {});
        }
        ekleriCiz();
      });
      metin.focus();
    });
    bosalt(yazmaAlani, form, dosyaGirdisi);
    yazmaAlani.hidden = false;
    bosalt(govdeler.sohbet, durumCubugu, mesajListesi, canli.not, yazmaAlani);
    durumGuncelle();
    mesajlariGetir(!yeni).catch(hataGoster).finally(() => pollPlanla(aralik()));
    if (S.acik && S.sekme === "sohbet") metin.focus();
  }

  // CONTRACT 15: outside hours (`mesai`) or with nobody reachable, the widget shows the closed
  // text and the ticket offer, never a queue promise.
  // Wave 4: closed says so everywhere at once (header, greeting, composer): never
  // "ekibimiz en kısa sürede yanıtlasın" above an active "Sohbeti başlat" while nobody can answer.
  // A chat an operator has taken is served as any other (its header shows the operator online).
  const kapali = () => !S.mesai.acik || !S.cevrimici;
  const kapaliMetni = (yoksa = t("kimseYok")) => (!S.mesai.acik && S.mesai.mesaj) || yoksa;
  const kapaliBekliyor = () => kapali() && !(S.oturum && S.oturum.durum === "aktif");
  function karsilamaMetni() {
    if (!kapali()) return S.karsilama || t("hosgeldinAlt");
    const acilis = !S.mesai.acik && S.mesai.sonraki_acilis ? " " + t("acilis", { zaman: tarih(S.mesai.sonraki_acilis) }) : "";
    return kapaliMetni(t("kimseYokKisa")) + acilis;
  }
  function mesaiAyarla(m) {
    if (m && typeof m.acik === "boolean") {
      S.mesai = { acik: m.acik, mesaj: typeof m.mesaj === "string" ? m.mesaj : "", sonraki_acilis: m.sonraki_acilis || null };
    }
    cevrimiciAyarla(S.cevrimici);
  }
  function cevrimiciAyarla(deger) {
    S.cevrimici = Boolean(deger);
    const acik = (S.cevrimici && S.mesai.acik) || Boolean(S.oturum && S.oturum.durum === "aktif");
    nokta.classList.toggle("x", !acik);
    durumYazi.textContent = acik ? t("cevrimici") : t("cevrimdisi");
    if (cevrimdisiNotu) cevrimdisiNotu.hidden = !kapali();
    const kr = govdeler.sohbet.querySelector(".hg p.kr");
    if (kr) kr.textContent = karsilamaMetni();
    if (yaziKutusu) yaziKutusu.placeholder = (kapaliBekliyor() ? t("yazKapali") : t("yaz"));
  }
  function durumGuncelle() {
    const o = S.oturum;
    if (!o) return;
    if (o.cevrimici_operator !== undefined) cevrimiciAyarla(o.cevrimici_operator || o.durum === "aktif");
    else cevrimiciAyarla(S.cevrimici);
    const bitir = o.durum !== "kapandi" ? h("button", { class: "d2", type: "button", onclick: () => bitirSor(true) }, t("bitir"))
      : yeniSohbetDugmesi();
    let metin = t("bitti");
    if (o.durum === "bekliyor") metin = kapali() ? kapaliMetni() : o.sira_no ? t("sira", { n: o.sira_no }) : t("bekle");
    else if (o.durum === "aktif") metin = t("bagli");
    durumCubugu.classList.toggle("w", o.durum === "bekliyor");
    // Ending a chat cannot be undone: the bar asks first (no window.confirm, which blocks the
    // host page and cannot be styled).
    if (S.bitirSor && o.durum !== "kapandi") {
      bosalt(durumCubugu, h("span", { text: t("bitirSor") }),
        h("button", { class: "d2", type: "button", onclick: (e) => sohbetiBitir(e.currentTarget) }, t("evetBitir")),
        h("button", { class: "d2", type: "button", onclick: () => bitirSor(false) }, t("vazgec")));
    } else bosalt(durumCubugu, h("span", { text: metin }), bitir);
    ticketOnerisiGuncelle(o);
    if (o.durum === "kapandi") {
      clearTimeout(pollZamanlayici);
      yazmaAlani.hidden = true;
      if (!mesajListesi.querySelector(".pn")) mesajListesi.append(kapanisKarti(o));
      if (!mesajListesi.querySelector(".dk")) mesajListesi.append(dokumKarti());
      mesajListesi.scrollTop = mesajListesi.scrollHeight;
    }
  }

  // `bicimli`: a ticket reply, whose Markdown is formatted; a chat message is plain text (CONTRACT 3).
  function mesajDugumu(m, bicimli) {
    const gonderen = m.gonderen === "ziyaretci" ? "z" : m.gonderen === "sistem" ? "s" : "o";
    const balon = bicimli ? h("div", { class: "bb md" }, markdownDugumleri(m.icerik)) : h("div", { class: "bb", text: m.icerik });
    const ek = m.ek;
    const url = ek && guvenliUrl(ek.url);
    if (url) {
      const resim = /^image\//.test(ek.mime_tipi || "");
      balon.append(h("a", { class: "ek", href: url, target: "_blank", rel: "noopener noreferrer" },
        resim ? h("img", { src: url, alt: ek.ad || "" }) : ikon("ek", 14), h("span", { text: `${ek.ad || ""} · ${boyutYaz(ek.boyut || 0)}` })));
    }
    // The canned response of a rule is a `sistem` message with a name: shown as a reply from that name.
    const oto = gonderen === "s" && Boolean(m.operator_adi);
    const kim = gonderen === "z" ? t("siz") : gonderen === "o" ? (m.operator_adi || t("temsilci")) : oto ? t("otomatikYanit") : "";
    return h("div", { class: `m ${gonderen}${oto ? " oto" : ""}`, "data-id": m.id },
      operatorEtiketi(m), h("span", { class: "gz", text: kim ? kim + ":" : "" }), balon,
      (gonderen !== "s" || oto) && h("span", { class: "zm", text: saat(m.zaman) }));
  }

  // ✓✓ on the visitor's messages an operator has read: from its `okundu` frame, and from the
  // chat's `operator_son_okunan` (kept by the server, so a reload keeps them). Only forward.
  function okunanAyarla(id) {
    if (typeof id === "number" && id > S.operatorOkunan) S.operatorOkunan = id;
    if (!S.operatorOkunan) return;
    for (const el of mesajListesi.querySelectorAll(".m.z:not(.ok)")) if (+el.dataset.id <= S.operatorOkunan) el.classList.add("ok");
  }

  // `imlecSabit`: a pushed message (canli) is shown but does not move the `sonra` cursor, so the
  // next read still fetches anything committed before it that the socket did not bring.
  function mesajlariIsle(mesajlar, gecmis, imlecSabit) {
    let yeniGelen = 0;
    for (const m of mesajlar || []) {
      if (!m || S.mesajIdleri.has(m.id)) continue;
      S.mesajIdleri.add(m.id);
      if (!imlecSabit && (S.sonMesajId === null || m.id > S.sonMesajId)) S.sonMesajId = m.id;
      const dugum = mesajDugumu(m);
      const puanYeri = mesajListesi.querySelector(".pn");
      mesajListesi.insertBefore(dugum, sonrakiMesaj(m.id) || puanYeri);
      if (m.gonderen !== "ziyaretci" && !gecmis) yeniGelen++;
    }
    okunanAyarla();
    if (yeniGelen) {
      S.okunmamis += yeniGelen;
      okundu();
      rozetGuncelle();
    }
    mesajListesi.scrollTop = mesajListesi.scrollHeight;
  }

  // The first shown line with a larger id than `id` (null: none): every line sits in id order,
  // which is the chat's stored order, whichever way (read, frame, own send) it came.
  function sonrakiMesaj(id) {
    const satirlar = mesajListesi.querySelectorAll(".m[data-id]");
    const son = satirlar[satirlar.length - 1];
    if (!son || +son.dataset.id < id) return null;
    return [...satirlar].find((x) => +x.dataset.id > id) || null;
  }

  async function mesajlariGetir(gecmis) {
    // A page holds at most 50 messages; a long history (or a long absence) follows `sonraki`
    // at once, asking again with `sonra` (bounded, so a runaway answer cannot loop forever).
    for (let sayfa = 0; sayfa < 20 && S.oturum; sayfa++) {
      const sorgu = { oturum_id: S.oturum.id };
      if (S.sonMesajId !== null) sorgu.sonra = S.sonMesajId;
      const d = await api("GET", "/widget/chat/messages", null, sorgu);
      mesajlariIsle(d.mesajlar, gecmis);
      const mesaiDegisti = d.mesai && d.mesai.acik !== S.mesai.acik;
      if (d.mesai) mesaiAyarla(d.mesai);
      if (d.oturum && S.oturum && d.oturum.id === S.oturum.id) {
        okunanAyarla(d.oturum.operator_son_okunan);
        const degisti = mesaiDegisti || ["durum", "sira_no", "cevrimici_operator", "ticket_onerisi"].some((k) => d.oturum[k] !== S.oturum[k]);
        S.oturum = { ...S.oturum, ...d.oturum };
        if (degisti) durumGuncelle();
      }
      if (!d.sonraki || !(d.mesajlar || []).length) return;
    }
  }

  function bitirSor(sor) {
    S.bitirSor = sor;
    durumGuncelle();
    durumCubugu.querySelector("button:last-child").focus();
  }
  async function sohbetiBitir(dugme) {
    S.bitirSor = false;
    await mesgul(dugme, async () => {
      try {
        const d = await api("POST", "/widget/chat/end", { oturum_id: S.oturum.id });
        S.oturum = { ...S.oturum, ...(d.oturum || { durum: "kapandi" }) };
      } catch (err) {
        if (err.durum !== 409) return hataGoster(err);
        S.oturum = { ...S.oturum, durum: "kapandi" };
      }
      await mesajlariGetir().catch(() => {});
      durumGuncelle();
    });
  }

  function puanKarti() {
    S.puan = 0;
    const yildizlar = [1, 2, 3, 4, 5].map((n) => h("button", { type: "button", "aria-label": t("yildiz", { n }), "aria-pressed": "false", onclick: () => sec(n) }, ikon("yildiz", 28)));
    const sec = (n) => {
      S.puan = n;
      yildizlar.forEach((b, i) => { b.classList.toggle("on", i < n); b.setAttribute("aria-pressed", String(i < n)); });
    };
    const yorum = h("textarea", { name: "yorum", rows: "2", maxlength: "1000" });
    const form = h("form", null, h("div", { class: "yz", role: "group", "aria-label": t("puanla") }, yildizlar),
      h("label", null, t("yorum"), yorum), h("button", { class: "d", type: "submit" }, t("puanGonder")));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      if (!S.puan) return uyariGoster(t("puanSec"), 5000);
      mesgul(form.querySelector("button[type=submit]"), async () => {
        try {
          await api("POST", "/widget/chat/rate", { oturum_id: S.oturum.id, puan: S.puan, yorum: yorum.value.trim() });
        } catch (err) {
          if (err.durum !== 409) return alanHatalari(form, err);
        }
        uyariGizle();
        const kart = tesekkurKarti();
        form.closest(".pn").replaceWith(kart);
        kart.querySelector("button").focus();
      });
    });
    return h("div", { class: "pn" }, h("h3", { text: t("puanla") }), form);
  }
  // "Sohbet dökümünü e-postayla gönder" once a chat has ended (POST /widget/chat/transcript,
  // CONTRACT 14); the address is the one the visitor gave at chat start or in identify().
  function dokumKarti() {
    const girdi = h("input", { name: "email", type: "email", autocomplete: "email", maxlength: "254", value: S.eposta || S.profil.email || "" });
    const form = h("form", null, h("label", null, t("email"), girdi), h("button", { class: "d2", type: "submit" }, t("dokum")));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      mesgul(form.querySelector("button"), async () => {
        try {
          await api("POST", "/widget/chat/transcript", { oturum_id: S.oturum.id, email: girdi.value.trim() });
          form.replaceWith(h("p", { text: t("dokumGitti") }));
        } catch (err) { alanHatalari(form, err); }
      });
    });
    return h("div", { class: "pn dk" }, form);
  }
  function tesekkurKarti() {
    return h("div", { class: "pn" }, h("h3", { text: t("tesekkur") }),
      h("button", { class: "d", type: "button", onclick: () => { S.oturum = null; sohbetBaslangici(); } }, t("yeniSohbet")));
  }

  // --- issue 13 (daily use): operator names, the last chat after a reload, a remembered name and
  // e-mail, and the offer to turn a chat nobody can answer into a ticket ---------------------------
  // The operator's name, with the avatar set in `/portal/hesap` (issue 39) when it has one; on chat
  // messages and ticket replies alike.
  function operatorEtiketi(m) {
    if (m.gonderen !== "operator" || !m.operator_adi) return null;
    const avatar = guvenliUrl(m.operator_avatar);
    const resim = avatar && h("img", { class: "av", src: avatar, alt: "" });
    if (resim) resim.onerror = () => resim.remove();
    return h("span", { class: "zm oa", "aria-hidden": "true" }, resim, m.operator_adi);
  }
  // Rating only for a chat an operator served; one nobody took (e.g. turned into a ticket) just
  // offers a new chat.
  function kapanisKarti(o) {
    if (!o.kabul_zamani && !o.puan) return h("div", { class: "pn" }, h("h3", { text: t("bitti") }), yeniSohbetDugmesi());
    return o.puan ? tesekkurKarti() : puanKarti();
  }
  function yeniSohbetDugmesi() {
    return h("button", { class: "d2", type: "button", onclick: () => { S.oturum = null; sohbetBaslangici(); } }, t("yeniSohbet"));
  }
  // A chat that ended within a day comes back after a reload, to read and (still) rate; never over
  // a chat the visitor has already opened or is starting.
  function sonOturumuGoster(oturum) {
    if (!oturum || S.oturum || oturum.durum !== "kapandi") return;
    const form = govdeler.sohbet.querySelector("form");
    if (form && form.mesaj && form.mesaj.value.trim()) return;
    sohbetAc(oturum, false);
  }
  // Name and e-mail typed once are kept per tenant (same key prefix as the visitor id); what the
  // site passes to identify() takes their place.
  function hatirlananProfil() {
    try {
      const p = JSON.parse(depo.al(onek + "profil") || "{}");
      return { ad: typeof p.ad === "string" ? p.ad : "", email: typeof p.email === "string" ? p.email : "" };
    } catch (e) { return {}; }
  }
  function profilHatirla(govde) {
    const p = { ...hatirlananProfil() };
    for (const k of ["ad", "email"]) if (govde[k]) p[k] = govde[k];
    depo.yaz(onek + "profil", JSON.stringify(p));
    S.profil = { ...S.profil, ...Object.fromEntries(Object.entries(p).filter(([, v]) => v)) };
  }
  let oneriKarti = null;
  function ticketOnerisiGuncelle(o) {
    const goster = Boolean(o && (o.ticket_onerisi || kapali()) && o.durum === "bekliyor");
    if (!goster) { if (oneriKarti) { oneriKarti.remove(); oneriKarti = null; } return; }
    if (oneriKarti && oneriKarti.isConnected) return;
    oneriKarti = h("div", { class: "bl", role: "note", "data-oneri": "" }, h("strong", { text: t("oneriBaslik") }),
      h("span", { text: t("oneriAciklama") }),
      h("button", { class: "d2", type: "button", onclick: (e) => sohbetTicketFormu(e.currentTarget) }, ikon("talep", 16), t("oneriDugme")));
    mesajListesi.append(oneriKarti);
    mesajListesi.scrollTop = mesajListesi.scrollHeight;
  }
  async function sohbetTicketFormu(dugme) {
    const oturum = S.oturum;
    let taslak;
    try {
      taslak = (await mesgul(dugme, () => api("GET", "/widget/chat/ticket", null, { oturum_id: oturum.id }))).taslak;
    } catch (err) { return hataGoster(err); }
    const eposta = taslak.email || S.profil.email || "";
    const form = h("form", { novalidate: true },
      h("label", null, t("konu"), h("input", { name: "konu", required: true, maxlength: "200", value: taslak.konu || "" })),
      h("label", null, t("aciklama"), h("textarea", { name: "mesaj", required: true, rows: "8", maxlength: "20000" })),
      h("label", null, h("span", null, t("email"), " ", h("small", { text: t("istege") })), h("input", { name: "email", type: "email", autocomplete: "email", value: eposta })),
      h("button", { class: "d", type: "submit" }, ikon("gonder", 18), t("talepGonder")),
      h("button", { class: "d2", type: "button", onclick: () => sohbetAc(S.oturum, false) }, t("vazgec")));
    form.mesaj.value = taslak.mesaj || "";
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const v = Object.fromEntries(new FormData(form));
      mesgul(form.querySelector("button[type=submit]"), async () => {
        try {
          const govde = { oturum_id: oturum.id, konu: v.konu.trim(), mesaj: v.mesaj.trim(), email: v.email.trim() };
          if (!govde.email) delete govde.email;
          const d = await api("POST", "/widget/chat/ticket", govde);
          profilHatirla(govde);
          uyariGizle();
          sohbetAc(d.oturum, false);
          sekmeSec("talepler", false);
          talepDetayi(d.ticket.id, d.ticket);
        } catch (err) { alanHatalari(form, err); }
      });
    });
    clearTimeout(pollZamanlayici);
    bosalt(govdeler.sohbet, h("div", { class: "ic" }, h("div", { class: "st" }, h("h3", { text: t("oneriBaslik") })), form));
    form.querySelector("input").focus();
  }
  // ==== canli: the widget socket (issue 14, CONTRACT 11) =====================================
  // The socket only pushes (messages, the chat's state, typing, read marks); polling with `sonra`
  // stays the fallback and slows to a heartbeat while the socket is open. After every (re)connect
  // one `sonra` read fills the gap; pushed messages never move that cursor and are shown once
  // (by id), so nothing is missed or shown twice. Refused (4401/4403): polling only. Dropped or
  // blocked: reconnect with backoff and jitter, polling at full pace meanwhile.
  // (its state, `canli`, is declared beside `S`: functions above may run before this block)
  function canliUrl() {
    const u = new URL(API + "/", W.location.href);
    u.protocol = u.protocol === "https:" ? "wss:" : "ws:";
    u.pathname = u.pathname.replace(/\/api\/v1\/$/, "") + "/ws/v1/widget/";
    u.search = String(new URLSearchParams({ api_key: API_KEY, ziyaretci_id: ziyaretciId }));
    return u.href;
  }
  function canliGonder(tip, data) {
    if (canli.acik && canli.ws.readyState === 1) canli.ws.send(JSON.stringify({ tip, data }));
  }
  function canliBaglan() {
    if (S.durdu || canli.ws || !W.WebSocket) return;
    let ws;
    try { ws = new W.WebSocket(canliUrl()); } catch (e) { return canliYeniden(); }
    canli.ws = ws;
    ws.onopen = () => {
      if (token) ws.send(JSON.stringify({ tip: "kimlik", data: { ziyaretci_token: token } }));
      canli.acik = true;
      canli.deneme = 0;
      if (S.oturum) mesajlariGetir().catch(() => {}).finally(() => pollPlanla(aralik()));
      talepOku(); // frames missed while it was down
    };
    ws.onmessage = (e) => { try { canliCerceve(JSON.parse(e.data)); } catch (x) { /* not ours */ } };
    ws.onclose = (e) => {
      const acikti = canli.acik;
      canli.ws = null;
      canli.acik = false;
      if (acikti && S.oturum) pollPlanla(0);
      if (e.code !== 4401 && e.code !== 4403) canliYeniden();
    };
  }
  function canliYeniden() {
    clearTimeout(canli.zaman);
    if (S.durdu) return;
    const ms = Math.min(60000, 1000 * 2 ** canli.deneme++) * (0.5 + Math.random() / 2);
    canli.zaman = setTimeout(canliBaglan, ms);
  }
  function canliKapat() {
    clearTimeout(canli.zaman);
    if (canli.ws) { canli.ws.onclose = null; canli.ws.close(); }
    canli.ws = null;
    canli.acik = false;
  }
  function canliCerceve(c) {
    const d = (c && c.data) || {};
    if (c && c.tip === "ticket_guncellendi") return talepGuncellendi(d.ticket);
    const o = S.oturum;
    if (!o || d.oturum_id !== undefined && d.oturum_id !== o.id) return;
    if (c.tip === "mesaj" && d.mesaj && d.mesaj.oturum_id === o.id) {
      if (d.mesaj.gonderen !== "ziyaretci") canliYaziyorGoster(false);
      canliMesaj(d);
    } else if (c.tip === "oturum" && d.oturum && d.oturum.id === o.id) {
      okunanAyarla(d.oturum.operator_son_okunan);
      S.oturum = { ...o, ...d.oturum };
      durumGuncelle();
    } else if (c.tip === "yaziyor") {
      canliYaziyorGoster(true);
    } else if (c.tip === "okundu") {
      okunanAyarla(d.mesaj_id);
    }
  }
  // Frame order (issue 38): frames of one chat can overtake each other on the way (several web
  // processes publish). Each `mesaj` frame names the message before it as the visitor sees the
  // chat (`onceki_id`): shown at once when that one is shown; else a gap, and one read with
  // `sonra` brings the missing lines and this one, in order (docs/api.md). One read at a time: a
  // gap seen meanwhile asks for one more read after it.
  function canliMesaj(d) {
    const m = d.mesaj;
    if (S.mesajIdleri.has(m.id)) return;
    if (d.onceki_id == null || S.mesajIdleri.has(d.onceki_id)) return mesajlariIsle([m], false, true);
    if (canli.bosluk) { canli.bosluk.tekrar = true; return; }
    const okuma = { tekrar: false };
    canli.bosluk = okuma;
    (async () => {
      try {
        do { okuma.tekrar = false; await mesajlariGetir(); } while (okuma.tekrar);
      } catch (e) { /* the next poll reads from the same cursor */ } finally { canli.bosluk = null; }
    })();
  }
  function canliYaziyorGoster(acik) {
    clearTimeout(canli.notZaman);
    canli.not.hidden = !acik;
    if (acik) canli.notZaman = setTimeout(() => { canli.not.hidden = true; }, 5000);
  }
  function canliYaziyor() {
    const simdi = Date.now();
    if (!S.oturum || simdi - canli.yaziyorSon < 2000) return;
    canli.yaziyorSon = simdi;
    canliGonder("yaziyor", { oturum_id: S.oturum.id });
  }
  function canliOkundu() {
    if (!S.oturum || !S.mesajIdleri.size) return;
    const son = Math.max(...S.mesajIdleri);
    if (son <= canli.okunanSon) return;
    canli.okunanSon = son;
    canliGonder("okundu", { oturum_id: S.oturum.id, mesaj_id: son });
  }
  // ==== /canli ===========================================================================

  // Polling: cheap thanks to `sonra`; slower while the panel is closed, backing off while the
  // tab is hidden, and paced by Retry-After when the service says so.
  let pollZamanlayici = null;
  let gizliAralik = 10000;
  let hataAralik = 0;
  function aralik() {
    if (hataAralik) return hataAralik;
    if (canli.acik) return 30000; // canli: the socket pushes; a slow read still fills any gap
    if (D.hidden) return gizliAralik;
    return S.acik ? 2500 : 6000;
  }
  function pollPlanla(ms) {
    clearTimeout(pollZamanlayici);
    if (!S.oturum || S.oturum.durum === "kapandi" || S.durdu) return;
    pollZamanlayici = setTimeout(poll, ms);
  }
  async function poll() {
    try {
      await mesajlariGetir();
      if (hataAralik) uyariGizle();
      hataAralik = 0;
    } catch (err) {
      if (err.durum === 429) hataAralik = Math.max(err.bekle * 1000, 10000);
      else if (err.durum === 0 || err.durum >= 500) hataAralik = Math.min(Math.max(hataAralik * 2, 4000), 60000);
      if (err.durum !== 404) hataGoster(err);
    }
    if (D.hidden) gizliAralik = Math.min(gizliAralik * 2, 60000);
    pollPlanla(aralik());
  }
  D.addEventListener("visibilitychange", () => {
    if (D.hidden) return;
    gizliAralik = 10000;
    okundu();
    if (S.oturum) pollPlanla(0);
  });

  async function yukle(dosya) {
    if (dosya.size > MAX_DOSYA) throw new ApiHatasi(413, "DOSYA_COK_BUYUK", t("buyuk"));
    const fd = new FormData();
    fd.append("dosya", dosya, dosya.name);
    const d = await api("POST", "/widget/upload", fd);
    return d.dosya;
  }

  // --- tickets -----------------------------------------------------------------------------------
  const durumCipi = (d) => h("span", { class: `ch ${d}`, text: (SOZLUKLER.tr["durum_" + d] ? t("durum_" + d) : d) });
  function geriDugmesi(is) {
    return h("button", { class: "d2", type: "button", onclick: is }, ikon("geri", 16), t("geri"));
  }
  // The ticket on screen (its detail, or the list's rows), so that a `ticket_guncellendi` frame
  // (an operator's reply, a state change: CONTRACT 11) updates it in place: a reply being typed
  // stays as it is.
  const talepEkrani = { detay: null, satirlar: new Map() };
  async function talepListesi() {
    talepEkrani.detay = null;
    talepEkrani.satirlar = new Map();
    const liste = h("ul", { class: "tl", "aria-busy": "true" });
    bosalt(govdeler.talepler, h("div", { class: "ic" },
      h("div", { class: "st" }, h("h3", { text: t("talepler") }), h("button", { class: "d", type: "button", onclick: () => talepFormu() }, ikon("arti", 16), t("yeniTalep"))), liste));
    try {
      const d = await api("GET", "/widget/ticket/list");
      const talepler = d.ticketlar || [];
      liste.removeAttribute("aria-busy");
      if (!talepler.length) return liste.append(h("li", { class: "bos", text: t("talepYok") }));
      for (const tk of talepler) {
        const satir = { tarih: h("small", { text: `#${tk.id} · ${tarih(tk.guncellenme || tk.olusturulma)}` }), cip: durumCipi(tk.durum) };
        talepEkrani.satirlar.set(tk.id, satir);
        liste.append(h("li", null, h("button", { type: "button", onclick: () => talepDetayi(tk.id) },
          h("strong", { text: tk.konu }), satir.tarih, satir.cip)));
      }
    } catch (err) { liste.removeAttribute("aria-busy"); hataGoster(err); }
  }

  function ekSecici(etiket) {
    const secilen = h("span", { class: "fs", text: t("dosyaYok") });
    const girdi = h("input", { type: "file", name: "ekler", multiple: true, class: "gz", accept: dosyaGirdisi.accept,
      onchange: () => { secilen.textContent = Array.from(girdi.files).map((f) => f.name).join(", ") || t("dosyaYok"); } });
    return [h("label", { class: "fd" }, h("span", null, etiket, " ", h("small", { text: t("istege") })),
      h("span", { class: "fr" }, h("span", { class: "d2" }, ikon("ek", 16), t("dosyaSec")), secilen), girdi), girdi];
  }
  async function ekleriYukle(girdi) {
    const idler = [];
    for (const f of Array.from(girdi.files || [])) idler.push((await yukle(f)).id);
    return idler;
  }

  function talepFormu() {
    const [ekEtiketi, ekGirdisi] = ekSecici(t("ekler"));
    const form = h("form", { novalidate: true },
      ekipSecici(),
      h("label", null, t("konu"), h("input", { name: "konu", required: true, maxlength: "200" })),
      h("label", null, t("aciklama"), h("textarea", { name: "mesaj", required: true, rows: "4" })),
      h("label", null, h("span", null, t("ad"), " ", h("small", { text: t("istege") })), h("input", { name: "ad", autocomplete: "name", value: S.profil.ad || "" })),
      h("label", null, h("span", null, t("email"), " ", h("small", { text: t("istege") })), h("input", { name: "email", type: "email", autocomplete: "email", value: S.profil.email || "" })),
      h("label", null, t("oncelik"), h("select", { name: "oncelik" }, ["dusuk", "normal", "yuksek", "acil"].map((k) => {
        const o = h("option", { value: k, text: t("oncelik_" + k) });
        o.selected = k === "normal";
        return o;
      }))),
      ekEtiketi,
      h("button", { class: "d", type: "submit" }, ikon("gonder", 18), t("talepGonder")));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const v = Object.fromEntries(new FormData(form));
      mesgul(form.querySelector("button[type=submit]"), async () => {
        try {
          const govde = { konu: v.konu.trim(), mesaj: v.mesaj.trim(), ad: v.ad.trim(), email: v.email.trim(), oncelik: v.oncelik };
          for (const k of ["ad", "email"]) if (!govde[k]) delete govde[k];
          ekipSecimi(govde, v);
          const idler = await ekleriYukle(ekGirdisi);
          if (idler.length) govde.ek_idleri = idler;
          const d = await api("POST", "/widget/ticket/create", govde);
          profilHatirla(govde);
          uyariGizle();
          talepDetayi(d.ticket.id, d.ticket);
        } catch (err) { alanHatalari(form, err); }
      });
    });
    bosalt(govdeler.talepler, h("div", { class: "ic" },
      h("div", { class: "st" }, h("h3", { text: t("yeniTalep") }), geriDugmesi(talepListesi)), form));
    form.querySelector("input").focus();
  }

  async function talepDetayi(id, hazirTalep) {
    talepEkrani.detay = null;
    talepEkrani.satirlar = new Map();
    const kap = h("div", { class: "ic", "aria-busy": "true" }, geriDugmesi(talepListesi));
    bosalt(govdeler.talepler, kap);
    let tk;
    try {
      tk = (hazirTalep && hazirTalep.yanitlar) ? hazirTalep : (await api("GET", `/widget/ticket/${encodeURIComponent(id)}`)).ticket;
    } catch (err) { kap.removeAttribute("aria-busy"); return hataGoster(err); }
    kap.removeAttribute("aria-busy");
    const akis = h("div", { class: "ms ta", role: "log", "aria-label": tk.konu });
    const ekran = { id: tk.id, kap, akis, cip: durumCipi(tk.durum), yanitlar: new Set(), form: null };
    for (const y of tk.yanitlar || []) yanitEkle(ekran, y);
    ekle(kap, h("div", { class: "st" }, h("h3", { text: tk.konu }), ekran.cip),
      h("small", { class: "zm", text: `#${tk.id} · ${tarih(tk.olusturulma)}` }), akis);
    talepEkrani.detay = ekran;
    talepYoklamaPlanla();
    if (tk.durum === "kapandi") return kap.append(h("div", { class: "bl", text: t("kapaliTalep") }));
    const [ekEtiketi, ekGirdisi] = ekSecici(t("dosyaEkle"));
    const form = h("form", null, h("label", null, t("yanitla"), h("textarea", { name: "icerik", required: true, rows: "3", maxlength: "20000", placeholder: t("yanitYaz") })),
      ekEtiketi, h("button", { class: "d", type: "submit" }, ikon("gonder", 18), t("yanitla")));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      mesgul(form.querySelector("button[type=submit]"), async () => {
        try {
          const govde = { icerik: form.icerik.value.trim() };
          const idler = await ekleriYukle(ekGirdisi);
          if (idler.length) govde.ek_idleri = idler;
          await api("POST", `/widget/ticket/${encodeURIComponent(tk.id)}/reply`, govde);
          uyariGizle();
          talepDetayi(tk.id);
        } catch (err) { alanHatalari(form, err); }
      });
    });
    ekran.form = form;
    kap.append(form);
  }

  function yanitEkle(ekran, y) {
    if (!y || ekran.yanitlar.has(y.id)) return null;
    ekran.yanitlar.add(y.id);
    const dugum = mesajDugumu({ ...y, ek: (y.ekler || [])[0] || null }, true);
    for (const ek of (y.ekler || []).slice(1)) {
      const u = guvenliUrl(ek.url);
      if (u) dugum.querySelector(".bb").append(h("a", { class: "ek", href: u, target: "_blank", rel: "noopener noreferrer" }, ikon("ek", 14), h("span", { text: ek.ad || "" })));
    }
    ekran.akis.append(dugum);
    return dugum;
  }

  // Without the socket (blocked, refused) the open ticket is read again every 10 s while the
  // panel is open and the page visible; the REST detail and the frame have one shape.
  let talepYoklama = null;
  function talepYoklamaPlanla() {
    clearTimeout(talepYoklama);
    const ekran = talepEkrani.detay;
    if (!ekran || S.durdu) return;
    talepYoklama = setTimeout(async () => {
      if (talepEkrani.detay !== ekran || !ekran.kap.isConnected) return;
      if (!canli.acik && S.acik && !D.hidden) await talepOku();
      talepYoklamaPlanla();
    }, 10000);
  }
  async function talepOku() {
    const ekran = talepEkrani.detay;
    if (!ekran || !ekran.kap.isConnected) return;
    try { talepGuncellendi((await api("GET", `/widget/ticket/${encodeURIComponent(ekran.id)}`)).ticket); } catch (e) { /* read again later */ }
  }

  function talepGuncellendi(tk) {
    if (!tk || typeof tk.id !== "number") return;
    const satir = talepEkrani.satirlar.get(tk.id);
    if (satir) {
      satir.cip.replaceWith(satir.cip = durumCipi(tk.durum));
      satir.tarih.textContent = `#${tk.id} · ${tarih(tk.guncellenme || tk.olusturulma)}`;
    }
    const ekran = talepEkrani.detay;
    if (!ekran || ekran.id !== tk.id || !ekran.kap.isConnected) return;
    let son = null;
    for (const y of tk.yanitlar || []) son = yanitEkle(ekran, y) || son;
    ekran.cip.replaceWith(ekran.cip = durumCipi(tk.durum));
    if (tk.durum === "kapandi" && ekran.form) {
      ekran.form.replaceWith(h("div", { class: "bl", text: t("kapaliTalep") }));
      ekran.form = null;
    }
    if (son) son.scrollIntoView({ block: "nearest" });
  }

  // --- help center ----------------------------------------------------------------------------
  let aramaSirasi = 0;
  let aramaZamanlayici = null;
  function yardimEkrani() {
    const girdi = h("input", { type: "search", name: "q", placeholder: t("araIpucu"), "aria-label": t("ara"), autocomplete: "off", maxlength: "200" });
    const sonuclar = h("div", { "aria-live": "polite" });
    girdi.addEventListener("input", () => {
      clearTimeout(aramaZamanlayici);
      aramaZamanlayici = setTimeout(() => ara(girdi.value.trim(), sonuclar), 300);
    });
    bosalt(govdeler.yardim, h("div", { class: "ic" },
      h("div", { class: "ar", role: "search" }, ikon("ara", 18), girdi), sonuclar));
    kategoriler(sonuclar);
  }
  async function kategoriler(yer) {
    const sira = ++aramaSirasi;
    try {
      const d = await api("GET", "/widget/kb/categories");
      if (sira !== aramaSirasi) return;
      const liste = h("ul", { class: "tl" });
      for (const k of d.kategoriler || []) {
        liste.append(h("li", null, h("button", { type: "button", onclick: () => ara("", yer, k) },
          h("strong", { text: k.ad }), k.aciklama && h("small", { text: k.aciklama }), h("small", { text: t("makale", { n: k.makale_sayisi || 0 }) }))));
      }
      bosalt(yer, liste.childElementCount ? [h("p", { class: "bs", text: t("kategoriler") }), liste] : null);
    } catch (err) { hataGoster(err); }
  }
  async function ara(q, yer, kategori) {
    if (!kategori && q.length < 2) return kategoriler(yer);
    const sira = ++aramaSirasi;
    try {
      const sorgu = kategori ? { q, kategori: kategori.slug } : { q };
      const d = await api("GET", "/widget/kb/search", null, sorgu);
      if (sira !== aramaSirasi) return; // an older, slower answer must not overwrite a newer one
      uyariGizle();
      const makaleler = d.makaleler || [];
      const liste = h("ul", { class: "tl" });
      for (const m of makaleler) {
        const parca = m.vurgu || m.ozet;
        liste.append(h("li", null, h("button", { type: "button", onclick: () => makaleAc(m.slug, yer, () => ara(q, yer, kategori)) },
          h("strong", { text: m.baslik }), parca && h("small", null, vurguluMetin(parca)))));
      }
      bosalt(yer, kategori && h("p", { class: "bs", text: kategori.ad }), makaleler.length ? liste : h("p", { class: "bos", text: t("sonucYok") }));
    } catch (err) { hataGoster(err); }
  }
  async function makaleAc(slug, yer, geri) {
    try {
      const { makale } = await api("GET", `/widget/kb/article/${encodeURIComponent(slug)}`);
      const govde = h("div");
      govde.append(temizHtml(makale.icerik));
      const dugme = geriDugmesi(geri);
      bosalt(yer, dugme, h("article", { class: "mk" }, h("h3", { text: makale.baslik }), govde));
      dugme.focus();
    } catch (err) { hataGoster(err); }
  }

  // --- campaigns ------------------------------------------------------------------------------
  async function kampanyaGoster() {
    let gorulen = [];
    try { gorulen = JSON.parse(depo.al(onek + "kampanyalar") || "[]"); } catch (e) { gorulen = []; }
    const d = await api("GET", "/widget/campaigns");
    const k = (d.kampanyalar || []).find((x) => !gorulen.includes(x.id));
    if (!k || S.acik) return;
    // Shown once per visitor: remembered the moment it is drawn, not when it is closed.
    depo.yaz(onek + "kampanyalar", JSON.stringify([...gorulen, k.id].slice(-50)));
    const gorsel = guvenliUrl(k.gorsel_url);
    const hedef = guvenliUrl(k.buton_url);
    const kart = h("div", { class: "kp", role: "complementary", "aria-label": k.baslik },
      gorsel && h("img", { src: gorsel, alt: "" }),
      h("div", null, h("h3", { text: k.baslik }), k.icerik && h("p", { text: k.icerik }),
        hedef && h("a", { class: "d", href: hedef, target: "_blank", rel: "noopener noreferrer", text: k.buton_metni || k.baslik })),
      h("button", { class: "ib", type: "button", "aria-label": t("kapatDugme"), onclick: () => { kampanyaYeri.hidden = true; baslatici.focus(); } }, ikon("kapat", 16)));
    bosalt(kampanyaYeri, kart);
    kampanyaYeri.hidden = false;
  }

  // --- context: pages and errors ----------------------------------------------------------------
  // Context reports go one at a time: a burst of errors never becomes a burst of requests.
  let baglamKuyrugu = Promise.resolve();
  const baglamGonder = (yol, govde) => {
    baglamKuyrugu = baglamKuyrugu.then(() => api("POST", yol, govde)).catch(() => {});
  };
  let sonUrl = null;
  let oncekiUrl = D.referrer;
  let sayfaZamanlayici = null;
  function sayfaBildir() {
    if (!S.hazir || S.durdu || location.href === sonUrl) return;
    if (sonUrl) oncekiUrl = sonUrl;
    sonUrl = location.href;
    baglamGonder("/context/page-info", { url: sonUrl.slice(0, 2000), baslik: D.title.slice(0, 500), referrer: (oncekiUrl || "").slice(0, 2000) });
  }
  // SPA navigation: the title usually changes just after pushState, so wait a moment.
  const sayfaDegisti = () => { clearTimeout(sayfaZamanlayici); sayfaZamanlayici = setTimeout(sayfaBildir, 300); };
  for (const ad of ["pushState", "replaceState"]) {
    const asil = history[ad];
    history[ad] = function () { const r = asil.apply(this, arguments); sayfaDegisti(); return r; };
  }
  W.addEventListener("popstate", sayfaDegisti);
  W.addEventListener("hashchange", sayfaDegisti);

  // Uncaught errors: at most 5 a minute and 20 a page, each distinct error once.
  const hk = { anlar: [], toplam: 0, gorulen: new Set(), bekleyen: [] };
  function hataKaydet(mesaj, kaynak, satir, yigin) {
    const kayit = { mesaj: String(mesaj || "Error").slice(0, 1000), url: location.href.slice(0, 2000), tarayici: navigator.userAgent.slice(0, 500) };
    if (kaynak) kayit.kaynak = String(kaynak).slice(0, 2000);
    if (satir) kayit.satir = Number(satir) || 0;
    if (yigin) kayit.stack = String(yigin).slice(0, 5000);
    const anahtar = `${kayit.mesaj}|${kaynak}|${satir}`;
    if (hk.gorulen.has(anahtar) || S.durdu) return;
    if (!S.hazir) { if (hk.bekleyen.length < 5) hk.bekleyen.push(kayit); hk.gorulen.add(anahtar); return; }
    const simdi = Date.now();
    hk.anlar = hk.anlar.filter((t) => simdi - t < 60000);
    if (hk.anlar.length >= 5 || hk.toplam >= 20) return;
    hk.gorulen.add(anahtar);
    hk.anlar.push(simdi);
    hk.toplam++;
    baglamGonder("/context/error-log", kayit);
  }
  W.addEventListener("error", (e) => {
    if (e instanceof ErrorEvent) hataKaydet(e.message, e.filename, e.lineno, e.error && e.error.stack);
  });
  W.addEventListener("unhandledrejection", (e) => {
    const r = e.reason;
    hataKaydet(r && r.message ? r.message : String(r), "", 0, r && r.stack);
  });

  // --- identity -------------------------------------------------------------------------------
  const hazirCoz = {};
  const hazirOl = new Promise((coz, red) => Object.assign(hazirCoz, { coz, red }));
  hazirOl.catch(() => {});
  function identify(bilgi) {
    if (!bilgi || typeof bilgi !== "object") return Promise.reject(new TypeError("identify({...}) bir nesne bekler"));
    S.profil = { ad: [bilgi.ad, bilgi.soyad].filter(Boolean).join(" "), email: bilgi.email || "" };
    // Fill the start form already on screen, never over what the visitor typed.
    for (const [ad, deger] of Object.entries(S.profil)) {
      const girdi = govdeler.sohbet.querySelector(`input[name=${ad}]`);
      if (girdi && !girdi.value) girdi.value = deger;
    }
    return hazirOl.then(() => api("POST", "/context/customer-info", bilgi)).then((d) => {
      const { _zarf, ...veri } = d;
      return { ...veri, identity_dogrulandi: Boolean(_zarf.identity_dogrulandi ?? veri.identity_dogrulandi) };
    });
  }

  // --- the project's look set in the portal (CONTRACT 13) -----------------------------------
  // Greeting under the welcome title (as text, never HTML) and the launcher's corner. Colour and
  // logo are applied by `basla` as before.
  function gorunumUygula(d) {
    S.karsilama = typeof d.karsilama_metni === "string" ? d.karsilama_metni.trim() : "";
    const p = govdeler.sohbet.querySelector(".hg p.kr");
    if (p) p.textContent = karsilamaMetni();
    kok.classList.toggle("sol", d.baslatici_konum === "sol");
  }
  // The whole look of `widget/init`'s answer (colour, name, logo, greeting, corner); the preview
  // applies it again on every change typed in the portal.
  function gorunumKur(d) {
    if (/^#[0-9a-f]{6}$/i.test(d.renk_primary || "")) {
      const r = d.renk_primary;
      const [x, y, z] = [1, 3, 5].map((i) => parseInt(r.slice(i, i + 2), 16) / 255);
      kok.style.setProperty("--r", r);
      kok.style.setProperty("--ry", 0.2126 * x + 0.7152 * y + 0.0722 * z > 0.6 ? "#0f172a" : "#fff");
    }
    firmaAdi.textContent = d.firma_adi || t("baslik");
    gorunumUygula(d);
    panel.setAttribute("aria-label", `${d.firma_adi || ""} ${t("baslik")}`.trim());
    // The preview also shows a logo chosen but not yet uploaded (the portal page's blob: address).
    const logoUrl = guvenliUrl(d.logo_url) || (ONIZLEME && /^blob:/.test(d.logo_url || "") ? d.logo_url : null);
    const harf = (d.firma_adi || "?").trim().charAt(0).toLocaleUpperCase(dil);
    logo.textContent = harf;
    if (logoUrl) {
      const img = h("img", { src: logoUrl, alt: "" });
      img.onerror = () => { logo.textContent = harf; };
      bosalt(logo, img);
    }
  }

  // --- the portal's look preview (issue 39) ---------------------------------------------------
  // The real widget, opened, in an iframe of `/portal/gorunum`: the tenant's look and the states to
  // show (open, outside hours, nobody online) come in the page (`data-onizleme` names the JSON
  // element); the portal form's unsaved values come by postMessage from the page around it, of
  // this origin only. Nothing goes to the visitor API: reads answer empty, writes are refused.
  const ONIZLEME_OKUMALARI = { "/widget/ticket/list": { ticketlar: [] }, "/widget/kb/categories": { kategoriler: [] },
    "/widget/kb/search": { makaleler: [] } };
  function onizlemeYaniti(yontem, yol) {
    if (yontem === "GET" && ONIZLEME_OKUMALARI[yol]) return Promise.resolve({ ...ONIZLEME_OKUMALARI[yol] });
    return Promise.reject(new ApiHatasi(409, "ONIZLEME", t("onizleme")));
  }
  function onizlemeBasla() {
    let temel = {};
    try { temel = JSON.parse(D.getElementById(ayar.onizleme).textContent); } catch (e) { /* the defaults */ }
    const durumlar = temel.durumlar || {};
    dilKur(temel.dil);
    S.hazir = true;
    const uygula = (d, durum) => {
      const hal = durumlar[durum] || durumlar.acik || {};
      gorunumKur(d);
      mesaiAyarla(hal.mesai);
      cevrimiciAyarla(hal.cevrimici_operator !== false);
    };
    uygula(temel, "acik");
    ac(false);
    W.addEventListener("message", (e) => {
      const m = e.data;
      if (e.source !== W.parent || e.origin !== location.origin || !m || m.tip !== "supportdesk-onizleme") return;
      uygula({ ...temel, ...(m.gorunum || {}) }, m.durum);
    });
    if (W.parent !== W) W.parent.postMessage({ tip: "supportdesk-onizleme-hazir" }, location.origin);
  }

  // --- language (CONTRACT 19) -------------------------------------------------------------------
  // widget/init names the widget's language (`data.dil`). It is kept for the next page load, and
  // when it differs from the one guessed at load, what is on screen is written again in it (a
  // start form keeps what the visitor typed).
  function dilKur(kod) {
    const yeni = dilKodu(kod);
    if (!yeni) return;
    depo.yaz(onek + "dil", yeni);
    if (yeni === dil) return;
    dil = yeni;
    cogul = null;
    kok.lang = dil;
    rozetGuncelle();
    firmaAdi.textContent = t("baslik");
    sekmeCubugu.setAttribute("aria-label", t("baslik"));
    for (const [ad, el] of Object.entries(sekmeAdlari)) el.textContent = t(ad);
    kucult.setAttribute("aria-label", t("kucult"));
    altYazi.textContent = t("guc");
    mesajListesi.setAttribute("aria-label", t("sohbet"));
    canli.not.textContent = t("yaziyor");
    cevrimiciAyarla(S.cevrimici);
    if (S.oturum) sohbetAc(S.oturum, false);
    else {
      const eski = govdeler.sohbet.querySelector("form");
      const degerler = eski ? Object.fromEntries(new FormData(eski)) : {};
      const odak = golge.activeElement && golge.activeElement.name;
      sohbetBaslangici();
      const form = govdeler.sohbet.querySelector("form");
      for (const [ad, deger] of Object.entries(degerler)) if (form[ad] && deger) form[ad].value = deger;
      if (odak && form[odak]) form[odak].focus();
    }
    bosalt(govdeler.talepler);
    bosalt(govdeler.yardim);
    if (S.sekme !== "sohbet") sekmeSec(S.sekme, false);
  }

  // --- start ----------------------------------------------------------------------------------
  // Ask for a token (CONTRACT 2a), with the site's signature when the tag carries one
  // (data-timestamp, data-signature, data-email: spec 5.3, signed on the site's server).
  async function initIste(tekrar) {
    const imza = ayar.signature ? { timestamp: ayar.timestamp, signature: ayar.signature, email: ayar.email || "" } : {};
    // Unsigned, the server binds only an id of our own making (z_ + 32 hex); for any other id
    // (the site's own, or one stored by someone else) asking without a token is refused anyway.
    if (!ayar.signature && !token && !KENDI_KIMLIGI.test(ziyaretciId)) return api("POST", "/widget/init", {});
    try {
      return await api("POST", "/widget/init", { token_iste: true, ...imza });
    } catch (err) {
      if (err.kod !== "ZIYARETCI_TOKEN_GEREKLI") throw err;
      tokenYaz("");
      try {
        return await api("POST", "/widget/init", {}); // a visitor with data from before: unbound, as before
      } catch (e) {
        // Bound, and our own random id's token is gone (revoked): start afresh as a new visitor, once.
        if (e.kod !== "ZIYARETCI_TOKEN_GEREKLI" || siteKimligi || tekrar) throw e;
        yeniKimlik(rastgeleId());
        tokenOku();
        return initIste(true);
      }
    }
  }

  async function basla() {
    if (!API_KEY) return durdur();
    let d;
    try {
      d = await initIste(false);
      if (d.ziyaretci_token) tokenYaz(d.ziyaretci_token);
    } catch (err) {
      if (!S.durdu) {
        uyariGoster(err.message);
        // Network or server trouble at start: try again later, calmly (calls made meanwhile wait
        // for it). Any other refusal is final: the calls waiting for init fail with it, not hang.
        if (err.durum === 0 || err.durum >= 500 || err.durum === 429) setTimeout(basla, Math.max(err.bekle * 1000, 15000));
        else hazirCoz.red(err);
      }
      return;
    }
    uyariGizle();
    dilKur(d.dil);
    S.hazir = true;
    canliBaglan(); // canli
    gorunumKur(d);
    mesaiAyarla(d.mesai);
    ekiplerAyarla(d.ekipler);
    cevrimiciAyarla(d.cevrimici_operator === undefined ? true : d.cevrimici_operator);
    // The start form is already drawn; a chat the visitor started while init was on its way
    // is kept (an answer that left the server earlier must not bring the form back).
    if (d.oturum && d.oturum.durum !== "kapandi" && !S.oturum) sohbetAc(d.oturum, false);
    else sonOturumuGoster(d.son_oturum);
    hazirCoz.coz();
    sayfaBildir();
    for (const k of hk.bekleyen.splice(0)) baglamGonder("/context/error-log", k);
    kampanyaGoster().catch(() => {});
  }

  sekmeSec("sohbet", false);
  S.profil = hatirlananProfil();
  sohbetBaslangici();
  W.SupportDesk = { surum: "1.0.0", identify, open: ac, close: kapat, get ziyaretciId() { return ziyaretciId; } };
  if (ONIZLEME) onizlemeBasla();
  else basla();
})();

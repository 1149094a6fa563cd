// The look page's preview is the widget itself (issue 39), in a frame of this origin
// (/portal/gorunum/onizleme): the form's current, unsaved values and the state chosen to preview
// are posted to it on every change; nothing is saved until "Kaydet".
(function () {
  var cerceve = document.getElementById("gorunum-onizleme");
  if (!cerceve) return;
  var yeniLogo = null;
  function alan(secici) { return document.querySelector(secici); }
  function gorunum() {
    var g = {};
    var renk = alan("[data-gorunum=renk]");
    if (renk && /^#[0-9a-f]{6}$/i.test(renk.value)) g.renk_primary = renk.value;
    var karsilama = alan("[data-gorunum=karsilama]");
    if (karsilama) g.karsilama_metni = karsilama.value;
    var konum = alan("[data-gorunum=konum]:checked");
    if (konum) g.baslatici_konum = konum.value;
    var kaldir = alan("[name=logo_kaldir]");
    // A chosen file is shown before it is uploaded; without one the saved logo stays (the frame has it).
    if (yeniLogo) g.logo_url = yeniLogo;
    else if (kaldir && kaldir.checked) g.logo_url = "";
    return g;
  }
  function gonder() {
    var durum = alan("[name=onizleme_durumu]:checked");
    if (!cerceve.contentWindow) return;
    cerceve.contentWindow.postMessage({ tip: "supportdesk-onizleme", gorunum: gorunum(), durum: durum ? durum.value : "acik" },
      location.origin);
  }
  window.addEventListener("message", function (e) {
    // The widget in the frame says it is ready: it gets the form as it is now (typed before it loaded).
    if (e.source === cerceve.contentWindow && e.origin === location.origin && e.data && e.data.tip === "supportdesk-onizleme-hazir") gonder();
  });
  document.addEventListener("input", gonder);
  document.addEventListener("change", function (e) {
    var girdi = e.target;
    if (girdi.getAttribute("data-gorunum") === "logo") {
      if (yeniLogo) URL.revokeObjectURL(yeniLogo);
      yeniLogo = girdi.files && girdi.files[0] ? URL.createObjectURL(girdi.files[0]) : null;
    }
    gonder();
  });
  gonder();
})();

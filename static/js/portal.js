// Every portal page (templates/base.html). An external file, not an inline script: the portal's
// Content-Security-Policy allows neither inline scripts nor inline style attributes
// (supportdesk/core/csp.py).
(function () {
  // The few words this script writes itself, in the page's language (`<html lang>`, CONTRACT 19);
  // every other word comes from the page (data-onay questions are rendered in its language).
  var METINLER = { tr: { kopyalandi: "Kopyalandı ✓" }, en: { kopyalandi: "Copied ✓" } };
  var M = METINLER[(document.documentElement.lang || "tr").slice(0, 2).toLowerCase()] || METINLER.tr;
  // Copy buttons: data-kopyala names the element whose text is copied.
  document.addEventListener("click", function (e) {
    var btn = e.target.closest("[data-kopyala]");
    if (btn) {
      var kaynak = document.getElementById(btn.getAttribute("data-kopyala"));
      var metin = kaynak.value !== undefined ? kaynak.value : kaynak.textContent;
      var bitti = function () { var eski = btn.textContent; btn.textContent = M.kopyalandi; setTimeout(function () { btn.textContent = eski; }, 1600); };
      if (navigator.clipboard && window.isSecureContext) { navigator.clipboard.writeText(metin).then(bitti); }
      else { var t = document.createElement("textarea"); t.value = metin; document.body.appendChild(t); t.select(); document.execCommand("copy"); t.remove(); bitti(); }
    }
  });
  // Canned-response variables (issue 39.5): a click puts `{name}` at the caret of the text box.
  document.addEventListener("click", function (e) {
    var btn = e.target.closest("[data-degisken-ekle]");
    var alan = btn && document.getElementById(btn.getAttribute("data-hedef"));
    if (!alan) return;
    var bas = alan.selectionStart == null ? alan.value.length : alan.selectionStart;
    alan.setRangeText(btn.getAttribute("data-degisken-ekle"), bas, alan.selectionEnd == null ? bas : alan.selectionEnd, "end");
    alan.focus();
  });
  // A long select with `data-suzgec` (the time zones, issue 39.8) gets a search box above it: typing
  // hides the options (and empty groups) that do not match and selects the first that does.
  // Without this script the select is a plain grouped list.
  var katla = function (t) { return t.toLocaleLowerCase("tr").normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/[_/]/g, " ").replace(/ı/g, "i"); };
  document.querySelectorAll("select[data-suzgec]").forEach(function (secim) {
    var kutu = document.createElement("input");
    kutu.type = "search";
    kutu.className = "suzgec-kutusu";
    kutu.placeholder = secim.getAttribute("data-suzgec");
    kutu.setAttribute("aria-label", secim.getAttribute("data-suzgec"));
    kutu.setAttribute("aria-controls", secim.id);
    kutu.autocomplete = "off";
    var yok = document.createElement("small");
    yok.className = "yardim";
    yok.hidden = true;
    yok.textContent = secim.getAttribute("data-suzgec-yok") || "";
    secim.parentNode.insertBefore(kutu, secim);
    secim.parentNode.insertBefore(yok, secim.nextSibling);
    kutu.addEventListener("input", function () {
      var aranan = katla(kutu.value.trim());
      var ilk = null;
      Array.prototype.forEach.call(secim.options, function (o) {
        var uyar = !aranan || katla(o.value + " " + o.textContent).indexOf(aranan) !== -1;
        o.hidden = !uyar;
        if (uyar && !ilk) ilk = o;
      });
      secim.querySelectorAll("optgroup").forEach(function (g) {
        g.hidden = !Array.prototype.some.call(g.children, function (o) { return !o.hidden; });
      });
      yok.hidden = !!ilk;
      if (aranan && ilk && secim.selectedOptions[0] && secim.selectedOptions[0].hidden) secim.value = ilk.value;
    });
    kutu.addEventListener("keydown", function (e) {
      if (e.key === "Enter") { e.preventDefault(); secim.focus(); }
    });
  });
  // Destructive buttons ask first (data-onay holds the question).
  document.addEventListener("submit", function (e) {
    var btn = e.submitter;
    var soru = (btn && btn.getAttribute("data-onay")) || e.target.getAttribute("data-onay");
    if (soru && !window.confirm(soru)) { e.preventDefault(); }
  });
  // Close the project menu when clicking elsewhere.
  document.addEventListener("click", function (e) {
    document.querySelectorAll("details.menu[open]").forEach(function (d) { if (!d.contains(e.target)) d.removeAttribute("open"); });
  });
  // Colours from data (a project's colour): `data-renk` becomes the `--renk` custom property,
  // set through CSSOM, which the policy allows (a style attribute in the markup it does not).
  var RENK = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
  document.querySelectorAll("[data-renk]").forEach(function (el) {
    var renk = el.getAttribute("data-renk");
    if (RENK.test(renk)) el.style.setProperty("--renk", renk);
  });
})();

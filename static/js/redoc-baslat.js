// The API reference page (ReDoc, /api/v1/redoc/): its init, apart from the page so that the page's
// Content-Security-Policy allows no inline script (supportdesk.core.csp).
(function () {
  var kap = document.getElementById("redoc-container");
  var ayarlar = {};
  try { ayarlar = JSON.parse(kap.getAttribute("data-ayarlar") || "{}"); } catch (e) { ayarlar = {}; }
  Redoc.init(kap.getAttribute("data-sema"), ayarlar, kap);
})();

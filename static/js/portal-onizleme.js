// Live preview of a Markdown field: the server renders and sanitizes it (nh3) exactly as saving
// would, so what is shown here is what the widget will show. A textarea names its preview box
// with data-onizleme; the box names the endpoint with data-url.
(function () {
  document.querySelectorAll("textarea[data-onizleme]").forEach(function (alan) {
    var kutu = document.getElementById(alan.getAttribute("data-onizleme"));
    var form = alan.form;
    if (!kutu || !form) return;
    var zamanlayici = null, sira = 0;
    function guncelle() {
      var benim = ++sira;
      var veri = new FormData();
      veri.append("icerik_markdown", alan.value);
      fetch(kutu.getAttribute("data-url"), {
        method: "POST", body: veri, credentials: "same-origin",
        headers: { "X-CSRFToken": form.querySelector("[name=csrfmiddlewaretoken]").value },
      }).then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
        .then(function (html) { if (benim === sira) kutu.innerHTML = html; })
        .catch(function () { /* keep the last preview */ });
    }
    alan.addEventListener("input", function () { clearTimeout(zamanlayici); zamanlayici = setTimeout(guncelle, 250); });
    guncelle();
  });
})();

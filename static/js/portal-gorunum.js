// Live preview of the widget's look while the form is edited (nothing is saved until "Kaydet").
(function () {
  var kutu = document.getElementById("wg-onizleme");
  if (!kutu) return;
  var karsilama = kutu.querySelector(".wg-karsilama");
  var logo = kutu.querySelector(".wg-logo");
  var kayitli = null;
  document.addEventListener("input", function (e) {
    var ad = e.target.getAttribute("data-gorunum");
    if (ad === "renk" && /^#[0-9a-f]{6}$/i.test(e.target.value)) kutu.style.setProperty("--renk", e.target.value);
    if (ad === "karsilama") karsilama.textContent = e.target.value.trim() || karsilama.getAttribute("data-varsayilan");
  });
  document.addEventListener("change", function (e) {
    var ad = e.target.getAttribute("data-gorunum");
    if (ad === "konum") kutu.classList.toggle("sol", e.target.value === "sol");
    if (ad === "logo" && e.target.files && e.target.files[0]) {
      var img = document.createElement("img");
      img.alt = "";
      img.src = URL.createObjectURL(e.target.files[0]);
      logo.replaceChildren(img);  // the image alone, as the widget shows it
    }
    if (e.target.name === "logo_kaldir") {
      if (e.target.checked) { kayitli = logo.querySelector("img"); logo.replaceChildren(logo.getAttribute("data-harf")); }
      else if (kayitli) logo.replaceChildren(kayitli);
    }
  });
})();

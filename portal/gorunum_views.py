"""`/portal/gorunum`: the widget's colour, logo, greeting and launcher position (CONTRACT 13).
The rules (contrast, logo types and size, SVG sanitizing) are in `tenants.gorunum`."""
from django.contrib import messages
from django.db import transaction
from django.shortcuts import redirect
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.views.decorators.clickjacking import xframe_options_sameorigin

from supportdesk.core.csp import sayfa_csp
from supportdesk.core.dil import dilde, widget_dili
from supportdesk.core.exceptions import ApiHatasi, GecersizIstek
from tenants import gorunum
from tenants.ayarlar import kapali_metni, mesai_verisi

from . import forms
from .ekip_views import form_hatalari
from .views import PortalView

# Framed by `/portal/gorunum` alone: this origin may frame it, no other.
ONIZLEME_CSP = sayfa_csp(frame_ancestors="'self'")


class GorunumView(PortalView):
    yonetim_gerekli = True

    def _sayfa(self, form=None):
        m = self.musteri
        form = form or forms.GorunumForm(initial={"renk_primary": m.renk_primary, "karsilama_metni": m.karsilama_metni,
                                                  "baslatici_konum": m.baslatici_konum})
        return self.sayfa("portal/gorunum.html", form=form, musteri=m)

    def get(self, request):
        return self._sayfa()

    def post(self, request):
        form = forms.GorunumForm(request.POST, request.FILES)
        if not form.is_valid():
            return self._sayfa(form)
        d = form.cleaned_data
        try:
            # All or nothing: a refused logo leaves the colour and greeting as they were.
            with transaction.atomic():
                gorunum.musteri_gorunum_guncelle(musteri=self.musteri, renk_primary=d["renk_primary"],
                                                 karsilama_metni=d["karsilama_metni"],
                                                 baslatici_konum=d["baslatici_konum"])
                if d["logo"]:
                    gorunum.musteri_logo_yukle(musteri=self.musteri, dosya=d["logo"])
                elif d["logo_kaldir"]:
                    gorunum.musteri_logo_kaldir(musteri=self.musteri)
        except GecersizIstek as exc:
            form_hatalari(form, exc)
        except ApiHatasi as exc:  # 413/415 of the logo
            form.add_error("logo", exc.mesaj)
        if form.errors:
            self.musteri.refresh_from_db()
            return self._sayfa(form)
        messages.success(request, _("Görünüm kaydedildi; widget bir sonraki açılışta yeni görünümle gelir."))
        return redirect("portal:gorunum")


def onizleme_durumlari(musteri, dil: str) -> dict:
    """The states the preview can show (CONTRACT 15) as `widget/init` would give them: open with
    someone online, outside hours (the tenant's own closed text, in the widget's language `dil`),
    open with nobody online."""
    acik = {"acik": True, "sonraki_acilis": None, "mesaj": ""}
    with dilde(dil):
        simdi = mesai_verisi(musteri)
        kapali = simdi if not simdi["acik"] else {"acik": False, "sonraki_acilis": None, "mesaj": kapali_metni(musteri)}
    return {"acik": {"mesai": acik, "cevrimici_operator": True},
            "mesai_disi": {"mesai": kapali, "cevrimici_operator": True},
            "kimse_yok": {"mesai": acik, "cevrimici_operator": False}}


@method_decorator(xframe_options_sameorigin, name="dispatch")
class GorunumOnizlemeView(PortalView):
    """`/portal/gorunum/onizleme`: the page `/portal/gorunum` frames, where the real widget
    (static/widget/widget.js, `data-onizleme`) draws the tenant's saved look; the form's unsaved
    values reach it from the page around it (static/js/portal-gorunum.js)."""

    def get(self, request):
        m = self.musteri
        dil = widget_dili(m, request)
        veri = {**gorunum.widget_gorunumu(m, request), "dil": dil, "durumlar": onizleme_durumlari(m, dil)}
        yanit = self.sayfa("portal/gorunum_onizleme.html", veri=veri, dil=dil)
        yanit["Content-Security-Policy"] = ONIZLEME_CSP
        return yanit

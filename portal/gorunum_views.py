"""`/portal/gorunum`: the widget's colour, logo, greeting and launcher position (CONTRACT 13).
The rules (contrast, logo types and size, SVG sanitizing) are in `tenants.gorunum`."""
from django.contrib import messages
from django.db import transaction
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from supportdesk.core.dil import dilde, widget_dili
from supportdesk.core.exceptions import ApiHatasi, GecersizIstek
from tenants import gorunum

from . import forms
from .ekip_views import form_hatalari
from .views import PortalView


class GorunumView(PortalView):
    yonetim_gerekli = True

    def _sayfa(self, form=None):
        m = self.musteri
        form = form or forms.GorunumForm(initial={"renk_primary": m.renk_primary, "karsilama_metni": m.karsilama_metni,
                                                  "baslatici_konum": m.baslatici_konum})
        return self.sayfa("portal/gorunum.html", form=form, musteri=m, logo_adresi=gorunum.logo_adresi(m),
                          metinler=self._widget_metinleri(), harf=gorunum.avatar_harfi(m.firma_adi))

    def _widget_metinleri(self) -> dict:
        """The preview shows the widget's words in the widget's language (CONTRACT 19), whatever the
        member's: the page around it speaks the member's."""
        with dilde(widget_dili(self.musteri, self.request)):
            return {ad: _(str(metin)) for ad, metin in gorunum.WIDGET_METINLERI.items()}

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

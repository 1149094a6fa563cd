"""`/portal/sifremi-unuttum`: Django's own password reset flow in the portal's look (CONTRACT 13).

The request only checks the address's form and the limits, and hands the rest to the background
(`portal.tasks.sifre_sifirlama`: looking the account up, the token, the mail through the outbox,
CONTRACT 14). So an address with an account and one without get the same "sent" page after the
same work: neither the page nor its timing tells which addresses have an account (the lookup and
the mail took 18-39 ms against 6-9 ms; found by an outside probe). Limited per client IP and per
address (`portal.limit`).
"""
from django.conf import settings
from django.contrib.auth import views as auth_views
from django.http import HttpResponseRedirect
from django.urls import reverse_lazy
from django.utils.translation import get_language

from eposta.formlar import SifreSifirlamaFormu
from supportdesk.core import kosucu
from supportdesk.core.dil import dil_kodu, etkinlestir

from . import tasks
from .limit import SifreAdresLimiti, SifreSifirlamaLimiti
from .views import limit_yaniti

SABLON = "portal/sifre_sifirlama/"


class SifremiUnuttumView(auth_views.PasswordResetView):
    form_class = SifreSifirlamaFormu
    template_name = SABLON + "form.html"
    success_url = reverse_lazy("portal:sifre_gonderildi")

    def post(self, request, *args, **kwargs):
        limit = SifreSifirlamaLimiti()
        if not limit.izin_var(request):
            return limit_yaniti(request, self.template_name, self.get_form(), limit)
        return super().post(request, *args, **kwargs)

    def form_valid(self, form):
        email = form.cleaned_data["email"]
        # Over the address's limit: the same page as a sent mail, and nothing handed on.
        if SifreAdresLimiti(email).izin_var(self.request):
            alan, https = self.request.get_host(), self.request.is_secure()
            # The page's language: the mail's for a member who never chose one (CONTRACT 19).
            kosucu.commit_sonrasi(tasks.sifre_sifirlama, email, alan, https, get_language(),
                                  yerel=settings.EPOSTA_YEREL_ISCI)
        return HttpResponseRedirect(self.get_success_url())


class SifreGonderildiView(auth_views.PasswordResetDoneView):
    template_name = SABLON + "gonderildi.html"


class SifreSifirlaView(auth_views.PasswordResetConfirmView):
    template_name = SABLON + "yeni.html"
    success_url = reverse_lazy("portal:sifre_tamam")

    def dispatch(self, *args, **kwargs):
        yanit = super().dispatch(*args, **kwargs)
        # A valid link names its member: the page is rendered in the member's language (CONTRACT 19).
        if getattr(self, "validlink", False) and (kod := dil_kodu(getattr(self.user, "dil", ""))):
            etkinlestir(self.request, kod)
        return yanit


class SifreTamamView(auth_views.PasswordResetCompleteView):
    template_name = SABLON + "tamam.html"

"""`/portal/sifremi-unuttum`: Django's own password reset flow in the portal's look (CONTRACT 13).

The mail goes through the outbox and a Celery task like every other mail (CONTRACT 14), by
`eposta.formlar.SifreSifirlamaFormu`, never inside the request. An unknown address gets the same "sent" page, so the form does not
tell which addresses have an account. Limited per client IP and per address (`portal.limit`).
"""
from django.contrib.auth import views as auth_views
from django.http import HttpResponseRedirect
from django.urls import reverse_lazy

from eposta.formlar import SifreSifirlamaFormu

from .limit import SifreAdresLimiti, SifreSifirlamaLimiti
from .views import limit_yaniti

SABLON = "portal/sifre_sifirlama/"


class SifremiUnuttumView(auth_views.PasswordResetView):
    form_class = SifreSifirlamaFormu
    template_name = SABLON + "form.html"
    email_template_name = SABLON + "eposta.txt"
    html_email_template_name = SABLON + "eposta.html"
    subject_template_name = SABLON + "konu.txt"
    success_url = reverse_lazy("portal:sifre_gonderildi")

    def post(self, request, *args, **kwargs):
        limit = SifreSifirlamaLimiti()
        if not limit.izin_var(request):
            return limit_yaniti(request, self.template_name, self.get_form(), limit)
        return super().post(request, *args, **kwargs)

    def form_valid(self, form):
        if not SifreAdresLimiti(form.cleaned_data["email"]).izin_var(self.request):
            return HttpResponseRedirect(self.get_success_url())  # the same page as a sent mail
        return super().form_valid(form)


class SifreGonderildiView(auth_views.PasswordResetDoneView):
    template_name = SABLON + "gonderildi.html"


class SifreSifirlaView(auth_views.PasswordResetConfirmView):
    template_name = SABLON + "yeni.html"
    success_url = reverse_lazy("portal:sifre_tamam")


class SifreTamamView(auth_views.PasswordResetCompleteView):
    template_name = SABLON + "tamam.html"

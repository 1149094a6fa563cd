"""Django's password reset flow, with its mail sent through the outbox and a Celery task (never
inside the request, CONTRACT 14). The portal's "şifremi unuttum" page uses this form as its
`form_class`; its own `email_template_name` and `subject_template_name` are rendered as Django
renders them, with `sifirlama_url` (the absolute confirmation link) added when the page's
confirmation view is named `portal:sifre_sifirla`. The mail is written in the member's own language
(CONTRACT 19); for a member who chose none, in the active one (the caller's: the asking page's)."""
from django.contrib.auth.forms import PasswordResetForm
from django.template import loader
from django.urls import NoReverseMatch, reverse
from django.utils import translation

from supportdesk.core.dil import dilde, kullanici_dili

from . import services

ONAY_URL_ADI = "portal:sifre_sifirla"


class SifreSifirlamaFormu(PasswordResetForm):
    def send_mail(self, subject_template_name, email_template_name, context, from_email, to_email,
                  html_email_template_name=None):
        try:
            yol = reverse(ONAY_URL_ADI, kwargs={"uidb64": context["uid"], "token": context["token"]})
            context = {**context, "sifirlama_url": f"{context['protocol']}://{context['domain']}{yol}"}
        except NoReverseMatch:
            pass
        with dilde(kullanici_dili(context.get("user"), yedek=translation.get_language())):
            konu = "".join(loader.render_to_string(subject_template_name, context).splitlines())
            metin = loader.render_to_string(email_template_name, context)
            services.sifre_sifirlama_gonder(alici=to_email, konu=konu, metin=metin, url=context.get("sifirlama_url"))

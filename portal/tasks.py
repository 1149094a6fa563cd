"""Thin Celery tasks of the portal's public forms: JSON in, one service call (HOUSE-STYLE 11).

The sign-up and password-reset forms hand their work here, so their answer (and how long it
takes) is the same whether the address has an account or not."""
from celery import shared_task

from . import services


@shared_task(name="portal.kayit_basvurusu", ignore_result=True, acks_late=True)
def kayit_basvurusu(email: str, sifre_ozeti: str, firma_adi: str, ad: str, kok: str, dil: str = "") -> None:
    services.kayit_basvurusu_isle(email=email, sifre_ozeti=sifre_ozeti, firma_adi=firma_adi, ad=ad, kok=kok, dil=dil)


@shared_task(name="portal.sifre_sifirlama", ignore_result=True, acks_late=True)
def sifre_sifirlama(email: str, alan: str, https: bool, dil: str = "") -> None:
    services.sifre_sifirlama_isle(email=email, alan=alan, https=https, dil=dil)

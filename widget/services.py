"""Writes of `widget/init`: visitor tokens (CONTRACT 2a), composed from tenants (the binding) and
context (signed identity), above both."""
from django.db import transaction

from context.imza import imza_dogrula, imza_kullan
from supportdesk.core.exceptions import GecersizIstek
from tenants.models import Musteri
from tenants.ziyaretci import ZiyaretciTokenGerekli, ziyaretci_bagli_mi, ziyaretci_token_gecerli_mi, ziyaretci_token_ver

from .selectors import ziyaretci_verisi_var


@transaction.atomic
def ziyaretci_token_iste(
    *, musteri: Musteri, ziyaretci_id: str, token: str | None, email=None, timestamp=None, signature=None,
    simdi: float | None = None,
) -> str:
    """A token for the visitor (CONTRACT 2a), or `ZiyaretciTokenGerekli`.

    Signed (spec 5.3, the site vouching for the visitor): always, binding the visitor if needed; a
    bound visitor gets a further token (a second device). Unsigned: the presented token again when
    it is valid; a new binding only for a visitor that is not bound and has no data yet, on a
    tenant that does not require signed identity.
    """
    if signature is not None:
        if email is not None and not isinstance(email, str):
            raise GecersizIstek(alanlar={"email": "Metin olmalı."})
        imza_dogrula(api_secret=musteri.api_secret, ziyaretci_id=ziyaretci_id, email=email or "",
                     timestamp=timestamp, signature=signature, simdi=simdi)
        imza_kullan(musteri=musteri, amac="init", signature=signature, timestamp=timestamp,
                    govde={"ziyaretci_id": ziyaretci_id, "email": email or "", "timestamp": str(timestamp)})
        return ziyaretci_token_ver(musteri=musteri, ziyaretci_id=ziyaretci_id, imzali=True)
    if token and ziyaretci_token_gecerli_mi(musteri=musteri, ziyaretci_id=ziyaretci_id, token=token):
        return token
    if ziyaretci_bagli_mi(musteri=musteri, ziyaretci_id=ziyaretci_id) or ziyaretci_verisi_var(
        musteri=musteri, ziyaretci_id=ziyaretci_id
    ):
        raise ZiyaretciTokenGerekli()
    return ziyaretci_token_ver(musteri=musteri, ziyaretci_id=ziyaretci_id, imzali=False)

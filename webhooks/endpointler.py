"""Managing a tenant's webhook endpoints (CONTRACT 7): create, update, delete, the portal's
"send test event" and "send again". The admin, the portal and `webhook_ekle` all call these.
"""
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from supportdesk.core.exceptions import GecersizIstek
from supportdesk.core.olaylar import OLAYLAR, yayinla

from . import kuyruk
from .hedef import webhook_url_dogrula
from .models import Olay, Teslimat, WebhookEndpoint, yeni_gizli_anahtar
from .outbox import teslimatlari_olustur


def _olaylar_dogrula(olaylar) -> list[str]:
    if olaylar is None:
        return []
    if not isinstance(olaylar, (list, tuple)) or not all(isinstance(o, str) for o in olaylar):
        raise GecersizIstek(alanlar={"olaylar": gettext("Olay adlarından oluşan bir liste olmalı.")})
    bilinmeyen = [o for o in olaylar if o not in OLAYLAR]
    if bilinmeyen:
        mesaj = gettext("Bilinmeyen olay: %(bilinmeyen)s. Geçerli olaylar: %(olaylar)s.") % {
            "bilinmeyen": ", ".join(bilinmeyen), "olaylar": ", ".join(OLAYLAR)}
        raise GecersizIstek(alanlar={"olaylar": mesaj})
    return list(dict.fromkeys(olaylar))


def gizli_anahtar_dogrula(gizli_anahtar) -> str:
    if gizli_anahtar is None:
        return yeni_gizli_anahtar()
    if (not isinstance(gizli_anahtar, str) or not 16 <= len(gizli_anahtar) <= 128
            or not gizli_anahtar.isprintable() or any(c.isspace() for c in gizli_anahtar)):
        raise GecersizIstek(alanlar={"gizli_anahtar": gettext("16-128 karakter, boşluksuz olmalı.")})
    return gizli_anahtar


@transaction.atomic
def webhook_endpoint_olustur(
    *, musteri, url: str, olaylar: list[str] | None = None, gizli_anahtar: str | None = None
) -> WebhookEndpoint:
    """Create an endpoint of `musteri`.

    `olaylar`: event names to subscribe to; None or [] means every event. `gizli_anahtar`: the
    signing secret; None generates one (`whsec_...`). Raises GecersizIstek with `alanlar` keyed
    `url`, `olaylar` or `gizli_anahtar` (show them next to the form fields).
    """
    endpoint = WebhookEndpoint(
        musteri=musteri,
        url=webhook_url_dogrula(url),
        olaylar=_olaylar_dogrula(olaylar),
        gizli_anahtar=gizli_anahtar_dogrula(gizli_anahtar),
    )
    endpoint.save()
    _degisti(endpoint, "olusturuldu")
    return endpoint


def _degisti(endpoint: WebhookEndpoint, islem: str, alanlar=None) -> None:
    # The audit log's `webhook_degisti` (CONTRACT 18); the secret itself never goes in an event.
    veri = {"endpoint_id": endpoint.pk, "islem": islem, "url": endpoint.url, "aktif": endpoint.aktif}
    if alanlar:
        veri["alanlar"] = sorted(alanlar)
    yayinla("webhook_degisti", musteri_id=endpoint.musteri_id, veri=veri)


_GUNCELLENEBILIR = {"url", "olaylar", "aktif", "gizli_anahtar"}


@transaction.atomic
def webhook_endpoint_guncelle(*, endpoint: WebhookEndpoint, **fields) -> WebhookEndpoint:
    """Change `url`, `olaylar`, `aktif` and/or `gizli_anahtar` of an endpoint.

    `gizli_anahtar=None` rotates the secret to a new random one. Turning `aktif` back on clears
    the failure streak that disabled it. Same validation errors as webhook_endpoint_olustur.
    Unknown field names are a programming error (TypeError).
    """
    bilinmeyen = set(fields) - _GUNCELLENEBILIR
    if bilinmeyen:
        raise TypeError(f"Güncellenemeyen alan(lar): {sorted(bilinmeyen)}")
    degisen = []
    if "url" in fields:
        endpoint.url = webhook_url_dogrula(fields["url"])
        degisen.append("url")
    if "olaylar" in fields:
        endpoint.olaylar = _olaylar_dogrula(fields["olaylar"])
        degisen.append("olaylar")
    if "gizli_anahtar" in fields:
        endpoint.gizli_anahtar = gizli_anahtar_dogrula(fields["gizli_anahtar"])
        degisen.append("gizli_anahtar")
    if "aktif" in fields:
        if not isinstance(fields["aktif"], bool):
            raise GecersizIstek(alanlar={"aktif": gettext("true ya da false olmalı.")})
        if fields["aktif"] and not endpoint.aktif:
            endpoint.hata_baslangici, endpoint.devre_disi_nedeni, endpoint.devre_disi_zamani = None, "", None
            degisen += ["hata_baslangici", "devre_disi_nedeni", "devre_disi_zamani"]
        endpoint.aktif = fields["aktif"]
        degisen.append("aktif")
    if degisen:
        endpoint.save(update_fields=[*degisen, "guncellenme"])
        _degisti(endpoint, "guncellendi", {a for a in degisen if a in _GUNCELLENEBILIR})
    return endpoint


@transaction.atomic
def webhook_endpoint_sil(*, endpoint: WebhookEndpoint) -> None:
    """Delete an endpoint with its delivery log; queued attempts for it then do nothing."""
    _degisti(endpoint, "silindi")
    endpoint.delete()


@transaction.atomic
def webhook_test_olayi_gonder(*, endpoint: WebhookEndpoint) -> Teslimat:
    """Send a `webhook_test` event to this one endpoint only (even when it is disabled or not
    subscribed to anything), signed like every other event. Returns the delivery to show in
    the log; it is attempted after commit like any other."""
    kayit = Olay.objects.create(
        musteri_id=endpoint.musteri_id,
        olay=Olay.Tip.WEBHOOK_TEST,
        veri={"musteri_id": endpoint.musteri_id, "endpoint_id": endpoint.pk, "mesaj": "SupportDesk test olayı"},  # ceviri: yok
    )
    [teslimat] = teslimatlari_olustur(kayit, [endpoint])
    return teslimat


@transaction.atomic
def teslimat_yeniden_gonder(*, teslimat: Teslimat) -> Teslimat:
    """Start a finished (or waiting) delivery over with a fresh set of attempts ("send again")."""
    Teslimat.objects.filter(pk=teslimat.pk).update(
        durum=Teslimat.Durum.BEKLIYOR, deneme_sayisi=0, sonraki_deneme=timezone.now(),
        kilit_bitis=None, kuyruga_alinma=None, tamamlanma=None,
    )
    teslimat.refresh_from_db()
    endpointler = {teslimat.pk: teslimat.endpoint_id}
    transaction.on_commit(lambda: kuyruk.teslimata_gonder(list(endpointler), endpointler=endpointler))
    return teslimat

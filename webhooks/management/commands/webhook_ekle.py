from supportdesk.core.exceptions import GecersizIstek
from supportdesk.core.komut import ProvisionCommand
from tenants.models import Musteri
from webhooks.endpointler import webhook_endpoint_guncelle, webhook_endpoint_olustur
from webhooks.selectors import webhook_endpoint_list


class Command(ProvisionCommand):
    help = "Bir projeye webhook uç noktası ekler (aynı adres varsa onu günceller)."

    def add_command_arguments(self, parser):
        parser.add_argument("--musteri", required=True, type=int, help="Proje (müşteri) kimliği.")
        parser.add_argument("--url", required=True)
        parser.add_argument("--olay", action="append", default=[], dest="olay",
                            help="Abone olunacak olay; tekrarlanabilir. Verilmezse bütün olaylar.")
        parser.add_argument("--gizli-anahtar", dest="gizli_anahtar", help="İmza anahtarı; verilmezse üretilir.")

    def run(self, *, musteri, url, olay, gizli_anahtar, **_):
        hedef = Musteri.objects.filter(pk=musteri).first()
        if hedef is None:
            raise LookupError(f"Proje bulunamadı: {musteri}")
        try:
            # Idempotent: running it again for the same tenant and URL updates that endpoint.
            mevcut = webhook_endpoint_list(musteri=hedef).filter(url=url.strip()).first()
            if mevcut is None:
                endpoint = webhook_endpoint_olustur(musteri=hedef, url=url, olaylar=olay, gizli_anahtar=gizli_anahtar)
            else:
                alanlar = {"olaylar": olay, "aktif": True}
                if gizli_anahtar is not None:
                    alanlar["gizli_anahtar"] = gizli_anahtar
                endpoint = webhook_endpoint_guncelle(endpoint=mevcut, **alanlar)
        except GecersizIstek as exc:
            raise ValueError("; ".join(f"{k}: {v}" for k, v in (exc.alanlar or {}).items())) from None
        sonuc = {"id": endpoint.pk, "url": endpoint.url, "gizli_anahtar": endpoint.gizli_anahtar}
        return sonuc, f"Webhook uç noktası hazır: #{endpoint.pk} {endpoint.url}"

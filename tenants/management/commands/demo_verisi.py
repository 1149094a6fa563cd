"""Demo data (CONTRACT 10): idempotent; each app adds its own part through `<app>.demo.yukle`."""
import importlib

from django.db import transaction
from django.utils.translation import gettext as _

from supportdesk.core.dil import dilde, kabuk_dili
from supportdesk.core.komut import ProvisionCommand
from tenants.models import Kullanici, Musteri, Uyelik
from tenants.services import kullanici_olustur, musteri_olustur, uyelik_ekle

DEMO_SIFRE = "Destek2026!"
DEMO_MUSTERILER = [
    ("Anadolu Yazılım", "#2563EB"),
    ("Ege Market", "#059669"),
    ("Boğaziçi Bulut", "#7C3AED"),
]
DEMO_OPERATORLER = [
    # (e-mail, display name, rol, tenants by index)
    ("operator@demo.local", "Elif Demir", Uyelik.Rol.OPERATOR, [0, 1]),
    ("sahip@demo.local", "Kerem Aydın", Uyelik.Rol.SAHIP, [0, 1, 2]),
    ("ikinci@demo.local", "Can Yıldız", Uyelik.Rol.OPERATOR, [0]),
]
UYGULAMALAR = ["webhooks", "chat", "tickets", "knowledge", "context"]


class Command(ProvisionCommand):
    help = "Demo projeleri, iki projeli bir operatör, bilgi bankası, kampanyalar ve hazır yanıtlar yükler."

    @transaction.atomic
    def run(self, **_secenekler):
        musteriler = []
        for firma_adi, renk in DEMO_MUSTERILER:
            musteri = Musteri.objects.filter(firma_adi=firma_adi).order_by("id").first()
            if musteri is None:
                musteri = musteri_olustur(firma_adi=firma_adi, trial_gun=14, renk_primary=renk)
            musteriler.append(musteri)
        operatorler = []
        for email, ad, rol, indexes in DEMO_OPERATORLER:
            user = Kullanici.objects.filter(email=email).first() or kullanici_olustur(email=email, sifre=DEMO_SIFRE, ad=ad)
            for i in indexes:
                uyelik_ekle(kullanici=user, musteri=musteriler[i], rol=rol,
                            max_chat_per_tenant=None)
            operatorler.append(user)
        for app in UYGULAMALAR:
            try:
                module = importlib.import_module(f"{app}.demo")
            except ModuleNotFoundError as exc:
                if exc.name != f"{app}.demo":
                    raise
                continue
            module.yukle(musteriler=musteriler, operatorler=operatorler)
        result = {
            "operatorler": [
                {"id": u.id, "email": u.email, "sifre": DEMO_SIFRE,
                 "musteri_idleri": list(u.uyelikler.order_by("sira", "musteri_id").values_list("musteri_id", flat=True))}
                for u in operatorler
            ],
            "musteriler": [
                {"id": m.id, "firma_adi": m.firma_adi, "api_key": m.api_key, "api_secret": m.api_secret}
                for m in musteriler
            ],
        }
        return result, _ozet(result)


def _ozet(result: dict) -> str:
    """The summary `make run` prints, in the shell's language (as the Makefile's own lines)."""
    with dilde(kabuk_dili()):
        lines = [_("Demo verisi hazır.")]
        # Each user by its role (the owner is not an "operatör", issue 13).
        lines += ["  " + _("%(rol)s %(email)s / %(sifre)s projeler %(projeler)s") % {
            "rol": f"{str(Uyelik.Rol(rol).label).lower():9}", "email": u["email"], "sifre": DEMO_SIFRE,
            "projeler": u["musteri_idleri"]}
            for u, (_e, _a, rol, _i) in zip(result["operatorler"], DEMO_OPERATORLER, strict=True)]
        lines += ["  " + _("proje #%(id)s %(firma)s widget anahtarı %(anahtar)s") % {
            "id": m["id"], "firma": m["firma_adi"], "anahtar": m["api_key"]} for m in result["musteriler"]]
        lines.append("  " + _("operatör konsolu: /panel/ (bu operatörlerle giriş yapın)"))
        return "\n".join(lines)

"""The people and the project of the day suite (test_bir_gun_e2e), made in whichever database the
server under test reads: in the test process on PostgreSQL, or in `manage.py shell` on the embedded
default's own SQLite file (`python manage.py shell -c "from portal.tests.bir_gun_kurulum import
yazdir; yazdir()"`), so both runs start from the same rows."""
import json

from supportdesk.testing.factories import TEST_SIFRE, MusteriFactory
from supportdesk.testing.fixtures import operator_yap

# The demo host page (/demo/) embeds the first project of this name (portal.demo_views).
FIRMA = "Anadolu Yazılım"
CAP = 2
# Open round the clock by the weekly calendar (holidays apply to it; "always open", null hours,
# ignores them: tenants.takvim).
HER_GUN = {g: [["00:00", "24:00"]] for g in ("pzt", "sal", "car", "per", "cum", "cmt", "paz")}


def kur() -> dict:
    from chat.services import hazir_yanitlari_yukle
    from tenants.services import kullanici_profil_guncelle
    from tickets.models import SlaPolitikasi

    # Automatic routing; open round the clock until the owner marks today a holiday; the widget
    # follows each visitor's browser (English visitors get English chats and system lines).
    musteri = MusteriFactory(firma_adi=FIRMA, atama_modu="sirayla", calisma_saatleri=HER_GUN, dil="otomatik")
    # A ticket is due a first answer in 10 minutes and warned about 15 minutes before: at once.
    SlaPolitikasi.objects.create(musteri=musteri, aktif=True, mesai_icinde=False, uyari_dk=15,
                                 hedefler={"normal": {"ilk_yanit_dk": 10}})
    hazir_yanitlari_yukle(musteri=musteri, kayitlar=[
        {"kisayol": "/selam", "baslik": "Selamlama",
         "icerik": "Merhaba {ziyaretci_adi}, ben {operator_adi}. Size nasıl yardımcı olabilirim?"},
        {"kisayol": "/kargo", "baslik": "Kargo durumu", "icerik": "Kargonuz bugün teslim edilecek."}])
    kisiler = {}
    for anahtar, email, ad, dil, rol, durum in (
            ("elif", "elif@ornek.com", "Elif Kaya", "tr", "operator", "cevrimici"),
            ("john", "john@ornek.com", "John Smith", "en", "operator", "cevrimici"),
            ("sahip", "selin@ornek.com", "Selin Demir", "tr", "sahip", "cevrimdisi")):
        user = operator_yap(musteri, rol=rol, max_chat=CAP, email=email)
        kullanici_profil_guncelle(kullanici=user, ad=ad, dil=dil)
        user.durum = durum  # what a console sets with its status menu
        user.save(update_fields=["durum"])
        kisiler[anahtar] = {"id": user.id, "email": email, "ad": ad, "sifre": TEST_SIFRE}
    return {"musteri": {"id": musteri.id, "api_key": musteri.api_key, "firma_adi": FIRMA,
                        "saat_dilimi": musteri.saat_dilimi}, **kisiler}


def yazdir() -> None:
    print(json.dumps(kur()))

# ceviri: dosya yok (demo data, Turkish on purpose: CONTRACT 10)
"""Demo data of the chat app (called by `manage.py demo_verisi`): canned responses for every
tenant and a few chats in different states. Idempotent: a second run adds nothing."""
from .models import Oturum
from .services import chat_baslat, chat_kabul_et, chat_operator_mesaj_gonder, hazir_yanitlari_yukle

HAZIR_YANITLAR = [
    {"kisayol": "/selam", "baslik": "Karşılama",
     "icerik": "Merhaba, destek ekibimize hoş geldiniz. Size nasıl yardımcı olabilirim?"},
    {"kisayol": "/bekle", "baslik": "Kısa bekleme", "icerik": "Hemen kontrol ediyorum, lütfen bir dakika bekleyin."},
    {"kisayol": "/fatura", "baslik": "Fatura indirme",
     "icerik": "Faturalarınızı Hesabım > Faturalar sayfasından PDF olarak indirebilirsiniz."},
    {"kisayol": "/sifre", "baslik": "Şifre sıfırlama",
     "icerik": "Giriş sayfasındaki \"Şifremi unuttum\" bağlantısıyla yeni şifre oluşturabilirsiniz."},
    {"kisayol": "/tesekkur", "baslik": "Kapanış", "icerik": "Bizi tercih ettiğiniz için teşekkürler, iyi günler dileriz!"},
]

DEMO_OTURUMLAR = [
    # (tenant index, visitor id, name, first message, accepted by operator index or None)
    (0, "demo-ziyaretci-1", "Ayşe Yılmaz", "Merhaba, faturamı bulamıyorum.", None),
    (1, "demo-ziyaretci-2", "Mehmet Demir", "Siparişim ne zaman kargoya verilir?", None),
    (0, "demo-ziyaretci-3", "Zeynep Kaya", "Şifremi sıfırlayamıyorum.", 0),
]


def yukle(*, musteriler, operatorler) -> None:
    for musteri in musteriler:
        hazir_yanitlari_yukle(musteri=musteri, kayitlar=HAZIR_YANITLAR)
    for index, ziyaretci_id, ad, mesaj, operator_index in DEMO_OTURUMLAR:
        musteri = musteriler[index]
        if Oturum.objects.filter(musteri=musteri, ziyaretci_id=ziyaretci_id).exists():
            continue
        oturum, _ = chat_baslat(musteri=musteri, ziyaretci_id=ziyaretci_id, ad=ad, mesaj=mesaj)
        if operator_index is not None:
            operator = operatorler[operator_index]
            oturum = chat_kabul_et(kullanici=operator, oturum=oturum)
            chat_operator_mesaj_gonder(kullanici=operator, oturum=oturum,
                                       icerik="Merhaba Zeynep Hanım, hemen yardımcı oluyorum.")

# ceviri: dosya yok (demo data, Turkish on purpose: CONTRACT 10)
"""Demo help center (CONTRACT 10): a Turkish knowledge base and a running campaign per tenant.
Idempotent: articles and categories are matched by slug, the campaign by title."""
from datetime import timedelta

from django.utils import timezone

from .ice_aktarma import kb_icerik_yukle

KATEGORILER = [
    {"slug": "hesap", "ad": "Hesap ve Giriş", "aciklama": "Üyelik, şifre ve güvenlik ayarları."},
    {"slug": "odeme", "ad": "Ödeme ve Fatura", "aciklama": "Faturalar, ödeme yöntemleri ve iadeler."},
    {"slug": "siparis", "ad": "Sipariş ve Kargo", "aciklama": "Sipariş takibi, teslimat ve değişim."},
    {"slug": "teknik", "ad": "Teknik Destek", "aciklama": "Uygulama, entegrasyon ve hata çözümleri."},
]

MAKALELER = [
    ("sifre-sifirlama", "hesap", "Şifremi unuttum, nasıl sıfırlarım?",
     "Giriş ekranındaki bağlantı ile yeni şifre belirleyin.",
     "<p>Giriş ekranında <strong>Şifremi unuttum</strong> bağlantısına tıklayın. E-posta adresinize gelen "
     "bağlantı 30 dakika geçerlidir. E-posta gelmediyse gereksiz klasörünü kontrol edin.</p>"),
    ("iki-adimli-dogrulama", "hesap", "İki adımlı doğrulamayı açma",
     "Hesabınızı ek bir kodla koruyun.",
     "<p>Profil &gt; Güvenlik sayfasından iki adımlı doğrulamayı açabilirsiniz. Kimlik doğrulama uygulamanızla "
     "QR kodunu okutun ve üretilen altı haneli kodu girin.</p>"),
    ("e-posta-degistirme", "hesap", "E-posta adresimi nasıl değiştiririm?",
     "Hesap ayarlarından e-posta güncelleme.",
     "<p>Hesap ayarlarında yeni e-posta adresinizi yazın; onay bağlantısına tıkladığınızda değişiklik tamamlanır.</p>"),
    ("fatura-indirme", "odeme", "Faturamı nereden indirebilirim?",
     "Tüm faturalarınız PDF olarak hesabınızda.",
     "<p>Hesabım &gt; <strong>Faturalar</strong> menüsünden geçmiş faturalarınızı PDF olarak indirebilirsiniz. "
     "Kurumsal fatura için vergi numaranızı profilinize ekleyin.</p>"),
    ("odeme-yontemleri", "odeme", "Hangi ödeme yöntemlerini kabul ediyorsunuz?",
     "Kredi kartı, banka kartı ve havale.",
     "<p>Kredi kartı, banka kartı ve havale/EFT ile ödeme yapabilirsiniz. Taksit seçenekleri ödeme sayfasında "
     "gösterilir.</p>"),
    ("iade-kosullari", "odeme", "İade koşulları nelerdir?",
     "14 gün içinde koşulsuz iade hakkı.",
     "<p>Ürünü teslim aldıktan sonra 14 gün içinde iade talebi oluşturabilirsiniz. İade onaylandığında ücret "
     "aynı ödeme yöntemine 3-5 iş günü içinde yansır.</p>"),
    ("kargo-takibi", "siparis", "Kargomu nasıl takip ederim?",
     "Sipariş sayfasındaki takip numarası ile.",
     "<p>Siparişlerim sayfasında her siparişin kargo takip numarası bulunur. Numaraya tıklayarak kargo "
     "firmasının sayfasında teslimat durumunu görebilirsiniz.</p>"),
    ("teslimat-suresi", "siparis", "Teslimat ne kadar sürer?",
     "Türkiye geneline 1-3 iş günü.",
     "<p>Siparişler aynı gün kargoya verilir; teslimat Türkiye geneline 1-3 iş günü sürer. Iğdır, Hakkari gibi "
     "uzak ilçelerde süre bir gün uzayabilir.</p>"),
    ("urun-degisimi", "siparis", "Ürün değişimi nasıl yapılır?",
     "Beden veya renk değişimi için adımlar.",
     "<p>Değişim için Siparişlerim sayfasından <em>Değişim talebi</em> oluşturun, ürünü orijinal ambalajında "
     "kargoya verin. Yeni ürün depoya ulaşınca gönderilir.</p>"),
    ("widget-kurulumu", "teknik", "Destek widget'ını sitenize ekleme",
     "Tek satırlık kod ile kurulum.",
     "<p>Portaldaki Widget sayfasından yerleştirme kodunu kopyalayıp sitenizin &lt;body&gt; etiketinin sonuna "
     "ekleyin. İzinli adresler listesine sitenizin adresini eklemeyi unutmayın.</p>"),
    ("uygulama-hatalari", "teknik", "Uygulama açılmıyor veya hata veriyor",
     "Önbellek temizleme ve güncelleme adımları.",
     "<p>Uygulamayı en son sürüme güncelleyin, tarayıcı önbelleğini temizleyin. Sorun sürerse hata mesajının "
     "ekran görüntüsüyle bir destek talebi açın.</p>"),
    ("fatura-bilgisi-guncelleme", "odeme", "Fatura bilgilerimi güncelleme",
     "Adres ve vergi bilgilerini değiştirme.",
     "<p>Fatura adresinizi ve vergi bilgilerinizi Hesabım &gt; Fatura Bilgileri sayfasından güncelleyebilirsiniz. "
     "Değişiklik sonraki faturalarda geçerli olur.</p>"),
]


def yukle(*, musteriler, operatorler) -> None:
    simdi = timezone.now()
    veri = {
        "kb_kategorileri": [{**k, "sira": i} for i, k in enumerate(KATEGORILER)],
        "kb_makaleleri": [
            {"slug": slug, "kategori_slug": kat, "baslik": baslik, "ozet": ozet, "icerik": icerik, "yayinda": True,
             "sira": i}
            for i, (slug, kat, baslik, ozet, icerik) in enumerate(MAKALELER)
        ],
        "kampanyalar": [{
            "baslik": "Kış kampanyası: yıllık pakette %20 indirim",
            "icerik": "Yıllık pakete geçin, iki ay bizden. Kampanya ay sonuna kadar geçerli.",
            "buton_metni": "Paketleri incele", "buton_url": "https://ornek.com/paketler",
            "baslangic": (simdi - timedelta(days=1)).isoformat(), "bitis": (simdi + timedelta(days=30)).isoformat(),
        }],
    }
    for musteri in musteriler:
        kb_icerik_yukle(musteri=musteri, veri=veri)

"""User-facing messages of the API's errors, kept in one place (tests assert on codes, not on these).

Lazy (CONTRACT 19): each is translated when the error envelope is written, in the request's
language (`supportdesk.core.dil`), never at import. `str()` one before storing or concatenating it.
"""

from django.utils.translation import gettext_lazy as _

GECERSIZ_ISTEK = _("İstek geçersiz. Lütfen alanları kontrol edin.")
GECERSIZ_JSON = _("İstek gövdesi geçerli bir JSON değil.")
GOVDE_NESNE_OLMALI = _("İstek gövdesi bir JSON nesnesi olmalı.")
GOVDE_COK_BUYUK = _("İstek gövdesi izin verilen boyutu aşıyor.")
KIMLIK_GEREKLI = _("Bu işlem için kimlik bilgisi gerekli.")
GECERSIZ_TOKEN = _("Oturum anahtarı geçersiz ya da süresi dolmuş. Lütfen yeniden giriş yapın.")
GECERSIZ_API_ANAHTARI = _("API anahtarı geçersiz.")
GECERSIZ_GIRIS = _("E-posta adresi ya da şifre hatalı.")
GECERSIZ_IMZA = _("Kimlik imzası geçersiz ya da zaman damgası süresi dışında.")
IMZA_GEREKLI = _("Bu proje imzalı kimlik bilgisi istiyor.")
ORIGIN_IZINSIZ = _("Bu adresten yapılan isteklere izin verilmiyor.")
YETKISIZ = _("Bu işlem için yetkiniz yok.")
BULUNAMADI = _("Kayıt bulunamadı.")
DURUM_CAKISMASI = _("Kaydın şu anki durumu bu işleme izin vermiyor.")
CHAT_LIMITI_DOLU = _("Operatörün bu projedeki eşzamanlı sohbet sınırı dolu.")
ZATEN_TICKETA_DONUSTU = _("Bu sohbetten zaten bir destek talebi oluşturuldu.")
DOSYA_COK_BUYUK = _("Dosya izin verilen boyutu aşıyor.")
DESTEKLENMEYEN_DOSYA = _("Bu dosya türü desteklenmiyor.")
LIMIT_ASILDI = _("Çok fazla istek gönderildi. Lütfen biraz sonra tekrar deneyin.")
# A 500: the second only when error reporting (SENTRY_DSN) is on (supportdesk.core.hata_raporu).
SUNUCU_HATASI = _("Beklenmeyen bir hata oluştu. Hata, istek kimliğiyle kaydedildi; lütfen biraz sonra yeniden deneyin.")
SUNUCU_HATASI_BILDIRILDI = _("Beklenmeyen bir hata oluştu. Ekibimiz bilgilendirildi.")
YONTEM_DESTEKLENMIYOR = _("Bu adres bu HTTP yöntemini desteklemiyor.")
KABUL_EDILEMEZ = _("İstenen yanıt biçimi desteklenmiyor.")
DESTEKLENMEYEN_ICERIK_TIPI = _("İstek gövdesinin içerik türü desteklenmiyor; JSON gönderin.")
SERVIS_KULLANILAMIYOR = _("Servis şu anda kullanılamıyor.")
ZIYARETCI_TOKEN_GEREKLI = _("Bu ziyaretçinin verilerine erişmek için geçerli bir ziyaretçi anahtarı gerekli.")
ADRES_COK_UZUN = _("İstek adresi çok uzun.")

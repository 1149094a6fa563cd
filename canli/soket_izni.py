"""Who may open a socket: the same checks as a REST call, run from the socket process (sync code,
called through `database_sync_to_async`)."""
from django.conf import settings
from django.utils.translation import gettext_lazy

from chat.models import Oturum
from supportdesk.core.dil import dil_kodu
from supportdesk.core.girdi import id_coz, ziyaretci_id_dogrula
from supportdesk.core.throttling import oran_coz, pencere_kontrol, widget_limit_anahtari
from tenants import ziyaretci
from tenants.kimlik import operator_tokeni_dogrula
from tenants.models import Kullanici
from tenants.origin import origin_izinli
from tenants.selectors import kullanici_musteri_idleri, musteri_api_key_ile


class Ret(Exception):
    """A refusal: one `hata` frame, then the close code (CONTRACT 11). `mesaj` is lazy: the socket
    words it in its own language when it sends the frame (`_Soket.metin`)."""

    def __init__(self, kapanis: int, kod: str, mesaj: str):
        super().__init__(mesaj)
        self.kapanis, self.kod, self.mesaj = kapanis, kod, mesaj


def widget_musterisi(*, api_key: str, origin: str | None, ip: str):
    """The tenant of a widget socket, checked as a REST widget call is (key, origin whitelist,
    the widget rate limit at connect time)."""
    api_key = (api_key or "").strip()
    musteri = None
    if api_key and len(api_key) <= 128 and api_key.isprintable():
        musteri = musteri_api_key_ile(api_key=api_key)
    if musteri is None:
        raise Ret(4401, "GECERSIZ_API_ANAHTARI", gettext_lazy("API anahtarı geçersiz."))
    if not origin_izinli(musteri.izinli_originler, origin, None):
        raise Ret(4403, "ORIGIN_IZINSIZ", gettext_lazy("Bu site için widget izni yok."))
    oran = oran_coz(settings.WIDGET_RATE_LIMIT)
    # The same budget as the REST widget calls of this key and address (WidgetThrottle's key).
    if oran is not None and not pencere_kontrol(widget_limit_anahtari(musteri.pk, ip), oran)[0]:
        raise Ret(4429, "LIMIT_ASILDI", gettext_lazy("Çok fazla istek; biraz sonra tekrar deneyin."))
    return musteri


def ziyaretci_kimligi(ham) -> str:
    try:
        return ziyaretci_id_dogrula(ham)
    except Exception:  # noqa: BLE001  (GecersizIstek of any shape: an identity refusal)
        raise Ret(4403, "GECERSIZ_ISTEK", gettext_lazy("ziyaretci_id geçersiz.")) from None


def ziyaretci_erisimi_dogrula(*, musteri, ziyaretci_id: str, token: str | None) -> None:
    """CONTRACT 2a for the widget socket, through the same check as every REST widget call: a
    bound visitor (or any visitor of a tenant with `kimlik_dogrulama_zorunlu`) needs its token,
    sent in the `kimlik` frame; refused with 4401 as REST refuses it with 401 (issue 14: "a bound
    visitor without its token 4401"; 4403 stays for the origin and a malformed visitor id)."""
    try:
        ziyaretci.ziyaretci_erisimi_dogrula(musteri=musteri, ziyaretci_id=ziyaretci_id, token=token)
    except ziyaretci.ZiyaretciTokenGerekli:
        mesaj = gettext_lazy("Bu ziyaretçi için geçerli bir ziyaretçi tokenı gerekli.")
        raise Ret(4401, "ZIYARETCI_TOKEN_GEREKLI", mesaj) from None


def operator_kimligi(token) -> tuple[int, list[int], str, str | None]:
    """(user id, tenant ids, token id, the user's chosen language or None) of a `kimlik` frame's JWT;
    4401 when REST would say 401."""
    if not isinstance(token, str) or not token or len(token) > 4096:
        raise Ret(4401, "GECERSIZ_TOKEN", gettext_lazy("Token geçersiz."))
    try:
        user, dogrulanmis = operator_tokeni_dogrula(token)
    except Exception:  # noqa: BLE001  (GecersizToken)
        raise Ret(4401, "GECERSIZ_TOKEN", gettext_lazy("Token geçersiz, süresi dolmuş ya da oturum kapatılmış.")) from None
    return user.pk, kullanici_musteri_idleri(kullanici=user), dogrulanmis.get("jti", ""), dil_kodu(user.dil)


def token_musterileri(token: str) -> list[int] | None:
    """The periodic re-check of an operator socket's token: None when REST would refuse it (401),
    else the user's tenants now (a membership deleted or added, a tenant deactivated since)."""
    try:
        user, _ = operator_tokeni_dogrula(token)
    except Exception:  # noqa: BLE001  (GecersizToken)
        return None
    return kullanici_musteri_idleri(kullanici=user)


def kullanicinin_musterileri(kullanici_id: int) -> list[int]:
    """The tenants of an operator socket's user now (active tenants it is a member of, in `sira` order)."""
    return kullanici_musteri_idleri(kullanici=Kullanici(pk=kullanici_id))


def ziyaretci_oturumu(*, musteri, ziyaretci_id: str, oturum_id) -> Oturum | None:
    """A chat of this visitor (for its `yaziyor` / `okundu` frames), else None."""
    try:
        pk = id_coz(oturum_id)
    except Exception:  # noqa: BLE001
        return None
    return Oturum.objects.ziyaretcinin(musteri=musteri, ziyaretci_id=ziyaretci_id).filter(pk=pk).only(
        "id", "musteri_id", "ziyaretci_id", "durum", "operator_id").first()


def operator_oturumu(*, musteri_idleri: list[int], oturum_id) -> Oturum | None:
    try:
        pk = id_coz(oturum_id)
    except Exception:  # noqa: BLE001
        return None
    return Oturum.objects.kapsamda(musteri_idleri).filter(pk=pk).only(
        "id", "musteri_id", "ziyaretci_id", "durum", "operator_id").first()

"""CONTRACT 19 on the sockets: a `hata` frame's `mesaj` speaks the socket's language. An operator
socket speaks its user's (`Kullanici.dil`), a widget socket its widget's (the tenant's `dil`,
`otomatik`: the visitor's browser); until they are known, the handshake's Accept-Language, else
Turkish. Codes never change."""
import pytest
from websockets.sync.client import connect

from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import operator_yap

from .yardimci import Soket, giris

pytestmark = [pytest.mark.django_db(transaction=True)]


def _soket(url, dil: str | None = None) -> Soket:
    s = Soket.__new__(Soket)
    basliklar = {"Accept-Language": dil} if dil else None
    s.ws = connect(url, additional_headers=basliklar, open_timeout=5, close_timeout=2).__enter__()
    s.alinan, s.bekleyen = [], []
    return s


@pytest.mark.parametrize(("dil", "beklenen"), [("en-US,en;q=0.9", "Invalid API key."), (None, "API anahtarı geçersiz."),
                                               ("de", "API anahtarı geçersiz.")])
def test_refusal_before_the_tenant_is_known_follows_the_handshake(canli_sunucu, dil, beklenen):
    gelen, kod = _soket(f"{canli_sunucu.ws_url}/ws/v1/widget/?api_key=pk_yok&ziyaretci_id=z", dil).kapanis()
    assert kod == 4401 and gelen[0]["data"] == {"kod": "GECERSIZ_API_ANAHTARI", "mesaj": beklenen}, gelen


@pytest.mark.parametrize(("musteri_dili", "tarayici", "beklenen"), [
    ("en", None, "Unknown or unexpected frame."),  # the widget's language, whatever the browser says
    ("tr", "en", "Bilinmeyen ya da beklenmeyen çerçeve."),
    ("otomatik", "en-GB", "Unknown or unexpected frame."),  # `otomatik`: the visitor's browser
    ("otomatik", "de", "Bilinmeyen ya da beklenmeyen çerçeve."),
])
def test_widget_socket_speaks_its_widgets_language(canli_sunucu, musteri_dili, tarayici, beklenen):
    musteri = MusteriFactory(dil=musteri_dili)
    s = _soket(f"{canli_sunucu.ws_url}/ws/v1/widget/?api_key={musteri.api_key}&ziyaretci_id=z1", tarayici)
    s.gonder("ping")
    assert s.bekle("hata") == {"kod": "GECERSIZ_ISTEK", "mesaj": beklenen}
    s.kapat()


@pytest.mark.parametrize(("kullanici_dili", "tarayici", "beklenen"), [
    ("en", None, "Unknown or unexpected frame."),
    ("en", "tr", "Unknown or unexpected frame."),  # once known, the user's own language
    ("", "en", "Unknown or unexpected frame."),  # not chosen: the handshake's
    ("", None, "Bilinmeyen ya da beklenmeyen çerçeve."),
])
def test_operator_socket_speaks_its_users_language(canli_sunucu, kullanici_dili, tarayici, beklenen):
    user = operator_yap(MusteriFactory())
    user.dil = kullanici_dili
    user.save(update_fields=["dil"])
    s = _soket(f"{canli_sunucu.ws_url}/ws/v1/operator/", tarayici)
    s.gonder("kimlik", {"token": giris(canli_sunucu, user)})
    s.bekle("hazir")
    s.gonder("bilinmeyen_cerceve")
    assert s.bekle("hata") == {"kod": "GECERSIZ_ISTEK", "mesaj": beklenen}
    s.kapat()


def test_operator_socket_bad_token_follows_the_handshake(canli_sunucu):
    s = _soket(f"{canli_sunucu.ws_url}/ws/v1/operator/", "en")
    s.gonder("kimlik", {"token": "bozuk"})
    gelen, kod = s.kapanis()
    assert kod == 4401 and gelen[-1]["data"]["kod"] == "GECERSIZ_TOKEN", gelen
    assert gelen[-1]["data"]["mesaj"].startswith("The token is invalid") or gelen[-1]["data"]["mesaj"] == "Invalid token."

"""CONTRACT 14, "offline message answered", against a live server with real widget sockets: a
visitor holding an open widget socket is there (no mail, though a socket makes polling rare); once
its socket is closed, it has left (the mail)."""
import time

import pytest

from canli.tests.yardimci import Rest, giris, widget_soketi
from eposta.models import GidenEposta
from supportdesk.core import varlik
from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import operator_yap

pytestmark = [pytest.mark.django_db(transaction=True)]


def _cevrimdisi_epostalari(oturum_id) -> int:
    return GidenEposta.objects.filter(tur=GidenEposta.Tur.CEVRIMDISI_YANIT, oturum_id=oturum_id).count()


def test_an_open_widget_socket_means_present_and_a_closed_one_gone(canli_sunucu_baslat):
    # Polls and the chat's start count for nothing here (0 s): only the socket says who is there.
    sunucu = canli_sunucu_baslat(EPOSTA_ZIYARETCI_AYRILDI_SANIYE="0")
    musteri = MusteriFactory()
    operator = Rest(sunucu, token=giris(sunucu, operator_yap(musteri)))
    widget = Rest(sunucu, api_key=musteri.api_key)

    def sohbet(ziyaretci_id):
        oturum = widget.post("widget/chat/start", {"ziyaretci_id": ziyaretci_id, "email": f"{ziyaretci_id}@ornek.com",
                                                   "mesaj": "Merhaba"}, beklenen=201)["oturum"]
        operator.post(f"operator/chat/{oturum['id']}/accept", beklenen=200)
        return oturum["id"]

    burada, gitti = sohbet("z-burada"), sohbet("z-gitti")
    soket = widget_soketi(sunucu, musteri, "z-burada")
    # The after-commit listener decides within the operator's request: counted once it answers.
    operator.post(f"operator/chat/{burada}/message", {"icerik": "Yanıtım"}, beklenen=201)
    operator.post(f"operator/chat/{gitti}/message", {"icerik": "Yanıtım"}, beklenen=201)
    assert _cevrimdisi_epostalari(burada) == 0
    assert _cevrimdisi_epostalari(gitti) == 1

    soket.kapat()
    bitis = time.monotonic() + 5  # the server notes the close as it handles it: wait for that, not a fixed time
    while varlik.ziyaretci_soketi_acik(musteri_id=musteri.id, ziyaretci_id="z-burada") and time.monotonic() < bitis:
        time.sleep(0.05)
    operator.post(f"operator/chat/{burada}/message", {"icerik": "Hâlâ orada mısınız?"}, beklenen=201)
    assert _cevrimdisi_epostalari(burada) == 1

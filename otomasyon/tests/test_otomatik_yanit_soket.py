"""CONTRACT 23 over real sockets: a rule's canned response reaches the visitor's and the operators'
sockets as a `mesaj` frame from `sistem`'s name "Otomatik yanıt", and no frame says the chat was
claimed."""
import pytest

from canli.tests.yardimci import Rest, giris, operator_soketi, widget_soketi
from chat.models import HazirYanit
from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import operator_yap

pytestmark = [pytest.mark.django_db(transaction=True)]


def test_the_auto_reply_frame_carries_the_name_to_visitor_and_operators(canli_sunucu):
    musteri = MusteriFactory(firma_adi="A")
    yonetici = operator_yap(musteri, rol="yonetici")
    rest = Rest(canli_sunucu, token=giris(canli_sunucu, yonetici))
    widget = Rest(canli_sunucu, api_key=musteri.api_key)
    hazir = HazirYanit.objects.create(musteri=musteri, kisayol="/k", baslik="K", icerik="Kargonuz yolda.")
    rest.post(f"operator/tenants/{musteri.id}/kurallar", {
        "ad": "Kargo", "olay": "ziyaretci_mesaji", "kosullar": [{"alan": "metin", "islem": "icerir", "deger": "kargo"}],
        "eylemler": [{"tur": "hazir_yanit", "hazir_yanit_id": hazir.id}]}, 201)
    oturum = widget.post("widget/chat/start", {"ziyaretci_id": "z1", "mesaj": "Merhaba"}, 201)["oturum"]
    op, _ = operator_soketi(canli_sunucu, giris(canli_sunucu, yonetici))
    zw = widget_soketi(canli_sunucu, musteri, "z1")

    widget.post("widget/chat/message", {"ziyaretci_id": "z1", "oturum_id": oturum["id"], "icerik": "Kargo?"}, 201)
    otomatik = lambda d: d["mesaj"]["gonderen"] == "sistem"  # noqa: E731
    for soket in (zw, op):
        mesaj = soket.bekle("mesaj", kosul=otomatik)["mesaj"]
        assert (mesaj["operator_adi"], mesaj["operator_id"], mesaj["icerik"]) == ("Otomatik yanıt", None, "Kargonuz yolda.")
    # Nobody claimed it: the operators hear of no accept, and the chat still waits.
    frames = op.sessiz(0.7) + op.bekleyen
    assert all(f["data"].get("oturum", {}).get("durum", "bekliyor") == "bekliyor" for f in frames
               if f["tip"] == "chat_guncellendi")
    assert rest.get(f"operator/chat/{oturum['id']}/messages")["oturum"]["operator_id"] is None
    for s in (op, zw):
        s.kapat()

"""Operator side of CONTRACT 3: the combined queue, accept/transfer/close, messages, limits."""
import base64
import json
from datetime import timedelta

import pytest
from django.utils import timezone

from chat.models import Mesaj, Oturum
from supportdesk.testing.factories import MusteriFactory
from supportdesk.testing.fixtures import operator_yap
from tenants.tests.test_auth import hata
from webhooks.models import Olay

from .yardimci import CHATS, W_BITIR, W_MESAJ, W_MESAJLAR, baslat, ok, op_url, operator_istemcisi, widget_client

pytestmark = pytest.mark.django_db


def kuyruk(client, **params) -> list[dict]:
    return ok(client.get(CHATS, params))["oturumlar"]


def test_kuyruk_sadece_kendi_projelerinin_sohbetleri_musteri_id_ile(musteri, diger_musteri, op, widget):
    _, client = op
    benim = baslat(widget, "a")
    baslat(widget_client(diger_musteri), "b")
    [o] = kuyruk(client)
    assert o["id"] == benim["id"] and o["musteri_id"] == musteri.id and o["durum"] == "bekliyor"
    assert "sira_no" not in o and o["okunmamis"] == 0


def test_uc_projeli_operator_tek_kuyruk_en_eski_once():
    a, b, c = MusteriFactory(), MusteriFactory(), MusteriFactory()
    _, client = operator_istemcisi(a, b, c)
    simdi = timezone.now()
    beklenen = []
    for i, m in enumerate([b, c, a, b, a, c]):
        o = baslat(widget_client(m), f"z{i}")
        Oturum.objects.filter(pk=o["id"]).update(baslangic=simdi - timedelta(minutes=10 - i))
        beklenen.append((o["id"], m.id))
    data = kuyruk(client)
    assert [(o["id"], o["musteri_id"]) for o in data] == beklenen
    assert {o["musteri_id"] for o in data} == {a.id, b.id, c.id}


def test_varsayilan_kuyruk_bekleyenler_ve_benim_aktiflerim(musteri, widget):
    ben, client = operator_istemcisi(musteri)
    _, baskasi = operator_istemcisi(musteri)
    benim = baslat(widget, "a")
    onun = baslat(widget, "b")
    bekleyen = baslat(widget, "c")
    kapanan = baslat(widget, "d")
    ok(client.post(op_url(benim["id"], "accept")))
    ok(baskasi.post(op_url(onun["id"], "accept")))
    ok(client.post(op_url(kapanan["id"], "close")))
    assert [o["id"] for o in kuyruk(client)] == [benim["id"], bekleyen["id"]]
    assert [o["id"] for o in kuyruk(client, durum="aktif")] == [benim["id"], onun["id"]]
    assert [o["id"] for o in kuyruk(client, durum="bekliyor")] == [bekleyen["id"]]
    assert [o["id"] for o in kuyruk(client, durum="kapandi")] == [kapanan["id"]]


def test_musteri_id_filtresi_ve_yabanci_proje_404(musteri, diger_musteri):
    _, client = operator_istemcisi(musteri, diger_musteri)
    a = baslat(widget_client(musteri), "a")
    baslat(widget_client(diger_musteri), "b")
    assert [o["id"] for o in kuyruk(client, musteri_id=musteri.id)] == [a["id"]]
    yabanci = MusteriFactory()
    baslat(widget_client(yabanci), "c")
    hata(client.get(CHATS, {"musteri_id": yabanci.id}), 404, "BULUNAMADI")
    hata(client.get(CHATS, {"musteri_id": 99999999}), 404, "BULUNAMADI")


def _imlec(degerler) -> str:
    # A cursor forged the way ours are made (base64 of a JSON list), with values we never issue.
    return base64.urlsafe_b64encode(json.dumps(degerler).encode()).decode().rstrip("=")


@pytest.mark.parametrize("params", [{"durum": "uyuyor"}, {"musteri_id": "x"}, {"cursor": "bozuk!"}, {"limit": 0},
                                    {"limit": -1}, {"limit": "x"}, {"cursor": _imlec([None, 1])},
                                    {"cursor": _imlec(["\u0000", 1])}, {"cursor": _imlec([{"a": 1}, 1])},
                                    {"cursor": _imlec([1])}])
def test_kuyruk_gecersiz_parametre_400(op, params):
    hata(op[1].get(CHATS, params), 400, "GECERSIZ_ISTEK")


def test_limit_200_u_asarsa_200_satir_gelir(op, musteri):
    # CONTRACT 9: page size at most 200. A larger limit is capped, as DRF's paginators do.
    Oturum.objects.bulk_create([Oturum(musteri=musteri, ziyaretci_id=f"z{i}", durum="bekliyor") for i in range(205)])
    data = ok(op[1].get(CHATS, {"limit": 1000}))
    assert len(data["oturumlar"]) == 200 and data["sonraki"] is not None
    assert len(ok(op[1].get(CHATS, {"limit": 1000, "cursor": data["sonraki"]}))["oturumlar"]) == 5


def test_sahte_imlec_mesajlarda_da_400(widget):
    o = baslat(widget, "z1")
    hata(widget.get(W_MESAJLAR, {"ziyaretci_id": "z1", "oturum_id": o["id"], "cursor": _imlec([None])}), 400,
         "GECERSIZ_ISTEK")


def test_kuyruk_imlecle_sayfalanir(op, widget):
    ids = [baslat(widget, f"z{i}")["id"] for i in range(5)]
    ilk = ok(op[1].get(CHATS, {"limit": 2}))
    assert [o["id"] for o in ilk["oturumlar"]] == ids[:2] and ilk["sonraki"]
    iki = ok(op[1].get(CHATS, {"limit": 2, "cursor": ilk["sonraki"]}))
    uc = ok(op[1].get(CHATS, {"limit": 2, "cursor": iki["sonraki"]}))
    assert [o["id"] for o in iki["oturumlar"] + uc["oturumlar"]] == ids[2:] and uc["sonraki"] is None


def test_kimliksiz_401(api):
    hata(api.get(CHATS), 401, "KIMLIK_GEREKLI")
    api.credentials(HTTP_AUTHORIZATION="Bearer bozuk")
    hata(api.get(CHATS), 401, "GECERSIZ_TOKEN")


# --- moves ---------------------------------------------------------------------------------
def test_kabul_aktar_kapat_ve_sistem_mesajlari(musteri, widget):
    a_user, a = operator_istemcisi(musteri, durum="cevrimici")
    b_user, b = operator_istemcisi(musteri)
    o = baslat(widget, mesaj="Selam")
    data = ok(a.post(op_url(o["id"], "accept")))["oturum"]
    assert data["durum"] == "aktif" and data["operator_id"] == a_user.id and data["kabul_zamani"]
    data = ok(a.post(op_url(o["id"], "transfer"), {"operator_id": b_user.id}, format="json"))["oturum"]
    assert data["durum"] == "aktif" and data["operator_id"] == b_user.id
    data = ok(b.post(op_url(o["id"], "transfer"), {"operator_id": None}, format="json"))["oturum"]
    assert data["durum"] == "bekliyor" and data["operator_id"] is None
    ok(b.post(op_url(o["id"], "accept")))
    data = ok(b.post(op_url(o["id"], "close")))["oturum"]
    assert data["durum"] == "kapandi" and data["kapatan"] == "operator" and data["bitis_zamani"]
    gonderenler = list(Mesaj.objects.filter(oturum_id=o["id"]).order_by("id").values_list("gonderen", flat=True))
    # accept, transfer, back to the queue, accept, close: each adds a `sistem` line (issue 13: accept too)
    assert gonderenler == ["ziyaretci", "sistem", "sistem", "sistem", "sistem", "sistem"]
    [olay] = Olay.objects.filter(olay="chat_kapandi")
    assert olay.veri["kapatan"] == "operator"


def test_bekleyen_sohbet_operator_tarafindan_kapatilabilir(op, widget):
    o = baslat(widget)
    assert ok(op[1].post(op_url(o["id"], "close")))["oturum"]["durum"] == "kapandi"


def test_durum_tablosunun_yasak_hamleleri(musteri, widget):
    a_user, a = operator_istemcisi(musteri)
    b_user, b = operator_istemcisi(musteri)
    o = baslat(widget)
    # bekliyor: no transfer
    hata(a.post(op_url(o["id"], "transfer"), {"operator_id": b_user.id}, format="json"), 409, "DURUM_CAKISMASI")
    hata(a.post(op_url(o["id"], "transfer"), {"operator_id": None}, format="json"), 409, "DURUM_CAKISMASI")
    ok(a.post(op_url(o["id"], "accept")))
    # aktif: no second accept (by anyone), no transfer to the current operator
    hata(a.post(op_url(o["id"], "accept")), 409, "DURUM_CAKISMASI")
    hata(b.post(op_url(o["id"], "accept")), 409, "DURUM_CAKISMASI")
    hata(a.post(op_url(o["id"], "transfer"), {"operator_id": a_user.id}, format="json"), 409, "DURUM_CAKISMASI")
    ok(a.post(op_url(o["id"], "close")))
    # kapandi: nothing moves
    hata(a.post(op_url(o["id"], "close")), 409, "DURUM_CAKISMASI")
    hata(a.post(op_url(o["id"], "accept")), 409, "DURUM_CAKISMASI")
    hata(a.post(op_url(o["id"], "transfer"), {"operator_id": b_user.id}, format="json"), 409, "DURUM_CAKISMASI")
    hata(a.post(op_url(o["id"], "message"), {"icerik": "geç"}, format="json"), 409, "DURUM_CAKISMASI")
    hata(widget.post(W_BITIR, {"ziyaretci_id": "z-1", "oturum_id": o["id"]}, format="json"), 409, "DURUM_CAKISMASI")
    hata(widget.post(W_MESAJ, {"ziyaretci_id": "z-1", "oturum_id": o["id"], "icerik": "x"}, format="json"),
         409, "DURUM_CAKISMASI")
    oturum = Oturum.objects.get(pk=o["id"])
    assert (oturum.durum, oturum.operator_id, oturum.kapatan) == ("kapandi", a_user.id, "operator")
    assert Olay.objects.filter(olay="chat_kapandi").count() == 1


def test_aktarma_hedefi_projenin_uyesi_olmali(musteri, diger_musteri, widget):
    _, a = operator_istemcisi(musteri, durum="cevrimici")
    yabanci = operator_yap(diger_musteri)
    pasif = operator_yap(musteri)
    pasif.is_active = False
    pasif.save(update_fields=["is_active"])
    o = baslat(widget)
    ok(a.post(op_url(o["id"], "accept")))
    for hedef in (yabanci.id, pasif.id, 99999999):
        hata(a.post(op_url(o["id"], "transfer"), {"operator_id": hedef}, format="json"), 404, "BULUNAMADI")
    for govde in ({}, {"operator_id": "abc"}, {"operator_id": 1.5}, {"operator_id": True}, {"operator_id": [1]}):
        hata(a.post(op_url(o["id"], "transfer"), govde, format="json"), 400, "GECERSIZ_ISTEK")
    # only the accept's "... sohbete katıldı." line: no refused transfer left one
    assert Mesaj.objects.filter(gonderen="sistem").count() == 1


def test_baska_projenin_sohbeti_404_ve_degismez(musteri, diger_musteri, nobetci):
    _, yabanci = operator_istemcisi(diger_musteri)
    o = baslat(widget_client(musteri))
    for islem, govde in [("accept", None), ("close", None), ("transfer", {"operator_id": None}),
                         ("message", {"icerik": "x"})]:
        hata(yabanci.post(op_url(o["id"], islem), govde, format="json"), 404, "BULUNAMADI")
    hata(yabanci.get(op_url(o["id"], "messages")), 404, "BULUNAMADI")
    hata(yabanci.post(op_url(99999999, "accept")), 404, "BULUNAMADI")
    assert kuyruk(yabanci) == []
    assert Oturum.objects.get().durum == "bekliyor" and Mesaj.objects.count() == 0


def test_max_chat_kabulde_ve_aktarmada(musteri, widget):
    sinirli_user, sinirli = operator_istemcisi(musteri, max_chat=1)
    _, diger = operator_istemcisi(musteri)
    o1, o2, o3 = baslat(widget, "a"), baslat(widget, "b"), baslat(widget, "c")
    ok(sinirli.post(op_url(o1["id"], "accept")))
    hata(sinirli.post(op_url(o2["id"], "accept")), 409, "CHAT_LIMITI_DOLU")
    assert Oturum.objects.get(pk=o2["id"]).durum == "bekliyor"
    ok(diger.post(op_url(o2["id"], "accept")))
    hata(diger.post(op_url(o2["id"], "transfer"), {"operator_id": sinirli_user.id}, format="json"), 409, "CHAT_LIMITI_DOLU")
    assert Oturum.objects.get(pk=o2["id"]).operator_id != sinirli_user.id
    # Closing frees the slot.
    ok(sinirli.post(op_url(o1["id"], "close")))
    ok(sinirli.post(op_url(o3["id"], "accept")))


def test_max_chat_proje_basina_sayilir(musteri, diger_musteri):
    _, client = operator_istemcisi(musteri, diger_musteri, max_chat=1)
    ok(client.post(op_url(baslat(widget_client(musteri))["id"], "accept")))
    ok(client.post(op_url(baslat(widget_client(diger_musteri))["id"], "accept")))


def test_mesajlasma_iki_yonlu_okunmamis_ve_sonra(musteri, widget):
    user, client = operator_istemcisi(musteri, durum="cevrimici")
    o = baslat(widget, mesaj="Merhaba")
    ok(client.post(op_url(o["id"], "accept")))
    ok(widget.post(W_MESAJ, {"ziyaretci_id": "z-1", "oturum_id": o["id"], "icerik": "Orada mısınız?"}, format="json"), 201)
    [satir] = kuyruk(client)
    assert satir["okunmamis"] == 2 and satir["son_mesaj"] == "Orada mısınız?"
    data = ok(client.get(op_url(o["id"], "messages")))
    assert [m["icerik"] for m in data["mesajlar"]] == ["Merhaba", "Temsilci sohbete katıldı.", "Orada mısınız?"]
    assert kuyruk(client)[0]["okunmamis"] == 0
    son_id = data["mesajlar"][-1]["id"]
    m = ok(client.post(op_url(o["id"], "message"), {"icerik": "Buradayım"}, format="json"), 201)["mesaj"]
    assert (m["gonderen"], m["operator_id"], m["icerik"]) == ("operator", user.id, "Buradayım")
    assert [x["id"] for x in ok(client.get(op_url(o["id"], "messages"), {"sonra": son_id}))["mesajlar"]] == [m["id"]]
    gelen = ok(widget.get(W_MESAJLAR, {"ziyaretci_id": "z-1", "oturum_id": o["id"], "sonra": son_id}))["mesajlar"]
    assert [(x["gonderen"], x["icerik"]) for x in gelen] == [("operator", "Buradayım")]


@pytest.mark.parametrize("icerik", ["", "  \n ", "x" * 5001, 5, None, ["x"]])
def test_operator_gecersiz_mesaj_400(op, widget, nobetci, icerik):
    o = baslat(widget)
    body = hata(op[1].post(op_url(o["id"], "message"), {"icerik": icerik}, format="json"), 400, "GECERSIZ_ISTEK")
    assert "icerik" in body["hata"]["alanlar"]
    assert Mesaj.objects.count() == 0


def test_operator_mesaji_eksik_alan_400(op, widget):
    o = baslat(widget)
    hata(op[1].post(op_url(o["id"], "message"), {}, format="json"), 400, "GECERSIZ_ISTEK")


def test_aktarma_hedefi_olamayacak_kadar_buyuk_id_404_500_degil(musteri, widget):
    # An id beyond the database's integer range names nobody: 404 like any unknown operator.
    _, a = operator_istemcisi(musteri, durum="cevrimici")
    o = baslat(widget)
    ok(a.post(op_url(o["id"], "accept")))
    for hedef in (2**63, 10**30):
        hata(a.post(op_url(o["id"], "transfer"), {"operator_id": hedef}, format="json"), 404, "BULUNAMADI")
    oturum = Oturum.objects.get(pk=o["id"])
    assert oturum.durum == "aktif" and Mesaj.objects.filter(gonderen="sistem").count() == 1  # the accept's line


@pytest.mark.parametrize("parca", ["abc", "-1", "1.5", "0", str(2**63), "99999999"])
def test_yoldaki_gecersiz_ya_da_bilinmeyen_id_her_uc_noktada_404(op, parca):
    _, client = op
    for islem, govde in [("accept", None), ("close", None), ("transfer", {"operator_id": None}),
                         ("message", {"icerik": "x"})]:
        hata(client.post(f"/api/v1/operator/chat/{parca}/{islem}", govde, format="json"), 404, "BULUNAMADI")
    hata(client.get(f"/api/v1/operator/chat/{parca}/messages"), 404, "BULUNAMADI")


def test_bekleyen_sohbete_operator_yazabilir_kabul_etmeden(op, widget):
    # State table: a message (either side) is allowed from `bekliyor`; CONTRACT 3a (issue 24): the
    # operator's message claims the chat first, as an accept (chat/tests/test_sahiplik.py).
    user, client = op
    o = baslat(widget)
    m = ok(client.post(op_url(o["id"], "message"), {"icerik": "Birazdan sizinleyim."}, format="json"), 201)["mesaj"]
    assert (m["gonderen"], m["operator_id"], m["oturum_id"]) == ("operator", user.id, o["id"])
    oturum = Oturum.objects.get(pk=o["id"])
    assert (oturum.durum, oturum.operator_id) == ("aktif", user.id)


def test_operator_mesajinda_baskasinin_ek_idsi_404_sessizce_dusurulmez(op, widget):
    _, client = op
    o = baslat(widget)
    once = Mesaj.objects.count()
    # No upload of this operator has that id (panel/tests/test_panel_api covers the real ones).
    hata(client.post(op_url(o["id"], "message"), {"icerik": "Dosya ekte", "ek_id": 1}, format="json"), 404, "BULUNAMADI")
    assert Mesaj.objects.count() == once
    ok(client.post(op_url(o["id"], "message"), {"icerik": "Ek yok", "ek_id": None}, format="json"), 201)


def test_chat_kapandi_verisi_tam_olarak_sozlesmedeki_alanlar(musteri, op, widget):
    # CONTRACT 7: `chat_kapandi` veri is exactly {oturum_id, musteri_id, kapatan, sure_saniye}.
    o1, o2 = baslat(widget, "a"), baslat(widget, "b")
    ok(op[1].post(op_url(o1["id"], "accept")))
    Oturum.objects.filter(pk=o1["id"]).update(baslangic=timezone.now() - timedelta(seconds=90))
    ok(op[1].post(op_url(o1["id"], "close")))
    ok(widget.post(W_BITIR, {"ziyaretci_id": "b", "oturum_id": o2["id"]}, format="json"))
    veriler = {o.veri["oturum_id"]: o.veri for o in Olay.objects.filter(olay="chat_kapandi")}
    assert set(veriler[o1["id"]]) == {"oturum_id", "musteri_id", "kapatan", "sure_saniye", "etiketler",
                                      "ekip_id"}  # + CONTRACT 16, 22
    assert veriler[o1["id"]]["musteri_id"] == musteri.id and veriler[o1["id"]]["kapatan"] == "operator"
    assert 90 <= veriler[o1["id"]]["sure_saniye"] < 120
    assert set(veriler[o2["id"]]) == {"oturum_id", "musteri_id", "kapatan", "sure_saniye", "etiketler", "ekip_id"}
    assert veriler[o2["id"]]["kapatan"] == "ziyaretci"
    # A transfer is not a close: no event.
    o3 = baslat(widget, "c")
    ok(op[1].post(op_url(o3["id"], "accept")))
    ok(op[1].post(op_url(o3["id"], "transfer"), {"operator_id": None}, format="json"))
    assert Olay.objects.filter(olay="chat_kapandi").count() == 2


@pytest.mark.parametrize("govde", ["null", "[]", "5", '"metin"'])
def test_nesne_olmayan_json_govde_400_turkce(musteri, widget, govde):
    # A JSON body that is not an object is a 400 with a Turkish message (DRF's own is English).
    _, client = operator_istemcisi(musteri)
    o = baslat(widget)
    ok(client.post(op_url(o["id"], "accept")))
    for islem in ("transfer", "message"):
        body = hata(client.post(op_url(o["id"], islem), govde, content_type="application/json"), 400, "GECERSIZ_ISTEK")
        assert body["hata"]["alanlar"] == {"genel": "İstek gövdesi bir JSON nesnesi olmalı."}
    assert Oturum.objects.get(pk=o["id"]).durum == "aktif" and Mesaj.objects.filter(gonderen="operator").count() == 0

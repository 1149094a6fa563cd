"""CONTRACT 11 through real sockets against a live uvicorn process: every frame of both tables
arrives within 2 s of the REST call that caused it, with the REST shape; isolation; refusals."""
import json

import pytest
import requests
from websockets.exceptions import ConnectionClosed

from supportdesk.testing.factories import TEST_SIFRE, MusteriFactory
from supportdesk.testing.fixtures import operator_yap

from .yardimci import Rest, Soket, giris, operator_soketi, widget_soketi

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def ortam(canli_sunucu):
    """Tenant A with operators a1, a2 (a1 also in tenant B); tenant B; REST clients."""
    a, b = MusteriFactory(firma_adi="A"), MusteriFactory(firma_adi="B")
    a1, a2, b1 = operator_yap(a, b), operator_yap(a), operator_yap(b)
    t = {k: giris(canli_sunucu, u) for k, u in (("a1", a1), ("a2", a2), ("b1", b1))}

    class Ortam:
        sunucu, musteri_a, musteri_b = canli_sunucu, a, b
        op = {"a1": a1, "a2": a2, "b1": b1}
        token = t
        rest = {k: Rest(canli_sunucu, token=v) for k, v in t.items()}
        widget_a = Rest(canli_sunucu, api_key=a.api_key)
        widget_b = Rest(canli_sunucu, api_key=b.api_key)

    return Ortam


def _operator_oturumu(rest, oturum_id):
    # The queue list (reading the messages would mark them read and change `okunmamis`).
    for durum in ("bekliyor", "aktif", "kapandi"):
        for o in rest.get("operator/chats", durum=durum)["oturumlar"]:
            if o["id"] == oturum_id:
                return o
    raise AssertionError(oturum_id)


def _widget_okuma(widget, ziyaretci_id, oturum_id):
    return widget.get("widget/chat/messages", ziyaretci_id=ziyaretci_id, oturum_id=oturum_id)


# --- operator socket: handshake and refusals ---------------------------------------------------
def test_operator_kimlik_hazir_ve_reddedilenler(ortam):
    s, hazir = operator_soketi(ortam.sunucu, ortam.token["a1"])
    assert sorted(hazir["musteri_idleri"]) == sorted([ortam.musteri_a.id, ortam.musteri_b.id])
    s.gonder("selam")  # unknown frame: hata, and the socket stays open
    assert s.bekle("hata")["kod"] == "GECERSIZ_ISTEK"
    s.gonder("yaziyor", {"oturum_id": 999999})
    assert s.bekle("hata")["kod"] == "GECERSIZ_ISTEK"
    s.kapat()

    kotu = Soket(f"{ortam.sunucu.ws_url}/ws/v1/operator/")
    kotu.gonder("kimlik", {"token": "bozuk"})
    gelen, kod = kotu.kapanis()
    assert kod == 4401 and [c["tip"] for c in gelen] == ["hata"] and gelen[0]["data"]["kod"] == "GECERSIZ_TOKEN"

    sessiz = Soket(f"{ortam.sunucu.ws_url}/ws/v1/operator/")  # no kimlik within CANLI_KIMLIK_SURESI (1 s)
    gelen, kod = sessiz.kapanis(sure=3)
    assert kod == 4401 and gelen[0]["tip"] == "hata"


def test_cikis_yapilan_token_soketi_5_sn_icinde_kapanir(ortam):
    s, _ = operator_soketi(ortam.sunucu, ortam.token["a2"])
    ortam.rest["a2"].istek("POST", "auth/logout", 200)
    gelen, kod = s.kapanis(sure=5)
    assert kod == 4401 and gelen[-1]["tip"] == "hata"


def test_cikis_ayni_tokenin_tum_soketlerini_kapatir_baska_oturumu_degil(ortam):
    # The token is re-checked once per token and process (canli.consumers._TokenBekcisi): every
    # socket of the logged-out token closes; the same operator's socket of another login stays.
    ayni_1, _ = operator_soketi(ortam.sunucu, ortam.token["a2"])
    ayni_2, _ = operator_soketi(ortam.sunucu, ortam.token["a2"])
    baska, _ = operator_soketi(ortam.sunucu, giris(ortam.sunucu, ortam.op["a2"]))
    ortam.rest["a2"].istek("POST", "auth/logout", 200)
    for s in (ayni_1, ayni_2):
        gelen, kod = s.kapanis(sure=5)
        assert kod == 4401 and gelen[-1]["data"]["kod"] == "GECERSIZ_TOKEN"
    oturum = ortam.widget_a.post("widget/chat/start", {"ziyaretci_id": "z-bekci", "mesaj": "Merhaba"}, 201)["oturum"]
    assert baska.bekle("chat_yeni", kosul=lambda d: d["oturum"]["id"] == oturum["id"])
    baska.kapat()


def test_sifre_degisince_soket_5_sn_icinde_kapanir(ortam):
    # Any path that changes the password (here the model, as the admin and the reset do) kills the
    # user's tokens (issue 13), and the open socket's periodic re-check closes it.
    s, _ = operator_soketi(ortam.sunucu, ortam.token["a2"])
    kullanici = ortam.op["a2"]
    kullanici.set_password("Yepyeni-Sifre-2026!")
    kullanici.save()
    gelen, kod = s.kapanis(sure=5)
    assert kod == 4401 and gelen[-1]["data"]["kod"] == "GECERSIZ_TOKEN"


def test_sessize_alinan_projenin_olaylari_yine_gelir(ortam):
    # Muting is the client's (CONTRACT 11): the socket still carries the muted tenant's events.
    ortam.rest["a2"].post(f"operator/tenants/{ortam.musteri_a.id}/sessize", {"sessize": True}, 200, yontem="PUT")
    s, _ = operator_soketi(ortam.sunucu, ortam.token["a2"])
    oturum = ortam.widget_a.post("widget/chat/start", {"ziyaretci_id": "z9", "mesaj": "Merhaba"}, 201)["oturum"]
    assert s.bekle("chat_yeni", kosul=lambda d: d["oturum"]["id"] == oturum["id"])["oturum"]["musteri_id"] == ortam.musteri_a.id


# --- the chat's life, on both sockets ----------------------------------------------------------
def test_sohbet_yasami_operator_ve_widget_cerceveleri_rest_ile_ayni(ortam):
    a1, _ = operator_soketi(ortam.sunucu, ortam.token["a1"])
    a2, _ = operator_soketi(ortam.sunucu, ortam.token["a2"])
    b1, _ = operator_soketi(ortam.sunucu, ortam.token["b1"])

    oturum = ortam.widget_a.post("widget/chat/start", {"ziyaretci_id": "z1", "mesaj": "Merhaba"}, 201)["oturum"]
    zw = widget_soketi(ortam.sunucu, ortam.musteri_a, "z1")
    ikinci = ortam.widget_a.post("widget/chat/start", {"ziyaretci_id": "z2"}, 201)["oturum"]
    assert ikinci["sira_no"] == 2
    z2 = widget_soketi(ortam.sunucu, ortam.musteri_a, "z2")
    baska = widget_soketi(ortam.sunucu, ortam.musteri_a, "z3")  # another visitor of the same tenant

    # chat_yeni for every member (also a1, whose other tenant is B), with the operator's REST shape
    for s in (a1, a2):
        yeni = s.bekle("chat_yeni", kosul=lambda d: d["oturum"]["id"] == oturum["id"])
        assert yeni["oturum"] == _operator_oturumu(ortam.rest["a1"], oturum["id"])
        ilk = s.bekle("mesaj", kosul=lambda d: d["mesaj"]["oturum_id"] == oturum["id"])
        assert ilk["musteri_id"] == ortam.musteri_a.id and ilk["mesaj"]["icerik"] == "Merhaba"

    # a visitor's message in a waiting chat: every member; the visitor's own tabs
    m = ortam.widget_a.post("widget/chat/message", {"ziyaretci_id": "z1", "oturum_id": oturum["id"],
                                                     "icerik": "Orada mısınız?"}, 201)["mesaj"]
    # `onceki_id`: the message before it in the chat (issue 38), as the REST read has them.
    idler = [x["id"] for x in _widget_okuma(ortam.widget_a, "z1", oturum["id"])["mesajlar"]]
    onceki = idler[idler.index(m["id"]) - 1]
    for s in (a1, a2):
        assert s.bekle("mesaj", kosul=lambda d: d["mesaj"]["id"] == m["id"]) == {
            "mesaj": m, "musteri_id": ortam.musteri_a.id, "onceki_id": onceki}
    assert zw.bekle("mesaj") == {"mesaj": m, "onceki_id": onceki}

    # accept by a1: a colleague's queue loses it (chat_guncellendi), the visitor sees `oturum`,
    # and the visitor behind it moves up (sira_no 2 -> 1)
    ortam.rest["a1"].post(f"operator/chat/{oturum['id']}/accept", beklenen=200)
    guncel = a2.bekle("chat_guncellendi", kosul=lambda d: d["oturum"]["id"] == oturum["id"])
    assert guncel["oturum"] == _operator_oturumu(ortam.rest["a1"], oturum["id"])
    assert guncel["oturum"]["durum"] == "aktif" and guncel["oturum"]["operator_id"] == ortam.op["a1"].id
    w = zw.bekle("oturum")["oturum"]
    assert w == _widget_okuma(ortam.widget_a, "z1", oturum["id"])["oturum"]
    assert w["durum"] == "aktif" and w["sira_no"] is None
    assert z2.bekle("oturum")["oturum"]["sira_no"] == 1
    # the `sistem` message "X sohbete katıldı" of the accept reaches the visitor first
    katildi = zw.bekle("mesaj")["mesaj"]
    assert katildi["gonderen"] == "sistem" and "sohbete katıldı" in katildi["icerik"]

    # the operator's reply: to the visitor; an active chat's messages go to its operator only
    cevap = ortam.rest["a1"].post(f"operator/chat/{oturum['id']}/message", {"icerik": "Buyrun"}, 201)["mesaj"]
    assert zw.bekle("mesaj") == {"mesaj": cevap, "onceki_id": katildi["id"]}
    assert a1.bekle("mesaj", kosul=lambda d: d["mesaj"]["id"] == cevap["id"])["mesaj"] == cevap
    okunan = _widget_okuma(ortam.widget_a, "z1", oturum["id"])["mesajlar"]
    assert cevap in okunan

    # typing and read marks, both ways
    zw.gonder("yaziyor", {"oturum_id": oturum["id"]})
    assert a1.bekle("yaziyor") == {"oturum_id": oturum["id"]}
    a1.gonder("yaziyor", {"oturum_id": oturum["id"]})
    assert zw.bekle("yaziyor") == {"oturum_id": oturum["id"]}
    a1.gonder("okundu", {"oturum_id": oturum["id"], "mesaj_id": m["id"]})
    assert zw.bekle("okundu") == {"oturum_id": oturum["id"], "mesaj_id": m["id"]}
    zw.gonder("okundu", {"oturum_id": oturum["id"], "mesaj_id": cevap["id"]})
    assert a1.bekle("okundu") == {"oturum_id": oturum["id"], "mesaj_id": cevap["id"]}
    zw.gonder("yaziyor", {"oturum_id": ikinci["id"]})  # not this visitor's chat
    assert zw.bekle("hata")["kod"] == "GECERSIZ_ISTEK"

    # transfer to a2: both hear it; then close and rating
    ortam.rest["a1"].post(f"operator/chat/{oturum['id']}/transfer", {"operator_id": ortam.op["a2"].id}, 200)
    assert a2.bekle("chat_guncellendi", kosul=lambda d: d["oturum"]["operator_id"] == ortam.op["a2"].id)
    assert zw.bekle("oturum", kosul=lambda d: d["oturum"]["operator_id"] == ortam.op["a2"].id)
    sistem = a2.bekle("mesaj", kosul=lambda d: d["mesaj"]["oturum_id"] == oturum["id"])
    assert sistem["mesaj"]["gonderen"] == "sistem"
    ortam.rest["a2"].post(f"operator/chat/{oturum['id']}/close", beklenen=200)
    kapandi = a1.bekle("chat_guncellendi", kosul=lambda d: d["oturum"]["durum"] == "kapandi")
    assert kapandi["oturum"]["kapatan"] == "operator"
    assert zw.bekle("oturum", kosul=lambda d: d["oturum"]["durum"] == "kapandi")
    ortam.widget_a.post("widget/chat/rate", {"ziyaretci_id": "z1", "oturum_id": oturum["id"], "puan": 5}, 200)
    puanli = a2.bekle("chat_guncellendi", kosul=lambda d: d["oturum"]["puan"] == 5)
    assert puanli["oturum"] == _operator_oturumu(ortam.rest["a2"], oturum["id"])
    assert zw.bekle("oturum", kosul=lambda d: d["oturum"]["puan"] == 5)["oturum"] == \
        _widget_okuma(ortam.widget_a, "z1", oturum["id"])["oturum"]

    # isolation: the other tenant's operator and the other visitor heard none of it
    assert [c for c in b1.sessiz() if c["tip"] != "operator_durumu"] == []
    assert baska.sessiz(0.3) == []
    for s in (a1, a2, b1, zw, z2, baska):
        s.kapat()


def test_ticket_ve_operator_durumu_cerceveleri(ortam):
    a2, _ = operator_soketi(ortam.sunucu, ortam.token["a2"])
    b1, _ = operator_soketi(ortam.sunucu, ortam.token["b1"])
    ticket = ortam.widget_a.post("widget/ticket/create", {"ziyaretci_id": "z1", "konu": "Fatura",
                                                          "mesaj": "Faturam gelmedi"}, 201)["ticket"]
    yeni = a2.bekle("ticket_yeni")
    # The operators' list shape: the widget's fields plus owner and labels (CONTRACT 16) and `sla`
    # (CONTRACT 17; no policy: every target null).
    assert yeni["ticket"] == {**{k: v for k, v in ticket.items() if k != "yanitlar"}, "operator_id": None,
                              "operator_adi": None, "etiketler": [], "ekip_id": None, "ertelendi_kadar": None,
                              "sla": {"ilk_yanit": None, "sonraki_yanit": None, "cozum": None}}
    ortam.rest["a2"].post(f"operator/ticket/{ticket['id']}/status", {"durum": "cozuldu"}, 200, yontem="PUT")
    guncel = a2.bekle("ticket_guncellendi")
    assert guncel["ticket"]["durum"] == "cozuldu" and guncel["ticket"]["id"] == ticket["id"]

    # a1 (member of A and B) goes busy: colleagues of both tenants hear it once each
    ortam.rest["a1"].post("operator/status", {"durum": "mesgul"}, 200)
    beklenen = {"operator_id": ortam.op["a1"].id, "durum": "mesgul",
                "musteri_idleri": sorted([ortam.musteri_a.id, ortam.musteri_b.id])}
    for s in (a2, b1):
        d = s.bekle("operator_durumu")
        assert d | {"musteri_idleri": sorted(d["musteri_idleri"])} == beklenen
    assert [c for c in b1.sessiz() if c["tip"] == "ticket_yeni"] == []  # tenant B saw no ticket of A


def _widget_ticketi(widget, ziyaretci_id, ticket_id):
    return widget.get(f"widget/ticket/{ticket_id}", ziyaretci_id=ziyaretci_id)["ticket"]


def test_ticket_yaniti_ve_durumu_ziyaretcinin_kendi_soketlerine_gelir(ortam):
    """CONTRACT 11's `ticket_guncellendi` of the widget socket: an operator reply or a state change
    reaches that visitor's sockets (every tab) with the ticket as the widget's REST detail reads it
    after the commit; another visitor of the tenant, the same id in another tenant and operator-only
    moves that fail (409, rolled back) send nothing."""
    ticket = ortam.widget_a.post("widget/ticket/create", {"ziyaretci_id": "z1", "konu": "Kargo",
                                                          "mesaj": "Kargom gelmedi"}, 201)["ticket"]
    zw, zw2 = (widget_soketi(ortam.sunucu, ortam.musteri_a, "z1") for _ in range(2))
    baska = widget_soketi(ortam.sunucu, ortam.musteri_a, "z2")
    baska_proje = widget_soketi(ortam.sunucu, ortam.musteri_b, "z1")
    yol = f"operator/ticket/{ticket['id']}"

    yanit = ortam.rest["a2"].post(f"{yol}/reply", {"icerik": "**Kargonuz** yolda."}, 201)["yanit"]
    for s in (zw, zw2):
        gelen = s.bekle("ticket_guncellendi")["ticket"]
        assert gelen == _widget_ticketi(ortam.widget_a, "z1", ticket["id"])
        assert gelen["yanitlar"][-1] == yanit and gelen["durum"] == "acik"

    ortam.rest["a2"].post(f"{yol}/status", {"durum": "beklemede"}, 200, yontem="PUT")
    assert zw.bekle("ticket_guncellendi")["ticket"] == _widget_ticketi(ortam.widget_a, "z1", ticket["id"])
    ortam.rest["a2"].post(f"{yol}/reply", {"icerik": "Çözüldü.", "durum": "cozuldu"}, 201)
    gelen = zw.bekle("ticket_guncellendi")["ticket"]
    assert gelen["durum"] == "cozuldu" and gelen["yanitlar"][-1]["icerik"] == "Çözüldü."
    ortam.rest["a2"].post(f"{yol}/status", {"durum": "kapandi"}, 200, yontem="PUT")
    assert zw.bekle("ticket_guncellendi")["ticket"]["durum"] == "kapandi"

    # a refused reply (kapandi is terminal) changes nothing and says nothing
    ortam.rest["a2"].post(f"{yol}/reply", {"icerik": "Geç kalan yanıt"}, 409)
    assert zw.sessiz(0.5) == []
    assert [c["tip"] for c in zw2.sessiz(0.1)] == ["ticket_guncellendi"] * 3
    for s in (baska, baska_proje):
        assert s.sessiz(0.2) == []
        s.kapat()
    zw.kapat()
    zw2.kapat()



def _portal_oturumu(sunucu, user) -> requests.Session:
    """A portal session on the live server (its after-commit hooks run there)."""
    oturum = requests.Session()
    oturum.get(f"{sunucu.url}/portal/giris", timeout=10)
    res = oturum.post(f"{sunucu.url}/portal/giris", timeout=10, allow_redirects=False, data={
        "email": user.email, "sifre": TEST_SIFRE, "csrfmiddlewaretoken": oturum.cookies["csrftoken"]})
    assert res.status_code == 302, res.text[:500]
    return oturum


def test_portalda_degisen_hazir_yanitlar_projenin_operatorlerine_haber_verilir(ortam):
    """docs/api.md (CONTRACT 11 addition): create, edit and delete in the portal each send
    `hazir_yanitlar_degisti {"musteri_id"}` to the tenant's members after the commit; a refused
    form sends nothing, another tenant's operators hear nothing."""
    a2, _ = operator_soketi(ortam.sunucu, ortam.token["a2"])
    b1, _ = operator_soketi(ortam.sunucu, ortam.token["b1"])
    portal = _portal_oturumu(ortam.sunucu, operator_yap(ortam.musteri_a, rol="sahip"))
    url = f"{ortam.sunucu.url}/portal/hazir-yanitlar"

    def gonder(adres, **alanlar):
        res = portal.post(adres, data={**alanlar, "csrfmiddlewaretoken": portal.cookies["csrftoken"]},
                          allow_redirects=False, timeout=10)
        return res.status_code

    def listede():
        return [(y["kisayol"], y["baslik"]) for y in
                ortam.rest["a2"].get("operator/canned-responses", musteri_id=ortam.musteri_a.id)["hazir_yanitlar"]]

    beklenen = {"musteri_id": ortam.musteri_a.id}
    assert gonder(url, kisayol="kargo", baslik="Kargo", icerik="Kargonuz yolda.") == 302
    assert a2.bekle("hazir_yanitlar_degisti") == beklenen
    assert listede() == [("/kargo", "Kargo")]
    [yanit_id] = [y["id"] for y in ortam.rest["a2"].get("operator/canned-responses")["hazir_yanitlar"]]

    assert gonder(url, kisayol="/kargo", baslik="Yine", icerik="x") == 200  # taken: a form error
    assert a2.sessiz(0.5) == []
    assert gonder(f"{url}/{yanit_id}", kisayol="/kargom", baslik="Kargom", icerik="Yolda.") == 302
    assert a2.bekle("hazir_yanitlar_degisti") == beklenen
    assert listede() == [("/kargom", "Kargom")]
    assert gonder(f"{url}/{yanit_id}", islem="sil") == 302
    assert a2.bekle("hazir_yanitlar_degisti") == beklenen
    assert listede() == []
    assert [c for c in b1.sessiz() if c["tip"] == "hazir_yanitlar_degisti"] == []
    a2.kapat()
    b1.kapat()


# --- widget socket refusals and limits ---------------------------------------------------------
def test_widget_soketi_reddedilenler(ortam, canli_sunucu):
    yol = f"{canli_sunucu.ws_url}/ws/v1/widget/"
    gelen, kod = Soket(f"{yol}?api_key=pk_yok&ziyaretci_id=z").kapanis()
    assert kod == 4401 and [c["tip"] for c in gelen] == ["hata"] and gelen[0]["data"]["kod"] == "GECERSIZ_API_ANAHTARI"

    korumali = MusteriFactory(izinli_originler=["https://shop.example.com"])
    gelen, kod = Soket(f"{yol}?api_key={korumali.api_key}&ziyaretci_id=z", origin="https://evil.example.com").kapanis()
    assert kod == 4403 and gelen[0]["data"]["kod"] == "ORIGIN_IZINSIZ"
    izinli = widget_soketi(canli_sunucu, korumali, "z", origin="https://shop.example.com")
    izinli.kapat()

    gelen, kod = Soket(f"{yol}?api_key={ortam.musteri_a.api_key}").kapanis()  # no visitor id: identity
    assert kod == 4403

    buyuk = widget_soketi(canli_sunucu, ortam.musteri_a, "z")
    buyuk.ws.send(json.dumps({"tip": "yaziyor", "data": {"x": "a" * 5000}}))
    gelen, kod = buyuk.kapanis()
    assert kod == 4429 and gelen[-1]["data"]["kod"] == "LIMIT_ASILDI"

    sel = widget_soketi(canli_sunucu, ortam.musteri_a, "z")
    for _ in range(30):  # 3x CANLI_MAKS_CERCEVE_SANIYE, sent at once (frames needing no query)
        try:
            sel.gonder("ping")
        except ConnectionClosed as e:  # the server may close before the client has sent them all
            assert e.rcvd is not None and e.rcvd.code == 4429
            break
    else:
        gelen, kod = sel.kapanis()
        assert kod == 4429


def test_ziyaretci_basina_soket_siniri(ortam, canli_sunucu):
    acik = [widget_soketi(canli_sunucu, ortam.musteri_a, "cok") for _ in range(5)]  # CANLI_MAKS_SOKET_ZIYARETCI
    fazla = Soket(f"{canli_sunucu.ws_url}/ws/v1/widget/?api_key={ortam.musteri_a.api_key}&ziyaretci_id=cok")
    gelen, kod = fazla.kapanis()
    assert kod == 4429 and gelen[0]["data"]["kod"] == "LIMIT_ASILDI"
    acik[0].kapat()
    yeniden = widget_soketi(canli_sunucu, ortam.musteri_a, "cok")  # a closed one frees its place
    for s in (*acik[1:], yeniden):
        s.kapat()


BAGLI = "z_" + "b" * 32  # an id the widget made: an unsigned init binds it (CONTRACT 2a)


def test_bagli_ziyaretci_tokenini_kimlik_cercevesinde_gonderir(ortam, canli_sunucu):
    # CONTRACT 2a: the visitor asked for a token, so it is bound; its socket needs it.
    widget = ortam.widget_a
    token = widget.post("widget/init", {"ziyaretci_id": BAGLI, "token_iste": True}, 200)["ziyaretci_token"]
    yol = f"{canli_sunucu.ws_url}/ws/v1/widget/?api_key={ortam.musteri_a.api_key}&ziyaretci_id={BAGLI}"

    gelen, kod = Soket(yol).kapanis(sure=3)  # no `kimlik` within CANLI_KIMLIK_SURESI (1 s)
    assert kod == 4401 and gelen[0]["data"]["kod"] == "KIMLIK_GEREKLI"
    yanlis = Soket(yol)
    yanlis.gonder("kimlik", {"ziyaretci_token": token + "x"})
    gelen, kod = yanlis.kapanis()
    assert kod == 4401 and gelen[0]["data"]["kod"] == "ZIYARETCI_TOKEN_GEREKLI"

    dogru = Soket(yol)
    dogru.gonder("kimlik", {"ziyaretci_token": token})
    dogru.gonder("ping")
    assert dogru.bekle("hata")["kod"] == "GECERSIZ_ISTEK"  # subscribed, and still open
    widget.basliklar["X-Ziyaretci-Token"] = token
    ortam.rest["a2"].post("operator/status", {"durum": "cevrimici"}, 200)  # someone online: no ticket offer line
    m = widget.post("widget/chat/start", {"ziyaretci_id": BAGLI, "mesaj": "Selam"}, 201)
    assert dogru.bekle("mesaj")["mesaj"]["icerik"] == "Selam" and m["oturum"]["son_mesaj"] == "Selam"
    dogru.kapat()

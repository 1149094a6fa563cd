"""Issue 39.7: the audit log reads as sentences with old → new values in the reader's language
(`/portal/denetim`, the API's `metin`), keeps its machine fields (`eylem`, `ayrinti`), and records a
member's chat cap and the canned responses too."""
import re
from html import unescape

import pytest

from chat.models import HazirYanit
from denetim.models import DenetimKaydi
from supportdesk.testing.fixtures import giris_yap, operator_yap
from tenants.models import Uyelik

from .yardimci import giris_yapmis

pytestmark = pytest.mark.django_db
YON = "/portal/yonlendirme"
HAM = re.compile(r"\{'|\b(ayar_degisti|uye_limit_degisti|hazir_yanit_\w+|saklama_gun|saat_dilimi)\b")
TURKCE = re.compile(r"[çğıöşüÇĞİÖŞÜ]|\b(değiştirdi|Ayarlar|ekledi|sildi|süresiz)\b")


def _yonlendirme_formu(**degisen) -> dict:
    veri = {"saat_dilimi": "Europe/Istanbul", "atama_modu": "manuel", "tatiller": "", "mesai_disi_mesaji": "",
            "bekleme_zaman_asimi_dk": "10", "sessiz_kapatma_dk": "30", "yeniden_atama_dk": "",
            "dil": "tr", "her_zaman_acik": "1"}
    veri.update(degisen)
    return veri


@pytest.fixture
def sahip(musteri):
    user = operator_yap(musteri, rol="sahip", email="sahip@ornek.com")
    return user


def _tablo(html: str) -> str:
    """The audit table's visible text."""
    bas = html.index('data-test="denetim"')
    return unescape(re.sub(r"<[^>]+>", " ", html[html.index(">", bas) + 1:html.index("</table>", bas)]))


def _metinler(html: str) -> list[str]:
    return [unescape(re.sub(r"\s+", " ", m).strip())
            for m in re.findall(r'data-test="denetim-metin">(.*?)</td>', html, re.S)]


def test_a_settings_change_reads_old_to_new_in_english_and_turkish(musteri, sahip):
    t = giris_yapmis(sahip)
    assert t.post(YON, _yonlendirme_formu(saat_dilimi="Europe/Berlin", atama_modu="sirayla")).status_code == 302
    assert t.post("/portal/gizlilik", {"saklama_gun": "365"}).status_code == 302
    ayar, saklama = DenetimKaydi.objects.filter(musteri=musteri, eylem="ayar_degisti").order_by("id")
    # the machine fields stay: the field names, now with their old and new values
    assert ayar.ayrinti["alanlar"] == ["atama_modu", "saat_dilimi"]
    assert ayar.ayrinti["degerler"] == {"saat_dilimi": ["Europe/Istanbul", "Europe/Berlin"],
                                        "atama_modu": ["manuel", "sirayla"]}
    assert saklama.ayrinti == {"alanlar": ["saklama_gun"], "degerler": {"saklama_gun": [None, 365]}}
    sahip.dil = "en"
    sahip.save(update_fields=["dil"])
    html = t.get("/portal/gizlilik").content.decode()
    tablo = _tablo(html)
    assert _metinler(html)[:2] == [
        "Changed the settings: Retention: forever → 365 days.",
        "Changed the settings: Time zone: Europe/Istanbul → Europe/Berlin; Assignment mode: Manual (an operator accepts) → "
        "Round robin."]
    assert not HAM.search(tablo), HAM.search(tablo)
    assert not TURKCE.search(tablo.replace("sahip@ornek.com", "")), TURKCE.search(tablo)
    sahip.dil = "tr"
    sahip.save(update_fields=["dil"])
    html = t.get("/portal/gizlilik").content.decode()
    assert _metinler(html)[:2] == [
        "Ayarları değiştirdi: Saklama süresi: süresiz → 365 gün.",
        "Ayarları değiştirdi: Saat dilimi: Europe/Istanbul → Europe/Berlin; Atama modu: Elle (operatör kabul eder) → "
        "Sırayla."]


def test_the_filter_names_actions_in_words(musteri, sahip):
    sahip.dil = "en"
    sahip.save(update_fields=["dil"])
    html = giris_yapmis(sahip).get("/portal/gizlilik").content.decode()
    assert '<option value="uye_limit_degisti">Chat cap</option>' in html
    assert '<option value="ayar_degisti">Settings</option>' in html


def test_a_chat_cap_change_is_recorded_and_reads_as_a_sentence(musteri, sahip):
    uye = operator_yap(musteri, rol="operator", email="elif@ornek.com")
    uyelik = Uyelik.objects.get(kullanici=uye, musteri=musteri)
    t = giris_yapmis(sahip)
    res = t.post(f"/portal/ekip/{uyelik.id}", {"islem": "guncelle", "rol": "operator", "max_chat_per_tenant": "3"})
    assert res.status_code == 302
    kayit = DenetimKaydi.objects.get(musteri=musteri, eylem="uye_limit_degisti")
    assert kayit.hedef == f"kullanici:{uye.id}" and kayit.email == "sahip@ornek.com"
    assert kayit.ayrinti == {"email": "elif@ornek.com", "onceki": None, "yeni": 3}
    # a save that keeps the cap (the role changes) records the role only
    t.post(f"/portal/ekip/{uyelik.id}", {"islem": "guncelle", "rol": "yonetici", "max_chat_per_tenant": "3"})
    assert DenetimKaydi.objects.filter(musteri=musteri, eylem="uye_limit_degisti").count() == 1
    assert DenetimKaydi.objects.filter(musteri=musteri, eylem="uye_rol_degisti").count() == 1
    sahip.dil = "en"
    sahip.save(update_fields=["dil"])
    metinler = _metinler(t.get("/portal/gizlilik").content.decode())
    assert "Changed elif@ornek.com's concurrent chat cap: unlimited → 3." in metinler
    assert "Changed elif@ornek.com's role: Operator → Admin." in metinler


def test_canned_response_changes_are_recorded(musteri, sahip):
    t = giris_yapmis(sahip)
    t.post("/portal/hazir-yanitlar", {"kisayol": "/selam", "baslik": "Selam", "icerik": "Merhaba"})
    yanit = HazirYanit.objects.get(musteri=musteri)
    t.post(f"/portal/hazir-yanitlar/{yanit.id}", {"kisayol": "/merhaba", "baslik": "Selam", "icerik": "Merhaba!"})
    t.post(f"/portal/hazir-yanitlar/{yanit.id}", {"islem": "sil"})
    kayitlar = list(DenetimKaydi.objects.filter(musteri=musteri, eylem__startswith="hazir_yanit").order_by("id"))
    assert [k.eylem for k in kayitlar] == ["hazir_yanit_olusturuldu", "hazir_yanit_degisti", "hazir_yanit_silindi"]
    assert all(k.hedef == f"hazir_yanit:{yanit.id}" for k in kayitlar)
    assert kayitlar[1].ayrinti == {"kisayol": "/merhaba", "degerler": {"kisayol": ["/selam", "/merhaba"], "icerik": None}}
    sahip.dil = "en"
    sahip.save(update_fields=["dil"])
    metinler = _metinler(t.get("/portal/gizlilik").content.decode())
    assert metinler[:3] == ["Deleted the canned response /merhaba.",
                            "Changed the canned response /merhaba: Shortcut: /selam → /merhaba; Text.",
                            "Added the canned response /selam."]


def test_an_entry_written_before_values_were_recorded_still_reads_as_words(musteri, sahip):
    DenetimKaydi.objects.create(musteri=musteri, eylem="ayar_degisti", hedef=f"musteri:{musteri.id}",
                                ayrinti={"alanlar": ["saklama_gun"]})
    DenetimKaydi.objects.create(musteri=musteri, eylem="giris", hedef="kullanici:1", ayrinti={"kanal": "konsol"})
    sahip.dil = "en"
    sahip.save(update_fields=["dil"])
    html = giris_yapmis(sahip).get("/portal/gizlilik").content.decode()
    metinler = _metinler(html)
    assert "Changed the settings: Retention." in metinler
    assert "Logged in (console)." in metinler
    assert "{'alanlar'" not in html


def test_the_api_keeps_the_machine_fields_and_adds_the_sentence(musteri, sahip, api):
    t = giris_yapmis(sahip)
    t.post(YON, _yonlendirme_formu(sessiz_kapatma_dk=""))
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(api, sahip)}")
    res = api.get(f"/api/v1/operator/tenants/{musteri.id}/denetim", HTTP_ACCEPT_LANGUAGE="en")
    assert res.status_code == 200, res.content
    kayit = next(k for k in res.json()["data"]["kayitlar"] if k["eylem"] == "ayar_degisti")
    assert kayit["ayrinti"]["alanlar"] == ["sessiz_kapatma_dk"]
    assert kayit["metin"] == "Changed the settings: Silent close: 30 min → off."
    res = api.get(f"/api/v1/operator/tenants/{musteri.id}/denetim", HTTP_ACCEPT_LANGUAGE="tr")
    kayit = next(k for k in res.json()["data"]["kayitlar"] if k["eylem"] == "ayar_degisti")
    assert kayit["metin"] == "Ayarları değiştirdi: Sessiz kapatma: 30 dk → kapalı."


def _sla_formu(**degisen) -> dict:
    """The SLA page's form as it posts: every field, every target (empty: none)."""
    veri = {"uyari_dk": "15", "chat_ilk_yanit_sn": "", "mesai_icinde": "on"}
    veri.update({f"hedef_{o}_{a}": "" for o in ("acil", "yuksek", "normal", "dusuk")
                 for a in ("ilk_yanit_dk", "sonraki_yanit_dk", "cozum_dk")})
    veri.update(degisen)
    return {k: v for k, v in veri.items() if v is not None}


def test_an_sla_change_in_the_portal_records_only_what_changed_old_to_new(musteri, sahip):
    t = giris_yapmis(sahip)
    res = t.post("/portal/sla", _sla_formu(aktif="on", uyari_dk="30", hedef_acil_ilk_yanit_dk="15"))
    assert res.status_code == 302, res.content.decode()[:500]
    # the same form again, one target changed: only that target is recorded
    res = t.post("/portal/sla", _sla_formu(aktif="on", uyari_dk="30", hedef_acil_ilk_yanit_dk="10"))
    assert res.status_code == 302
    ilk, ikinci = DenetimKaydi.objects.filter(musteri=musteri, eylem="sla_degisti").order_by("id")
    assert ilk.ayrinti["degerler"] == {"aktif": [False, True], "uyari_dk": [15, 30],
                                       "hedefler.acil.ilk_yanit_dk": [None, 15]}
    assert ikinci.ayrinti["degerler"] == {"hedefler.acil.ilk_yanit_dk": [15, 10]}
    assert ilk.email == "sahip@ornek.com"
    html = t.get("/portal/gizlilik").content.decode()
    assert _metinler(html)[:2] == [
        "SLA politikasını değiştirdi: Acil öncelikte ilk yanıt hedefi: 15 dk → 10 dk.",
        "SLA politikasını değiştirdi: Etkin: kapalı → açık; Uyarı süresi: 15 dk → 30 dk; "
        "Acil öncelikte ilk yanıt hedefi: hedef yok → 15 dk."]
    sahip.dil = "en"
    sahip.save(update_fields=["dil"])
    html = t.get("/portal/gizlilik").content.decode()
    assert _metinler(html)[:2] == [
        "Changed the SLA policy: Urgent priority, first response target: 15 min → 10 min.",
        "Changed the SLA policy: Active: off → on; Warning time: 15 min → 30 min; "
        "Urgent priority, first response target: no target → 15 min."]
    assert not TURKCE.search(_tablo(html).replace("sahip@ornek.com", "")), TURKCE.search(_tablo(html))


def test_an_sla_change_through_the_api_records_old_to_new(musteri, sahip, api):
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(api, sahip)}")
    yol = f"/api/v1/operator/tenants/{musteri.id}/sla"
    res = api.put(yol, {"chat_ilk_yanit_sn": 90, "mesai_icinde": False,
                        "hedefler": {"dusuk": {"cozum_dk": 2880}, "yuksek": {"sonraki_yanit_dk": 60}}}, format="json")
    assert res.status_code == 200, res.content
    res = api.put(yol, {"chat_ilk_yanit_sn": None, "hedefler": {"yuksek": {"sonraki_yanit_dk": 60}}}, format="json")
    assert res.status_code == 200, res.content
    res = api.get(f"/api/v1/operator/tenants/{musteri.id}/denetim", HTTP_ACCEPT_LANGUAGE="en")
    assert res.status_code == 200, res.content
    kayitlar = [k for k in res.json()["data"]["kayitlar"] if k["eylem"] == "sla_degisti"]
    assert [k["ayrinti"]["degerler"] for k in kayitlar] == [
        {"chat_ilk_yanit_sn": [90, None]},
        {"chat_ilk_yanit_sn": [None, 90], "mesai_icinde": [True, False],
         "hedefler.yuksek.sonraki_yanit_dk": [None, 60], "hedefler.dusuk.cozum_dk": [None, 2880]}]
    assert [k["metin"] for k in kayitlar] == [
        "Changed the SLA policy: First response in chats: 90 s → no target.",
        "Changed the SLA policy: Count within working hours only: on → off; First response in chats: no target → 90 s; "
        "High priority, next response target: no target → 60 min; Low priority, resolution target: no target → 2880 min."]

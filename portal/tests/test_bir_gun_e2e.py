"""A whole day in Chromium (issue 39, "A test of a whole day"): two operators (Elif in Turkish, John in
an English browser with English as his profile language), the owner in the portal and seven visitors
at once (each its own browser context, one on a phone), against a real server in both
configurations the service runs in:

- `gomulu`: the embedded default of `make run` (uvicorn on its own SQLite file, no Redis: the
  in-memory channel layer, and the timed rules run by the web process itself);
- `postgresql`: uvicorn on the test database and Redis, with a real Celery worker and beat.

The shift: automatic routing (round robin up to each operator's cap, the next waiting chat taken as
soon as a place frees), a note with an @mention, a transfer with a handover note, a file dropped and
one pasted in the console, the owner closing the day (the widget says closed, nobody is assigned),
a reload of every page, a claim race on the waiting chat (exactly one operator wins, the other is
told why), an SLA warning, and an export and erasure of one visitor from the portal. At the end each
person's screen is compared with the server: exact message counts on both sides, no duplicates,
notes never on a visitor's screen, no Turkish words on John's.

Screenshots go to the test's tmp dir; `BIR_GUN_EKRAN_KAYDET=1` (or `make ekran-goruntuleri`) also
writes them to docs/screenshots/.
"""
import datetime as dt
import io
import json
import os
import re
import subprocess
import sys
import time
import zipfile
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import requests
from django.conf import settings
from django.db import connection

from dosyalar.tests.yardimci import png_bayt
from panel.tests.test_gelen_kutusu_tarayici import DOSYA_OLAYI, PDF, b64
from supportdesk.testing.canli_sunucu import CanliSunucu
from supportdesk.testing.gomulu import gocmus_sqlite
from supportdesk.testing.tarayici import TARAYICI_ISARETLERI, chromium

from .bir_gun_kurulum import kur

pytestmark = [*TARAYICI_ISARETLERI, pytest.mark.slow]
KOK = Path(settings.BASE_DIR)
EKRAN_DIZINI = KOK / "docs" / "screenshots"
SURE_MS = 15_000

# One server configuration for both runs: fast sweeps (routing backstop, SLA) and the production
# presence windows, so a reloaded console keeps its chats as it does in production.
SUNUCU_AYARLARI = {
    "WIDGET_RATE_LIMIT": "100000/min", "GIRIS_KILIDI": "false", "WEBHOOK_LOCAL_WORKER": "false",
    "LOG_LEVEL": "WARNING", "SLA_TARAMA_ARALIGI": "1", "ATAMA_TARAMA_ARALIGI": "1",
    "CANLI_SOKET_TTL": "30", "CANLI_KAPANIS_PENCERESI": "60", "CANLI_REST_PENCERESI": "90", "CANLI_TARAMA_ARALIGI": "5",
}
WORKER_EK_AYARLARI = {"SLA_TARAMA_ARALIGI": "1", "ATAMA_TARAMA_ARALIGI": "1"}

# Words of the console's Turkish catalog (static/panel/metinler.js) that an English member must never
# meet; the day's content on John's screen is English (English visitors, English notes to him).
TURKCE_SOZCUKLER = [
    "Sohbetler", "Sohbetlerim", "Talepler", "Kuyruk", "Kabul et", "Aktar", "Kapat", "Gönder", "İç not", "Çevrimiçi",
    "Meşgul", "Çevrimdışı", "Çıkış", "bekliyor", "Ziyaretçi", "Temsilci", "Yanıtla", "Üstlen", "Öncelik", "Etiket",
    "Durumum", "Projeler", "Tümü", "anıldınız", "katıldı", "aktardı", "aktarıldı", "kapandı", "dakika", "saniye",
    "Dosya", "Bağlantı", "Canlı", "Yükleniyor", "Sohbet seçin", "Pano", "Bugün", "Dün",
]


# --- the server, in each configuration -----------------------------------------------------------
class GomuluSunucu:
    """`make run`'s topology: one uvicorn process on a SQLite file of its own, no Redis."""

    def __init__(self, tmp: Path):
        db_url = gocmus_sqlite(tmp / "gun.sqlite3")  # `migrate`'s result, built once (supportdesk.testing.gomulu)
        ortam = {"DATABASE_URL": db_url, "REDIS_URL": "", "KOSUCU_ZAMANLAYICI": "true", **SUNUCU_AYARLARI}
        cikti = self._komut(ortam, "shell", "-c", "from portal.tests.bir_gun_kurulum import yazdir; yazdir()")
        self.veri = json.loads(cikti.strip().splitlines()[-1])
        self.sunucu = CanliSunucu(tmp=tmp, ek_ortam=ortam, veritabani_url=db_url)

    @staticmethod
    def _komut(ortam: dict, *argumanlar: str) -> str:
        tam = {**os.environ, "DJANGO_SETTINGS_MODULE": "supportdesk.test_settings", **ortam}
        tam.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        sonuc = subprocess.run([sys.executable, "manage.py", *argumanlar], cwd=KOK, env=tam,
                               capture_output=True, text=True, timeout=300)
        assert sonuc.returncode == 0, sonuc.stdout[-2000:] + sonuc.stderr[-3000:]
        return sonuc.stdout

    @property
    def url(self):
        return self.sunucu.url

    def kapat(self):
        self.sunucu.kapat()


class PostgresSunucu:
    """uvicorn on the test database and Redis; the timed rules run by a real Celery worker's beat."""

    def __init__(self, request, tmp: Path):
        if connection.vendor != "postgresql" or not os.environ.get("REDIS_URL"):
            pytest.skip("PostgreSQL ve Redis ile gün testi ikisini de ister (make test, CI).")
        request.getfixturevalue("celery_worker_sureci")
        self.veri = kur()
        self.sunucu = CanliSunucu(tmp=tmp, ek_ortam=SUNUCU_AYARLARI)

    @property
    def url(self):
        return self.sunucu.url

    def kapat(self):
        self.sunucu.kapat()


@pytest.fixture(params=["gomulu", "postgresql"])
def sunucu(request, tmp_path):
    s = GomuluSunucu(tmp_path) if request.param == "gomulu" else PostgresSunucu(request, tmp_path)
    yield s
    s.kapat()


@pytest.fixture(scope="module")
def tarayici():
    with chromium() as browser:
        yield browser


# --- people --------------------------------------------------------------------------------------
def ekran(page, tmp_path: Path, ad: str) -> None:
    page.screenshot(path=str(tmp_path / ad))
    if os.environ.get("BIR_GUN_EKRAN_KAYDET") == "1":
        EKRAN_DIZINI.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(EKRAN_DIZINI / ad))


class Kisi:
    """One browser context: its page, and the script errors it raised."""

    def __init__(self, tarayici, *, locale: str, telefon: bool = False):
        secenek = ({"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True} if telefon
                   else {"viewport": {"width": 1280, "height": 800}})
        self.context = tarayici.new_context(locale=locale, **secenek)
        self.context.set_default_timeout(SURE_MS)
        self.page = self.context.new_page()
        self.hatalar: list[str] = []
        self.page.on("pageerror", lambda e: self.hatalar.append(str(e)))


WIDGET_SOZ = {
    "tr": {"ac": "Destek penceresini aç", "ad": "Adınız", "email": "E-posta adresiniz", "mesaj": "Mesajınız",
           "baslat": "Sohbeti başlat", "gonder": "Gönder"},
    "en": {"ac": "Open support window", "ad": "Your name", "email": "Your email address", "mesaj": "Your message",
           "baslat": "Start chat", "gonder": "Send"},
}


class Ziyaretci(Kisi):
    def __init__(self, tarayici, url: str, api_key: str, ad: str, dil: str, telefon: bool = False):
        super().__init__(tarayici, locale="en-US" if dil == "en" else "tr-TR", telefon=telefon)
        self.url, self.api_key, self.ad, self.dil = url, api_key, ad, dil
        self.soz = WIDGET_SOZ[dil]
        self.page.goto(f"{url}/demo/")
        self.page.get_by_role("button", name=re.compile(self.soz["ac"])).wait_for()
        self.oturum_id = None

    @property
    def log(self):
        return self.page.get_by_role("log")

    def baslat(self, mesaj: str) -> None:
        page = self.page
        self.ac()
        page.get_by_label(self.soz["ad"]).fill(self.ad)
        page.get_by_label(self.soz["email"]).fill(
            self.ad.split()[0].lower().translate(str.maketrans("çğıöşü", "cgiosu")) + "@example.com")
        with page.expect_response(lambda r: "/api/v1/widget/chat/start" in r.url) as cevap:
            page.get_by_label(self.soz["mesaj"]).fill(mesaj)
            page.get_by_role("button", name=self.soz["baslat"]).click()
        govde = cevap.value.json()
        assert cevap.value.ok, govde
        self.oturum_id = govde["data"]["oturum"]["id"]
        self.log.get_by_text(mesaj).wait_for()

    def yaz(self, mesaj: str) -> None:
        self.page.get_by_label(self.soz["mesaj"]).fill(mesaj)
        self.page.get_by_role("button", name=self.soz["gonder"], exact=True).click()
        self.log.get_by_text(mesaj).wait_for()

    def kimlik(self) -> str:
        return self.page.evaluate("k => localStorage.getItem(k)", f"supportdesk:{self.api_key}:ziyaretci")

    def mesaj_idleri(self) -> list[int]:
        return [int(i) for i in self.page.locator("supportdesk-widget .m[data-id]").evaluate_all(
            "els => els.map(e => e.dataset.id)")]

    def ac(self) -> None:
        # the launcher, or the panel a reload kept open
        self.page.locator("supportdesk-widget").get_by_role("button").first.wait_for()
        if not self.page.get_by_role("dialog").is_visible():
            self.page.get_by_role("button", name=re.compile(self.soz["ac"])).click()
        self.page.get_by_role("dialog").wait_for()

    def yenilendi(self) -> None:
        self.page.wait_for_load_state()
        self.ac()
        self.log.locator(".m").first.wait_for()


KONSOL_SOZ = {
    "tr": {"eposta": "E-posta", "sifre": "Şifre", "giris": "Giriş yap", "tumu": "Tümü", "kabul": "Kabul et",
           "aktar": "Aktar", "kapat": "Kapat", "evet": "Evet", "not": "İç not", "hedef": "Hedef", "aktar_not": "^Not",
           "baskasi": "Sohbet başka bir temsilci tarafından kabul edildi."},
    "en": {"eposta": "Email", "sifre": "Password", "giris": "Sign in", "tumu": "All", "kabul": "Accept",
           "aktar": "Transfer", "kapat": "Close", "evet": "Yes", "not": "Internal note", "hedef": "Target",
           "aktar_not": "^Note", "baskasi": "The chat was accepted by another agent."},
}


class Operator(Kisi):
    def __init__(self, tarayici, url: str, kisi: dict, dil: str):
        super().__init__(tarayici, locale="en-US" if dil == "en" else "tr-TR")
        self.kisi, self.soz, self.url = kisi, KONSOL_SOZ[dil], f"{url}/panel/"
        page = self.page
        page.goto(self.url)
        page.get_by_label(self.soz["eposta"], exact=True).fill(kisi["email"])
        page.get_by_label(self.soz["sifre"], exact=True).fill(kisi["sifre"])
        page.get_by_role("button", name=self.soz["giris"]).click()
        self.hazir()

    def hazir(self) -> None:
        self.page.get_by_role("tab", name=re.compile(self.soz["tumu"])).wait_for()
        self.page.locator('.mod[data-canli="1"]').wait_for()  # its socket is live

    def satir(self, oturum_id):
        return self.page.locator(f'.satir[data-id="{oturum_id}"]')

    def aktif(self, oturum_id):
        return self.page.locator(f'#aktifler .satir[data-id="{oturum_id}"]')

    def ac(self, oturum_id) -> None:
        self.aktif(oturum_id).locator(".satir-ac").click()
        self.page.locator(f'#aktifler .satir[data-id="{oturum_id}"] .satir-ac[aria-current="true"]').wait_for()

    def mesaj_idleri(self) -> list[int]:
        return [int(i) for i in self.page.locator(".mesajlar li.mesaj[data-id]").evaluate_all(
            "els => els.map(e => e.dataset.id)")]

    def yaz(self, metin: str) -> None:
        yazi = self.page.locator("#yazi")
        yazi.fill(metin)
        yazi.press("Enter")
        self.page.get_by_role("log").get_by_text(metin).wait_for()

    def kapat_sohbet(self, oturum_id) -> None:
        self.ac(oturum_id)
        self.page.locator(".orta").get_by_role("button", name=self.soz["kapat"], exact=True).click()
        self.page.get_by_role("dialog").get_by_role("button", name=self.soz["evet"]).click()
        self.satir(oturum_id).wait_for(state="detached")

    def yenilendi(self) -> None:
        self.page.wait_for_load_state()
        self.hazir()


class Api:
    """The owner's bearer token: the server's own account of each chat, to compare screens with."""

    def __init__(self, url: str, kisi: dict):
        self.url = f"{url}/api/v1"
        res = requests.post(f"{self.url}/auth/login", json={"email": kisi["email"], "sifre": kisi["sifre"]}, timeout=15)
        assert res.status_code == 200, res.text
        self.baslik = {"Authorization": f"Bearer {res.json()['data']['token']}"}

    def get(self, yol: str, **params) -> dict:
        res = requests.get(f"{self.url}{yol}", headers=self.baslik, params=params, timeout=15)
        assert res.status_code == 200, (yol, res.status_code, res.text)
        return res.json()["data"]

    def sohbet(self, oturum_id) -> dict:
        return self.get(f"/operator/chat/{oturum_id}/messages")

    def mesajlar(self, oturum_id) -> list[dict]:
        return self.sohbet(oturum_id)["mesajlar"]


def bekle(kosul, sure=SURE_MS / 1000, mesaj=""):
    son = time.monotonic() + sure
    while time.monotonic() < son:
        if kosul():
            return
        time.sleep(0.1)
    assert kosul(), mesaj


def metinler_dogru(op, mesajlar: list[dict]) -> None:
    """The open chat shows each message with its own words, visibly."""
    # inside its bubble (a squeezed bubble clips it), with a height
    metinler = op.page.locator(".mesajlar li.mesaj .metin").evaluate_all("""els => els.map(e => {
      const r = e.getBoundingClientRect(), b = e.closest("li").getBoundingClientRect();
      return [e.innerText, r.height > 0 && r.top >= b.top - 1 && r.bottom <= b.bottom + 1]; })""")
    assert metinler == [[m["icerik"], True] for m in mesajlar], (metinler, op.page.locator(".mesajlar").inner_html())


def gonderenler(mesajlar: list[dict]) -> dict[str, int]:
    sayac: dict[str, int] = {}
    for m in mesajlar:
        tur = "not" if m.get("ozel") else m["gonderen"]
        sayac[tur] = sayac.get(tur, 0) + 1
    return sayac


# --- the day -------------------------------------------------------------------------------------
def test_bir_gun(sunucu, tarayici, tmp_path):
    veri, url = sunucu.veri, sunucu.url
    api_key = veri["musteri"]["api_key"]
    api = Api(url, veri["sahip"])
    elif_ = Operator(tarayici, url, veri["elif"], "tr")
    john = Operator(tarayici, url, veri["john"], "en")
    kisiler = [elif_, john]

    def ziyaretci(ad, dil, telefon=False):
        z = Ziyaretci(tarayici, url, api_key, ad, dil, telefon)
        kisiler.append(z)
        return z

    # 1. Morning: four visitors at once, routed round robin (Elif, John, Elif, John) up to each one's cap.
    v1, v2 = ziyaretci("Ayşe Yılmaz", "tr"), ziyaretci("Jane Doe", "en")
    v3, v4 = ziyaretci("Mark Lee", "en"), ziyaretci("Ann Kim", "en")
    beklenen_sahip = {}
    for z, op, mesaj in ((v1, elif_, "Merhaba, siparişim gecikti."), (v2, john, "Hello, my invoice is missing."),
                         (v3, elif_, "Hi, I need a refund."), (v4, john, "Hello, I cannot log in.")):
        z.baslat(mesaj)
        op.aktif(z.oturum_id).wait_for()
        beklenen_sahip[z.oturum_id] = op.kisi["id"]
        katilan = op.kisi["ad"]
        z.log.locator(".m.s").filter(has_text=katilan).wait_for()  # "… joined" / "… katıldı"
    for oturum_id, operator_id in beklenen_sahip.items():
        assert api.sohbet(oturum_id)["oturum"]["operator_id"] == operator_id

    # 2. A fifth visitor on a phone waits (both are at their cap) until Elif closes a chat.
    v5 = ziyaretci("Mehmet Öz", "tr", telefon=True)
    v5.baslat("Merhaba, kargom nerede?")
    for op in (elif_, john):
        op.satir(v5.oturum_id).wait_for()
    assert api.sohbet(v5.oturum_id)["oturum"]["durum"] == "bekliyor"
    elif_.ac(v1.oturum_id)
    elif_.yaz("Siparişiniz yola çıktı, iyi günler.")
    v1.log.get_by_text("Siparişiniz yola çıktı, iyi günler.").wait_for()
    v1.yaz("Teşekkürler!")
    elif_.page.get_by_role("log").get_by_text("Teşekkürler!").wait_for()
    elif_.kapat_sohbet(v1.oturum_id)
    elif_.aktif(v5.oturum_id).wait_for()  # the place freed went to the waiting chat
    john.satir(v5.oturum_id).wait_for(state="detached")
    v5.log.locator(".m.s").filter(has_text="Elif Kaya").wait_for()

    # 3. A note in the phone visitor's chat mentioning John: he is told, the visitor never sees it.
    elif_.ac(v5.oturum_id)
    page = elif_.page
    page.get_by_role("button", name="İç not").click()
    yazi = page.locator("#yazi")
    yazi.type("@joh")
    page.get_by_role("listbox", name="Anılacak meslektaş").get_by_role("option", name=re.compile("John Smith")).wait_for()
    yazi.press("Enter")
    yazi.type("can you check the courier for this one?")
    yazi.press("Enter")
    page.locator(".mesaj.not").filter(has_text="can you check the courier").wait_for()
    duyuru = john.page.locator('[data-test="bahsedilme"]')
    duyuru.wait_for()
    assert "You were mentioned in a note" in duyuru.inner_text()
    duyuru.get_by_role("button", name="Close").click()
    page.get_by_role("button", name="Yanıt", exact=True).click()  # back to replies
    yazi.fill("/kar")  # a canned response of the project
    page.get_by_role("listbox", name="Hazır yanıtlar").get_by_role("option", name=re.compile("Kargo durumu")).wait_for()
    yazi.press("Enter")
    assert yazi.input_value() == "Kargonuz bugün teslim edilecek."
    yazi.press("Enter")
    page.get_by_role("log").get_by_text("Kargonuz bugün teslim edilecek.").wait_for()
    v5.log.get_by_text("Kargonuz bugün teslim edilecek.").wait_for()

    # 4. Files from the console, once each: one dropped on the chat, one screenshot pasted.
    page.locator(".orta").evaluate(DOSYA_OLAYI, ["drop", b64(PDF), "fatura.pdf", "application/pdf"])
    page.get_by_role("log").locator(".ek").filter(has_text="fatura.pdf").wait_for()
    page.locator("#yazi").evaluate(DOSYA_OLAYI, ["paste", b64(png_bayt()), "image.png", "image/png"])
    page.get_by_role("log").locator("img[alt^='ekran-goruntusu-']").wait_for()
    v5.log.locator(".ek").filter(has_text="fatura.pdf").wait_for()
    v5.log.locator("img[alt^='ekran-goruntusu-']").wait_for()
    ekler = [m["ek"]["ad"] for m in api.mesajlar(v5.oturum_id) if m.get("ek")]
    assert len(ekler) == 2 and ekler[0] == "fatura.pdf" and ekler[1].startswith("ekran-goruntusu-"), ekler
    assert v5.log.locator(".ek").count() == 2
    ekran(v5.page, tmp_path, "gun-widget-telefon.png")
    ekran(elif_.page, tmp_path, "gun-konsol.png")
    metinler_dogru(elif_, api.mesajlar(v5.oturum_id))

    # 5. John closes one of his chats; Elif hands the refund over to him with a note.
    john.ac(v2.oturum_id)
    john.yaz("Your invoice is on its way by email.")
    v2.log.get_by_text("Your invoice is on its way by email.").wait_for()
    john.kapat_sohbet(v2.oturum_id)
    elif_.ac(v3.oturum_id)
    elif_.yaz("Let me pass you to my colleague.")
    page.get_by_role("button", name="Aktar", exact=True).click()
    page.get_by_label("Hedef").select_option(str(veri["john"]["id"]))
    page.get_by_label(re.compile("^Not")).fill("Order 1234, refund approved by the owner.")
    page.get_by_role("dialog").get_by_role("button", name="Aktar").click()
    elif_.satir(v3.oturum_id).wait_for(state="detached")
    john.aktif(v3.oturum_id).wait_for()
    john.ac(v3.oturum_id)
    john.page.locator(".mesaj.not").filter(has_text="Order 1234, refund approved").wait_for()
    sistem = [m["icerik"] for m in api.mesajlar(v3.oturum_id) if m["gonderen"] == "sistem"]
    assert any("John Smith" in s for s in sistem[1:]), sistem  # the handover line says to whom
    john.yaz("Hi Mark, your refund is approved.")
    v3.log.get_by_text("Hi Mark, your refund is approved.").wait_for()
    ekran(v3.page, tmp_path, "gun-widget-masaustu.png")
    ekran(john.page, tmp_path, "gun-konsol-en.png")

    # 6. The owner marks today a holiday: the widget says closed, a new chat is nobody's.
    sahip = Kisi(tarayici, locale="tr-TR")
    kisiler.append(sahip)
    sp = sahip.page
    sp.goto(f"{url}/portal/giris")
    sp.locator("input[name=email]").fill(veri["sahip"]["email"])
    sp.locator("input[name=sifre]").fill(veri["sahip"]["sifre"])
    sp.get_by_role("button", name="Giriş yap").click()
    sp.wait_for_url(re.compile(r"/portal/(?!giris)"))
    sp.goto(f"{url}/portal/yonlendirme")
    bugun = dt.datetime.now(ZoneInfo(veri["musteri"]["saat_dilimi"])).date().isoformat()
    sp.locator("#tatiller").fill(bugun)
    with sp.expect_response(lambda r: r.request.method == "POST" and "/portal/yonlendirme" in r.url) as kayit:
        sp.get_by_role("button", name="Kaydet").click()
    assert kayit.value.status == 302, sp.locator("main").inner_text()
    sp.locator("#tatiller").wait_for()
    assert sp.locator("#tatiller").input_value().strip() == bugun
    v6 = ziyaretci("Tom Hardy", "en")
    v6.ac()
    panel = v6.page.get_by_role("dialog")
    panel.get_by_text("We're offline right now").wait_for()
    assert "as soon as possible" not in panel.inner_text()
    v6.baslat("Hello, is anyone there?")
    assert "joined" not in v6.log.inner_text()
    for op in (elif_, john):
        op.satir(v6.oturum_id).wait_for()
    # John frees a place: while closed it is not filled (automatic assignment only while open).
    john.kapat_sohbet(v4.oturum_id)
    ekran(v6.page, tmp_path, "gun-widget-kapali.png")

    # 7. Every page reloads mid-shift, all at once: each reload is sent, then each page is awaited
    # (one after another, each waited out the others' loading and sockets in turn).
    yenilenen = [k for k in kisiler if isinstance(k, (Operator, Ziyaretci))]
    for k in (*yenilenen, sahip):
        k.page.reload(wait_until="commit")
    for k in yenilenen:
        k.yenilendi()
    sp.wait_for_load_state()

    # 8. The claim race: both click Accept on the waiting chat at the same instant (two fresh
    # consoles, neither has a chat open): exactly one wins, the other is told why.
    assert api.sohbet(v6.oturum_id)["oturum"]["durum"] == "bekliyor"
    an = int(time.time() * 1000) + 500
    for op in (elif_, john):
        dugme = op.satir(v6.oturum_id).get_by_role("button", name=re.compile(f"^{op.soz['kabul']}"))
        dugme.evaluate("(el, an) => setTimeout(() => el.click(), Math.max(0, an - Date.now()))", an)
    bekle(lambda: api.sohbet(v6.oturum_id)["oturum"]["durum"] == "aktif")
    kazanan_id = api.sohbet(v6.oturum_id)["oturum"]["operator_id"]
    kazanan, kaybeden = (elif_, john) if kazanan_id == veri["elif"]["id"] else (john, elif_)
    kazanan.aktif(v6.oturum_id).wait_for()
    kaybeden.page.get_by_role("alert").filter(has_text=kaybeden.soz["baskasi"]).wait_for()
    kaybeden.satir(v6.oturum_id).wait_for(state="detached")
    katilim = [m for m in api.mesajlar(v6.oturum_id) if m["gonderen"] == "sistem" and kazanan.kisi["ad"] in m["icerik"]]
    assert len(katilim) == 1, katilim
    v6.log.locator(".m.s").filter(has_text=kazanan.kisi["ad"]).wait_for()

    # 9. A ticket from a seventh visitor: due in 10 minutes, warned 15 before, so at once.
    v7 = ziyaretci("Zeynep Ak", "tr")
    v7.ac()
    v7.page.get_by_role("tab", name="Talepler").click()
    v7.page.get_by_role("button", name="Yeni talep").click()
    v7.page.get_by_label("Konu").fill("Fatura adresi")
    v7.page.get_by_label("Açıklama").fill("Fatura adresimi değiştirmek istiyorum.")
    with v7.page.expect_response(lambda r: "/api/v1/widget/ticket/create" in r.url) as talep:
        v7.page.get_by_role("button", name="Talebi gönder").click()
    assert talep.value.ok, talep.value.text()
    v7.page.get_by_role("log", name="Fatura adresi").get_by_text("Fatura adresimi değiştirmek istiyorum.").wait_for()
    [ticket] = api.get("/operator/tickets")["ticketlar"]
    for op in (elif_, john):
        op.page.keyboard.press("Escape")
        op.page.keyboard.press("v")
        op.page.locator(f'#talepler .satir[data-id="{ticket["id"]}"] .sla-rozet.sla-yaklasan').wait_for()
    bekle(lambda: api.get("/operator/tickets", sla="yaklasan")["ticketlar"], mesaj="no SLA warning")
    for op in (elif_, john):
        op.page.keyboard.press("c")

    # 10. What each person sees, against the server: exact counts, no duplicates, no notes for visitors.
    beklenen = {  # per chat: visitor messages, operator messages (files included), notes
        v1.oturum_id: {"ziyaretci": 2, "operator": 1},
        v2.oturum_id: {"ziyaretci": 1, "operator": 1},
        v3.oturum_id: {"ziyaretci": 1, "operator": 2, "not": 1},
        v4.oturum_id: {"ziyaretci": 1},
        v5.oturum_id: {"ziyaretci": 1, "operator": 3, "not": 1},
        v6.oturum_id: {"ziyaretci": 1},
    }
    for z in (v1, v2, v3, v4, v5, v6):
        mesajlar = api.mesajlar(z.oturum_id)
        sayim = gonderenler(mesajlar)
        sayim.pop("sistem", None)
        assert sayim == beklenen[z.oturum_id], (z.ad, mesajlar)
        gorunur = [m["id"] for m in mesajlar if not m.get("ozel")]
        bekle(lambda z=z, g=gorunur: z.mesaj_idleri() == g, mesaj=(z.ad, z.mesaj_idleri(), gorunur))
        assert len(set(z.mesaj_idleri())) == len(z.mesaj_idleri())
        assert "can you check the courier" not in z.log.inner_text() and "Order 1234" not in z.log.inner_text()
    for op, oturum_id in ((elif_, v5.oturum_id), (john, v3.oturum_id)):
        op.ac(oturum_id)
        mesajlar = api.mesajlar(oturum_id)
        tumu = [m["id"] for m in mesajlar]
        bekle(lambda op=op, t=tumu: op.mesaj_idleri() == t, mesaj=(op.kisi["ad"], op.mesaj_idleri(), tumu))
        metinler_dogru(op, mesajlar)

    # No Turkish on John's screen (the project's own name aside).
    metin = john.page.locator("body").inner_text().replace(veri["musteri"]["firma_adi"], "")
    bulunan = [s for s in TURKCE_SOZCUKLER if re.search(rf"(?<!\w){re.escape(s)}(?!\w)", metin)]
    assert not bulunan, (bulunan, metin)

    # 11. The owner exports the first visitor's data, then erases it, from the privacy page.
    ziyaretci_id = v1.kimlik()
    sp.goto(f"{url}/portal/gizlilik")
    ekran(sp, tmp_path, "gun-portal-gizlilik.png")
    sp.locator("#id_ziyaretci").fill(ziyaretci_id)
    sp.locator('[data-test="ziyaretci-bul"]').get_by_role("button").click()
    sp.locator('[data-test="ziyaretci-sohbetleri"]').get_by_text(f"#{v1.oturum_id}").wait_for()
    with sp.expect_download() as indirme:
        sp.locator('[data-test="disa-aktar"]').click()
    with zipfile.ZipFile(io.BytesIO(Path(indirme.value.path()).read_bytes())) as arsiv:
        disa = json.loads(arsiv.read("ziyaretci.json"))
    metinler = json.dumps(disa, ensure_ascii=False)
    for parca in ("Merhaba, siparişim gecikti.", "Siparişiniz yola çıktı, iyi günler.", "Teşekkürler!"):
        assert parca in metinler
    assert "Kargonuz" not in metinler  # another visitor's chat
    sp.locator("#id_onay").fill(ziyaretci_id)
    sp.locator('[data-test="sil"]').click()
    sp.get_by_text("Ziyaretçinin verisi silindi: 1 sohbet").wait_for()
    sp.locator('[data-test="ziyaretci-sohbetleri"]').get_by_text("Sohbet yok.").wait_for()
    res = requests.get(f"{url}/api/v1/operator/chat/{v1.oturum_id}/messages", headers=api.baslik, timeout=15)
    assert res.status_code == 404, res.text
    v1.page.reload()
    v1.page.get_by_role("button", name=re.compile(v1.soz["ac"])).wait_for()
    assert "siparişim gecikti" not in v1.page.locator("supportdesk-widget").inner_text()

    # The portal's canned responses page, for the screenshots.
    sp.goto(f"{url}/portal/hazir-yanitlar")
    ekran(sp, tmp_path, "gun-portal-hazir-yanitlar.png")

    for k in kisiler:
        assert not k.hatalar, k.hatalar
        k.context.close()

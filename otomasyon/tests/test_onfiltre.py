"""Issue 42: the rules' prefilter (`otomasyon.kosullar.OlayKurallari`: the rules whose first
condition is `esit`, `icerir` or `baslar` on one field tested as a group) decides exactly what each
rule decided alone (CONTRACT 23: every condition holds, Turkish casing folded, an empty list always
holds). Through the widget and the rules' API: which rules ran on a message (their notes) and what
each rule's runs list; then the engine against a rule-by-rule check on random rules, reads included."""
import random

import pytest

from chat.models import Mesaj, Oturum
from otomasyon.kosullar import DerlenmisKural, OlayKurallari

from .yardimci import START, W_MESAJ, etiket, istemci, kural_yaz, ok, operator_yap, widget_client

OLAY = "ziyaretci_mesaji"


def _kurallar(yc, musteri, tanimlar: dict[str, list[dict]]) -> dict[str, dict]:
    """A rule per name (in this order), whose one action is an internal note with its name."""
    return {ad: kural_yaz(yc, musteri.id, ad=ad, olay=OLAY, kosullar=kosullar,
                          eylemler=[{"tur": "not", "icerik": ad}])
            for ad, kosullar in tanimlar.items()}


def _calisanlar(widget, oturum_id: int, metin: str) -> set[str]:
    """The names of the rules whose actions ran on this visitor message."""
    once = Mesaj.objects.filter(oturum_id=oturum_id).order_by("-id").values_list("id", flat=True).first()
    ok(widget.post(W_MESAJ, {"ziyaretci_id": "z1", "oturum_id": oturum_id, "icerik": metin}, format="json"), 201)
    return set(Mesaj.objects.filter(oturum_id=oturum_id, ozel=True, id__gt=once).values_list("icerik", flat=True))


def _sonuclar(yc, kural) -> list[str]:
    return [c["sonuc"] for c in ok(yc.get(f"/api/v1/operator/kurallar/{kural['id']}/calismalar"))["calismalar"]]


def _m(alan: str, islem: str, deger: str) -> dict:
    return {"alan": alan, "islem": islem, "deger": deger}


@pytest.mark.django_db
def test_grouped_first_conditions_fold_turkish_escape_their_values_and_anchor_baslar(musteri):
    yc = istemci(operator_yap(musteri, rol="yonetici"))
    kurallar = _kurallar(yc, musteri, {
        "A": [_m("metin", "icerir", "İADE")],
        "B": [_m("metin", "icerir", "1+1")],  # a regular expression's "1+1" would find "11"
        "C": [_m("metin", "baslar", "kargo")],
        "D": [_m("metin", "icerir", "fatura"), _m("kanal", "esit", "email")],  # first holds, second not
        "E": [_m("metin", "esit", "Merhaba")],
        "F": [_m("metin", "icerir", "(?")],
    })
    widget = widget_client(musteri)
    o = ok(widget.post(START, {"ziyaretci_id": "z1"}, format="json"), 201)["oturum"]
    beklenen = [("ıade istiyorum", {"A"}), ("11 adet", set()), ("Sorum: 1+1?", {"B"}), ("benim kargom", set()),
                ("KARGO nerede", {"C"}), ("fatura", set()), ("MERHABA", {"E"}), ("merhaba dünya", set()),
                ("Iade ve KARGO (?)", {"A", "F"}), ("kargo İADE", {"A", "C"})]
    for metin, calisan in beklenen:
        assert _calisanlar(widget, o["id"], metin) == calisan, metin
    for ad, kural in kurallar.items():  # every message is a run of every rule, newest first
        assert _sonuclar(yc, kural) == ["uygulandi" if ad in c else "kosul_tutmadi" for _, c in reversed(beklenen)], ad


@pytest.mark.django_db
def test_negative_and_empty_first_conditions_and_list_fields(musteri):
    yc = istemci(operator_yap(musteri, rol="yonetici"))
    _kurallar(yc, musteri, {
        "F": [_m("metin", "icermez", "iade")],
        "G": [_m("kanal", "esit_degil", "email"), _m("metin", "icerir", "xyz")],
        "H": [],
        "I": [_m("etiket", "esit", "vİp")],
        "J": [_m("etiket", "icerir", "fat")],
        "K": [_m("etiket", "baslar", "ur")],
        "L": [_m("etiket", "esit", "iade")],  # one label's part, not a label
    })
    widget = widget_client(musteri)
    o = ok(widget.post(START, {"ziyaretci_id": "z1"}, format="json"), 201)["oturum"]
    Oturum.objects.get(pk=o["id"]).etiketler.add(etiket(musteri, "VIP"), etiket(musteri, "Ürün iade"))
    assert _calisanlar(widget, o["id"], "iade lazım") == {"H", "I", "K"}
    assert _calisanlar(widget, o["id"], "XYZ") == {"F", "G", "H", "I", "K"}


@pytest.mark.django_db
def test_a_rule_reads_a_field_after_the_actions_of_the_rules_before_it(musteri):
    """In a run, each rule is checked when reached: a label added by an earlier rule's action is
    seen by a later rule whose first condition reads the labels (its group is not tested ahead)."""
    yc = istemci(operator_yap(musteri, rol="yonetici"))
    vip = etiket(musteri, "VIP")
    kural_yaz(yc, musteri.id, olay=OLAY, kosullar=[_m("metin", "icerir", "vip")],
              eylemler=[{"tur": "etiket_ekle", "etiket_id": vip.id}])
    _kurallar(yc, musteri, {"etiketli": [_m("etiket", "esit", "VIP")], "baska": [_m("etiket", "esit", "yok")]})
    widget = widget_client(musteri)
    o = ok(widget.post(START, {"ziyaretci_id": "z1"}, format="json"), 201)["oturum"]
    assert _calisanlar(widget, o["id"], "merhaba") == set()
    assert _calisanlar(widget, o["id"], "VİP müşteriyim") == {"etiketli"}
    assert _calisanlar(widget, o["id"], "merhaba") == {"etiketli"}


class _Olay:
    """An event's folded fields, counting reads (as `motor.Baglam.katli`: once per field)."""

    def __init__(self, alanlar: dict[str, list[str]]):
        self.alanlar, self.okunan = alanlar, []

    def katli(self, alan: str) -> list[str]:
        if alan not in self.okunan:
            self.okunan.append(alan)
        return self.alanlar[alan]


def test_the_prefilter_decides_and_reads_as_rule_by_rule_checks_on_random_rules():
    rnd = random.Random(42)
    sozcukler = ["a", "ab", "b", "ba", "", "a.b", "x", "1+1", "ç"]
    alanlar = ["metin", "etiket", "dil"]
    islemler = ["esit", "esit_degil", "icerir", "icermez", "baslar"]
    for _ in range(400):
        kurallar = [DerlenmisKural.derle({"id": i, "olay": OLAY, "eylemler": [], "kosullar": [
            {"alan": rnd.choice(alanlar), "islem": rnd.choice(islemler), "deger": rnd.choice(sozcukler)}
            for _ in range(rnd.choice([0, 1, 1, 1, 2, 3]))]}) for i in range(rnd.randint(0, 12))]
        kume = OlayKurallari(kurallar)
        olay = {a: [rnd.choice(sozcukler) + rnd.choice(sozcukler) for _ in range(rnd.choice([0, 1, 1, 2]))]
                for a in alanlar}
        tek_tek, ilk = _Olay(olay), _Olay(olay)
        beklenen = [(k.id, k.tutar(tek_tek)) for k in kurallar]
        assert [(k.id, t) for k, t in kume.degerlendir(ilk)] == beklenen
        assert ilk.okunan == tek_tek.okunan  # the same fields, first read in the same order
        haric = tuple(k.id for k in kurallar if rnd.random() < 0.3)
        assert [(k.id, t) for k, t in kume.degerlendir(_Olay(olay), haric=haric)] == [
            b for b in beklenen if b[0] not in haric]
        tek_tek, biri = _Olay(olay), _Olay(olay)
        assert kume.biri_tutar(biri) == any(k.tutar(tek_tek) for k in kurallar)
        assert biri.okunan == tek_tek.okunan
        assert kume.idler == tuple(k.id for k in kurallar) and len(kume) == len(kurallar)


def test_a_group_that_finds_none_of_its_values_checks_none_of_its_rules():
    """The prefilter's point: "none holds" without a rule's own predicates (here they would fail)."""
    def kontrol_edilmemeli(degerler):
        raise AssertionError("checked one by one")

    def kural(i: int, islem: str, deger: str) -> DerlenmisKural:
        return DerlenmisKural(id=i, olay=OLAY, eylemler=[], ilk=("metin", islem, deger),
                              kosullar=(("metin", kontrol_edilmemeli),))

    kume = OlayKurallari([kural(1, "baslar", "kargo"), kural(2, "icerir", "iade"), kural(3, "esit", "selam"),
                          kural(4, "baslar", "a.b"), kural(5, "icerir", "1+1")])
    for metin in ("benim kargom", "selamlar", "axb", "11", "iad e"):
        olay = _Olay({"metin": [metin]})
        assert kume.biri_tutar(olay) is False
        assert [t for _, t in kume.degerlendir(olay)] == [False] * 5

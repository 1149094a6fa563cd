"""`/portal/sla` (CONTRACT 17, 21) and the SLA figures of `/portal/raporlar` and its CSV."""
import csv
import io
from datetime import timedelta

import pytest
from django.utils import timezone

from chat.models import Oturum
from supportdesk.testing.fixtures import operator_yap
from tickets.models import SlaPolitikasi, Ticket

from .yardimci import giris_yapmis

pytestmark = pytest.mark.django_db
SAYFA = "/portal/sla"


def _form(**ek):
    veri = {"aktif": "on", "mesai_icinde": "on", "uyari_dk": "15", "chat_ilk_yanit_sn": ""}
    for o in ("acil", "yuksek", "normal", "dusuk"):
        for a in ("ilk_yanit_dk", "sonraki_yanit_dk", "cozum_dk"):
            veri[f"hedef_{o}_{a}"] = ""
    veri.update(ek)
    return {k: v for k, v in veri.items() if v is not None}


def test_owner_edits_the_policy_and_every_member_reads_it(musteri):
    sahip = giris_yapmis(operator_yap(musteri, rol="sahip"))
    sayfa = sahip.get(SAYFA)
    assert sayfa.status_code == 200 and 'href="/portal/sla"' in sayfa.content.decode()
    res = sahip.post(SAYFA, _form(uyari_dk="5", chat_ilk_yanit_sn="60", hedef_acil_ilk_yanit_dk="10"))
    assert res.status_code == 302
    p = SlaPolitikasi.objects.get(musteri=musteri)
    assert p.aktif and p.uyari_dk == 5 and p.chat_ilk_yanit_sn == 60
    assert p.hedefler["acil"] == {"ilk_yanit_dk": 10, "sonraki_yanit_dk": None, "cozum_dk": None}

    operator = giris_yapmis(operator_yap(musteri))
    okunan = operator.get(SAYFA)
    assert okunan.status_code == 200 and 'value="10"' in okunan.content.decode()
    assert "<form method=\"post\" novalidate>" not in okunan.content.decode()
    assert operator.post(SAYFA, _form(uyari_dk="1")).status_code == 403
    assert SlaPolitikasi.objects.get(musteri=musteri).uyari_dk == 5


@pytest.mark.parametrize("alan, deger", [("uyari_dk", "-3"), ("uyari_dk", ""), ("hedef_normal_cozum_dk", "0"),
                                         ("hedef_normal_cozum_dk", "iki"), ("chat_ilk_yanit_sn", "999999")])
def test_a_bad_value_is_shown_and_nothing_is_stored(musteri, alan, deger):
    sahip = giris_yapmis(operator_yap(musteri, rol="sahip"))
    res = sahip.post(SAYFA, _form(**{alan: deger}))
    assert res.status_code == 400 and 'role="alert"' in res.content.decode()
    assert not SlaPolitikasi.objects.filter(musteri=musteri).exists()


def test_report_counts_met_and_breached_per_target_and_owner(musteri, diger_musteri):
    sahip_kullanici = operator_yap(musteri, rol="sahip", email="sahip@ekip.com")
    a = operator_yap(musteri, email="a@ekip.com")
    simdi = timezone.now() - timedelta(hours=1)
    satirlar = [  # (owner, ilk, sonraki, cozum)
        (a, "karsilandi", "ihlal", "karsilandi"),
        (a, "gecikti", "", "bekliyor"),
        (None, "karsilandi", "karsilandi", "ihlal"),
        (None, "", "", ""),
    ]
    for op, ilk, sonraki, cozum in satirlar:
        Ticket.objects.create(musteri=musteri, ziyaretci_id="z", konu="k", olusturulma=simdi, operator=op,
                              sla_ilk_durum=ilk, sla_sonraki_durum=sonraki, sla_cozum_durum=cozum)
    Ticket.objects.create(musteri=diger_musteri, ziyaretci_id="y", konu="k", olusturulma=simdi, sla_ilk_durum="ihlal")
    SlaPolitikasi.objects.create(musteri=musteri, chat_ilk_yanit_sn=60)
    for i, ilk_yanit in enumerate((30, 59, 61, None)):
        Oturum.objects.create(musteri=musteri, ziyaretci_id=f"z{i}", baslangic=simdi,
                              ilk_yanit_zamani=simdi + timedelta(seconds=ilk_yanit) if ilk_yanit else None)
    sahip = giris_yapmis(sahip_kullanici)
    sayfa = sahip.get("/portal/raporlar")
    assert sayfa.status_code == 200
    assert sayfa.context["sla_satirlari"] == [("ilk_yanit", "İlk yanıt", 2, 1), ("sonraki_yanit", "Sonraki yanıt", 1, 1),
                                              ("cozum", "Çözüm", 1, 1), ("chat_ilk_yanit", "Sohbette ilk yanıt", 2, 2)]
    assert sayfa.context["sla_operatorleri"] == [{"email": "a@ekip.com", "hucreler": [(1, 1), (0, 1), (1, 0)]}]
    csv_ = sahip.get("/portal/raporlar", {"bicim": "csv"})
    satirlar = list(csv.reader(io.StringIO(csv_.content.decode("utf-8-sig"))))
    assert ["sla_hedef", "karsilandi", "ihlal"] in satirlar
    assert ["ilk_yanit", "2", "1"] in satirlar and ["chat_ilk_yanit", "2", "2"] in satirlar
    assert ["a@ekip.com", "1", "1", "0", "1", "1", "0"] in satirlar

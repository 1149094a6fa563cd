"""Teams (CONTRACT 22) through HTTP: the tenant's list (any member), create / change / delete by
`sahip` and `yonetici`, names unique per tenant with Turkish casing, members of the tenant only,
bad bodies, tenant isolation, the audit log (`ekip_degisti`)."""
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from denetim.models import DenetimKaydi
from supportdesk.testing.factories import MusteriFactory
from tenants.models import Ekip

from .test_etiketler import API, hata, istemci, ok

pytestmark = pytest.mark.django_db


@pytest.fixture
def ortam(musteri):
    diger = MusteriFactory(firma_adi="Diğer")

    class Ortam:
        m, d = musteri, diger
        sahip = istemci(musteri, rol="sahip")
        yonetici = istemci(musteri, rol="yonetici")
        op = istemci(musteri)
        yabanci = istemci(diger, rol="sahip")

    return Ortam


def _liste_url(musteri_id):
    return f"{API}/operator/tenants/{musteri_id}/ekipler"


def _olustur(client, musteri_id, **govde):
    return client.post(_liste_url(musteri_id), govde, format="json")


def test_a_manager_creates_a_team_and_every_member_lists_it(ortam):
    (op, opc), (yon, yc) = ortam.op, ortam.yonetici
    ekip = ok(_olustur(yc, ortam.m.id, ad="  Satış  ", uyeler=[op.id, yon.id, op.id], atama_modu="sirayla",
                       widgetta_secilir=True), 201)["ekip"]
    assert ekip == {"id": ekip["id"], "musteri_id": ortam.m.id, "ad": "Satış", "uyeler": sorted([op.id, yon.id]),
                    "atama_modu": "sirayla", "widgetta_secilir": True}
    varsayilan = ok(_olustur(ortam.sahip[1], ortam.m.id, ad="Destek"), 201)["ekip"]
    assert (varsayilan["uyeler"], varsayilan["atama_modu"], varsayilan["widgetta_secilir"]) == ([], None, False)
    assert [e["ad"] for e in ok(opc.get(_liste_url(ortam.m.id)))["ekipler"]] == ["Destek", "Satış"]
    # audited, with who did it
    kayit = DenetimKaydi.objects.filter(musteri=ortam.m, eylem="ekip_degisti").order_by("id").first()
    assert kayit.hedef == f"ekip:{ekip['id']}" and kayit.ayrinti["islem"] == "olusturuldu"
    assert kayit.kullanici_id == yon.id


def test_a_plain_operator_may_list_but_not_create_change_or_delete(ortam):
    _, opc = ortam.op
    ekip = ok(_olustur(ortam.sahip[1], ortam.m.id, ad="Satış"), 201)["ekip"]
    hata(_olustur(opc, ortam.m.id, ad="Başka"), 403, "YETKISIZ")
    hata(opc.put(f"{API}/operator/ekipler/{ekip['id']}", {"ad": "X"}, format="json"), 403, "YETKISIZ")
    hata(opc.delete(f"{API}/operator/ekipler/{ekip['id']}"), 403, "YETKISIZ")
    assert Ekip.objects.filter(musteri=ortam.m).count() == 1


def test_the_name_is_unique_per_tenant_ignoring_turkish_casing_as_labels_do(ortam):
    _, sc = ortam.sahip
    ok(_olustur(sc, ortam.m.id, ad="İade"), 201)
    for ayni in ("iade", "İADE", "i\u0307ade"):
        assert "ad" in hata(_olustur(sc, ortam.m.id, ad=ayni), 400, "GECERSIZ_ISTEK")["alanlar"]
    ok(_olustur(ortam.yabanci[1], ortam.d.id, ad="iade"), 201)  # another tenant: its own names


@pytest.mark.parametrize(("govde", "alan"), [
    ({}, "ad"), ({"ad": ""}, "ad"), ({"ad": "x" * 61}, "ad"), ({"ad": 5}, "ad"),
    ({"ad": "A", "atama_modu": "rastgele"}, "atama_modu"), ({"ad": "A", "widgetta_secilir": "evet"}, "widgetta_secilir"),
    ({"ad": "A", "uyeler": "1"}, "uyeler"), ({"ad": "A", "uyeler": [True]}, "uyeler"), ({"ad": "A", "uyeler": [0]}, "uyeler"),
    ({"ad": "A", "bilinmeyen": 1}, "bilinmeyen"),
])
def test_bad_bodies_are_400_naming_the_field_and_create_nothing(ortam, govde, alan):
    assert alan in hata(_olustur(ortam.sahip[1], ortam.m.id, **govde), 400, "GECERSIZ_ISTEK")["alanlar"]
    assert not Ekip.objects.exists()


def test_a_body_that_is_not_an_object_is_400(ortam):
    res = ortam.sahip[1].post(_liste_url(ortam.m.id), [1, 2], format="json")
    hata(res, 400, "GECERSIZ_ISTEK")


def test_members_must_be_members_of_the_tenant(ortam):
    yabanci, _ = ortam.yabanci
    hatasi = hata(_olustur(ortam.sahip[1], ortam.m.id, ad="Satış", uyeler=[yabanci.id]), 400, "GECERSIZ_ISTEK")
    assert "uyeler" in hatasi["alanlar"]
    assert not Ekip.objects.exists()


def test_put_changes_only_what_it_names_and_delete_removes_it(ortam):
    (op, _), (sahip, sc) = ortam.op, ortam.sahip
    ekip = ok(_olustur(sc, ortam.m.id, ad="Satış", uyeler=[op.id], atama_modu="sirayla"), 201)["ekip"]
    url = f"{API}/operator/ekipler/{ekip['id']}"
    yeni = ok(ortam.yonetici[1].put(url, {"uyeler": [sahip.id, op.id], "widgetta_secilir": True}, format="json"))["ekip"]
    assert yeni == {**ekip, "uyeler": sorted([sahip.id, op.id]), "widgetta_secilir": True}
    yeni = ok(sc.put(url, {"ad": "Satış Ekibi", "atama_modu": None}, format="json"))["ekip"]
    assert (yeni["ad"], yeni["atama_modu"], yeni["uyeler"]) == ("Satış Ekibi", None, sorted([sahip.id, op.id]))
    assert "genel" in hata(sc.put(url, {}, format="json"), 400, "GECERSIZ_ISTEK")["alanlar"]
    assert "atama_modu" in hata(sc.put(url, {"atama_modu": "x"}, format="json"), 400, "GECERSIZ_ISTEK")["alanlar"]
    ok(_olustur(sc, ortam.m.id, ad="Destek"), 201)
    assert "ad" in hata(sc.put(url, {"ad": "DESTEK"}, format="json"), 400, "GECERSIZ_ISTEK")["alanlar"]
    assert Ekip.objects.get(pk=ekip["id"]).ad == "Satış Ekibi"
    ok(sc.delete(url))
    assert not Ekip.objects.filter(pk=ekip["id"]).exists()
    hata(sc.delete(url), 404, "BULUNAMADI")
    islemler = list(DenetimKaydi.objects.filter(hedef=f"ekip:{ekip['id']}").order_by("id")
                    .values_list("ayrinti__islem", flat=True))
    assert islemler == ["olusturuldu", "degisti", "degisti", "silindi"]


def test_another_tenants_team_is_404_for_every_verb_and_its_list_too(ortam):
    ekip = ok(_olustur(ortam.yabanci[1], ortam.d.id, ad="Gizli"), 201)["ekip"]
    _, sc = ortam.sahip
    hata(sc.get(_liste_url(ortam.d.id)), 404, "BULUNAMADI")
    hata(_olustur(sc, ortam.d.id, ad="Sızma"), 404, "BULUNAMADI")
    hata(sc.put(f"{API}/operator/ekipler/{ekip['id']}", {"ad": "X"}, format="json"), 404, "BULUNAMADI")
    hata(sc.delete(f"{API}/operator/ekipler/{ekip['id']}"), 404, "BULUNAMADI")
    assert Ekip.objects.get(pk=ekip["id"]).ad == "Gizli"


def test_the_list_costs_the_same_queries_for_one_team_or_many(ortam):
    _, sc = ortam.sahip
    uyeler = [ortam.op[0].id, ortam.yonetici[0].id]
    ok(_olustur(sc, ortam.m.id, ad="Bir", uyeler=uyeler), 201)
    with CaptureQueriesContext(connection) as bir:
        ok(sc.get(_liste_url(ortam.m.id)))
    for i in range(5):
        ok(_olustur(sc, ortam.m.id, ad=f"Ekip {i}", uyeler=uyeler), 201)
    with CaptureQueriesContext(connection) as alti:
        assert len(ok(sc.get(_liste_url(ortam.m.id)))["ekipler"]) == 6
    assert len(alti) == len(bir)

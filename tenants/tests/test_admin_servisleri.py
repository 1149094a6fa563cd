"""The Django admin goes through the services (issue 38, HOUSE-STYLE 28): a ticket's priority
changed there moves its SLA due times, a tenant edited there writes the audit log, a membership
deleted there hands the member's active chats back to the queue. Each through the admin's own
HTTP pages, as a logged-in superuser uses them."""
from datetime import timedelta

import pytest
from django.forms import CheckboxInput, MultiWidget, SelectMultiple
from django.test import Client
from django.utils import timezone

from chat.models import Mesaj, Oturum
from denetim.models import DenetimKaydi
from supportdesk.testing.factories import KullaniciFactory
from supportdesk.testing.fixtures import giris_yap, operator_yap, ulasilabilir_yap
from tenants.models import Musteri, Uyelik
from tickets.models import Ticket
from tickets.services import ticket_olustur
from tickets.sla import politika_kaydet

pytestmark = pytest.mark.django_db
OP = "/api/v1/operator"


@pytest.fixture
def yonetici():
    client = Client()
    kok = KullaniciFactory(is_staff=True, is_superuser=True)
    client.force_login(kok)
    client.kok = kok
    return client


def _deger(bf) -> dict:
    """What a browser would post for one bound field of an unchanged form."""
    widget, ad, deger = bf.field.widget, bf.html_name, bf.value()
    widget = getattr(widget, "widget", widget)  # the admin's "+" wrapper around a relation
    if isinstance(widget, CheckboxInput):
        return {ad: "on"} if deger else {}
    if isinstance(widget, MultiWidget):
        parcalar = widget.decompress(deger)
        return {f"{ad}_{i}": (w.format_value(p) or "") for i, (w, p) in enumerate(zip(widget.widgets, parcalar, strict=True))}
    if isinstance(widget, SelectMultiple):
        return {ad: [str(getattr(v, "pk", v)) for v in (deger or [])]}
    return {ad: "" if deger is None else str(getattr(deger, "pk", deger))}


def form_verisi(yanit) -> dict:
    """The change page's form (and its inlines) as it stands, ready to post back."""
    assert yanit.status_code == 200, yanit.content.decode()[:2000]
    veri = {}
    formlar = [yanit.context["adminform"].form]
    for satir in yanit.context["inline_admin_formsets"]:
        fs = satir.formset
        formlar += [fs.management_form, *fs.forms]
    for form in formlar:
        for ad in form.fields:
            veri.update(_deger(form[ad]))
    return veri


def kaydet(client, yol: str, **degisen):
    veri = {**form_verisi(client.get(yol)), **degisen}
    return client.post(yol, veri)


def hatalar(yanit) -> dict:
    assert yanit.status_code == 200, yanit.status_code  # the form again, with its errors
    form = yanit.context["adminform"].form
    return {ad: [str(m) for m in liste] for ad, liste in form.errors.items()}


# --- a ticket's priority ------------------------------------------------------------------------
def test_a_priority_changed_in_the_admin_moves_the_sla_due_times(musteri, operator, yonetici, api):
    politika_kaydet(musteri_id=musteri.id, kullanici_id=None, ip=None, degisen={
        "aktif": True, "mesai_icinde": False,
        "hedefler": {"normal": {"ilk_yanit_dk": 60, "cozum_dk": 600}, "acil": {"ilk_yanit_dk": 15, "cozum_dk": 120}}})
    ticket = ticket_olustur(musteri=musteri, ziyaretci_id="z1", konu="Fatura", mesaj="Fatura gelmedi.")
    yol = f"/admin/tickets/ticket/{ticket.id}/change/"
    yanit = kaydet(yonetici, yol, oncelik="acil", konu="Fatura (acil)")
    assert yanit.status_code == 302, hatalar(yanit)

    api.credentials(HTTP_AUTHORIZATION=f"Bearer {giris_yap(api, operator)}")
    okunan = api.get(f"{OP}/ticket/{ticket.id}").json()["data"]["ticket"]
    assert okunan["oncelik"] == "acil" and okunan["konu"] == "Fatura (acil)"
    assert okunan["sla"]["ilk_yanit"]["hedef"] == (ticket.olusturulma + timedelta(minutes=15)).isoformat()
    assert okunan["sla"]["cozum"]["hedef"] == (ticket.olusturulma + timedelta(minutes=120)).isoformat()


def test_the_admin_refuses_an_owner_outside_the_tenant_and_a_closed_ticket(musteri, diger_musteri, yonetici):
    ticket = ticket_olustur(musteri=musteri, ziyaretci_id="z1", konu="Fatura", mesaj="Fatura gelmedi.")
    yol = f"/admin/tickets/ticket/{ticket.id}/change/"
    yabanci = operator_yap(diger_musteri)
    assert "operator" in hatalar(kaydet(yonetici, yol, operator=str(yabanci.pk)))
    assert Ticket.objects.get(pk=ticket.id).operator_id is None
    Ticket.objects.filter(pk=ticket.id).update(durum=Ticket.Durum.KAPANDI)
    assert hatalar(kaydet(yonetici, yol, oncelik="acil"))
    assert Ticket.objects.get(pk=ticket.id).oncelik == "normal"
    # Tickets are made by visitors and mail, not in the admin; state and SLA are not its fields.
    assert yonetici.get("/admin/tickets/ticket/add/").status_code == 403
    form = yonetici.get(yol).context["adminform"].form
    assert "durum" not in form.fields and not any(a.startswith("sla_") for a in form.fields)


# --- a tenant ---------------------------------------------------------------------------------------
def test_a_tenant_edited_in_the_admin_writes_the_audit_log(musteri, yonetici):
    yol = f"/admin/tenants/musteri/{musteri.id}/change/"
    yanit = kaydet(yonetici, yol, firma_adi="Yeni Ad", saat_dilimi="UTC", renk_primary="#1D4ED8",
                   izinli_originler='["https://shop.example.com"]')
    assert yanit.status_code == 302, hatalar(yanit)
    kayitlar = {k.eylem: k for k in DenetimKaydi.objects.filter(musteri_id=musteri.id)}
    assert set(kayitlar) >= {"ayar_degisti", "gorunum_degisti", "origin_degisti"}, list(kayitlar)
    ayar = [k for k in DenetimKaydi.objects.filter(musteri_id=musteri.id, eylem="ayar_degisti")]
    assert sorted(a for k in ayar for a in k.ayrinti["alanlar"]) == ["firma_adi", "saat_dilimi"]
    assert all(k.kullanici_id == yonetici.kok.pk and k.email == yonetici.kok.email for k in kayitlar.values())
    assert kayitlar["gorunum_degisti"].ayrinti == {"alanlar": ["renk_primary"]}


@pytest.mark.parametrize(("alan", "deger"), [
    ("saat_dilimi", "Factory"), ("saat_dilimi", "Mars/Olympus"), ("bekleme_zaman_asimi_dk", "0"),
    ("calisma_saatleri", '{"pzt": [["10:00", "09:00"]]}'), ("izinli_originler", '["https://a.example.com/yol"]'),
])
def test_the_admin_refuses_what_the_settings_api_refuses(musteri, yonetici, alan, deger):
    yol = f"/admin/tenants/musteri/{musteri.id}/change/"
    assert alan in hatalar(kaydet(yonetici, yol, **{alan: deger}))
    assert not DenetimKaydi.objects.filter(musteri_id=musteri.id).exists()


# --- a membership -------------------------------------------------------------------------------------
def _aktif_sohbet(musteri, operator, ziyaretci_id="z9") -> Oturum:
    oturum = Oturum.objects.create(musteri=musteri, ziyaretci_id=ziyaretci_id, ziyaretci_adi="Ayşe",
                                   durum=Oturum.Durum.AKTIF, operator=operator, kabul_zamani=timezone.now())
    return oturum


@pytest.mark.parametrize("yol", ["uyelik", "satir", "kullanici_satiri"])
def test_a_membership_deleted_in_the_admin_hands_its_active_chats_back(musteri, yonetici, yol):
    uye = operator_yap(musteri)
    oturum = _aktif_sohbet(musteri, uye)
    uyelik = uye.uyelikler.get(musteri=musteri)
    if yol == "uyelik":  # the membership's own delete page
        yanit = yonetici.post(f"/admin/tenants/uyelik/{uyelik.pk}/delete/", {"post": "yes"})
    else:  # the inline row on the tenant's page or on the user's page, ticked for deletion
        sayfa = (f"/admin/tenants/musteri/{musteri.id}/change/" if yol == "satir"
                 else f"/admin/tenants/kullanici/{uye.pk}/change/")
        veri = form_verisi(yonetici.get(sayfa))
        satir = next(a for a, d in veri.items() if a.endswith("-id") and d == str(uyelik.pk))
        veri[satir.replace("-id", "-DELETE")] = "on"
        yanit = yonetici.post(sayfa, veri)
    assert yanit.status_code == 302, (yanit.context["adminform"].form.errors, yanit.context["errors"])
    assert not uye.uyelikler.filter(musteri=musteri).exists()
    oturum.refresh_from_db()
    assert (oturum.durum, oturum.operator_id) == (Oturum.Durum.BEKLIYOR, None)
    assert Mesaj.objects.filter(oturum=oturum, gonderen=Mesaj.Gonderen.SISTEM).count() == 1
    # A tenant deleted there goes whole, its memberships with it: nothing is handed back into it.
    _aktif_sohbet(musteri, operator_yap(musteri), ziyaretci_id="z10")
    yanit = yonetici.post(f"/admin/tenants/musteri/{musteri.id}/delete/", {"post": "yes"})
    assert yanit.status_code == 302, yanit.content.decode()[:3000]
    assert not Oturum.objects.filter(musteri_id=musteri.id).exists()
    assert not Mesaj.objects.filter(oturum__musteri_id=musteri.id).exists()


def test_a_user_deleted_in_the_admin_hands_its_active_chats_back_in_every_project(musteri, yonetici):
    # Deleting the user sets its chats' operator to null; before this, they stayed `aktif` with
    # nobody to answer them. Now each goes back to its project's queue with the transfer's line.
    from supportdesk.testing.factories import MusteriFactory

    diger = MusteriFactory()
    uye = operator_yap(musteri, diger)
    burada, orada = _aktif_sohbet(musteri, uye), _aktif_sohbet(diger, uye, ziyaretci_id="z8")
    kapali = _aktif_sohbet(musteri, uye, ziyaretci_id="z7")
    Oturum.objects.filter(pk=kapali.pk).update(durum=Oturum.Durum.KAPANDI)
    yanit = yonetici.post(f"/admin/tenants/kullanici/{uye.pk}/delete/", {"post": "yes"})
    assert yanit.status_code == 302, yanit.content.decode()[:3000]
    for oturum in (burada, orada):
        oturum.refresh_from_db()
        assert (oturum.durum, oturum.operator_id) == (Oturum.Durum.BEKLIYOR, None)
        assert Mesaj.objects.filter(oturum=oturum, gonderen=Mesaj.Gonderen.SISTEM).count() == 1
    kapali.refresh_from_db()  # a closed chat keeps its state, only its operator goes
    assert (kapali.durum, kapali.operator_id) == (Oturum.Durum.KAPANDI, None)
    assert not Mesaj.objects.filter(oturum=kapali).exists()


def test_the_admin_keeps_a_projects_last_owner(musteri, yonetici):
    # CONTRACT 13: the last owner cannot be removed; the admin offers no delete for it, and a
    # ticked inline row is refused with the portal's sentence (it used to delete it silently).
    Uyelik.objects.filter(musteri=musteri, rol=Uyelik.Rol.SAHIP).update(rol=Uyelik.Rol.YONETICI)
    sahip = operator_yap(musteri).uyelikler.get(musteri=musteri)
    Uyelik.objects.filter(pk=sahip.pk).update(rol=Uyelik.Rol.SAHIP)
    sahip.refresh_from_db()
    yanit = yonetici.post(f"/admin/tenants/uyelik/{sahip.pk}/delete/", {"post": "yes"}, follow=True)
    assert "son sahip" in yanit.content.decode() and Uyelik.objects.filter(pk=sahip.pk).exists()
    sayfa = f"/admin/tenants/musteri/{musteri.id}/change/"
    veri = form_verisi(yonetici.get(sayfa))
    satir = next(a for a, d in veri.items() if a.endswith("-id") and d == str(sahip.pk))
    veri[satir.replace("-id", "-DELETE")] = "on"
    yanit = yonetici.post(sayfa, veri)
    assert yanit.status_code == 200 and "son sahip" in yanit.content.decode()
    assert Uyelik.objects.filter(pk=sahip.pk).exists()


# --- routing follows what the admin changes (issue 40: through chat's actions, no listener) --------
def _bekleyen(musteri, ziyaretci_id) -> Oturum:
    return Oturum.objects.create(musteri=musteri, ziyaretci_id=ziyaretci_id, ziyaretci_adi="Ali",
                                 durum=Oturum.Durum.BEKLIYOR)


@pytest.mark.django_db(transaction=True)
def test_a_cap_raised_or_a_routing_mode_switched_in_the_admin_assigns_the_waiting_chat(musteri, yonetici):
    uye = operator_yap(musteri, max_chat=1)
    ulasilabilir_yap(uye)
    _aktif_sohbet(musteri, uye)
    bekleyen = _bekleyen(musteri, "z1")
    # The tenant's mode, on its admin page: the queue drains (the member is full: nothing yet).
    yanit = kaydet(yonetici, f"/admin/tenants/musteri/{musteri.id}/change/", atama_modu="sirayla")
    assert yanit.status_code == 302, hatalar(yanit)
    bekleyen.refresh_from_db()
    assert bekleyen.durum == Oturum.Durum.BEKLIYOR
    # The member's cap, on the membership's admin page: the place is used at once.
    uyelik = uye.uyelikler.get(musteri=musteri)
    yanit = kaydet(yonetici, f"/admin/tenants/uyelik/{uyelik.pk}/change/", max_chat_per_tenant="2")
    assert yanit.status_code == 302, hatalar(yanit)
    bekleyen.refresh_from_db()
    assert (bekleyen.durum, bekleyen.operator_id) == (Oturum.Durum.AKTIF, uye.id)
    # A mode switched with the member free: the tenant's page assigns at once too.
    Musteri.objects.filter(pk=musteri.pk).update(atama_modu="manuel")
    ikinci = _bekleyen(musteri, "z2")
    yanit = kaydet(yonetici, f"/admin/tenants/uyelik/{uyelik.pk}/change/", max_chat_per_tenant="3")
    assert yanit.status_code == 302 and Oturum.objects.get(pk=ikinci.pk).operator_id is None  # manuel: waits
    yanit = kaydet(yonetici, f"/admin/tenants/musteri/{musteri.id}/change/", atama_modu="en_az_yuklu")
    assert yanit.status_code == 302, hatalar(yanit)
    assert Oturum.objects.get(pk=ikinci.pk).operator_id == uye.id

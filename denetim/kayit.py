"""Writing the audit log: the one way in (`kaydet`) and what each recorded event becomes.

Who did it: `veri["aktor_id"]` when the publisher says (an event's `kullanici_id` is always its
subject, e.g. the membership events' member; a login's user is both), else the request's user
(`supportdesk.core.eylemci`); the address is `veri["ip"]` or the request's. Outside a request both are None (the system).

Several recorded actions are published under older names and mapped here: `musteri_degisti` with
appearance fields → `gorunum_degisti`, with `izinli_originler` → `origin_degisti`, with a key →
`anahtar_yenilendi`, with the tenant's other fields → `ayar_degisti`; `uyelik_eklendi` →
`uye_eklendi`; `uyelik_guncellendi` with a new role → `uye_rol_degisti`, with a new chat cap →
`uye_limit_degisti`; `uyelik_silindi` → `uye_cikarildi`; `hazir_yanitlar_degisti` →
`hazir_yanit_olusturuldu` / `_degisti` / `_silindi`, `hazir_yanitlar_yuklendi`."""
from supportdesk.core.eylemci import eylemci
from supportdesk.core.olaylar import YayinlananOlay
from tenants.models import Kullanici, Uyelik

from . import koruma
from .models import DenetimKaydi

GORUNUM_ALANLARI = frozenset({"renk_primary", "karsilama_metni", "baslatici_konum", "logo", "logo_url"})
ANAHTAR_ALANLARI = frozenset({"api_key", "api_secret"})
# The tenant's own fields outside CONTRACT 15 (those announce `ayar_degisti` themselves): a change
# by the admin, the portal's identity switch or an admin action is an `ayar_degisti` too.
MUSTERI_AYAR_ALANLARI = frozenset({"firma_adi", "kimlik_dogrulama_zorunlu", "trial_bitis", "aktif", "olusturan"})
# Tenants on their way out, in this process: no entry is written for them (a cascade's membership
# removals would otherwise add rows pointing at the deleted tenant).
SILINEN_MUSTERILER: set[int] = set()


def kaydet(*, musteri_id: int | None, eylem: str, hedef: str = "", ayrinti: dict | None = None,
           kullanici_id: int | None = None, ip: str | None = None) -> DenetimKaydi | None:
    """Write one entry; who and where default to the current request's."""
    if musteri_id is None or musteri_id in SILINEN_MUSTERILER:
        return None
    kim = eylemci()
    kullanici_id = kullanici_id if kullanici_id is not None else kim.kullanici_id
    ip = ip or kim.ip
    email = ""
    if kullanici_id is not None:
        email = Kullanici.objects.filter(pk=kullanici_id).values_list("email", flat=True).first() or ""
    return DenetimKaydi.objects.create(musteri_id=musteri_id, eylem=eylem, hedef=str(hedef)[:200], ayrinti=ayrinti or {},
                                       kullanici_id=kullanici_id, email=email, ip=ip or None)


def _yapan(olay: YayinlananOlay) -> dict:
    return {"kullanici_id": olay.veri.get("aktor_id"), "ip": olay.veri.get("ip")}


def giris(olay: YayinlananOlay) -> None:
    """A login (or a failed one) of an account: one entry per tenant the user belongs to; an
    unknown address belongs to no tenant."""
    kullanici_id = olay.veri.get("kullanici_id")
    if kullanici_id is None:
        return
    ayrinti = {"kanal": olay.veri.get("kanal", "")}
    for musteri_id in Uyelik.objects.filter(kullanici_id=kullanici_id).values_list("musteri_id", flat=True):
        kaydet(musteri_id=musteri_id, eylem=olay.olay, hedef=f"kullanici:{kullanici_id}", ayrinti=ayrinti,
               kullanici_id=kullanici_id, ip=olay.veri.get("ip"))


def musteri_degisikligi(olay: YayinlananOlay) -> None:
    veri = olay.veri
    if veri.get("silindi"):
        SILINEN_MUSTERILER.discard(olay.musteri_id)
        return
    alanlar = veri.get("alanlar")
    if veri.get("olusturuldu") or veri.get("ham") or not alanlar:
        return
    for eylem, kume in (("gorunum_degisti", GORUNUM_ALANLARI), ("origin_degisti", {"izinli_originler"}),
                        ("anahtar_yenilendi", ANAHTAR_ALANLARI), ("ayar_degisti", MUSTERI_AYAR_ALANLARI)):
        degisen = sorted(set(alanlar) & kume)
        if degisen:
            kaydet(musteri_id=olay.musteri_id, eylem=eylem, hedef=f"musteri:{olay.musteri_id}",
                   ayrinti={"alanlar": degisen})


def musteri_siliniyor(olay: YayinlananOlay) -> None:
    """A tenant deleted by any path takes its audit log with it (CONTRACT 18: no row of it is
    left): the database guard is told so, in the deleting transaction."""
    SILINEN_MUSTERILER.add(olay.musteri_id)
    koruma.silme_izni()


def ayar(olay: YayinlananOlay) -> None:
    """Settings (CONTRACT 15) and the SLA policy: the fields named, and for settings each one's
    old and new value (`degerler`: {field: [old, new]}, issue 39.7)."""
    alanlar = olay.veri.get("alanlar")
    ayrinti = {"alanlar": sorted(alanlar)} if alanlar else {}
    if olay.veri.get("degerler"):
        ayrinti["degerler"] = olay.veri["degerler"]
    kaydet(musteri_id=olay.musteri_id, eylem=olay.olay, hedef=f"musteri:{olay.musteri_id}", ayrinti=ayrinti,
           **_yapan(olay))


def uyelik(olay: YayinlananOlay) -> None:
    veri = olay.veri
    uye_id = veri.get("kullanici_id")
    girdiler = []  # (eylem, ayrinti)
    if olay.olay == "uyelik_eklendi":
        girdiler.append(("uye_eklendi", {"rol": veri.get("rol")}))
    elif olay.olay == "uyelik_silindi":
        girdiler.append(("uye_cikarildi", {}))
    else:  # order and muting are not recorded; a role and a chat cap are
        if veri.get("onceki_rol") is not None and veri.get("onceki_rol") != veri.get("rol"):
            girdiler.append(("uye_rol_degisti", {"onceki_rol": veri.get("onceki_rol"), "rol": veri.get("rol")}))
        if "onceki_max_chat_per_tenant" in veri and veri["onceki_max_chat_per_tenant"] != veri.get("max_chat_per_tenant"):
            girdiler.append(("uye_limit_degisti", {"onceki": veri["onceki_max_chat_per_tenant"],
                                                   "yeni": veri.get("max_chat_per_tenant")}))
    if not girdiler:
        return
    email = Kullanici.objects.filter(pk=uye_id).values_list("email", flat=True).first() or ""
    for eylem, ayrinti in girdiler:
        # `kullanici_id` here is the member: the actor is the request's user.
        kaydet(musteri_id=olay.musteri_id, eylem=eylem, hedef=f"kullanici:{uye_id}", ayrinti={"email": email, **ayrinti})


def _etiket(veri: dict) -> tuple:
    etiket = veri.get("etiket")
    if isinstance(etiket, dict):
        return veri.get("etiket_id") or etiket.get("id"), veri.get("ad") or etiket.get("ad") or ""
    return (veri.get("etiket_id") or getattr(etiket, "pk", None) or veri.get("id"),
            veri.get("ad") or getattr(etiket, "ad", "") or "")


def etiket(olay: YayinlananOlay) -> None:
    etiket_id, ad = _etiket(olay.veri)
    kaydet(musteri_id=olay.musteri_id, eylem=olay.olay, hedef=f"etiket:{etiket_id}", ayrinti={"ad": ad}, **_yapan(olay))


def ekip(olay: YayinlananOlay) -> None:
    """A team created, changed or deleted (CONTRACT 22): one `ekip_degisti` entry naming what."""
    veri = olay.veri
    kaydet(musteri_id=olay.musteri_id, eylem="ekip_degisti", hedef=f"ekip:{veri.get('ekip_id')}",
           ayrinti={k: veri[k] for k in ("islem", "ad", "alanlar") if k in veri}, **_yapan(olay))


def webhook(olay: YayinlananOlay) -> None:
    veri = olay.veri
    kaydet(musteri_id=olay.musteri_id, eylem="webhook_degisti", hedef=f"webhook:{veri.get('endpoint_id')}",
           ayrinti={k: veri[k] for k in ("islem", "url", "aktif", "alanlar") if k in veri}, **_yapan(olay))


def makale(olay: YayinlananOlay) -> None:
    veri = olay.veri
    kaydet(musteri_id=olay.musteri_id, eylem=olay.olay, hedef=f"makale:{veri.get('makale_id')}",
           ayrinti={"baslik": veri.get("baslik", "")}, **_yapan(olay))


def ziyaretci(olay: YayinlananOlay) -> None:
    veri = olay.veri
    if olay.olay == "ziyaretci_silindi":
        ayrinti = dict(veri.get("silinen") or {})
    else:
        ayrinti = {k: veri[k] for k in ("oturum", "ticket", "dosya") if k in veri}
    kaydet(musteri_id=olay.musteri_id, eylem=olay.olay, hedef=f"ziyaretci:{veri.get('ziyaretci_id')}",
           ayrinti=ayrinti, **_yapan(olay))


HAZIR_YANIT_EYLEMLERI = {"olusturuldu": "hazir_yanit_olusturuldu", "degisti": "hazir_yanit_degisti",
                         "silindi": "hazir_yanit_silindi", "yuklendi": "hazir_yanitlar_yuklendi"}


def hazir_yanit(olay: YayinlananOlay) -> None:
    """A canned response created, changed or deleted, or an import of them (issue 39.7)."""
    veri = olay.veri
    eylem = HAZIR_YANIT_EYLEMLERI.get(veri.get("islem"))
    if eylem is None:
        return
    if eylem == "hazir_yanitlar_yuklendi":
        kaydet(musteri_id=olay.musteri_id, eylem=eylem, hedef=f"musteri:{olay.musteri_id}",
               ayrinti={"sayi": veri.get("sayi", 0)})
        return
    ayrinti = {"kisayol": veri.get("kisayol", "")}
    if veri.get("degerler"):
        ayrinti["degerler"] = veri["degerler"]
    kaydet(musteri_id=olay.musteri_id, eylem=eylem, hedef=f"hazir_yanit:{veri.get('hazir_yanit_id')}", ayrinti=ayrinti)


def kisi(olay: YayinlananOlay) -> None:
    """Two contacts merged (CONTRACT 25): the one that stays is the target; the gone one's id and
    the visitor ids that moved are the detail."""
    veri = olay.veri
    kaydet(musteri_id=olay.musteri_id, eylem="kisi_birlesti", hedef=f"kisi:{veri.get('kisi_id')}",
           ayrinti={"birlesen_kisi_id": veri.get("birlesen_kisi_id"), "ziyaretci_idleri": veri.get("ziyaretci_idleri", [])},
           **_yapan(olay))


def kural(olay: YayinlananOlay) -> None:
    veri = olay.veri
    kaydet(musteri_id=olay.musteri_id, eylem="kural_degisti", hedef=f"kural:{veri.get('kural_id')}",
           ayrinti={k: veri[k] for k in ("islem", "ad", "alanlar") if k in veri}, **_yapan(olay))

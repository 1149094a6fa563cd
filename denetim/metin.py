"""The audit log as people read it (issue 39.7): each entry one sentence in the reader's language
(the active one), with old → new values where the entry holds them. The machine fields (`eylem`,
`hedef`, `ayrinti`) stay as CONTRACT 18 gives them; this only renders them (the portal's
`/portal/denetim` and the API's `metin`). An entry written before a field was recorded, or of an
action this module does not know, still reads as words, never as a Python dict."""
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from tenants.models import Musteri, Uyelik

from .models import EYLEMLER

# What each recorded action is called (the filter's choices and the entry's badge).
EYLEM_ADLARI = {
    "giris": gettext_lazy("Giriş"),
    "giris_basarisiz": gettext_lazy("Başarısız giriş"),
    "giris_kilitlendi": gettext_lazy("Giriş kilitlendi"),
    "ayar_degisti": gettext_lazy("Ayarlar"),
    "sla_degisti": gettext_lazy("SLA politikası"),
    "gorunum_degisti": gettext_lazy("Widget görünümü"),
    "origin_degisti": gettext_lazy("İzinli adresler"),
    "anahtar_yenilendi": gettext_lazy("Anahtar yenilendi"),
    "webhook_degisti": gettext_lazy("Webhook"),
    "uye_eklendi": gettext_lazy("Üye eklendi"),
    "uye_rol_degisti": gettext_lazy("Üye rolü"),
    "uye_limit_degisti": gettext_lazy("Sohbet sınırı"),
    "uye_cikarildi": gettext_lazy("Üye çıkarıldı"),
    "etiket_olusturuldu": gettext_lazy("Etiket eklendi"),
    "etiket_degisti": gettext_lazy("Etiket değişti"),
    "etiket_silindi": gettext_lazy("Etiket silindi"),
    "ziyaretci_disa_aktarildi": gettext_lazy("Ziyaretçi dışa aktarıldı"),
    "ziyaretci_silindi": gettext_lazy("Ziyaretçi silindi"),
    "makale_yayinlandi": gettext_lazy("Makale yayınlandı"),
    "makale_silindi": gettext_lazy("Makale silindi"),
    "hazir_yanit_olusturuldu": gettext_lazy("Hazır yanıt eklendi"),
    "hazir_yanit_degisti": gettext_lazy("Hazır yanıt değişti"),
    "hazir_yanit_silindi": gettext_lazy("Hazır yanıt silindi"),
    "hazir_yanitlar_yuklendi": gettext_lazy("Hazır yanıtlar içe aktarıldı"),
    "ekip_degisti": gettext_lazy("Ekip"),
    "kisi_birlesti": gettext_lazy("Kişiler birleştirildi"),
    "kural_degisti": gettext_lazy("Otomasyon kuralı"),
}

# Field names as the pages call them (settings, SLA, appearance, webhooks, canned responses).
ALAN_ADLARI = {
    "saat_dilimi": gettext_lazy("Saat dilimi"),
    "atama_modu": gettext_lazy("Atama modu"),
    "calisma_saatleri": gettext_lazy("Çalışma saatleri"),
    "tatiller": gettext_lazy("Tatiller"),
    "mesai_disi_mesaji": gettext_lazy("Mesai dışı mesajı"),
    "bekleme_zaman_asimi_dk": gettext_lazy("Bekleme zaman aşımı"),
    "sessiz_kapatma_dk": gettext_lazy("Sessiz kapatma"),
    "yeniden_atama_dk": gettext_lazy("Yeniden atama"),
    "saklama_gun": gettext_lazy("Saklama süresi"),
    "dil": gettext_lazy("Widget dili"),
    "aktif": gettext_lazy("Etkin"),
    "mesai_icinde": gettext_lazy("Yalnız mesai içinde say"),
    "uyari_dk": gettext_lazy("Uyarı süresi"),
    "chat_ilk_yanit_sn": gettext_lazy("Sohbette ilk yanıt"),
    "hedefler": gettext_lazy("Hedefler"),
    "renk_primary": gettext_lazy("Renk"),
    "karsilama_metni": gettext_lazy("Karşılama metni"),
    "baslatici_konum": gettext_lazy("Düğme konumu"),
    "logo": gettext_lazy("Logo"),
    "logo_url": gettext_lazy("Logo"),
    "url": gettext_lazy("Adres"),
    "olaylar": gettext_lazy("Olaylar"),
    "gizli_anahtar": gettext_lazy("İmza anahtarı"),
    "kisayol": gettext_lazy("Kısayol"),
    "baslik": gettext_lazy("Başlık"),
    "icerik": gettext_lazy("Metin"),
}
# An SLA target changed is recorded as `hedefler.<priority>.<target>` (tickets.sla.politika_farki).
SLA_ONCELIKLERI = {"acil": gettext_lazy("Acil"), "yuksek": gettext_lazy("Yüksek"), "normal": gettext_lazy("Normal"),
                   "dusuk": gettext_lazy("Düşük")}
SLA_HEDEFLERI = {"ilk_yanit_dk": pgettext_lazy("SLA hedefi", "ilk yanıt"),
                 "sonraki_yanit_dk": pgettext_lazy("SLA hedefi", "sonraki yanıt"),
                 "cozum_dk": pgettext_lazy("SLA hedefi", "çözüm")}
KANAL_ADLARI = {"portal": gettext_lazy("portal"), "konsol": gettext_lazy("konsol"), "api": gettext_lazy("API"),
                "admin": gettext_lazy("yönetim paneli")}
KISA_GUNLER = {"pzt": pgettext_lazy("kısa gün adı", "Pzt"), "sal": pgettext_lazy("kısa gün adı", "Sal"),
               "car": pgettext_lazy("kısa gün adı", "Çar"), "per": pgettext_lazy("kısa gün adı", "Per"),
               "cum": pgettext_lazy("kısa gün adı", "Cum"), "cmt": pgettext_lazy("kısa gün adı", "Cmt"),
               "paz": pgettext_lazy("kısa gün adı", "Paz")}
BOS = "—"


def eylem_adi(eylem: str) -> str:
    return str(EYLEM_ADLARI.get(eylem, eylem.replace("_", " ")))


def eylem_secenekleri() -> list[tuple[str, str]]:
    """The audit filter's choices: every recorded action by its name, in the contract's order."""
    return [(e, eylem_adi(e)) for e in EYLEMLER]


def _sla_hedefi(alan: str) -> tuple[str, str] | None:
    """(priority, target) of an SLA target's key `hedefler.<priority>.<target>`, else None."""
    parcalar = alan.split(".")
    if len(parcalar) == 3 and parcalar[0] == "hedefler" and parcalar[1] in SLA_ONCELIKLERI \
            and parcalar[2] in SLA_HEDEFLERI:
        return parcalar[1], parcalar[2]
    return None


def _alan_adi(alan: str) -> str:
    hedef = _sla_hedefi(alan)
    if hedef is not None:
        return _("%(oncelik)s öncelikte %(hedef)s hedefi") % {
            "oncelik": SLA_ONCELIKLERI[hedef[0]], "hedef": SLA_HEDEFLERI[hedef[1]]}
    return str(ALAN_ADLARI.get(alan, alan))


def _sira(alan: str) -> tuple:
    """Where a field stands in a sentence: the pages' order (jsonb keeps no key order); an SLA
    target by priority, then target, as the SLA page's table."""
    sira = list(ALAN_ADLARI)
    hedef = _sla_hedefi(alan)
    if hedef is not None:
        return (sira.index("hedefler"), list(SLA_ONCELIKLERI).index(hedef[0]), list(SLA_HEDEFLERI).index(hedef[1]), alan)
    return (sira.index(alan) if alan in sira else len(sira), 0, 0, alan)


def _saatler(deger) -> str:
    if deger is None:
        return pgettext("denetim değeri", "her zaman açık")
    if not isinstance(deger, dict):
        return str(deger)
    gunler = []
    for gun, ad in KISA_GUNLER.items():
        dilimler = deger.get(gun) or []
        if dilimler:
            gunler.append(f"{ad} " + ", ".join(f"{a}-{b}" for a, b in dilimler))
    return "; ".join(gunler) or pgettext("denetim değeri", "her gün kapalı")


def _dakika(deger, bos: str) -> str:
    return bos if deger is None else _("%(sayi)s dk") % {"sayi": deger}


def deger_metni(alan: str, deger) -> str:
    """One setting's value as a page shows it."""
    if alan == "calisma_saatleri":
        return _saatler(deger)
    if alan == "atama_modu" and deger in Musteri.AtamaModu.values:
        return str(Musteri.AtamaModu(deger).label)
    if alan == "dil" and deger in Musteri.Dil.values:
        return str(Musteri.Dil(deger).label)
    if alan == "saklama_gun":
        return pgettext("denetim değeri", "süresiz") if deger is None else _("%(sayi)s gün") % {"sayi": deger}
    if alan in ("sessiz_kapatma_dk", "yeniden_atama_dk"):
        return _dakika(deger, pgettext("denetim değeri", "kapalı"))
    if alan in ("bekleme_zaman_asimi_dk", "uyari_dk"):
        return _dakika(deger, BOS)
    if _sla_hedefi(alan) is not None:
        return _dakika(deger, pgettext("denetim değeri", "hedef yok"))
    if alan == "chat_ilk_yanit_sn":
        return pgettext("denetim değeri", "hedef yok") if deger is None else _("%(sayi)s sn") % {"sayi": deger}
    if alan == "tatiller":
        return ", ".join(str(t) for t in deger) if deger else pgettext("denetim değeri", "yok")
    if alan == "mesai_disi_mesaji":
        return f"“{deger}”" if deger else pgettext("denetim değeri", "hizmetin kendi metni")
    if isinstance(deger, bool):
        return pgettext("denetim değeri", "açık") if deger else pgettext("denetim değeri", "kapalı")
    if deger is None or deger == "":
        return BOS
    if isinstance(deger, list):
        return ", ".join(str(d) for d in deger)
    if isinstance(deger, dict):
        return "; ".join(f"{k}: {deger_metni(k, v)}" for k, v in deger.items())
    return str(deger)


def _degisiklikler(ayrinti: dict) -> str:
    """"Saat dilimi: Europe/Istanbul → Europe/Berlin; Saklama süresi: süresiz → 365 gün"; the
    fields alone when the values were not recorded."""
    degerler = ayrinti.get("degerler")
    if isinstance(degerler, dict) and degerler:
        parcalar = []
        for alan, cift in sorted(degerler.items(), key=lambda kv: _sira(kv[0])):
            if isinstance(cift, list | tuple) and len(cift) == 2:
                parcalar.append(f"{_alan_adi(alan)}: {deger_metni(alan, cift[0])} → {deger_metni(alan, cift[1])}")
            else:
                parcalar.append(_alan_adi(alan))
        return "; ".join(parcalar)
    return ", ".join(_alan_adi(a) for a in ayrinti.get("alanlar") or [])


def _rol(deger) -> str:
    return str(Uyelik.Rol(deger).label) if deger in Uyelik.Rol.values else str(deger or BOS)


def _limit(deger) -> str:
    return pgettext("denetim değeri", "sınırsız") if deger is None else str(deger)


def _sayilar(ayrinti: dict) -> str:
    adlar = {"oturum": pgettext("denetim sayısı", "sohbet"), "mesaj": pgettext("denetim sayısı", "mesaj"),
             "ticket": pgettext("denetim sayısı", "talep"), "yanit": pgettext("denetim sayısı", "yanıt"),
             "dosya": pgettext("denetim sayısı", "dosya"), "baglam": pgettext("denetim sayısı", "bağlam kaydı")}
    return ", ".join(f"{ayrinti[k]} {ad}" for k, ad in adlar.items() if k in ayrinti)


def _ek(ayrinti: dict, haric: tuple = ()) -> str:
    """Whatever else an entry holds, as `field: value` words (never a dict's repr)."""
    return "; ".join(f"{_alan_adi(k)}: {deger_metni(k, v)}" for k, v in ayrinti.items() if k not in haric)


def kayit_metni(kayit) -> str:
    """One entry as a sentence in the active language."""
    a = kayit.ayrinti if isinstance(kayit.ayrinti, dict) else {}
    e = kayit.eylem
    hedef = kayit.hedef.split(":", 1)[1] if ":" in kayit.hedef else kayit.hedef
    if e in ("giris", "giris_basarisiz", "giris_kilitlendi"):
        kanal = str(KANAL_ADLARI.get(a.get("kanal"), a.get("kanal") or BOS))
        metin = {"giris": _("Giriş yaptı (%(kanal)s)."), "giris_basarisiz": _("Giriş denemesi başarısız (%(kanal)s)."),
                 "giris_kilitlendi": _("Tekrarlanan hatalı girişler yüzünden giriş kilitlendi (%(kanal)s).")}[e]
        return metin % {"kanal": kanal}
    if e == "ayar_degisti":
        return _("Ayarları değiştirdi: %(degisiklikler)s.") % {"degisiklikler": _degisiklikler(a) or BOS}
    if e == "sla_degisti":
        return _("SLA politikasını değiştirdi: %(degisiklikler)s.") % {"degisiklikler": _degisiklikler(a) or BOS}
    if e == "gorunum_degisti":
        return _("Widget görünümünü değiştirdi: %(alanlar)s.") % {"alanlar": _degisiklikler(a) or BOS}
    if e == "origin_degisti":
        return _("Widget'ın izinli adreslerini değiştirdi.")
    if e == "anahtar_yenilendi":
        if "api_secret" in (a.get("alanlar") or []):
            return _("API gizli anahtarını yeniledi.")
        return _("Widget anahtarını yeniledi.")
    if e == "webhook_degisti":
        metin = {"olusturuldu": _("%(url)s webhook adresini ekledi."), "silindi": _("%(url)s webhook adresini sildi."),
                 }.get(a.get("islem"), _("%(url)s webhook adresini değiştirdi: %(alanlar)s."))
        return metin % {"url": a.get("url") or hedef, "alanlar": _degisiklikler(a) or BOS}
    if e in ("uye_eklendi", "uye_rol_degisti", "uye_limit_degisti", "uye_cikarildi"):
        kim = a.get("email") or hedef
        if e == "uye_eklendi":
            return _("%(email)s üyesini ekledi (rol: %(rol)s).") % {"email": kim, "rol": _rol(a.get("rol"))}
        if e == "uye_rol_degisti":
            return _("%(email)s üyesinin rolünü değiştirdi: %(eski)s → %(yeni)s.") % {
                "email": kim, "eski": _rol(a.get("onceki_rol")), "yeni": _rol(a.get("rol"))}
        if e == "uye_limit_degisti":
            return _("%(email)s üyesinin eş zamanlı sohbet sınırını değiştirdi: %(eski)s → %(yeni)s.") % {
                "email": kim, "eski": _limit(a.get("onceki")), "yeni": _limit(a.get("yeni"))}
        return _("%(email)s üyesini projeden çıkardı.") % {"email": kim}
    if e in ("etiket_olusturuldu", "etiket_degisti", "etiket_silindi"):
        metin = {"etiket_olusturuldu": _("“%(ad)s” etiketini ekledi."), "etiket_degisti": _("“%(ad)s” etiketini değiştirdi."),
                 "etiket_silindi": _("“%(ad)s” etiketini sildi.")}[e]
        return metin % {"ad": a.get("ad") or hedef}
    if e == "ekip_degisti":
        metin = {"olusturuldu": _("“%(ad)s” ekibini ekledi."), "silindi": _("“%(ad)s” ekibini sildi.")}.get(
            a.get("islem"), _("“%(ad)s” ekibini değiştirdi."))
        return metin % {"ad": a.get("ad") or hedef}
    if e == "ziyaretci_disa_aktarildi":
        return _("%(ziyaretci)s ziyaretçisinin verisini dışa aktardı (%(sayilar)s).") % {
            "ziyaretci": hedef, "sayilar": _sayilar(a) or BOS}
    if e == "ziyaretci_silindi":
        return _("%(ziyaretci)s ziyaretçisinin verisini sildi (%(sayilar)s).") % {
            "ziyaretci": hedef, "sayilar": _sayilar(a) or BOS}
    if e in ("makale_yayinlandi", "makale_silindi"):
        metin = _("“%(baslik)s” makalesini yayınladı.") if e == "makale_yayinlandi" else _("“%(baslik)s” makalesini sildi.")
        return metin % {"baslik": a.get("baslik") or hedef}
    if e == "hazir_yanit_olusturuldu":
        return _("%(kisayol)s hazır yanıtını ekledi.") % {"kisayol": a.get("kisayol") or hedef}
    if e == "hazir_yanit_degisti":
        return _("%(kisayol)s hazır yanıtını değiştirdi: %(degisiklikler)s.") % {
            "kisayol": a.get("kisayol") or hedef, "degisiklikler": _degisiklikler(a) or BOS}
    if e == "hazir_yanit_silindi":
        return _("%(kisayol)s hazır yanıtını sildi.") % {"kisayol": a.get("kisayol") or hedef}
    if e == "hazir_yanitlar_yuklendi":
        return _("%(sayi)s hazır yanıtı içe aktardı.") % {"sayi": a.get("sayi", 0)}
    if e == "kisi_birlesti":
        return _("#%(kaynak)s kişisini %(hedef)s kişisine kattı (%(ziyaretciler)s).") % {
            "kaynak": a.get("birlesen_kisi_id"), "hedef": hedef,
            "ziyaretciler": ", ".join(a.get("ziyaretci_idleri") or []) or BOS}
    if e == "kural_degisti":
        metin = {"olusturuldu": _("“%(ad)s” kuralını ekledi."), "silindi": _("“%(ad)s” kuralını sildi.")}.get(
            a.get("islem"), _("“%(ad)s” kuralını değiştirdi."))
        return metin % {"ad": a.get("ad") or hedef}
    ek = _ek(a)
    return f"{eylem_adi(e)}: {ek}." if ek else f"{eylem_adi(e)}."

"""The owners' portal: server-rendered pages, session login, CSRF (CONTRACT 8, spec 4.6).

Every signed-in page goes through `PortalView`, which reads the user's memberships once and
resolves the active project from the session there, and nowhere else: a page never trusts the
session id on its own, so a project the user left can neither become nor stay active.
"""
from django.contrib import messages
from django.contrib.auth import authenticate, login, logout, update_session_auth_hash
from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import Resolver404, resolve, reverse
from django.utils.cache import add_never_cache_headers
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views import View

from supportdesk.core import dil
from supportdesk.core.exceptions import Bulunamadi, GecersizIstek, LimitAsildi
from supportdesk.core.throttling import GirisAdresLimiti
from tenants import iki_adim
from tenants.ayarlar import bolge
from tenants.selectors import uyelik_list
from tenants.services import kullanici_profil_guncelle, musteri_anahtar_yenile, musteri_origin_ekle, musteri_origin_sil
from tenants.ziyaretci import ziyaretci_serbest_birak, ziyaretci_tokenlari_iptal_et

from . import forms, selectors, services
from .limit import GirisLimiti

AKTIF_PROJE = "portal_active_tenant_id"  # spec 4.6.3
GUVENLI_YONTEMLER = ("GET", "HEAD", "OPTIONS")
YETKISIZ_MESAJI = gettext_lazy("Bu projede ayarları yalnızca proje sahibi ve yöneticiler değiştirebilir.")


def hata_sayfasi(request, status: int, baslik: str, mesaj: str):
    return render(request, "portal/hata.html", {"baslik": baslik, "mesaj": mesaj, "status": status}, status=status)


def bulunamadi(request):
    return hata_sayfasi(request, 404, _("Sayfa bulunamadı"), _("Aradığınız kayıt yok ya da ona erişiminiz yok."))


def yetkisiz(request):
    return hata_sayfasi(request, 403, _("Yetkiniz yok"), YETKISIZ_MESAJI)


def csrf_hatasi(request, reason=""):
    """CSRF_FAILURE_VIEW: a product page instead of Django's technical one."""
    return hata_sayfasi(request, 403, _("Form süresi doldu"),
                        _("Güvenlik doğrulaması başarısız oldu. Sayfayı yenileyip formu yeniden gönderin."))


def _guvenli_next(request, varsayilan: str) -> str:
    hedef = request.POST.get("next") or request.GET.get("next") or ""
    if hedef and url_has_allowed_host_and_scheme(hedef, allowed_hosts={request.get_host()},
                                                  require_https=request.is_secure()):
        return hedef
    return varsayilan


def _proje_etkinlestir(request, musteri_id: int):
    """Make a project active: the membership is checked and `musteri_id` synced before the session moves."""
    uyelik = services.aktif_proje_sec(kullanici=request.user, musteri_id=musteri_id)
    request.session[AKTIF_PROJE] = uyelik.musteri_id
    return uyelik


def dil_etkinlestir(request) -> None:
    """The rest of the request speaks the page language of its (just signed-in or just changed)
    user (CONTRACT 19): SayfaDiliMiddleware chose before the login or the change."""
    dil.etkinlestir(request, dil.sayfa_dili(request))


# The session key of a login that passed its password and waits for its TOTP code.
IKI_ADIM_BEKLEYEN = "iki_adim_bekleyen"


def _giris_sonrasi(request):
    """Spec 4.6.2: two or more projects choose first; one is made active; none starts a project."""
    # CONTRACT 19: a member who never chose a language gets the browser's, for mails sent later;
    # the rest of this request speaks the member's own.
    services.dil_tarayicidan_ogren(kullanici=request.user, request=request)
    dil_etkinlestir(request)
    request.session.pop(AKTIF_PROJE, None)
    uyelikler = list(uyelik_list(kullanici=request.user))
    hedef = _guvenli_next(request, reverse("portal:pano"))
    if len(uyelikler) >= 2:
        url = reverse("portal:projeler")
        return redirect(f"{url}?{urlencode({'next': hedef})}" if hedef != reverse("portal:pano") else url)
    if len(uyelikler) == 1:
        _proje_etkinlestir(request, uyelikler[0].musteri_id)
        return redirect(hedef)
    if hedef != reverse("portal:pano"):
        return redirect(hedef)  # e.g. back to an invitation link, to join a first project
    messages.info(request, _("Henüz bir projeniz yok. İlk projenizi oluşturun."))
    return redirect("portal:projelerim_yeni")


def limit_yaniti(request, template: str, form, limit):
    """The 429 page of a limited portal form (login, sign-up, password reset), with `Retry-After`."""
    saniye = limit.bekleme_saniye()
    limit_mesaji = ngettext("Çok fazla deneme yapıldı. Lütfen %(saniye)s saniye sonra tekrar deneyin.",
                            "Çok fazla deneme yapıldı. Lütfen %(saniye)s saniye sonra tekrar deneyin.",
                            saniye) % {"saniye": saniye}
    response = render(request, template, {"form": form, "limit_mesaji": limit_mesaji}, status=429)
    response["Retry-After"] = str(saniye)
    return response


class GirisView(View):
    template = "portal/giris.html"

    def get(self, request):
        if request.user.is_authenticated:
            return redirect("portal:pano")
        return render(request, self.template, {"form": forms.GirisForm(), "next": _guvenli_next(request, "")})

    def post(self, request):
        form = forms.GirisForm(forms.takma_adlari_coz(request.POST))
        limit = GirisLimiti()
        if not limit.izin_var(request):
            return limit_yaniti(request, self.template, form, limit)
        if form.is_valid():
            adres = GirisAdresLimiti(request)
            adres_dolu = adres.dolu()
            user = authenticate(request, email=form.cleaned_data["email"], password=form.cleaned_data["sifre"])
            if user is None and not iki_adim.kilitli_reddedildi(request):
                adres.basarisiz()
                if adres_dolu:  # spraying from this address (CONTRACT 18): slowed, a right password still passes
                    return limit_yaniti(request, self.template, form, adres)
            if user is not None:
                # Failed attempts only: an owner logging in often never locks themselves out.
                limit.iade()
                if iki_adim.onayli_cihaz(user) is not None:
                    # Two-factor on: the password was right; the code page logs in (iki_adim_views).
                    request.session[IKI_ADIM_BEKLEYEN] = {"kullanici": user.pk, "backend": user.backend,
                                                         "next": _guvenli_next(request, "")}
                    return redirect("portal:giris_kod")
                login(request, user)
                return _giris_sonrasi(request)
            form.add_error(None, _("E-posta adresi ya da şifre hatalı."))
        else:
            limit.iade()  # an incomplete form is not a password guess
        return render(request, self.template, {"form": form, "next": _guvenli_next(request, "")})


class CikisView(View):
    def get(self, request):
        if not request.user.is_authenticated:
            return redirect("portal:giris")
        return render(request, "portal/cikis.html")

    def post(self, request):
        logout(request)
        dil_etkinlestir(request)  # signed out: the browser's language, as the login page it lands on
        messages.info(request, _("Çıkış yaptınız."))
        return redirect("portal:giris")


class PortalView(LoginRequiredMixin, View):
    """Signed-in pages. `self.uyelik` is the active project's membership, resolved once here."""

    aktif_proje_gerekli = True
    # Settings pages: GET is open to every member, anything else needs sahip or yonetici.
    yonetim_gerekli = False

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        self.uyelikler = list(uyelik_list(kullanici=request.user))
        self.uyelik = self._aktif_uyelik()
        if self.uyelik is None and self.aktif_proje_gerekli:
            if not self.uyelikler:
                return redirect("portal:projelerim_yeni")
            return redirect(f"{reverse('portal:projeler')}?{urlencode({'next': request.get_full_path()})}")
        if self.yonetim_gerekli and request.method not in GUVENLI_YONTEMLER and not self.uyelik.yonetebilir:
            return yetkisiz(request)
        response = super().dispatch(request, *args, **kwargs)
        # Signed-in pages carry keys and secrets: never kept by a browser or proxy cache.
        add_never_cache_headers(response)
        return response

    def _aktif_uyelik(self):
        session = self.request.session
        secili = session.get(AKTIF_PROJE)
        uyelik = selectors.aktif_uyelik_bul(uyelikler=self.uyelikler, musteri_id=secili)
        if uyelik is not None:
            return uyelik
        if secili is not None:
            del session[AKTIF_PROJE]  # no longer a member (or the project was disabled)
        if len(self.uyelikler) == 1:
            return _proje_etkinlestir(self.request, self.uyelikler[0].musteri_id)
        return None

    @property
    def musteri(self):
        return self.uyelik.musteri

    def sayfa(self, template: str, status: int = 200, **context):
        context.update(uyelikler=self.uyelikler, aktif_uyelik=self.uyelik,
                       yonetebilir=bool(self.uyelik and self.uyelik.yonetebilir))
        return render(self.request, template, context, status=status)


class ProjelerView(PortalView):
    """Spec 4.6: the project choice shown after login to users with two or more projects."""

    aktif_proje_gerekli = False

    def get(self, request):
        # The page is the chooser itself: no second, header copy of the same choice.
        return self.sayfa("portal/projeler.html", next=_guvenli_next(request, ""), secim_sayfasi=True)


class ProjeSecView(PortalView):
    aktif_proje_gerekli = False

    def post(self, request, musteri_id: int):
        try:
            uyelik = _proje_etkinlestir(request, musteri_id)
        except Bulunamadi:
            return bulunamadi(request)  # the session keeps its previous project
        messages.success(request, _("Etkin proje: %(proje)s") % {"proje": uyelik.musteri.firma_adi})
        return redirect(_guvenli_next(request, reverse("portal:pano")))


class ProjelerimView(PortalView):
    aktif_proje_gerekli = False

    def get(self, request):
        kalan = {u.musteri_id: selectors.trial_kalan_gun(musteri=u.musteri) for u in self.uyelikler}
        satirlar = [(u, kalan[u.musteri_id]) for u in self.uyelikler]
        return self.sayfa("portal/projelerim.html", satirlar=satirlar)

    def post(self, request):
        form = forms.ProjeForm(forms.takma_adlari_coz(
            request.POST, firma_adi=forms.varsayilan_proje_adi(len(self.uyelikler))))
        if not form.is_valid():
            return self.sayfa("portal/proje_yeni.html", form=form)
        try:
            musteri = services.proje_olustur(kullanici=request.user, firma_adi=form.cleaned_data["firma_adi"],
                                             dil=dil.sayfa_dili(request))
        except LimitAsildi as exc:
            response = self.sayfa("portal/proje_yeni.html", status=429, form=form, limit_mesaji=exc.mesaj)
            response["Retry-After"] = exc.headers["Retry-After"]
            return response
        except GecersizIstek as exc:
            for alan, mesaj in (exc.alanlar or {}).items():
                form.add_error(alan if alan in form.fields else None, mesaj)
            return self.sayfa("portal/proje_yeni.html", form=form)
        _proje_etkinlestir(request, musteri.id)
        messages.success(request, _("“%(proje)s” oluşturuldu: 14 günlük deneme süreniz başladı.") % {"proje": musteri.firma_adi})
        return redirect("portal:pano")


class ProjeYeniView(PortalView):
    aktif_proje_gerekli = False

    def get(self, request):
        return self.sayfa("portal/proje_yeni.html", form=forms.ProjeForm(),
                          kalan_hak=selectors.proje_hakki_kalan(kullanici=request.user))


def gomme_kodu(request, musteri) -> str:
    host = f"{request.scheme}://{request.get_host()}"
    return f'<script src="{host}/static/widget/widget.js" data-api-key="{musteri.api_key}" async></script>'


class PanoView(PortalView):
    def get(self, request):
        musteri = self.musteri
        return self.sayfa(
            "portal/pano.html",
            musteri=musteri,
            trial_kalan=selectors.trial_kalan_gun(musteri=musteri), saat_dilimi=bolge(musteri),
            gomme_kodu=gomme_kodu(request, musteri),
            bugunku_sohbet=selectors.bugunku_oturum_sayisi(musteri=musteri),
            acik_ticket=selectors.acik_ticket_sayisi(musteri_id=musteri.id),
        )


class WidgetAyarView(PortalView):
    """`/portal/widget`: one form target, the action named by `islem` (a bare `origin` adds it)."""

    yonetim_gerekli = True

    def get(self, request):
        return self._sayfa()

    def _sayfa(self, status=200, gizli_goster=False, **context):
        context.setdefault("origin_form", forms.OriginForm())
        context.setdefault("token_iptal_form", forms.ZiyaretciTokenIptalForm())
        return self.sayfa("portal/widget.html", status=status, musteri=self.musteri,
                          gomme_kodu=gomme_kodu(self.request, self.musteri), gizli_goster=gizli_goster, **context)

    def post(self, request):
        islem = request.POST.get("islem") or ("origin_ekle" if "origin" in request.POST else "")
        handler = getattr(self, f"_{islem}", None) if islem in self.ISLEMLER else None
        if handler is None:
            messages.error(request, _("Bilinmeyen işlem."))
            return self._sayfa(status=400)
        return handler(request)

    ISLEMLER = ("origin_ekle", "origin_sil", "anahtar_yenile", "gizli_yenile", "gizli_goster", "kimlik_dogrulama",
                "ziyaretci_token_iptal", "ziyaretci_serbest_birak")

    def _origin_ekle(self, request):
        form = forms.OriginForm(request.POST)
        if not form.is_valid():
            return self._sayfa(origin_form=form)
        origin = musteri_origin_ekle(musteri=self.musteri, origin=form.cleaned_data["origin"])
        messages.success(request, _("%(origin)s izinli adreslere eklendi.") % {"origin": origin})
        return redirect("portal:widget")

    def _origin_sil(self, request):
        origin = request.POST.get("origin", "")
        if origin in self.musteri.izinli_originler:
            musteri_origin_sil(musteri=self.musteri, origin=origin)
            messages.success(request, _("%(origin)s izinli adreslerden çıkarıldı.") % {"origin": origin})
        return redirect("portal:widget")

    def _anahtar_yenile(self, request):
        musteri_anahtar_yenile(musteri=self.musteri, hangisi="api_key")
        messages.success(request, _("Widget anahtarı yenilendi. Sitenizdeki gömme kodunu güncelleyin; "
                                    "eski anahtar artık çalışmaz."))
        return redirect("portal:widget")

    def _gizli_yenile(self, request):
        musteri_anahtar_yenile(musteri=self.musteri, hangisi="api_secret")
        messages.success(request, _("API gizli anahtarı yenilendi. Sunucunuzdaki imzalama ayarını güncelleyin."))
        return self._sayfa(gizli_goster=True)

    def _gizli_goster(self, request):
        return self._sayfa(gizli_goster=True)

    def _kimlik_dogrulama(self, request):
        form = forms.KimlikDogrulamaForm(request.POST)
        form.is_valid()
        zorunlu = bool(form.cleaned_data.get("kimlik_dogrulama_zorunlu"))
        services.musteri_kimlik_dogrulama_ayarla(musteri=self.musteri, zorunlu=zorunlu)
        messages.success(request, _("İmzalı kimlik zorunlu.") if zorunlu else _("İmzasız müşteri bilgisi de kabul ediliyor."))
        return redirect("portal:widget")

    def _ziyaretci_token_iptal(self, request):
        form = forms.ZiyaretciTokenIptalForm(request.POST)
        if not form.is_valid():
            return self._sayfa(token_iptal_form=form)
        ziyaretci_id = form.cleaned_data["ziyaretci_id"]
        ziyaretci_tokenlari_iptal_et(musteri=self.musteri, ziyaretci_id=ziyaretci_id)
        messages.success(request, _("%(ziyaretci)s ziyaretçisinin tüm anahtarları iptal edildi. "
                                    "Yeniden erişmesi için sitenizin imzalı kimliği gerekir.") % {"ziyaretci": ziyaretci_id})
        return redirect("portal:widget")

    def _ziyaretci_serbest_birak(self, request):
        # CONTRACT 2a: e.g. an id someone claimed before its visitor, on a site that never signs.
        form = forms.ZiyaretciTokenIptalForm(request.POST)
        if not form.is_valid():
            return self._sayfa(token_iptal_form=form)
        ziyaretci_id = form.cleaned_data["ziyaretci_id"]
        if ziyaretci_serbest_birak(musteri=self.musteri, ziyaretci_id=ziyaretci_id):
            messages.success(request, _("%(ziyaretci)s serbest bırakıldı: tüm anahtarları geçersiz, widget onu anahtarsız "
                                        "bir ziyaretçi olarak kabul ediyor.") % {"ziyaretci": ziyaretci_id})
        else:
            messages.info(request, _("%(ziyaretci)s zaten bir anahtara bağlı değildi.") % {"ziyaretci": ziyaretci_id})
        return redirect("portal:widget")


class HesapView(PortalView):
    """The user's own account: the display name and avatar visitors see (issue 13), and the
    language of the pages and mails (CONTRACT 19; "" follows the browser)."""

    aktif_proje_gerekli = False

    def get(self, request):
        form = forms.ProfilForm(initial={"ad": request.user.ad, "avatar": request.user.avatar, "dil": request.user.dil})
        return self.sayfa("portal/hesap.html", form=form)

    def post(self, request):
        # A client that posts no `dil` (a script setting the name) keeps the member's language.
        form = forms.ProfilForm(forms.takma_adlari_coz(request.POST, dil=request.user.dil))
        if form.is_valid():
            try:
                kullanici_profil_guncelle(kullanici=request.user, ad=form.cleaned_data["ad"],
                                          avatar=form.cleaned_data["avatar"], dil=form.cleaned_data["dil"])
            except GecersizIstek as exc:
                for alan, mesaj in (exc.alanlar or {}).items():
                    form.add_error(alan if alan in form.fields else None, mesaj)
            else:
                dil_etkinlestir(request)  # the message and the next page speak the language just chosen
                messages.success(request, _("Hesap bilgileriniz kaydedildi."))
                return redirect("portal:hesap")
        return self.sayfa("portal/hesap.html", form=form)


class SifreView(PortalView):
    aktif_proje_gerekli = False

    def get(self, request):
        return self.sayfa("portal/sifre.html", form=forms.SifreDegistirForm(user=request.user))

    def post(self, request):
        form = forms.SifreDegistirForm(user=request.user, data=request.POST)
        if not form.is_valid():
            return self.sayfa("portal/sifre.html", form=form)
        form.save()
        update_session_auth_hash(request, form.user)  # keep this session signed in
        messages.success(request, _("Şifreniz değiştirildi."))
        return redirect("portal:pano")


class _Yonlendir307(HttpResponseRedirect):
    status_code = 307


# Obvious names people and scripts type for the sign-in pages.
TAKMA_YOLLAR = {"login": "portal:giris", "signin": "portal:giris", "signup": "portal:kayit",
                "register": "portal:kayit", "logout": "portal:cikis"}


def bilinmeyen_yol(request, yol: str):
    """Anything else under /portal/: an alias or a page's path with a trailing slash goes to the
    page (307 keeps a POST a POST, with its body and CSRF token); the rest is the portal's 404."""
    temiz = yol.rstrip("/")
    hedef = reverse(TAKMA_YOLLAR[temiz]) if temiz in TAKMA_YOLLAR else None
    if hedef is None and temiz != yol:
        try:
            eslesme = resolve(f"/portal/{temiz}")
        except Resolver404:
            eslesme = None
        if eslesme is not None and eslesme.url_name != "bilinmeyen":
            hedef = f"/portal/{temiz}"
    if hedef is None:
        return bulunamadi(request)
    if request.META.get("QUERY_STRING"):
        hedef = f"{hedef}?{request.META['QUERY_STRING']}"
    return redirect(hedef) if request.method in GUVENLI_YONTEMLER else _Yonlendir307(hedef)

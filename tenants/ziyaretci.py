"""Visitor tokens (CONTRACT 2a): knowing a visitor's id is not enough to read its chats.

A visitor that asked for a token is *bound* (a `ZiyaretciKimligi` row, until the portal releases
it). From then on every widget call, context call and widget socket for it must carry a token of
its current generation (`nesil`); revoking all of its tokens is one increment of that number.
An unsigned init binds only an id the widget made for itself; any other is bound by the site's
signature (issue 24: a site's user number could be claimed before its visitor). Tokens are
opaque to the client: `django.core.signing` over (tenant, visitor, generation, a random nonce),
keyed with the server's SECRET_KEY and a salt of their own, so they cannot be guessed or forged,
and the signature is compared in constant time.

Erasure (CONTRACT 18, wave 4) deletes the row, so a later binding of the same id makes a new one:
a token names its row (`k`, never reused) besides the generation, and rows are made with
generations above every one a row without `k` tokens ever reached (`_NESIL_TABANI`), so no token
from before an erasure opens anything again, whatever is bound afterwards. Tokens issued before
`k` existed (no `k`) still open their own row, which never reaches that base.

`ziyaretci_erisimi_dogrula` is the one check: the REST base view (`WidgetAPIView`) and the widget
socket call it before reading or storing anything. It costs no query on the hot path: the
visitor's generation (0 for "not bound") is cached in the shared cache and invalidated on every
write here; an unreachable cache is skipped (the database answers).
"""
import hashlib
import hmac
import logging
import re
import secrets

from django.core import signing
from django.core.cache import cache
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from supportdesk.core import mesajlar
from supportdesk.core.exceptions import ApiHatasi
from supportdesk.core.onbellek import simdi_ve_commit_sonrasi

from .models import Musteri, ZiyaretciKimligi

logger = logging.getLogger("supportdesk.tenants")

TOKEN_BASLIGI = "HTTP_X_ZIYARETCI_TOKEN"  # request.META name of `X-Ziyaretci-Token`
_TUZ = "supportdesk.ziyaretci-token"
_ONBELLEK_SURE = 3600  # a safety net only: every write invalidates at once
_TOKEN_MAX = 512
WIDGET_KIMLIGI = re.compile(r"z_[0-9a-f]{32}")  # as static/widget/widget.js makes them
# The first generation of a row (see the module's doc): far above what a row that issued tokens
# without `k` reached (one step per revoke or signed re-binding).
_NESIL_TABANI = 1 << 24


class ZiyaretciTokenGerekli(ApiHatasi):
    """A bound visitor's call without its token, or with a wrong one (401, CONTRACT 1 and 2a)."""

    status_code, kod, mesaj = 401, "ZIYARETCI_TOKEN_GEREKLI", mesajlar.ZIYARETCI_TOKEN_GEREKLI


def _anahtar(musteri_id: int, ziyaretci_id: str) -> str:
    ozet = hashlib.sha256(ziyaretci_id.encode("utf-8", "surrogatepass")).hexdigest()[:40]
    return f"ziyaretci:nesil:{musteri_id}:{ozet}"


def ziyaretci_nesli(*, musteri_id: int, ziyaretci_id: str) -> int:
    """The visitor's token generation; 0 when it is not bound. Cached (see the module's doc)."""
    return _baglanti_oku(musteri_id, ziyaretci_id)[1]


def _baglanti_oku(musteri_id: int, ziyaretci_id: str) -> tuple[int, int]:
    """(the binding row's id, its generation); (0, 0) when the visitor is not bound. Cached."""
    anahtar = _anahtar(musteri_id, ziyaretci_id)
    try:
        deger = cache.get(anahtar)
    except Exception:
        logger.warning("Ziyaretçi önbelleği okunamadı.", exc_info=True)
        return _nesil_oku(musteri_id, ziyaretci_id)
    if isinstance(deger, (list, tuple)) and len(deger) == 2:
        return tuple(deger)
    deger = _nesil_oku(musteri_id, ziyaretci_id)  # (a bare number is a value cached before rows had ids in it)
    try:
        cache.set(anahtar, deger, _ONBELLEK_SURE)
    except Exception:
        logger.warning("Ziyaretçi önbelleğe yazılamadı.", exc_info=True)
    return deger


def _nesil_oku(musteri_id: int, ziyaretci_id: str) -> tuple[int, int]:
    # A released row is not bound: 0, though it keeps its generation for a later binding.
    satir = (
        ZiyaretciKimligi.objects.filter(musteri_id=musteri_id, ziyaretci_id=ziyaretci_id)
        .exclude(baglanti=ZiyaretciKimligi.SERBEST)
        .values_list("pk", "nesil")
        .first()
    )
    return tuple(satir) if satir else (0, 0)


def _unut(musteri_id: int, ziyaretci_id: str) -> None:
    # Before and again after the commit, so a request racing the write cannot cache the old value.
    anahtar = _anahtar(musteri_id, ziyaretci_id)

    def sil():
        try:
            cache.delete(anahtar)
        except Exception:
            logger.warning("Ziyaretçi önbelleği temizlenemedi.", exc_info=True)

    simdi_ve_commit_sonrasi(sil)


def _baglandi(musteri: Musteri, ziyaretci_id: str) -> None:
    _unut(musteri.id, ziyaretci_id)
    if not musteri.bagli_ziyaretci_var:
        # save(), not update(): the tenant cache (tenants.musteri_onbellegi) is invalidated on save.
        musteri.bagli_ziyaretci_var = True
        musteri.save(update_fields=["bagli_ziyaretci_var"])


def _token_uret(*, kimlik: ZiyaretciKimligi) -> str:
    # The nonce makes every issued token distinct (one per device), though all share a generation.
    return signing.dumps({"m": kimlik.musteri_id, "z": kimlik.ziyaretci_id, "k": kimlik.pk, "n": kimlik.nesil,
                          "r": secrets.token_urlsafe(9)}, salt=_TUZ)


def _token_gecerli(token, *, musteri_id: int, ziyaretci_id: str, baglanti: tuple[int, int]) -> bool:
    if not isinstance(token, str) or not token or len(token) > _TOKEN_MAX:
        return False
    try:
        veri = signing.loads(token, salt=_TUZ)  # the signature is compared in constant time
    except signing.BadSignature:
        return False
    if not isinstance(veri, dict):
        return False
    ayni_ziyaretci = hmac.compare_digest(
        str(veri.get("z", "")).encode("utf-8", "surrogatepass"), ziyaretci_id.encode("utf-8", "surrogatepass")
    )
    kimlik_id, nesil = baglanti
    # A token without `k` is older than erasure's rule: its generation is below `_NESIL_TABANI`,
    # so it can match only the row it was issued for (module doc).
    ayni_kimlik = veri.get("k", kimlik_id) == kimlik_id
    return ayni_ziyaretci and ayni_kimlik and veri.get("m") == musteri_id and veri.get("n") == nesil


def ziyaretci_erisimi_dogrula(*, musteri, ziyaretci_id: str, token: str | None) -> None:
    """Raise `ZiyaretciTokenGerekli` unless this call may act for the visitor (CONTRACT 2a).

    A bound visitor needs a valid token of its current generation; a tenant with
    `kimlik_dogrulama_zorunlu` refuses every visitor without one; any other visitor passes (it
    never asked for a token: clients of v1.6 and server-side integrations work as before).
    """
    baglanti = _baglanti_oku(musteri.id, ziyaretci_id) if musteri.bagli_ziyaretci_var else (0, 0)
    if baglanti[1] == 0:
        if musteri.kimlik_dogrulama_zorunlu:
            raise ZiyaretciTokenGerekli()
        return
    if not _token_gecerli(token, musteri_id=musteri.id, ziyaretci_id=ziyaretci_id, baglanti=baglanti):
        raise ZiyaretciTokenGerekli()


def ziyaretci_token_gecerli_mi(*, musteri, ziyaretci_id: str, token: str | None) -> bool:
    """Whether `token` is a valid token of this (bound) visitor."""
    baglanti = _baglanti_oku(musteri.id, ziyaretci_id) if musteri.bagli_ziyaretci_var else (0, 0)
    return baglanti[1] > 0 and _token_gecerli(token, musteri_id=musteri.id, ziyaretci_id=ziyaretci_id,
                                              baglanti=baglanti)


def ziyaretci_bagli_mi(*, musteri, ziyaretci_id: str) -> bool:
    return musteri.bagli_ziyaretci_var and ziyaretci_nesli(musteri_id=musteri.id, ziyaretci_id=ziyaretci_id) > 0


def widget_kimligi_mi(ziyaretci_id: str) -> bool:
    """Whether the id is one the embedded widget made for itself (`z_` + 128 random bits in
    lower-case hex), the only kind an unsigned init may bind (CONTRACT 2a): any other id may be
    the site's own (a user number) and could be claimed before its visitor arrives."""
    return WIDGET_KIMLIGI.fullmatch(ziyaretci_id) is not None


def _yeni_nesil(kimlik: ZiyaretciKimligi, baglanti: str) -> None:
    # Every token issued before is dead from here on (tokens name their generation).
    ZiyaretciKimligi.objects.filter(pk=kimlik.pk).update(nesil=F("nesil") + 1, baglanti=baglanti,
                                                         guncellenme=timezone.now())
    kimlik.refresh_from_db(fields=["nesil", "baglanti"])


@transaction.atomic
def ziyaretci_token_ver(*, musteri: Musteri, ziyaretci_id: str, imzali: bool) -> str:
    """Bind the visitor (when it is not yet) and issue a token (CONTRACT 2a).

    `imzali`: the call carried a valid signature of the tenant's server, so a bound visitor gets a
    further token (a second device); but a visitor bound without a signature first has every
    earlier token ended, since whoever knew its id may hold one. Unsigned, only the call that
    creates the binding gets one, and only for an id the widget made: of two racing first calls,
    one binds and the other is refused. The caller has checked that an unsigned visitor has no
    data yet.
    """
    if not imzali and (musteri.kimlik_dogrulama_zorunlu or not widget_kimligi_mi(ziyaretci_id)):
        raise ZiyaretciTokenGerekli()
    baglanti = ZiyaretciKimligi.IMZALI if imzali else ZiyaretciKimligi.IMZASIZ
    # The row lock orders this against a racing init, revoke or release of the same visitor.
    kimlik, yeni = ZiyaretciKimligi.objects.select_for_update().get_or_create(
        musteri=musteri, ziyaretci_id=ziyaretci_id, defaults={"baglanti": baglanti, "nesil": _NESIL_TABANI})
    degisti = yeni
    if not yeni:
        if kimlik.baglanti == ZiyaretciKimligi.SERBEST or (imzali and kimlik.baglanti == ZiyaretciKimligi.IMZASIZ):
            _yeni_nesil(kimlik, baglanti)
            degisti = True
        elif not imzali:
            raise ZiyaretciTokenGerekli()
    if degisti:
        _baglandi(musteri, ziyaretci_id)
    return _token_uret(kimlik=kimlik)


@transaction.atomic
def ziyaretci_tokenlari_iptal_et(*, musteri: Musteri, ziyaretci_id: str) -> ZiyaretciKimligi:
    """Revoke every token of the visitor at once (the portal's button). The visitor stays bound
    (a released one is bound again): from now on only a signed init (its site vouching for it)
    gives it a token, so no token issued without a signature is left."""
    kimlik, yeni = ZiyaretciKimligi.objects.select_for_update().get_or_create(
        musteri=musteri, ziyaretci_id=ziyaretci_id, defaults={"nesil": _NESIL_TABANI + 1})
    if not yeni:
        _yeni_nesil(kimlik, ZiyaretciKimligi.IMZALI)
    _baglandi(musteri, ziyaretci_id)
    return kimlik


@transaction.atomic
def ziyaretci_serbest_birak(*, musteri: Musteri, ziyaretci_id: str) -> bool:
    """Unbind the visitor (the portal's release, CONTRACT 2a): it then works as one that never
    asked for a token, and every token issued before is dead for good (the row keeps its
    generation; a later binding starts a higher one). False when it was not bound."""
    kimlik = (ZiyaretciKimligi.objects.select_for_update()
              .filter(musteri=musteri, ziyaretci_id=ziyaretci_id).exclude(baglanti=ZiyaretciKimligi.SERBEST).first())
    if kimlik is None:
        return False
    ZiyaretciKimligi.objects.filter(pk=kimlik.pk).update(baglanti=ZiyaretciKimligi.SERBEST, guncellenme=timezone.now())
    _unut(musteri.id, ziyaretci_id)
    return True


@transaction.atomic
def ziyaretci_kimligini_sil(*, musteri: Musteri, ziyaretci_id: str) -> None:
    """Erasure's part (CONTRACT 18, wave 4): the binding goes, and with it every token issued for
    it, for good: the cached generation is forgotten with the row, and a later binding of the same
    id is a new row that no earlier token names (module doc)."""
    ZiyaretciKimligi.objects.filter(musteri=musteri, ziyaretci_id=ziyaretci_id).delete()
    _unut(musteri.id, ziyaretci_id)

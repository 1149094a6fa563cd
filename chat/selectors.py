"""Reads of the chat app, always scoped in the query: to the visitor (widget) or to the
operator's tenants (`musteri_idleri`)."""
import functools
from datetime import timedelta

from django.db import connection
from django.db.models import Avg, Count, Q, QuerySet
from django.utils import timezone

from dosyalar.models import Dosya
from supportdesk.core.exceptions import Bulunamadi
from supportdesk.core.girdi import ID_MAX, id_coz
from tenants.models import Kullanici, Uyelik

from .models import HazirYanit, Mesaj, Oturum

CEVRIMICI_DURUMLAR = (Kullanici.Durum.CEVRIMICI, Kullanici.Durum.MESGUL)


# --- sessions ------------------------------------------------------------------------------
def ziyaretci_oturum_get(
    *, musteri, ziyaretci_id: str, oturum_id, kuyruk_bilgisi: bool = False, kilitle: bool = False
) -> Oturum:
    """A chat of this visitor of this tenant; the same 404 for missing and someone else's.

    `kuyruk_bilgisi` adds `sira_no` and `cevrimici_operator` in the same query (the widget's
    poll path). `kilitle` takes the row lock (SELECT ... FOR UPDATE) for a service inside its
    transaction.
    """
    oturum = _ziyaretci_oturumu(
        musteri_id=musteri.pk, ziyaretci_id=ziyaretci_id, oturum_id=id_coz(oturum_id), kuyruk_bilgisi=kuyruk_bilgisi,
        kilitle=kilitle,
    )
    if oturum is None:
        raise Bulunamadi()
    return oturum


def ziyaretci_acik_oturum(*, musteri, ziyaretci_id: str, kuyruk_bilgisi: bool = False) -> Oturum | None:
    # At most one open chat per visitor (the partial unique index `oturum_acik_tekil`).
    return _ziyaretci_oturumu(musteri_id=musteri.pk, ziyaretci_id=ziyaretci_id, kuyruk_bilgisi=kuyruk_bilgisi)


def oturum_get(*, musteri_idleri: list[int], oturum_id, kilitle: bool = False) -> Oturum:
    """A chat of one of the operator's tenants; the same 404 for missing and another tenant's."""
    qs = Oturum.objects.select_for_update() if kilitle else Oturum.objects.all()
    try:
        return qs.get(pk=id_coz(oturum_id), musteri_id__in=musteri_idleri)
    except Oturum.DoesNotExist:
        raise Bulunamadi() from None


def oturum_list(
    *, kullanici, musteri_idleri: list[int], durum: str | None = None, musteri_id: int | None = None
) -> QuerySet[Oturum]:
    """The combined queue over the caller's tenants.

    Without `durum`: the live queue, every waiting chat plus the caller's own active ones. A
    `musteri_id` that is not one of the caller's tenants is a 404, like any foreign id.
    """
    if musteri_id is not None:
        if musteri_id not in musteri_idleri:
            raise Bulunamadi()
        musteri_idleri = [musteri_id]
    qs = Oturum.objects.filter(musteri_id__in=musteri_idleri)
    if durum:
        return qs.filter(durum=durum)
    return qs.filter(Q(durum=Oturum.Durum.BEKLIYOR) | Q(durum=Oturum.Durum.AKTIF, operator=kullanici))


def sira_no(*, oturum: Oturum) -> int | None:
    """Place in the tenant's queue (1 = next) of a waiting chat, by one count on the queue index."""
    if oturum.durum != Oturum.Durum.BEKLIYOR:
        return None
    if hasattr(oturum, "_onceki_bekleyen"):
        return oturum._onceki_bekleyen + 1
    onceki = Oturum.objects.filter(
        Q(baslangic__lt=oturum.baslangic) | Q(baslangic=oturum.baslangic, id__lt=oturum.id),
        musteri_id=oturum.musteri_id,
        durum=Oturum.Durum.BEKLIYOR,
    ).count()
    return onceki + 1


def cevrimici_operator_var(*, musteri_id: int, oturum: Oturum | None = None) -> bool:
    if oturum is not None and hasattr(oturum, "_cevrimici_operator"):
        return oturum._cevrimici_operator
    return Kullanici.objects.filter(
        uyelikler__musteri_id=musteri_id, durum__in=CEVRIMICI_DURUMLAR, is_active=True
    ).exists()


def aktif_chat_sayisi(*, kullanici_id: int, musteri_id: int) -> int:
    return Oturum.objects.filter(operator_id=kullanici_id, musteri_id=musteri_id, durum=Oturum.Durum.AKTIF).count()


# --- messages ------------------------------------------------------------------------------
def mesaj_sayfasi(*, oturum: Oturum, sonra: int = 0, adet: int) -> list[Mesaj]:
    """Up to `adet` messages of a chat already resolved within its scope, `id > sonra`, oldest
    first, each with its attachment (`ek`) loaded: one query on the `(oturum, id)` index."""
    if sonra >= ID_MAX:
        return []  # no id is larger (and SQLite cannot even bind such a number)
    sql = _sql("mesaj_sayfasi", _mesaj_sayfasi_sql)
    with connection.cursor() as cursor:
        cursor.execute(sql, [oturum.pk, sonra, adet])
        satirlar = cursor.fetchall()
    mesaj_ceviri, dosya_ceviri = _ceviriler(Mesaj), _ceviriler(Dosya)
    n = len(Mesaj._meta.concrete_fields)
    ek_alani = Mesaj._meta.get_field("ek")
    mesajlar = []
    for satir in satirlar:
        mesaj = _nesne(Mesaj, satir[:n], mesaj_ceviri)
        if satir[n] is not None:
            ek_alani.set_cached_value(mesaj, _nesne(Dosya, satir[n:], dosya_ceviri))
        mesajlar.append(mesaj)
    return mesajlar


# --- canned responses ----------------------------------------------------------------------
def hazir_yanit_list(*, musteri_idleri: list[int], musteri_id: int | None = None, q: str = "") -> QuerySet[HazirYanit]:
    if musteri_id is not None:
        if musteri_id not in musteri_idleri:
            raise Bulunamadi()
        musteri_idleri = [musteri_id]
    qs = HazirYanit.objects.filter(musteri_id__in=musteri_idleri)
    if q:
        qs = qs.filter(Q(kisayol__icontains=q) | Q(baslik__icontains=q) | Q(icerik__icontains=q))
    return qs


# --- dashboard -----------------------------------------------------------------------------
def _bugun_baslangici():
    simdi = timezone.localtime()
    return simdi.replace(hour=0, minute=0, second=0, microsecond=0)


def dashboard_verisi(*, musteri_idleri: list[int]) -> dict[int, dict]:
    """Per tenant: waiting, active, closed today, rating average (30 days), operators online.

    Three grouped queries whatever the data size; "today" is the local day of settings.TIME_ZONE.
    """
    sinir = timezone.now() - timedelta(days=30)
    bugun = _bugun_baslangici()
    satirlar = {
        r["musteri_id"]: r
        for r in Oturum.objects.filter(musteri_id__in=musteri_idleri)
        .filter(Q(durum__in=Oturum.ACIK_DURUMLAR) | Q(bitis_zamani__gte=min(bugun, sinir)) | Q(puan_zamani__gte=sinir))
        .values("musteri_id")
        .annotate(
            bekleyen=Count("id", filter=Q(durum=Oturum.Durum.BEKLIYOR)),
            aktif=Count("id", filter=Q(durum=Oturum.Durum.AKTIF)),
            bugun_kapanan=Count("id", filter=Q(durum=Oturum.Durum.KAPANDI, bitis_zamani__gte=bugun)),
            puan_ortalama=Avg("puan", filter=Q(puan__isnull=False, puan_zamani__gte=sinir)),
            puan_sayisi=Count("id", filter=Q(puan__isnull=False, puan_zamani__gte=sinir)),
        )
        .order_by()
    }
    cevrimici = {
        r["uyelikler__musteri_id"]: r["n"]
        for r in Kullanici.objects.filter(
            uyelikler__musteri_id__in=musteri_idleri, durum__in=CEVRIMICI_DURUMLAR, is_active=True
        )
        .values("uyelikler__musteri_id")
        .annotate(n=Count("id", distinct=True))
        .order_by()
    }
    toplam_cevrimici = (
        Kullanici.objects.filter(uyelikler__musteri_id__in=musteri_idleri, durum__in=CEVRIMICI_DURUMLAR, is_active=True)
        .distinct()
        .count()
    )
    sonuc = {}
    for mid in musteri_idleri:
        r = satirlar.get(mid, {})
        sonuc[mid] = {
            "bekleyen_chat": r.get("bekleyen", 0),
            "aktif_chat": r.get("aktif", 0),
            "bugun_kapanan_chat": r.get("bugun_kapanan", 0),
            "ortalama_puan": r.get("puan_ortalama"),
            "puan_sayisi": r.get("puan_sayisi", 0),
            "cevrimici_operator": cevrimici.get(mid, 0),
        }
    return {"musteriler": sonuc, "toplam_cevrimici_operator": toplam_cevrimici}


# --- the widget's hot path in SQL ------------------------------------------------------------
# Every open widget polls every few seconds (docs/performance.md). Through the ORM, compiling the
# chat lookup (with its queue-place COUNT and operators-online EXISTS) and the message page cost
# several times what the database spends on them, so their SQL is built once per database vendor
# from the models' tables and columns. Rows go through the converters the ORM would apply
# (SQLite's text datetimes and integer booleans), so callers get the same objects.
_SQL_ONBELLEGI: dict[tuple[str, str], str] = {}


def _sql(ad: str, kur) -> str:
    anahtar = (connection.vendor, ad)
    sql = _SQL_ONBELLEGI.get(anahtar)
    if sql is None:
        sql = _SQL_ONBELLEGI[anahtar] = kur(connection.ops.quote_name)
    return sql


def _sutunlar(model, takma_ad: str, qn) -> str:
    return ", ".join(f"{takma_ad}.{qn(f.column)}" for f in model._meta.concrete_fields)


def _ceviriler(model) -> list[tuple[int, object, list]]:
    """(position, column, converters) of each concrete field of `model` that needs converting."""
    sonuc = []
    for i, sutun in _cevrilecek_sutunlar(connection.vendor, model):
        sonuc.append((i, sutun, connection.ops.get_db_converters(sutun) + sutun.get_db_converters(connection)))
    return sonuc


@functools.cache
def _cevrilecek_sutunlar(vendor: str, model) -> tuple:
    # Which columns need converting depends on the backend only (none on PostgreSQL), so it is
    # worked out once; the converters themselves are taken from the current connection.
    sonuc = []
    for i, alan in enumerate(model._meta.concrete_fields):
        sutun = alan.get_col(model._meta.db_table)
        if connection.ops.get_db_converters(sutun) + sutun.get_db_converters(connection):
            sonuc.append((i, sutun))
    return tuple(sonuc)


def _nesne(model, satir, ceviriler):
    degerler = list(satir)
    for i, sutun, fonksiyonlar in ceviriler:
        for fonksiyon in fonksiyonlar:
            degerler[i] = fonksiyon(degerler[i], sutun, connection)
    return model.from_db(connection.alias, None, degerler)


def _oturum_sql(qn, *, kuyruk_bilgisi: bool, tek: bool, kilitle: bool) -> str:
    # Only table names taken from the models are put into the text; every value is a parameter.
    oturum, kullanici, uyelik = (qn(m._meta.db_table) for m in (Oturum, Kullanici, Uyelik))
    secim = _sutunlar(Oturum, "o", qn)
    if kuyruk_bilgisi:
        # Place in the queue only while waiting (null otherwise, so the count is skipped), by a
        # count on the `oturum_kuyruk_idx` index; operators online by an EXISTS on memberships.
        sira = (
            f"SELECT COUNT(*) FROM {oturum} b WHERE b.musteri_id = o.musteri_id AND b.durum = %s"  # noqa: S608
            " AND (b.baslangic < o.baslangic OR (b.baslangic = o.baslangic AND b.id < o.id))"
        )
        cevrimici = (
            f"SELECT 1 FROM {kullanici} k INNER JOIN {uyelik} u ON u.kullanici_id = k.id"  # noqa: S608
            " WHERE u.musteri_id = o.musteri_id AND k.durum IN (%s, %s) AND k.is_active = %s"
        )
        secim += f", CASE WHEN o.durum = %s THEN ({sira}) END, EXISTS ({cevrimici})"
    kosul = "o.id = %s" if tek else "o.durum IN (%s, %s)"
    sql = f"SELECT {secim} FROM {oturum} o WHERE o.musteri_id = %s AND o.ziyaretci_id = %s AND {kosul}"  # noqa: S608
    return sql + (" FOR UPDATE" if kilitle else "")


def _ziyaretci_oturumu(
    *, musteri_id: int, ziyaretci_id: str, oturum_id: int | None = None, kuyruk_bilgisi: bool = False,
    kilitle: bool = False,
) -> Oturum | None:
    """The visitor's chat `oturum_id`, or without it the visitor's open chat; None when there is none."""
    kilitle = kilitle and connection.features.has_select_for_update  # SQLite locks the whole database anyway
    tek = oturum_id is not None
    sql = _sql(f"oturum:{kuyruk_bilgisi}:{tek}:{kilitle}",
               lambda qn: _oturum_sql(qn, kuyruk_bilgisi=kuyruk_bilgisi, tek=tek, kilitle=kilitle))
    params = [Oturum.Durum.BEKLIYOR, Oturum.Durum.BEKLIYOR, *CEVRIMICI_DURUMLAR, True] if kuyruk_bilgisi else []
    params += [musteri_id, ziyaretci_id, *([oturum_id] if tek else Oturum.ACIK_DURUMLAR)]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        satir = cursor.fetchone()
    if satir is None:
        return None
    n = len(Oturum._meta.concrete_fields)
    oturum = _nesne(Oturum, satir[:n], _ceviriler(Oturum))
    if kuyruk_bilgisi:
        oturum._onceki_bekleyen, oturum._cevrimici_operator = satir[n], bool(satir[n + 1])
    return oturum


def _mesaj_sayfasi_sql(qn) -> str:
    mesaj, dosya = qn(Mesaj._meta.db_table), qn(Dosya._meta.db_table)
    return (
        f"SELECT {_sutunlar(Mesaj, 'm', qn)}, {_sutunlar(Dosya, 'd', qn)} FROM {mesaj} m"  # noqa: S608
        f" LEFT OUTER JOIN {dosya} d ON d.id = m.ek_id WHERE m.oturum_id = %s AND m.id > %s ORDER BY m.id LIMIT %s"
    )

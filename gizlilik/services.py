"""A visitor's export and erasure, retention, and the removal of files whose rows are gone
(CONTRACT 18; docs/privacy.md).

Every removal of a row that owns a file goes through `dosyalari_silinecek_yap`: the file's name is
written to `BekleyenDosyaSilme` in the same transaction, and the file is removed once that
transaction commits (then the row goes). A rollback keeps rows and files; a crash after commit
leaves the pending row, which `dosya_supurge` finishes."""
import json
import logging
import re
import tempfile
import zipfile
from datetime import timedelta

from django.core.files.storage import default_storage
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from chat.models import Mesaj, Oturum
from context.models import EkranGoruntusu, HataKaydi, SayfaGoruntuleme, Ziyaretci
from dosyalar.models import Dosya
from eposta.models import EpostaDurdurma, GelenEposta, GidenEposta
from kisiler.services import kisi_ziyaretci_sil
from supportdesk.core.olaylar import yayinla
from supportdesk.core.yinele import kilitlenmede_yinele
from tenants.models import Musteri
from tenants.ziyaretci import ziyaretci_kimligini_sil
from tickets.models import Ticket, TicketYanit
from webhooks.models import Olay

from .models import BekleyenDosyaSilme

logger = logging.getLogger("supportdesk.gizlilik")

# Retention works in batches this big, each its own short transaction (docs/performance.md).
SAKLAMA_PARTI = 200
# A pending deletion older than this is the sweep's (a younger one may be its after-commit's).
SUPURGE_GECIKME = timedelta(minutes=5)


# --- files -------------------------------------------------------------------------------------

def dosyalari_silinecek_yap(adlar) -> None:
    """Inside the transaction that deletes the rows of these stored files: note them, and remove
    them (and the notes) after commit."""
    adlar = sorted({a for a in adlar if a})
    if not adlar:
        return
    kayitlar = BekleyenDosyaSilme.objects.bulk_create([BekleyenDosyaSilme(ad=a) for a in adlar])
    idler = [k.pk for k in kayitlar]
    transaction.on_commit(lambda: _depodan_sil(idler, adlar))


def _depodan_sil(idler: list[int], adlar: list[str]) -> None:
    silinen = []
    for kayit_id, ad in zip(idler, adlar, strict=True):
        try:
            default_storage.delete(ad)
            silinen.append(kayit_id)
        except OSError:
            logger.warning("Dosya silinemedi (süpürme yeniden deneyecek): %s", ad)
    BekleyenDosyaSilme.objects.filter(pk__in=silinen).delete()


def dosya_supurge(*, simdi=None) -> int:
    """Remove the files of pending deletions a crash left behind; safe in two processes at once
    (each row is claimed with SKIP LOCKED, and deleting a missing file is no error)."""
    sinir = (simdi or timezone.now()) - SUPURGE_GECIKME
    toplam = 0
    while True:
        with transaction.atomic():
            kayitlar = list(BekleyenDosyaSilme.objects.select_for_update(skip_locked=True)
                            .filter(olusturulma__lt=sinir).order_by("id")[:500])
            if not kayitlar:
                return toplam
            silinen = []
            for kayit in kayitlar:
                try:
                    default_storage.delete(kayit.ad)
                    silinen.append(kayit.pk)
                except OSError:
                    logger.warning("Dosya silinemedi: %s", kayit.ad)
            BekleyenDosyaSilme.objects.filter(pk__in=silinen).delete()
            toplam += len(silinen)
            if len(silinen) < len(kayitlar):
                return toplam


def musteri_dosyalarini_sil(*, musteri: Musteri) -> None:
    """In the transaction deleting the tenant: every file in storage it owns (its logo, uploads
    of visitors and operators, campaign images, screenshots) goes once that commits."""
    adlar = [musteri.logo.name] if musteri.logo else []
    adlar += Dosya.objects.filter(musteri_id=musteri.pk).values_list("dosya", flat=True)
    adlar += EkranGoruntusu.objects.filter(musteri_id=musteri.pk).values_list("gorsel", flat=True)
    dosyalari_silinecek_yap(adlar)


# --- export ------------------------------------------------------------------------------------

def _zaman(deger):
    return deger.isoformat() if deger else None


def _dosya_bilgisi(dosya: Dosya) -> dict:
    return {"id": dosya.id, "ad": dosya.ad, "mime_tipi": dosya.mime_tipi, "boyut": dosya.boyut,
            "olusturulma": _zaman(dosya.olusturulma)}


def _guvenli_ad(ad: str) -> str:
    return re.sub(r"[^\w.\-]+", "_", ad)[:100] or "dosya"


def ziyaretci_verisi(*, musteri: Musteri, ziyaretci_id: str) -> tuple[dict, list[tuple[str, str]]]:
    """The visitor's data (CONTRACT 18), notes left out, and the files to put beside it as
    (path in the archive, name in storage)."""
    profil = Ziyaretci.objects.filter(musteri=musteri, ziyaretci_id=ziyaretci_id).first()
    kayit_filtresi = {"musteri": musteri, "ziyaretci__musteri": musteri, "ziyaretci__ziyaretci_id": ziyaretci_id}
    dosyalar: list[tuple[str, str]] = []

    kendi_dosyalari = list(Dosya.objects.filter(musteri=musteri, ziyaretci_id=ziyaretci_id).order_by("id"))
    dosya_yolu = {}
    for dosya in kendi_dosyalari:
        yol = f"dosyalar/{dosya.id}_{_guvenli_ad(dosya.ad)}"
        dosya_yolu[dosya.id] = yol
        dosyalar.append((yol, dosya.dosya.name))

    ekranlar = []
    for ekran in EkranGoruntusu.objects.filter(**kayit_filtresi).order_by("id"):
        uzanti = ".png" if ekran.mime_tipi == "image/png" else ".jpg"
        yol = f"ekran_goruntuleri/{ekran.id}{uzanti}"
        dosyalar.append((yol, ekran.gorsel.name))
        ekranlar.append({"id": ekran.id, "zaman": _zaman(ekran.zaman), "url": ekran.url, "mime_tipi": ekran.mime_tipi,
                         "boyut": ekran.boyut, "dosya": yol})

    def ek(dosya):
        if dosya is None:
            return None
        return {**_dosya_bilgisi(dosya), "dosya": dosya_yolu.get(dosya.id)}

    oturumlar, puanlar = [], []
    mesajlar_by_oturum: dict[int, list] = {}
    oturum_listesi = list(Oturum.objects.filter(musteri=musteri, ziyaretci_id=ziyaretci_id).order_by("id"))
    for mesaj in (Mesaj.objects.gorunur().filter(oturum__in=[o.id for o in oturum_listesi])
                  .select_related("ek").order_by("oturum_id", "id")):
        mesajlar_by_oturum.setdefault(mesaj.oturum_id, []).append(
            {"id": mesaj.id, "gonderen": mesaj.gonderen, "icerik": mesaj.icerik, "zaman": _zaman(mesaj.zaman),
             "ek": ek(mesaj.ek)})
    for o in oturum_listesi:
        oturumlar.append({
            "id": o.id, "kanal": o.kanal, "durum": o.durum, "ziyaretci_adi": o.ziyaretci_adi, "email": o.email,
            "baslangic": _zaman(o.baslangic), "bitis_zamani": _zaman(o.bitis_zamani), "kapatan": o.kapatan,
            "puan": o.puan, "puan_yorumu": o.puan_yorumu, "mesajlar": mesajlar_by_oturum.get(o.id, []),
        })
        if o.puan is not None:
            puanlar.append({"oturum_id": o.id, "puan": o.puan, "yorum": o.puan_yorumu, "zaman": _zaman(o.puan_zamani)})

    ticketlar = []
    ticket_listesi = list(Ticket.objects.filter(musteri=musteri, ziyaretci_id=ziyaretci_id).order_by("id"))
    yanitlar_by_ticket: dict[int, list] = {}
    for yanit in (TicketYanit.objects.gorunur().filter(ticket__in=[t.id for t in ticket_listesi])
                  .prefetch_related("ekler").order_by("ticket_id", "zaman", "id")):
        yanitlar_by_ticket.setdefault(yanit.ticket_id, []).append(
            {"id": yanit.id, "gonderen": yanit.gonderen, "icerik": yanit.icerik, "zaman": _zaman(yanit.zaman),
             "ekler": [ek(d) for d in yanit.ekler.all()]})
    for t in ticket_listesi:
        ticketlar.append({
            "id": t.id, "konu": t.konu, "durum": t.durum, "oncelik": t.oncelik, "kanal": t.kanal, "ad": t.ad,
            "email": t.email, "olusturulma": _zaman(t.olusturulma), "guncellenme": _zaman(t.guncellenme),
            "yanitlar": yanitlar_by_ticket.get(t.id, []),
        })

    veri = {
        "ziyaretci_id": ziyaretci_id,
        "musteri_id": musteri.id,
        "disa_aktarma_zamani": _zaman(timezone.now()),
        "profil": None if profil is None else {
            "email": profil.email, "ad": profil.ad, "soyad": profil.soyad, "paket": profil.paket,
            "kontor": profil.kontor, "ekstra": profil.ekstra, "identity_dogrulandi": profil.identity_dogrulandi,
            "olusturulma": _zaman(profil.olusturulma), "guncellenme": _zaman(profil.guncellenme),
        },
        "baglam": {
            "sayfalar": [{"id": s.id, "zaman": _zaman(s.zaman), "url": s.url, "baslik": s.baslik, "referrer": s.referrer}
                         for s in SayfaGoruntuleme.objects.filter(**kayit_filtresi).order_by("id")],
            "hatalar": [{"id": h.id, "zaman": _zaman(h.zaman), "mesaj": h.mesaj, "kaynak": h.kaynak, "satir": h.satir,
                         "stack": h.stack, "url": h.url, "tarayici": h.tarayici}
                        for h in HataKaydi.objects.filter(**kayit_filtresi).order_by("id")],
            "ekran_goruntuleri": ekranlar,
        },
        "oturumlar": oturumlar,
        "ticketlar": ticketlar,
        "puanlar": puanlar,
        "dosyalar": [{**_dosya_bilgisi(d), "dosya": dosya_yolu[d.id]} for d in kendi_dosyalari],
    }
    return veri, dosyalar


def ziyaretci_disa_aktar(*, musteri: Musteri, ziyaretci_id: str, kullanici_id: int | None = None):
    """A zip archive (a file object at its start) of the visitor's data: `ziyaretci.json` and its
    files. Written to a spooled temporary file (in memory up to 8 MB, then on disk)."""
    veri, dosyalar = ziyaretci_verisi(musteri=musteri, ziyaretci_id=ziyaretci_id)
    arsiv = tempfile.SpooledTemporaryFile(max_size=8 * 1024 * 1024)
    with zipfile.ZipFile(arsiv, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("ziyaretci.json", json.dumps(veri, ensure_ascii=False, indent=2, cls=DjangoJSONEncoder))
        for yol, ad in dosyalar:
            try:
                with default_storage.open(ad, "rb") as kaynak, zf.open(yol, "w") as hedef:
                    while parca := kaynak.read(1024 * 1024):
                        hedef.write(parca)
            except (OSError, FileNotFoundError):
                logger.warning("Dışa aktarmada dosya okunamadı: %s", ad)
    arsiv.seek(0)
    yayinla("ziyaretci_disa_aktarildi", musteri_id=musteri.id,
            veri={"ziyaretci_id": ziyaretci_id, "aktor_id": kullanici_id,
                  "oturum": len(veri["oturumlar"]), "ticket": len(veri["ticketlar"]), "dosya": len(dosyalar)})
    return arsiv


# --- erasure -----------------------------------------------------------------------------------

SILINEN_ANAHTARLARI = ("oturum", "mesaj", "ticket", "yanit", "dosya", "baglam")


def _webhook_gecmisini_temizle(*, musteri: Musteri, ziyaretci_id: str, oturum_idleri, ticket_idleri) -> int:
    """Webhook history keeps only ids: the payloads of events about the visitor's chats and
    tickets keep their `*_id` fields (the visitor's own id excepted) and nothing else."""
    kosul = Q(veri__ziyaretci_id=ziyaretci_id)
    if oturum_idleri:
        kosul |= Q(veri__oturum_id__in=list(oturum_idleri))
    if ticket_idleri:
        kosul |= Q(veri__ticket_id__in=list(ticket_idleri))
    sayi = 0
    for olay in Olay.objects.filter(musteri=musteri).filter(kosul).only("id", "veri"):
        temiz = {k: v for k, v in olay.veri.items() if k.endswith("_id") and k != "ziyaretci_id"}
        if temiz != olay.veri:
            Olay.objects.filter(pk=olay.pk).update(veri=temiz)
            sayi += 1
    return sayi


def _sinyalsiz_sil(model, idler: list[int]) -> None:
    """Delete rows of `model` the way the collector would (CASCADE rows deleted, SET_NULL columns
    cleared, many-to-many links removed), but with no per-row signal: retention deletes closed
    chats nobody has open, in batches, and a signal per chat (each a round trip to the cache)
    would make every batch, and so its locks, last seconds instead of milliseconds. Relations are
    read off the model, so one added later by another feature is handled too."""
    for iliski in model._meta.related_objects:
        if iliski.many_to_many:
            continue  # the link rows are handled by the field's own side below or by the other model
        alan = iliski.field.name
        bagli = iliski.related_model._base_manager.filter(**{f"{alan}__in": idler})
        if iliski.on_delete is models.CASCADE:
            bagli.delete()
        elif iliski.on_delete is models.SET_NULL:
            bagli.update(**{alan: None})
    for m2m in model._meta.many_to_many:
        getattr(model, m2m.name).through._base_manager.filter(**{f"{m2m.m2m_field_name()}__in": idler}).delete()
    model._base_manager.filter(id__in=idler)._raw_delete(model._base_manager.db)


def _oturum_ve_ticketlari_sil(*, musteri: Musteri, oturum_idleri: list[int], ticket_idleri: list[int],
                              ek_dosya_filtresi: Q | None = None, sessiz: bool = False) -> dict:
    """Delete these chats and tickets of one tenant with their messages, replies, the uploads
    attached to them (and `ek_dosya_filtresi`'s), and the mails kept for them. In the caller's
    transaction; files removed after its commit. `sessiz`: chats go without per-row signals
    (retention: `_sinyalsiz_sil`)."""
    mesajlar = Mesaj.objects.filter(oturum_id__in=oturum_idleri)
    yanitlar = TicketYanit.objects.filter(ticket_id__in=ticket_idleri)
    dosya_kosulu = (Q(id__in=mesajlar.filter(ek__isnull=False).values("ek_id"))
                    | Q(id__in=TicketYanit.ekler.through.objects.filter(ticketyanit__ticket_id__in=ticket_idleri)
                        .values("dosya_id")))
    if ek_dosya_filtresi is not None:
        dosya_kosulu |= ek_dosya_filtresi
    dosya_qs = Dosya.objects.filter(musteri=musteri).filter(dosya_kosulu)
    dosya_satirlari = list(dosya_qs.values_list("id", "dosya"))

    mesaj_sayisi = mesajlar.delete()[1].get("chat.Mesaj", 0) if oturum_idleri else 0
    yanit_sayisi = yanitlar.count() if ticket_idleri else 0
    kapsamlar = [f"oturum:{i}" for i in oturum_idleri] + [f"ticket:{i}" for i in ticket_idleri]
    if oturum_idleri or ticket_idleri:
        GidenEposta.objects.filter(musteri=musteri).filter(
            Q(oturum_id__in=oturum_idleri) | Q(ticket_id__in=ticket_idleri)).delete()
        GelenEposta.objects.filter(musteri=musteri, ticket_id__in=ticket_idleri).delete()
        EpostaDurdurma.objects.filter(musteri=musteri, kapsam__in=kapsamlar).delete()
    if ticket_idleri:
        Ticket.objects.filter(id__in=ticket_idleri).delete()  # replies and their attachment links go with it
    if oturum_idleri:
        if sessiz:
            _sinyalsiz_sil(Oturum, oturum_idleri)
        else:
            Oturum.objects.filter(id__in=oturum_idleri).delete()
    if dosya_satirlari:
        Dosya.objects.filter(id__in=[i for i, _ in dosya_satirlari]).delete()
        dosyalari_silinecek_yap(ad for _, ad in dosya_satirlari)
    return {"oturum": len(oturum_idleri), "mesaj": mesaj_sayisi, "ticket": len(ticket_idleri),
            "yanit": yanit_sayisi, "dosya": len(dosya_satirlari)}


def ziyaretci_sil(*, musteri: Musteri, ziyaretci_id: str, kullanici_id: int | None = None) -> dict:
    """Erase everything of the visitor in this tenant (CONTRACT 18), in one transaction: a failure
    leaves nothing half erased. Returns the counts; a second call returns zeros.

    It races the visitor's own activity (wave 4: answers 200, never 5xx): the search indexer locks
    a chat or ticket row, then writes its search row, so the erasure takes the rows of its chats
    and tickets first, in id order, before it deletes anything (their search rows go with them);
    and a transaction the database still picks as a deadlock's victim runs again."""
    return kilitlenmede_yinele(_ziyaretci_sil, musteri=musteri, ziyaretci_id=ziyaretci_id, kullanici_id=kullanici_id)


def _ziyaretci_sil(*, musteri: Musteri, ziyaretci_id: str, kullanici_id: int | None) -> dict:
    with transaction.atomic():
        oturum_idleri = list(Oturum.objects.select_for_update().filter(musteri=musteri, ziyaretci_id=ziyaretci_id)
                             .order_by("id").values_list("id", flat=True))
        ticket_idleri = list(Ticket.objects.select_for_update().filter(musteri=musteri, ziyaretci_id=ziyaretci_id)
                             .order_by("id").values_list("id", flat=True))
        # The payloads first: they are found by the ids of rows about to go.
        _webhook_gecmisini_temizle(musteri=musteri, ziyaretci_id=ziyaretci_id,
                                   oturum_idleri=oturum_idleri, ticket_idleri=ticket_idleri)
        silinen = _oturum_ve_ticketlari_sil(musteri=musteri, oturum_idleri=oturum_idleri, ticket_idleri=ticket_idleri,
                                            ek_dosya_filtresi=Q(ziyaretci_id=ziyaretci_id))
        profiller = Ziyaretci.objects.filter(musteri=musteri, ziyaretci_id=ziyaretci_id)
        ekranlar = EkranGoruntusu.objects.filter(musteri=musteri, ziyaretci__in=profiller)
        ekran_adlari = list(ekranlar.values_list("gorsel", flat=True))
        baglam = len(ekran_adlari)
        for model in (SayfaGoruntuleme, HataKaydi):
            baglam += model.objects.filter(musteri=musteri, ziyaretci__in=profiller).count()
        baglam += profiller.count()
        profiller.delete()  # pages, errors and screenshots go with the profile
        dosyalari_silinecek_yap(ekran_adlari)
        silinen["dosya"] += len(ekran_adlari)
        silinen["baglam"] = baglam
        ziyaretci_kimligini_sil(musteri=musteri, ziyaretci_id=ziyaretci_id)
        # CONTRACT 25: the id leaves its contact, which goes too when it has no other id.
        kisi_ziyaretci_sil(musteri_id=musteri.id, ziyaretci_id=ziyaretci_id)
        yayinla("ziyaretci_silindi", musteri_id=musteri.id, veri={
            "ziyaretci_id": ziyaretci_id, "aktor_id": kullanici_id, "oturum_idleri": oturum_idleri,
            "ticket_idleri": ticket_idleri, "silinen": dict(silinen)})
    return {k: silinen[k] for k in SILINEN_ANAHTARLARI}


# --- retention ---------------------------------------------------------------------------------

def _saklama_partisi(musteri: Musteri, sinir) -> dict | None:
    """One batch of one tenant's expired rows, in one short transaction; None when nothing is left.

    The rows are claimed with FOR UPDATE SKIP LOCKED: a second process running the same job takes
    other rows (or none), and a chat or ticket being written right now is not waited for."""
    with transaction.atomic():
        yeni_mesaj = Mesaj.objects.filter(oturum=OuterRef("pk"), zaman__gte=sinir)
        oturum_idleri = list(
            Oturum.objects.filter(musteri=musteri, durum=Oturum.Durum.KAPANDI, bitis_zamani__lt=sinir)
            .exclude(Exists(yeni_mesaj)).select_for_update(skip_locked=True).order_by("bitis_zamani", "id")
            .values_list("id", flat=True)[:SAKLAMA_PARTI])
        ticket_idleri = list(
            Ticket.objects.filter(musteri=musteri, durum__in=[Ticket.Durum.COZULDU, Ticket.Durum.KAPANDI],
                                  guncellenme__lt=sinir)
            .select_for_update(skip_locked=True).order_by("guncellenme", "id")
            .values_list("id", flat=True)[:SAKLAMA_PARTI])
        ekranlar = list(EkranGoruntusu.objects.filter(musteri=musteri, zaman__lt=sinir)
                        .select_for_update(skip_locked=True).order_by("id").values_list("id", "gorsel")[:SAKLAMA_PARTI])
        sayfa_idleri = list(SayfaGoruntuleme.objects.filter(musteri=musteri, zaman__lt=sinir)
                            .select_for_update(skip_locked=True).order_by("id").values_list("id", flat=True)[:1000])
        hata_idleri = list(HataKaydi.objects.filter(musteri=musteri, zaman__lt=sinir)
                           .select_for_update(skip_locked=True).order_by("id").values_list("id", flat=True)[:1000])
        if not (oturum_idleri or ticket_idleri or ekranlar or sayfa_idleri or hata_idleri):
            return None
        silinen = _oturum_ve_ticketlari_sil(musteri=musteri, oturum_idleri=oturum_idleri, ticket_idleri=ticket_idleri,
                                            sessiz=True)
        if ekranlar:
            EkranGoruntusu.objects.filter(id__in=[i for i, _ in ekranlar]).delete()
            dosyalari_silinecek_yap(ad for _, ad in ekranlar)
        SayfaGoruntuleme.objects.filter(id__in=sayfa_idleri).delete()
        HataKaydi.objects.filter(id__in=hata_idleri).delete()
        silinen["dosya"] += len(ekranlar)
        silinen["baglam"] = len(ekranlar) + len(sayfa_idleri) + len(hata_idleri)
        return silinen


def saklama_uygula(*, simdi=None, musteri_id: int | None = None) -> dict:
    """Erase what every tenant with `saklama_gun` keeps no longer (CONTRACT 18): closed chats and
    `cozuldu`/`kapandi` tickets whose last activity is older, with their files and mails, and
    context records older than that. Batch by batch; idempotent; two processes at once share the
    work. Returns the totals."""
    simdi = simdi or timezone.now()
    toplam = dict.fromkeys(SILINEN_ANAHTARLARI, 0)
    musteriler = Musteri.objects.filter(saklama_gun__isnull=False).order_by("id")
    if musteri_id is not None:
        musteriler = musteriler.filter(pk=musteri_id)
    for musteri in musteriler:
        sinir = simdi - timedelta(days=musteri.saklama_gun or 0)
        while (silinen := _saklama_partisi(musteri, sinir)) is not None:
            for k in SILINEN_ANAHTARLARI:
                toplam[k] += silinen.get(k, 0)
    return toplam

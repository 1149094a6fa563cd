"""The audit log's writers (CONTRACT 18): one listener per recorded event, each inside the
publishing transaction, so an entry commits or rolls back with the change it records. What each
event becomes is in `kayit.py`."""
from supportdesk.core.olaylar import YayinlananOlay, dinle

from . import kayit


@dinle("giris", "giris_basarisiz", "giris_kilitlendi", islem_icinde=True)
def giris(olay: YayinlananOlay) -> None:
    kayit.giris(olay)


@dinle("musteri_degisti", islem_icinde=True)
def musteri_degisti(olay: YayinlananOlay) -> None:
    kayit.musteri_degisikligi(olay)


@dinle("musteri_siliniyor", islem_icinde=True)
def musteri_siliniyor(olay: YayinlananOlay) -> None:
    kayit.musteri_siliniyor(olay)


@dinle("ayar_degisti", "sla_degisti", islem_icinde=True)
def ayar(olay: YayinlananOlay) -> None:
    kayit.ayar(olay)


@dinle("uyelik_eklendi", "uyelik_guncellendi", "uyelik_silindi", islem_icinde=True)
def uyelik(olay: YayinlananOlay) -> None:
    kayit.uyelik(olay)


@dinle("etiket_olusturuldu", "etiket_degisti", "etiket_silindi", islem_icinde=True)
def etiket(olay: YayinlananOlay) -> None:
    kayit.etiket(olay)


@dinle("ekip_degisti", islem_icinde=True)
def ekip(olay: YayinlananOlay) -> None:
    kayit.ekip(olay)


@dinle("webhook_degisti", islem_icinde=True)
def webhook(olay: YayinlananOlay) -> None:
    kayit.webhook(olay)


@dinle("makale_yayinlandi", "makale_silindi", islem_icinde=True)
def makale(olay: YayinlananOlay) -> None:
    kayit.makale(olay)


@dinle("ziyaretci_disa_aktarildi", "ziyaretci_silindi", islem_icinde=True)
def ziyaretci(olay: YayinlananOlay) -> None:
    kayit.ziyaretci(olay)


@dinle("hazir_yanitlar_degisti", islem_icinde=True)
def hazir_yanit(olay: YayinlananOlay) -> None:
    kayit.hazir_yanit(olay)


@dinle("kisi_birlesti", islem_icinde=True)
def kisi(olay: YayinlananOlay) -> None:
    kayit.kisi(olay)


@dinle("kural_degisti", islem_icinde=True)
def kural(olay: YayinlananOlay) -> None:
    kayit.kural(olay)

from django.db.models import QuerySet

from .models import DenetimKaydi


def kayit_list(*, musteri_id: int, eylem: str | None = None, kullanici_id: int | None = None,
               baslangic=None, bitis=None) -> QuerySet[DenetimKaydi]:
    """A tenant's entries (newest first by id), filtered; the caller checked the role."""
    qs = DenetimKaydi.objects.filter(musteri_id=musteri_id)
    if eylem:
        qs = qs.filter(eylem=eylem)
    if kullanici_id is not None:
        qs = qs.filter(kullanici_id=kullanici_id)
    if baslangic is not None:
        qs = qs.filter(zaman__gte=baslangic)
    if bitis is not None:
        qs = qs.filter(zaman__lt=bitis)
    return qs

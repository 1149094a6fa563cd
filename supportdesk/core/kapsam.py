"""Tenant scoping in one place per model (HOUSE-STYLE 21): every tenant-owned model's manager is
built from these, and every selector starts from `kapsamda` (operator side, the caller's tenant
ids) or `ziyaretcinin` (widget side, one visitor of one tenant). Core knows no domain model: the
convention is only that tenant-owned rows have `musteri` (and visitors' rows `ziyaretci_id`)."""
from django.db import models


class KapsamQuerySet(models.QuerySet):
    def kapsamda(self, musteri_idleri):
        """Rows of the given tenants (the operator's, from `OperatorAPIView.musteri_idleri`)."""
        return self.filter(musteri_id__in=musteri_idleri)


class ZiyaretciQuerySet(KapsamQuerySet):
    def ziyaretcinin(self, *, musteri, ziyaretci_id: str):
        """Rows of one visitor of one tenant."""
        return self.filter(musteri=musteri, ziyaretci_id=ziyaretci_id)

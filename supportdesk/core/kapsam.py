"""Tenant scoping in one place per model (HOUSE-STYLE 21): every selector of a tenant-owned
model starts from one of these two methods, so "whose rows" is written once, in the query. Core
knows no domain model: the convention is only that tenant-owned rows reach `musteri`."""
from django.db import models


class KapsamliQuerySet(models.QuerySet):
    """`musteri_alani` names the path to the tenant (`"musteri"`, or `"ticket__musteri"` for a
    row owned through its parent); `ziyaretci_alani` the visitor's id, for visitor-owned rows."""

    musteri_alani = "musteri"
    ziyaretci_alani = "ziyaretci_id"

    def kapsamda(self, musteri_idleri) -> "KapsamliQuerySet":
        """Rows of the given tenants (the operator's memberships, or one tenant as `[id]`)."""
        return self.filter(**{f"{self.musteri_alani}_id__in": musteri_idleri})

    def ziyaretcinin(self, *, musteri, ziyaretci_id: str) -> "KapsamliQuerySet":
        """Rows of one visitor of one tenant (CONTRACT 2: another visitor's are as good as missing)."""
        return self.filter(**{self.musteri_alani: musteri, self.ziyaretci_alani: ziyaretci_id})

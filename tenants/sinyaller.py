"""Signals the tenants app sends for writes that Django's model signals do not see."""
from django.dispatch import Signal

# An operator's status (`Kullanici.durum`) changed by a conditional `QuerySet.update()` (status
# call, logout, presence sweep), inside the writing transaction. Argument: `kullanici`.
operator_durumu_degisti = Signal()

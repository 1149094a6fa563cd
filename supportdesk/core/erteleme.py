"""Snooze (CONTRACT 24), the parts chats and tickets share: which rows count as snoozed, the
`kadar` of a request checked once, and how operator shapes write it. Core knows no domain model:
the convention is only that a snoozable row has `ertelendi_kadar` (a time, or null) and
`ertelendi_ziyaretci` ("until the visitor writes")."""
from collections.abc import Mapping
from datetime import datetime, timedelta

from django.db.models import Q
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import serializers

from .exceptions import GecersizIstek
from .fields import utc_iso

# How far ahead a snooze may reach: further than this is a typo, not a plan.
EN_UZUN = timedelta(days=365)
ZIYARETCI = "ziyaretci"  # the shape's value for "until the visitor writes"

# The one definition of "snoozed" every view, count and sweep starts from (HOUSE-STYLE 27).
ERTELENMIS = Q(ertelendi_kadar__isnull=False) | Q(ertelendi_ziyaretci=True)


def kadar_coz(govde, *, alan: str = "kadar", simdi: datetime | None = None) -> datetime | None:
    """`{"kadar": timestamp | null}` checked: null is "until the visitor writes" (None here); a
    time must carry its offset, lie in the future and within EN_UZUN. Anything else is 400 with
    `alanlar`."""
    if not isinstance(govde, Mapping) or "kadar" not in govde:
        raise GecersizIstek(alanlar={alan: _("Zorunlu: bir zaman ya da null (ziyaretçi yazana dek).")})
    deger = govde["kadar"]
    if deger is None:
        return None
    try:
        zaman = parse_datetime(deger) if isinstance(deger, str) else None
    except ValueError:  # well-formed but impossible: month 13, an offset of +99:00 (was a 500)
        zaman = None
    if zaman is None or timezone.is_naive(zaman):
        raise GecersizIstek(alanlar={alan: _("Saat dilimiyle ISO 8601 bir zaman ya da null olmalı.")})
    simdi = simdi or timezone.now()
    if zaman <= simdi:
        raise GecersizIstek(alanlar={alan: _("Gelecekte bir zaman olmalı.")})
    if zaman > simdi + EN_UZUN:
        raise GecersizIstek(alanlar={alan: _("En çok bir yıl sonrası olabilir.")})
    return zaman


def ertelenmis_mi(nesne) -> bool:
    return nesne.ertelendi_kadar is not None or nesne.ertelendi_ziyaretci


def ertelendi_verisi(nesne) -> str | None:
    """The operator shape's `ertelendi_kadar`: the time, `"ziyaretci"`, or null (not snoozed)."""
    if nesne.ertelendi_ziyaretci:
        return ZIYARETCI
    return utc_iso(nesne.ertelendi_kadar)


class ErteleSerializer(serializers.Serializer):
    """`POST .../ertele`'s body, for the schema (checked by `kadar_coz`)."""
    kadar = serializers.CharField(allow_null=True, help_text=gettext_lazy(
        "Bu zamana dek (saat dilimiyle ISO 8601; gelecekte, en çok bir yıl sonra) ya da null: ziyaretçi yazana dek."))

"""Strict JSON serializer fields: a value of the wrong JSON type is a 400, never a guess.

DRF's own fields coerce ("true" -> True, 5 -> "5", 1.0 -> 1); request bodies here are JSON, and
a client that sends the wrong type has a bug worth telling it about (CONTRACT 1: wrong types -> 400).
"""
from datetime import UTC

from django.utils import timezone
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers


@extend_schema_field(OpenApiTypes.BOOL)
class StrictBooleanField(serializers.Field):
    """Only JSON true/false: "yes", 1 or "true" are refused."""

    default_error_messages = {"invalid": gettext_lazy("true ya da false olmalı.")}

    def to_internal_value(self, data):
        if not isinstance(data, bool):
            self.fail("invalid")
        return data

    def to_representation(self, value):
        return bool(value)


class StrictIntegerField(serializers.IntegerField):
    """An integer in JSON: booleans, floats and numeric strings are refused."""

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictCharField(serializers.CharField):
    """A JSON string only: numbers, booleans and lists are refused, never turned into text."""

    default_error_messages = {"invalid": gettext_lazy("Metin olmalı.")}

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictEmailField(serializers.EmailField):
    """An e-mail address as a JSON string: a number is refused as a wrong type, not read as text."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class ZamanField(serializers.DateTimeField):
    """A time as the contract writes it: ISO 8601 in UTC, `+00:00` (CONTRACT, top).

    One rule for every answer, whatever TIME_ZONE says (that setting is for pages and for the
    calendar days of the banner, not for the API): DRF would write the local offset (`+03:00`
    with Europe/Istanbul) and shorten UTC to `Z`. See `utc_iso`.
    """

    def to_representation(self, value):
        return utc_iso(value)


def utc_iso(value):
    """A datetime as the API writes it: `2026-11-22T03:44:31.123456+00:00`; None stays None."""
    if not value:
        return None
    if timezone.is_naive(value):
        value = timezone.make_aware(value)
    return value.astimezone(UTC).isoformat()

"""Two bare DRF views: the floor of the same stack (gunicorn, Django's middleware and request
cycle, DRF's APIView with its JSON parser and renderer, one PostgreSQL round trip) without
authentication, throttling, tenant lookup, validation or any of the service's logic.

The table is created by the benchmark (raw SQL, no migration: the served checkout knows nothing
of it). Each view runs exactly one statement, in autocommit, like the service's settings.
"""
from django.db import connection
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from .tablo import TABLO


class BosKayit(APIView):
    """One INSERT, 201."""

    authentication_classes: list = []
    permission_classes = [AllowAny]

    def post(self, request):
        icerik = request.data.get("icerik", "") if hasattr(request.data, "get") else ""
        with connection.cursor() as cursor:
            cursor.execute(f"INSERT INTO {TABLO} (icerik) VALUES (%s) RETURNING id, zaman", [str(icerik)[:200]])
            kayit_id, zaman = cursor.fetchone()
        return Response({"basarili": True, "data": {"id": kayit_id, "zaman": zaman.isoformat()}},
                        status=status.HTTP_201_CREATED)


class BosOkuma(APIView):
    """One SELECT by primary key (`?id=`), 200 (404 when there is no such row)."""

    authentication_classes: list = []
    permission_classes = [AllowAny]

    def get(self, request):
        try:
            kayit_id = int(request.query_params.get("id", ""))
        except ValueError:
            return Response({"basarili": False}, status=status.HTTP_400_BAD_REQUEST)
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT id, icerik, zaman FROM {TABLO} WHERE id = %s", [kayit_id])
            satir = cursor.fetchone()
        if satir is None:
            return Response({"basarili": False}, status=status.HTTP_404_NOT_FOUND)
        return Response({"basarili": True, "data": {"id": satir[0], "icerik": satir[1], "zaman": satir[2].isoformat()}})

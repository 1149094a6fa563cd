"""Two bare DRF views: the floor of the same stack (gunicorn, Django's middleware and request
cycle, DRF's APIView with its JSON parser and renderer, one PostgreSQL round trip) without
authentication, throttling, tenant lookup, validation or any of the service's logic.

The table is created by the benchmark (raw SQL, no migration: the served checkout knows nothing
of it). Each view runs exactly one statement, in autocommit, like the service's settings.
"""
import json

from django.db import connection
from django.http import JsonResponse
from django.views.decorators.csrf import csrf_exempt
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


# --- the ceiling of a rate-limited write (chat_bench.py --tavan) -------------------------------
# CONTRACT 9 puts every widget request under a limit exact across processes: one Redis round trip
# (the service's own limiter script, `pencere_kontrol`) before anything else. These two views are the
# bare INSERT plus that round trip and nothing else, once through DRF and once as a plain Django
# view: what no visitor message, which must also do both, can be faster than.
def _sinirli_kayit(icerik: str, ip: str):
    from django.conf import settings  # the served checkout's limiter: imported late, old checkouts lack it

    from supportdesk.core.throttling import oran_coz, pencere_kontrol

    pencere_kontrol(f"bench-tavan:{ip}", oran_coz(settings.WIDGET_RATE_LIMIT))
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {TABLO} (icerik) VALUES (%s) RETURNING id, zaman", [icerik[:200]])
        return cursor.fetchone()


class SinirliKayit(APIView):
    """The limit's round trip, then one INSERT, 201 (DRF, like the service's views)."""

    authentication_classes: list = []
    permission_classes = [AllowAny]

    def post(self, request):
        icerik = request.data.get("icerik", "") if hasattr(request.data, "get") else ""
        kayit_id, zaman = _sinirli_kayit(str(icerik), request.META.get("REMOTE_ADDR", ""))
        return Response({"basarili": True, "data": {"id": kayit_id, "zaman": zaman.isoformat()}},
                        status=status.HTTP_201_CREATED)


@csrf_exempt
def sinirli_kayit_django(request):
    """The same as `SinirliKayit` in a plain Django view: no DRF request, negotiation or renderer."""
    try:
        veri = json.loads(request.body)
    except ValueError:
        return JsonResponse({"basarili": False}, status=400)
    icerik = veri.get("icerik", "") if isinstance(veri, dict) else ""
    kayit_id, zaman = _sinirli_kayit(str(icerik), request.META.get("REMOTE_ADDR", ""))
    return JsonResponse({"basarili": True, "data": {"id": kayit_id, "zaman": zaman.isoformat()}}, status=201)


# --- the floor of a visitor message (issue 41, chat_bench.py --yayin) ----------------------------
# What a visitor message cannot do without: the INSERT, the widget limit's one round trip (CONTRACT
# 9, the service's own script) and one PUBLISH for the sockets (CONTRACT 11), from the request's
# thread on the cache's Redis connection pool. Nothing else: no validation, chat update, snapshot,
# search note or listener.
class YayinliKayit(APIView):
    """The limit's round trip, one INSERT, one PUBLISH, 201 (DRF, like the service's views)."""

    authentication_classes: list = []
    permission_classes = [AllowAny]

    def post(self, request):
        from django.core.cache import caches

        from supportdesk.core.throttling import _redis

        icerik = request.data.get("icerik", "") if hasattr(request.data, "get") else ""
        kayit_id, zaman = _sinirli_kayit(str(icerik), request.META.get("REMOTE_ADDR", ""))
        veri = {"id": kayit_id, "zaman": zaman.isoformat()}
        _redis(caches["default"]).publish("bench-taban-yayin", json.dumps({"tip": "mesaj", "data": veri}))
        return Response({"basarili": True, "data": veri}, status=status.HTTP_201_CREATED)

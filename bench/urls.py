"""All of the service's routes, plus `/bench/bos-kayit`: a bare Django view doing one INSERT.

It is the floor of the same stack (gunicorn, Django request cycle, PostgreSQL round trip)
without DRF, authentication, throttling, validation or the service's logic.
"""
from django.db import connection
from django.http import JsonResponse
from django.urls import path
from django.views.decorators.csrf import csrf_exempt

from supportdesk.urls import urlpatterns as servis_urlleri

TABLO = "bench_bos_kayit"


@csrf_exempt
def bos_kayit(request):
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {TABLO} (icerik) VALUES (%s) RETURNING id", [request.body[:200].decode("utf-8", "replace")])
        (kayit_id,) = cursor.fetchone()
    return JsonResponse({"basarili": True, "data": {"id": kayit_id}}, status=201)


urlpatterns = [path("bench/bos-kayit", bos_kayit), *servis_urlleri]

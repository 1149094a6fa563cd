from rest_framework.permissions import BasePermission

from .exceptions import OriginIzinsiz


class OriginIzinli(BasePermission):
    """Spec 5.2: with a non-empty `izinli_originler`, Origin (or Referer) must match exactly."""

    def has_permission(self, request, view):
        from tenants.origin import origin_izinli

        musteri = request.auth
        if not origin_izinli(
            musteri.izinli_originler, request.META.get("HTTP_ORIGIN"), request.META.get("HTTP_REFERER")
        ):
            raise OriginIzinsiz()
        return True

"""The S3 storage of user files (settings: S3_BUCKET), with the rule of
`kullanici_dosyasi`: everything but an image is `Content-Disposition: attachment`, stored on the
object and asked for again on each signed URL (objects stored before the rule have none).

S3 cannot send a `Content-Security-Policy` header; the files are served from the bucket's own
origin, not the service's, so a script in one reaches nothing of the service. Keep it so: never a
custom domain under the service's own site (docs/api.md, "Uploads").

The Content-Type is the stored name's, never the one the uploader's request claimed (django-storages
would store that): stored names take their extension from the sniffed type, so a PNG that claimed
`text/html` is still served as `image/png`. Signed URLs ask for it again (objects stored before).
"""
import mimetypes

from storages.backends.s3 import S3Storage

from .kullanici_dosyasi import satir_ici_mi


def _tip(ad: str) -> str:
    return mimetypes.guess_type(ad)[0] or "application/octet-stream"


class KullaniciDosyalari(S3Storage):
    def get_object_parameters(self, name):
        parametreler = super().get_object_parameters(name)
        parametreler["ContentType"] = _tip(name)
        if not satir_ici_mi(name):
            parametreler.setdefault("ContentDisposition", "attachment")
        return parametreler

    def url(self, name, parameters=None, expire=None, http_method=None):
        if self.querystring_auth:
            istenen = {"ResponseContentType": _tip(name)}
            if not satir_ici_mi(name):
                istenen["ResponseContentDisposition"] = "attachment"
            parameters = {**istenen, **(parameters or {})}
        return super().url(name, parameters=parameters, expire=expire, http_method=http_method)

"""The S3 storage of user files (settings: AWS_STORAGE_BUCKET_NAME), with the rule of
`kullanici_dosyasi`: everything but an image is `Content-Disposition: attachment`, stored on the
object and asked for again on each signed URL (objects stored before the rule have none).

S3 cannot send a `Content-Security-Policy` header; the files are served from the bucket's own
origin, not the service's, so a script in one reaches nothing of the service. Keep it so: never a
custom domain under the service's own site (docs/api.md, "Uploads").
"""
from storages.backends.s3 import S3Storage

from .kullanici_dosyasi import satir_ici_mi


class KullaniciDosyalari(S3Storage):
    def get_object_parameters(self, name):
        parametreler = super().get_object_parameters(name)
        if not satir_ici_mi(name):
            parametreler.setdefault("ContentDisposition", "attachment")
        return parametreler

    def url(self, name, parameters=None, expire=None, http_method=None):
        if self.querystring_auth and not satir_ici_mi(name):
            parameters = {"ResponseContentDisposition": "attachment", **(parameters or {})}
        return super().url(name, parameters=parameters, expire=expire, http_method=http_method)

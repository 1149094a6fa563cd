"""The OpenAPI description of the API as it really answers (ceviri: dosya yok: developers' documentation).

- `ZarfAutoSchema` (the schema class of every /api/v1 view, see `TemelAPIView`): views declare the
  `data` object of a success; the schema says what goes over the wire, the envelope of CONTRACT 1
  around it. Every error status carries the error envelope, and the statuses every endpoint of a
  kind can answer (400 for input, 401 and 403 for credentials and origin, 404 for ids in the path,
  415 for a body of another type, 429 for rate limits) are listed even where a view names fewer.
"""
import copy
import inspect

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import ResolvedComponent, force_instance, is_serializer
from drf_spectacular.utils import OpenApiResponse

from .pagination import EN_BUYUK_SAYFA, VARSAYILAN_SAYFA

HATA_YANITI = {
    "type": "object",
    "description": "Hata zarfı (CONTRACT 1).",
    "properties": {
        "basarili": {"type": "boolean", "enum": [False]},
        "hata": {
            "type": "object",
            "properties": {
                "kod": {"type": "string"},
                "mesaj": {"type": "string"},
                "alanlar": {"type": "object", "additionalProperties": {"type": "string"},
                            "description": "Alan adı (iç içe alanlar noktalı, gövdenin tümü `genel`) → ileti "
                                           "(isteğin dilinde, CONTRACT 19)."},
                "istek_id": {"type": "string", "description": "Yalnızca 5xx: X-Request-ID ile aynı."},
            },
            "required": ["kod", "mesaj"],
        },
    },
    "required": ["basarili", "hata"],
}

SAYFA_BOYUTU = f"Sayfa boyutu (varsayılan {VARSAYILAN_SAYFA}; {EN_BUYUK_SAYFA}'den büyüğü {EN_BUYUK_SAYFA} sayılır)."

# Status -> the codes it carries, for the statuses added where a view does not name them.
_ORTAK_HATALAR = {
    "400": "GECERSIZ_ISTEK",
    "401": "KIMLIK_GEREKLI",
    "403": "ORIGIN_IZINSIZ",
    "404": "BULUNAMADI",
    "415": "DESTEKLENMEYEN_ICERIK_TIPI",
    "429": "LIMIT_ASILDI",
}


def _zarfli(serializer) -> bool:
    """A response serializer that already describes the whole body (it has `basarili` itself)."""
    if isinstance(serializer, OpenApiResponse):
        serializer = serializer.response
    serializer = force_instance(serializer)
    return is_serializer(serializer) and "basarili" in getattr(serializer, "fields", {})


class ZarfAutoSchema(AutoSchema):
    def get_description(self):
        # Only the endpoint's own words: the base views' docstrings describe plumbing.
        action = getattr(self.view, self.method.lower(), None)
        return inspect.cleandoc(getattr(action, "__doc__", None) or self.view.__class__.__dict__.get("__doc__") or "")

    def _get_response_for_code(self, serializer, status_code, media_types=None, direction="response"):
        yanit = super()._get_response_for_code(serializer, status_code, media_types, direction)
        if status_code.startswith("2"):
            if not _zarfli(serializer):
                for media in yanit.get("content", {}).values():
                    media["schema"] = {
                        "type": "object",
                        "properties": {"basarili": {"type": "boolean", "enum": [True]}, "data": media["schema"]},
                        "required": ["basarili", "data"],
                    }
        else:
            yanit["content"] = {"application/json": {"schema": self._hata_semasi()}}
        return yanit

    def _hata_semasi(self) -> dict:
        # A copy: drf-spectacular's post-processing rewrites component schemas in place.
        component = ResolvedComponent(name="HataYaniti", type=ResolvedComponent.SCHEMA,
                                      schema=copy.deepcopy(HATA_YANITI), object="HataYaniti")
        self.registry.register_on_missing(component)
        return component.ref

    def get_operation(self, *args, **kwargs):
        operation = super().get_operation(*args, **kwargs)
        if operation is None:
            return None
        self._parametreleri_daralt(operation.get("parameters", []))
        gerekenler = []
        konumlar = {p["in"] for p in operation.get("parameters", [])}
        if "requestBody" in operation or konumlar & {"query", "path"}:
            gerekenler.append("400")
        if self.view.authentication_classes:
            gerekenler.append("401")
        if any(getattr(p, "hata_403", False) for p in self.view.permission_classes):
            gerekenler.append("403")
        if "path" in konumlar:
            gerekenler.append("404")
        if "requestBody" in operation:
            gerekenler.append("415")
        if self.view.throttle_classes:
            gerekenler.append("429")
        yanitlar = operation["responses"]
        for kod in gerekenler:
            yanitlar.setdefault(kod, {"description": self._kodlar(kod),
                                      "content": {"application/json": {"schema": self._hata_semasi()}}})
        operation["responses"] = dict(sorted(yanitlar.items()))
        return operation

    def _kodlar(self, status: str) -> str:
        if status == "401":
            # Each credential class names its own 401 codes (core knows none of them).
            for sinif in self.view.authentication_classes:
                if getattr(sinif, "hata_kodlari_401", None):
                    return sinif.hata_kodlari_401
        return _ORTAK_HATALAR[status]

    @staticmethod
    def _parametreleri_daralt(parametreler: list[dict]) -> None:
        """What every view enforces on the shared parameters, unless the view says more itself:
        a page size is at least 1 (`pagination.sayfa_boyutu`), an id in the query string is positive,
        and an optional query parameter given empty (`?durum=`) counts as not given."""
        for p in parametreler:
            schema = p.get("schema", {})
            if p["in"] != "query":
                continue
            if not p.get("required"):
                p["allowEmptyValue"] = True
            if schema.get("type") != "integer":
                continue
            if p["name"] == "limit":
                # A larger page size is served as the largest one (`pagination.sayfa_boyutu`).
                schema.setdefault("minimum", 1)
                p.setdefault("description", SAYFA_BOYUTU)
            elif p["name"].endswith("_id"):
                schema.setdefault("minimum", 1)

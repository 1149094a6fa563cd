"""How the OpenAPI schema describes the two credentials of `tenants.kimlik`."""
from drf_spectacular.extensions import OpenApiAuthenticationExtension


class OperatorJWTScheme(OpenApiAuthenticationExtension):
    target_class = "tenants.kimlik.OperatorJWTAuthentication"
    name = "BearerAuth"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "bearer", "bearerFormat": "JWT"}


class WidgetKeyScheme(OpenApiAuthenticationExtension):
    target_class = "tenants.kimlik.WidgetAnahtarAuthentication"
    name = "ApiKeyAuth"

    def get_security_definition(self, auto_schema):
        return {"type": "apiKey", "in": "header", "name": "X-API-Key"}


class PanelCerezScheme(OpenApiAuthenticationExtension):
    target_class = "tenants.kimlik.PanelCerezAuthentication"
    name = "PanelCerezi"

    def get_security_definition(self, auto_schema):
        # The operator console's HttpOnly cookie (`POST /panel/giris`); unsafe methods add X-CSRF-Token.
        return {"type": "apiKey", "in": "cookie", "name": "sd_operator"}

"""OpenAPI descriptions of our two credentials (loaded by CoreConfig.ready)."""
from drf_spectacular.extensions import OpenApiAuthenticationExtension


class OperatorJWTScheme(OpenApiAuthenticationExtension):
    target_class = "supportdesk.core.authentication.OperatorJWTAuthentication"
    name = "BearerAuth"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "bearer", "bearerFormat": "JWT"}


class WidgetKeyScheme(OpenApiAuthenticationExtension):
    target_class = "supportdesk.core.authentication.WidgetAnahtarAuthentication"
    name = "ApiKeyAuth"

    def get_security_definition(self, auto_schema):
        return {"type": "apiKey", "in": "header", "name": "X-API-Key"}

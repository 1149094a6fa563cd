from django.urls import path

from .consumers import OperatorSoketi, WidgetSoketi

websocket_urlpatterns = [
    path("ws/v1/widget/", WidgetSoketi.as_asgi()),
    path("ws/v1/operator/", OperatorSoketi.as_asgi()),
]

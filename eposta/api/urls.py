from django.urls import path

from . import views

urlpatterns = [
    path("widget/chat/transcript", views.WidgetSohbetDokumuView.as_view(), name="widget-chat-transcript"),
    path("inbound/email", views.GelenEpostaView.as_view(), name="inbound-email"),
]

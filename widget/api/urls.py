from django.urls import path

from . import views

urlpatterns = [
    path("widget/init", views.WidgetInitView.as_view(), name="widget-init"),
    path("widget/chat/ticket", views.WidgetSohbetTicketView.as_view(), name="widget-chat-ticket"),
]

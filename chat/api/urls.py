from django.urls import path

from . import views

# The widget's hottest calls first (the idle poll, the visitor's message): patterns are tried in order.
urlpatterns = [
    path("widget/chat/messages", views.WidgetChatMesajlarView.as_view(), name="widget-chat-messages"),
    path("widget/chat/message", views.WidgetChatMesajView.as_view(), name="widget-chat-message"),
    path("widget/chat/start", views.WidgetChatBaslatView.as_view(), name="widget-chat-start"),
    path("widget/chat/end", views.WidgetChatBitirView.as_view(), name="widget-chat-end"),
    path("widget/chat/rate", views.WidgetChatPuanView.as_view(), name="widget-chat-rate"),
    path("operator/chats", views.OperatorChatListView.as_view(), name="operator-chats"),
    path("operator/chat/<int:oturum_id>/messages", views.OperatorChatMesajlarView.as_view(), name="operator-chat-messages"),
    path("operator/chat/<int:oturum_id>/message", views.OperatorChatMesajView.as_view(), name="operator-chat-message"),
    path("operator/chat/<int:oturum_id>/accept", views.OperatorChatKabulView.as_view(), name="operator-chat-accept"),
    path("operator/chat/<int:oturum_id>/transfer", views.OperatorChatAktarView.as_view(), name="operator-chat-transfer"),
    path("operator/chat/<int:oturum_id>/close", views.OperatorChatKapatView.as_view(), name="operator-chat-close"),
    path("operator/chat/<int:oturum_id>/etiketler", views.OperatorChatEtiketlerView.as_view(),
         name="operator-chat-etiketler"),
    path("operator/chat/<int:oturum_id>/ertele", views.OperatorChatErteleView.as_view(), name="operator-chat-ertele"),
    path("operator/chat/<int:oturum_id>/ticket", views.OperatorChatTicketView.as_view(), name="operator-chat-ticket"),
    path("operator/canned-responses", views.HazirYanitListView.as_view(), name="operator-canned-responses"),
]

from django.urls import path

from . import views as v

urlpatterns = [
    path("widget/ticket/create", v.WidgetTicketCreateView.as_view(), name="widget-ticket-create"),
    path("widget/ticket/list", v.WidgetTicketListView.as_view(), name="widget-ticket-list"),
    path("widget/ticket/<int:ticket_id>", v.WidgetTicketDetailView.as_view(), name="widget-ticket-detail"),
    path("widget/ticket/<int:ticket_id>/reply", v.WidgetTicketReplyView.as_view(), name="widget-ticket-reply"),
    path("operator/tickets", v.OperatorTicketListView.as_view(), name="operator-tickets"),
    path("operator/ticket/<int:ticket_id>", v.OperatorTicketDetailView.as_view(), name="operator-ticket-detail"),
    path("operator/ticket/<int:ticket_id>/reply", v.OperatorTicketReplyView.as_view(), name="operator-ticket-reply"),
    path("operator/tenants/<int:musteri_id>/sla", v.TenantSlaView.as_view(), name="operator-tenants-sla"),
    path("operator/ticket/<int:ticket_id>/etiketler", v.OperatorTicketEtiketlerView.as_view(),
         name="operator-ticket-etiketler"),
    path("operator/ticket/<int:ticket_id>/ertele", v.OperatorTicketErteleView.as_view(), name="operator-ticket-ertele"),
    path("operator/ticket/<int:ticket_id>/status", v.OperatorTicketStatusView.as_view(), name="operator-ticket-status"),
]

from django.apps import AppConfig


class TicketsConfig(AppConfig):
    name = "tickets"
    # No listeners: every business step of a ticket (routing, the SLA clocks) is a direct call in
    # its service's transaction (issue 40); the other apps' listeners carry its outward effects.

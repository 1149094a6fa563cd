"""`/portal/gecmis`: the project's chats and tickets, searchable, each with its whole transcript
(read-only; CONTRACT 13). Every member of the project may read it."""
from datetime import datetime, time, timedelta

from django.utils import timezone

from chat import selectors as chat_selectors
from supportdesk.core.exceptions import Bulunamadi, GecersizIstek
from supportdesk.core.pagination import sayfala
from supportdesk.core.replika import replikadan
from tickets import selectors as ticket_selectors

from . import forms
from .views import PortalView, bulunamadi


def _gun_siniri(gun, ertesi=False):
    if gun is None:
        return None
    return timezone.make_aware(datetime.combine(gun + timedelta(days=1 if ertesi else 0), time.min))


class GecmisView(PortalView):
    @replikadan
    def get(self, request):
        form = forms.GecmisForm(request.GET or None)
        d = form.cleaned_data if form.is_valid() else {}
        tur = d.get("tur") or "sohbet"
        secim = {"musteri_id": self.musteri.id, "q": d.get("q") or "", "bas": _gun_siniri(d.get("bas")),
                 "son": _gun_siniri(d.get("son"), ertesi=True)}
        if tur == "ticket":
            qs, alanlar = ticket_selectors.gecmis_ticket_list(**secim), ("olusturulma", "id")
        else:
            qs, alanlar = chat_selectors.gecmis_oturum_list(**secim), ("baslangic", "id")
        try:
            satirlar, sonraki = sayfala(qs, request.GET, alanlar=alanlar, azalan=True)
        except GecersizIstek:
            satirlar, sonraki = sayfala(qs, {}, alanlar=alanlar, azalan=True)
        sorgu = request.GET.copy()
        sorgu.pop("cursor", None)
        return self.sayfa("portal/gecmis.html", status=200 if form.is_valid() or not request.GET else 400,
                          form=form, tur=tur, satirlar=satirlar, sonraki=sonraki, sorgu=sorgu.urlencode())


class GecmisSohbetView(PortalView):
    @replikadan
    def get(self, request, oturum_id: int):
        try:
            oturum = chat_selectors.gecmis_oturum_get(musteri_id=self.musteri.id, oturum_id=oturum_id)
        except Bulunamadi:
            return bulunamadi(request)
        return self.sayfa("portal/gecmis_sohbet.html", oturum=oturum,
                          mesajlar=list(chat_selectors.oturum_mesajlari(oturum=oturum)))


class GecmisTicketView(PortalView):
    @replikadan
    def get(self, request, ticket_id: int):
        try:
            ticket = ticket_selectors.gecmis_ticket_get(musteri_id=self.musteri.id, ticket_id=ticket_id)
        except Bulunamadi:
            return bulunamadi(request)
        return self.sayfa("portal/gecmis_ticket.html", ticket=ticket,
                          yanitlar=list(ticket_selectors.ticket_yanitlari(ticket=ticket)))

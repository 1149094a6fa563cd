"""Helpers for portal tests: a CSRF-enforcing browser-like client and project shortcuts."""
from django.test import Client

from supportdesk.testing.factories import TEST_SIFRE

AKTIF = "portal_active_tenant_id"


class Tarayici:
    """A Django test client that enforces CSRF like a browser and sends the token like our forms."""

    def __init__(self):
        self.c = Client(enforce_csrf_checks=True)

    def token(self) -> str:
        if "csrftoken" not in self.c.cookies:
            self.c.get("/portal/giris")
        if "csrftoken" not in self.c.cookies:
            self.c.get("/portal/projelerim")
        return self.c.cookies["csrftoken"].value

    def get(self, url, data=None, **kw):
        return self.c.get(url, data, **kw)

    def post(self, url, data=None, *, csrf=True, **kw):
        data = dict(data or {})
        if csrf:
            data["csrfmiddlewaretoken"] = self.token()
        return self.c.post(url, data, **kw)

    def giris(self, user, sifre=TEST_SIFRE):
        return self.post("/portal/giris", {"email": user.email, "sifre": sifre})

    @property
    def session(self):
        return self.c.session


def giris_yapmis(user) -> Tarayici:
    t = Tarayici()
    res = t.giris(user)
    assert res.status_code == 302, res.content.decode()[:2000]
    return t

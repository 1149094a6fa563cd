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



def gonderilen(email: str, konu_parcasi: str = ""):
    """The last mail sent to `email` (Django's test outbox; the outbox row's text is blanked once
    a mail with a one-time link is sent)."""
    from django.core import mail

    bulunan = [m for m in mail.outbox if email.lower() in [a.lower() for a in m.to] and konu_parcasi in m.subject]
    return bulunan[-1] if bulunan else None


def arkada_isle(fonksiyon, *args, **kwargs):
    """Call `fonksiyon` (a request) and run what it leaves for after the commit: the tasks it
    hands on and the mails they queue, as a worker would."""
    from django.test import TestCase

    with TestCase.captureOnCommitCallbacks(execute=True):
        return fonksiyon(*args, **kwargs)


def kayit_baglantisi(email: str) -> str:
    import re

    return re.search(r"https?://[^/\s]+(/portal/kayit/onay/\S+)", gonderilen(email, "etkinleştirin").body).group(1)


def kayit_ol(t: Tarayici, veri: dict):
    """Sign up as a person does: the form, then the mailed link's button. Returns its answer."""
    res = arkada_isle(t.post, "/portal/kayit", veri)
    assert res.status_code == 302 and res["Location"] == "/portal/kayit/gonderildi", res.content.decode()[:1500]
    yol = kayit_baglantisi(veri["email"])
    assert t.get(yol).status_code == 200
    return t.post(yol)

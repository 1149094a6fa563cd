"""Imports run one way (HOUSE-STYLE 19, issue 12): core knows no domain app, each app imports only
apps of lower layers, no app imports a sibling of its own layer, and no module hides an import
inside a function (the usual way of dodging a cycle). Read with `ast`, not by importing."""
import ast
from pathlib import Path

import pytest
from django.apps import apps

KOK = Path(__file__).resolve().parents[2]

# The allowed direction, lowest first. An app may import apps of lower layers only.
KATMANLAR = {
    "supportdesk.core": 0,
    "tenants": 1,
    "denetim": 2,  # the audit log: listeners of events by name; knows users and tenants only
    "dosyalar": 2,
    "webhooks": 2,
    # Contacts (CONTRACT 25): their rows and the actions chat's and tickets' own actions call to link
    # a visitor (`kisi_ziyaretci_bagla`), so below both; what reads a contact's chats and tickets (its
    # figures, `/operator/kisiler`, the CSV import and export) is composed in context.
    "kisiler": 2.5,
    "tickets": 3,
    # A chat sits on tickets (issue 43): it is measured by the tenant's SLA policy (tickets.sla,
    # CONTRACT 17, 24) and an operator turns it into a ticket (`chat_ticketa_cevir`), as the
    # ticket's own model already names its source chat. Tickets know nothing of chats' code.
    "chat": 3.5,
    "knowledge": 3,
    "context": 4,  # the visitor across channels: reads chats and tickets
    "canli": 4,  # the sockets: frames of chats, tickets and operators' status
    "eposta": 4,  # mail about chats and tickets, and tickets by mail
    "arama": 4,  # the operators' search over chats and tickets
    "widget": 5,  # compositions over the features
    "panel": 5,
    "portal": 6,  # the owners' pages, over everything (privacy's export and erasure included)
    "gizlilik": 5,  # privacy (CONTRACT 18): a visitor's rows of every feature, retention
    # automation rules and macros (CONTRACT 23): their actions are chat's and tickets' own, their
    # conditions read the visitor's context; the portal's rules page sits above them
    "otomasyon": 5,
}
# The project's wiring (settings, URL roots, the Celery and WSGI/ASGI entry points) and test code
# may name any app.
KAPSAM_DISI = ("supportdesk/settings.py", "supportdesk/test_settings.py", "supportdesk/urls.py",
               "supportdesk/api_urls.py", "supportdesk/celery.py", "supportdesk/wsgi.py", "supportdesk/asgi.py",
               "supportdesk/testing/", "supportdesk/tests/")
# Imports inside a function are allowed only where Django wants them: an AppConfig's ready().
ICERIDE_SERBEST = ("apps.py",)


def _uygulama(modul: str) -> str | None:
    for ad in sorted(KATMANLAR, key=len, reverse=True):
        if modul == ad or modul.startswith(ad + "."):
            return ad
    return None


def _dosyalar():
    for ad in KATMANLAR:
        klasor = KOK / ad.replace(".", "/")
        for yol in sorted(klasor.rglob("*.py")):
            goreli = yol.relative_to(KOK).as_posix()
            if "/tests/" in goreli or "/migrations/" in goreli or goreli.startswith(KAPSAM_DISI):
                continue
            yield ad, goreli, ast.parse(yol.read_text(encoding="utf-8"))


def _ice_aktarilanlar(agac, paket: str):
    for dugum in ast.walk(agac):
        if isinstance(dugum, ast.Import):
            for ad in dugum.names:
                yield dugum, ad.name
        elif isinstance(dugum, ast.ImportFrom):
            if dugum.level:
                yield dugum, paket  # relative: inside the same app
            elif dugum.module:
                yield dugum, dugum.module


def _fonksiyon_ici(agac):
    for dugum in ast.walk(agac):
        if isinstance(dugum, ast.FunctionDef | ast.AsyncFunctionDef):
            for ic in ast.walk(dugum):
                if isinstance(ic, ast.Import | ast.ImportFrom):
                    yield ic


IHLALLER = []
ICERIDEKILER = []
for _app, _dosya, _agac in _dosyalar():
    for _dugum, _modul in _ice_aktarilanlar(_agac, _app):
        _hedef = _uygulama(_modul)
        if _hedef and _hedef != _app and KATMANLAR[_hedef] >= KATMANLAR[_app]:
            IHLALLER.append(f"{_dosya}:{_dugum.lineno} {_app} -> {_modul}")
    if not _dosya.endswith(ICERIDE_SERBEST):
        ICERIDEKILER += [f"{_dosya}:{d.lineno}" for d in _fonksiyon_ici(_agac)]


def test_imports_run_one_way():
    assert IHLALLER == []


def test_no_import_inside_a_function():
    assert ICERIDEKILER == []


def _katmansizlar(uygulamalar) -> list[str]:
    """The project's apps (those whose folder is in this repository, not an installed library) that
    have no layer: `uygulamalar` is (name, folder) pairs."""
    eksik = []
    for ad, klasor in uygulamalar:
        yol = Path(klasor).resolve()
        if not yol.is_relative_to(KOK) or {".venv", "site-packages"} & set(yol.relative_to(KOK).parts):
            continue
        if ad not in KATMANLAR:
            eksik.append(ad)
    return sorted(set(eksik))


def test_every_project_app_has_a_layer():
    """A new app of INSTALLED_APPS (or a folder with an apps.py not installed yet) must be placed."""
    kurulu = [(c.name, c.path) for c in apps.get_app_configs()]
    klasorler = [(y.parent.name, y.parent) for y in KOK.glob("*/apps.py")]
    assert _katmansizlar(kurulu + klasorler) == []


@pytest.mark.parametrize("ad, klasor, eksik", [
    ("yeni_uygulama", KOK / "yeni_uygulama", True),  # a project app without a layer
    ("kisiler", KOK / "kisiler", False),
    ("rest_framework", KOK / ".venv/lib/python3.11/site-packages/rest_framework", False),  # a library
    ("rest_framework", "/usr/lib/python3/dist-packages/rest_framework", False),
])
def test_the_check_catches_an_app_without_a_layer(ad, klasor, eksik):
    assert bool(_katmansizlar([(ad, klasor)])) is eksik


@pytest.mark.parametrize("satir, beklenen", [
    ("from chat.models import Oturum", True),  # tenants -> chat: upward
    ("from context import selectors", True),  # chat -> context: upward
])
def test_the_check_catches_wrong_directions(satir, beklenen):
    agac = ast.parse(satir)
    app = "tenants" if "chat" in satir else "chat"
    bulunan = [m for _, m in _ice_aktarilanlar(agac, app)
               if _uygulama(m) and _uygulama(m) != app and KATMANLAR[_uygulama(m)] >= KATMANLAR[app]]
    assert bool(bulunan) is beklenen


# --- model signals stay inside their model's app (issue 25) -----------------------------------
# A receiver of a model signal on another app's model is a change travelling by a hidden route:
# the model's own app states a domain event instead (supportdesk.core.olaylar), and whoever cares
# listens in its `dinleyiciler.py`. Connections are found as `<signal>.connect(..., sender=X)` and
# `@receiver(<signal>, sender=X)`; X must be a model imported relatively (from the app itself).
MODEL_SINYALLERI = {"pre_init", "post_init", "pre_save", "post_save", "pre_delete", "post_delete", "m2m_changed"}


def _gondericiler(agac):
    """(line, signal, sender expression) of each model-signal connection in the module."""
    for dugum in ast.walk(agac):
        if not isinstance(dugum, ast.Call):
            continue
        islev = dugum.func
        if isinstance(islev, ast.Attribute) and islev.attr == "connect" and isinstance(islev.value, ast.Name):
            sinyal = islev.value.id
        elif isinstance(islev, ast.Name) and islev.id == "receiver" and dugum.args and isinstance(dugum.args[0], ast.Name):
            sinyal = dugum.args[0].id
        else:
            continue
        if sinyal not in MODEL_SINYALLERI:
            continue
        gonderen = next((k.value for k in dugum.keywords if k.arg == "sender"), None)
        yield dugum.lineno, sinyal, gonderen


def _yabanci_gondericiler(agac) -> list[str]:
    yerel = set()  # names bound by a relative import (the app's own modules) or defined here
    for dugum in ast.walk(agac):
        if isinstance(dugum, ast.ImportFrom) and dugum.level:
            yerel |= {a.asname or a.name for a in dugum.names}
        elif isinstance(dugum, ast.ClassDef):
            yerel.add(dugum.name)
    sorunlar = []
    for satir, sinyal, gonderen in _gondericiler(agac):
        if gonderen is None:  # every model of every app
            sorunlar.append(f"{satir}: {sinyal} without sender")
        elif isinstance(gonderen, ast.Constant):  # "app.Model": the app label must be this one
            sorunlar.append(f"{satir}: {sinyal} sender={gonderen.value!r} (use the imported model)")
        elif not (isinstance(gonderen, ast.Name) and gonderen.id in yerel):
            sorunlar.append(f"{satir}: {sinyal} sender={ast.unparse(gonderen)}")
    return sorunlar


YABANCI_ALICILAR = [f"{_dosya}:{s}" for _, _dosya, _agac in _dosyalar() for s in _yabanci_gondericiler(_agac)]


def test_no_model_signal_receiver_on_another_apps_model():
    assert YABANCI_ALICILAR == []


@pytest.mark.parametrize("kaynak, yabanci", [
    ("from tenants.models import Uyelik\npost_save.connect(f, sender=Uyelik)", True),
    ("from .models import Uyelik\npost_save.connect(f, sender=Uyelik)", False),
    ("from tenants import models\npost_delete.connect(f, sender=models.Kullanici)", True),
    ("from .models import Oturum\n@receiver(post_save, sender=Oturum)\ndef f(**k): pass", False),
    ("from tenants.models import Musteri\n@receiver(pre_save, sender=Musteri)\ndef f(**k): pass", True),
    ("post_save.connect(f)", True),
    ("request_started.connect(f)", False),  # not a model signal
])
def test_the_check_catches_receivers_on_other_apps_models(kaynak, yabanci):
    assert bool(_yabanci_gondericiler(ast.parse(kaynak))) is yabanci

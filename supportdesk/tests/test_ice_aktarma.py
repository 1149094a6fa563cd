"""Imports run one way (HOUSE-STYLE 19, issue 12): core knows no domain app, each app imports only
apps of lower layers, no app imports a sibling of its own layer, and no module hides an import
inside a function (the usual way of dodging a cycle). Read with `ast`, not by importing."""
import ast
from pathlib import Path

import pytest

KOK = Path(__file__).resolve().parents[2]

# The allowed direction, lowest first. An app may import apps of lower layers only.
KATMANLAR = {
    "supportdesk.core": 0,
    "tenants": 1,
    "dosyalar": 2,
    "webhooks": 2,
    "chat": 3,
    "tickets": 3,
    "knowledge": 3,
    "context": 4,  # the visitor across channels: reads chats and tickets
    "canli": 4,  # the sockets: frames of chats, tickets and operators' status
    "widget": 5,  # compositions over the features
    "panel": 5,
    "portal": 5,
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


@pytest.mark.parametrize("satir, beklenen", [
    ("from chat.models import Oturum", True),  # tenants -> chat: upward
    ("from tickets import selectors", True),  # chat -> tickets: sideways, same layer
])
def test_the_check_catches_wrong_directions(satir, beklenen):
    agac = ast.parse(satir)
    app = "tenants" if "chat" in satir else "chat"
    bulunan = [m for _, m in _ice_aktarilanlar(agac, app)
               if _uygulama(m) and _uygulama(m) != app and KATMANLAR[_uygulama(m)] >= KATMANLAR[app]]
    assert bool(bulunan) is beklenen

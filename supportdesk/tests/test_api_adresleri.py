"""Every /api/v1 route resolves to itself: no pattern is shadowed by one tried before it (the
order of `supportdesk/api_urls.py` puts the widget's hot calls first, issue 41)."""
import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, resolve

_ORNEK = {"int": "7", "str": "ornek", "slug": "ornek-1", "uuid": "12345678-1234-5678-1234-567812345678",
          "path": "ornek/yol"}


def _rotalar(desenler, onek: str = ""):
    for desen in desenler:
        if isinstance(desen, URLResolver):
            yield from _rotalar(desen.url_patterns, onek + str(desen.pattern))
        elif isinstance(desen, URLPattern):
            yield onek + str(desen.pattern), desen


def _api_rotalari():
    (api,) = [d for d in get_resolver().url_patterns if str(getattr(d, "pattern", "")) == "api/v1/"]
    # The catch-all (^[\s\S]*$) and any other regex route have no sample path of their own.
    return [(rota, d) for rota, d in _rotalar(api.url_patterns, "api/v1/") if "^" not in rota]


def _ornek_adres(rota: str) -> str:
    return "/" + re.sub(r"<(?:(\w+):)?\w+>", lambda m: _ORNEK[m.group(1) or "str"], rota)


def test_every_api_route_resolves_to_its_own_view():
    rotalar = _api_rotalari()
    assert len(rotalar) > 50, "the walk found the API's routes"
    yanlis = []
    for rota, desen in rotalar:
        eslesme = resolve(_ornek_adres(rota))
        if eslesme.route != rota or eslesme.func is not desen.callback:
            yanlis.append((rota, eslesme.route))
    assert not yanlis, yanlis


@pytest.mark.parametrize("adres, ad", [
    ("/api/v1/widget/chat/message", "widget-chat-message"),
    ("/api/v1/widget/chat/messages", "widget-chat-messages"),
    ("/api/v1/widget/init", "widget-init"),
    ("/api/v1/operator/chats", "operator-chats"),
    ("/api/v1/operator/tenants/7/operatorler", "operator-tenants-uyeler"),
    ("/api/v1/widget/upload", "widget-upload"),
    ("/api/v1/yok/boyle-bir-adres", "api-bilinmeyen"),
])
def test_the_widgets_calls_and_their_neighbours_keep_their_views(adres, ad):
    assert resolve(adres).url_name == ad

"""Issue 39: a search snippet (`parca`, CONTRACT 16: plain text) of a ticket reply written in
Markdown reads as the console shows the reply, without `**`, `[…](…)`, `#`; a chat's messages are
plain text and keep what was typed."""
from .test_arama import (  # noqa: F401  (fixtures and the module's marks)
    _ara,
    _chat,
    _commit,
    _dizin_commit_sonrasi,
    _istemci,
    _ok,
    _ticket,
    client,
    musteri,
    pytestmark,
)


def test_ticket_yaniti_parcasi_markdownsiz_duz_metindir(musteri, client):  # noqa: F811
    ticket_id = _ticket(musteri, "z-md", "Giriş sorunu", "Giremiyorum.")
    _, yazan = _istemci(musteri)
    with _commit():
        _ok(yazan.post(f"/api/v1/operator/ticket/{ticket_id}/reply", {"icerik": (
            "## Adımlar\n- **Şifre** sıfırlama için [buraya](https://ornek.com/sifre) tıklayın\n"
            "- `kod` alanına \\*6 haneli\\* kodu girin\n> _Not:_ ~~eski~~ bağlantı çalışmaz")}, format="json"), 201)
    parca = _ara(client, q="şifre")["sonuclar"][0]["parca"]
    assert parca == ("Giremiyorum. Adımlar «Şifre» sıfırlama için buraya tıklayın kod alanına *6 haneli* kodu girin "
                     "Not: eski bağlantı çalışmaz")

    # A chat message is plain text: what was typed stays, asterisks and all.
    _chat(musteri, "z-yildiz", "**parola** _neden_ gelmiyor?")
    assert _ara(client, q="parola")["sonuclar"][0]["parca"] == "**«parola»** _neden_ gelmiyor?"

"""Where later apps plug into foundation endpoints without the foundation importing them eagerly.

- `widget_init_ek`: extra keys of `POST /widget/init` (the visitor's open chat, operators online).
- `cikis_yapildi`: what logout does beyond revoking the token (operator status, events).
"""


def widget_init_ek(*, musteri, ziyaretci_id: str) -> dict:
    from chat.api.serializers import widget_oturum_verisi
    from chat.selectors import cevrimici_operator_var, sira_no, ziyaretci_acik_oturum

    # One query when the visitor has an open chat (queue place and operators online come with it).
    oturum = ziyaretci_acik_oturum(musteri=musteri, ziyaretci_id=ziyaretci_id, kuyruk_bilgisi=True)
    if oturum is None:
        return {"oturum": None, "cevrimici_operator": cevrimici_operator_var(musteri_id=musteri.id)}
    cevrimici = cevrimici_operator_var(musteri_id=musteri.id, oturum=oturum)
    veri = widget_oturum_verisi(oturum, sira_no=sira_no(oturum=oturum), cevrimici_operator=cevrimici)
    return {"oturum": veri, "cevrimici_operator": cevrimici}


def cikis_yapildi(*, kullanici) -> None:
    # Logging out makes the operator offline and emits operator_cevrimdisi (CONTRACT 7).
    from tenants.services import operator_cikis_yapti

    operator_cikis_yapti(kullanici=kullanici)

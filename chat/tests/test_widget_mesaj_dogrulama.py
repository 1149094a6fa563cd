"""The visitor message's plain validator (`widget_mesaj_hizli`, issue 41) against the serializer it
stands in for: whatever it accepts, the serializer accepts with the same data; anything else it
leaves to the serializer (which answers the errors, tested through HTTP in test_widget_chat.py)."""
import pytest

from chat.api.serializers import WidgetMesajSerializer, widget_mesaj_hizli

GECERLI = {"ziyaretci_id": "v-1", "oturum_id": 7, "icerik": "Merhaba"}

GOVDELER = [
    GECERLI,
    GECERLI | {"ek_id": 3},
    GECERLI | {"ek_id": None},
    GECERLI | {"fazla": "alan"},
    GECERLI | {"icerik": ""},
    GECERLI | {"icerik": "  boşluklu  "},
    GECERLI | {"icerik": "x" * 6000},
    GECERLI | {"icerik": "ğüşiöç 😀 \n\t"},
    GECERLI | {"icerik": "a\x00b"},
    GECERLI | {"icerik": "a\ud800b"},
    GECERLI | {"icerik": "\udfff"},
    GECERLI | {"icerik": 5},
    GECERLI | {"icerik": None},
    GECERLI | {"icerik": ["a"]},
    {"ziyaretci_id": "v-1", "oturum_id": 7},
    GECERLI | {"ziyaretci_id": "  v-1  "},
    GECERLI | {"ziyaretci_id": ""},
    GECERLI | {"ziyaretci_id": "   "},
    GECERLI | {"ziyaretci_id": "x" * 128},
    GECERLI | {"ziyaretci_id": "x" * 129},
    GECERLI | {"ziyaretci_id": " " + "x" * 128 + " "},
    GECERLI | {"ziyaretci_id": "a\x00"},
    GECERLI | {"ziyaretci_id": "a\ud800"},
    GECERLI | {"ziyaretci_id": "a\tb"},
    GECERLI | {"ziyaretci_id": 12},
    GECERLI | {"ziyaretci_id": None},
    {"oturum_id": 7, "icerik": "x"},
    GECERLI | {"oturum_id": 0},
    GECERLI | {"oturum_id": -1},
    GECERLI | {"oturum_id": True},
    GECERLI | {"oturum_id": 1.0},
    GECERLI | {"oturum_id": "7"},
    GECERLI | {"oturum_id": None},
    GECERLI | {"oturum_id": 2**70},
    GECERLI | {"ek_id": 0},
    GECERLI | {"ek_id": False},
    GECERLI | {"ek_id": "3"},
    GECERLI | {"ek_id": 2.0},
    [GECERLI],
    "metin",
    None,
]


@pytest.mark.parametrize("govde", GOVDELER)
def test_kabul_ettigini_serializer_da_ayni_veriyle_kabul_eder(govde):
    hizli = widget_mesaj_hizli(govde)
    if hizli is None:
        return
    ser = WidgetMesajSerializer(data=govde)
    assert ser.is_valid(), ser.errors
    assert hizli == dict(ser.validated_data)


def test_siradan_mesaj_hizli_yoldan_gecer():
    # Not a test that cannot fail: the usual bodies must not all fall back to the serializer.
    for govde in GOVDELER[:8]:
        assert widget_mesaj_hizli(govde) is not None, govde
    assert widget_mesaj_hizli(GECERLI | {"ek_id": 3})["ek_id"] == 3
    assert "ek_id" not in widget_mesaj_hizli(GECERLI)

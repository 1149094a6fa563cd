import pytest

from .yardimci import ziyaretci_istemcisi


@pytest.fixture
def widget(musteri):
    return ziyaretci_istemcisi(musteri)

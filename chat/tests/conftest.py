import pytest

from .yardimci import operator_istemcisi


@pytest.fixture
def op(musteri):
    """(user, client) of an operator of `musteri`."""
    return operator_istemcisi(musteri)

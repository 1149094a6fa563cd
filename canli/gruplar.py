"""Channel-layer group names: who hears what (CONTRACT 11).

- every operator socket of a member of tenant M is in `operator_musteri(M)`;
- every operator socket of user K is in `operator_kullanici(K)`;
- every widget socket of visitor Z of tenant M is in `ziyaretci(M, Z)`.
Group names allow only ASCII letters, digits, `-_.` and < 100 characters, so a visitor id (any
text up to 128 characters) is hashed.
"""
import hashlib


def operator_musteri(musteri_id: int) -> str:
    return f"op.m.{musteri_id}"


def operator_kullanici(kullanici_id: int) -> str:
    return f"op.k.{kullanici_id}"


def ziyaretci(musteri_id: int, ziyaretci_id: str) -> str:
    return f"zy.{musteri_id}.{hashlib.sha256(ziyaretci_id.encode()).hexdigest()[:40]}"

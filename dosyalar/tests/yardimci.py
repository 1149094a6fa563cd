"""Small real files of each allowed type, and upload helpers shared by every app's tests."""
import io
import struct
import zlib

from django.core.files.uploadedfile import SimpleUploadedFile


def png_bayt() -> bytes:
    def parca(tip: bytes, veri: bytes) -> bytes:
        return struct.pack(">I", len(veri)) + tip + veri + struct.pack(">I", zlib.crc32(tip + veri) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    idat = zlib.compress(b"\x00\xff\x00\x00")
    return b"\x89PNG\r\n\x1a\n" + parca(b"IHDR", ihdr) + parca(b"IDAT", idat) + parca(b"IEND", b"")


def jpeg_bayt() -> bytes:
    return b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00" + b"\x00" * 64 + b"\xff\xd9"


def pdf_bayt() -> bytes:
    return b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"


def exe_bayt() -> bytes:
    # A DOS/PE header: what a renamed Windows executable starts with.
    return b"MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff\x00\x00" + b"\x00" * 48 + b"PE\x00\x00" + b"\x00" * 200


def dosya(ad: str, icerik: bytes, content_type: str = "application/octet-stream") -> SimpleUploadedFile:
    return SimpleUploadedFile(ad, icerik, content_type=content_type)


def yukle(client, ziyaretci_id: str, ad: str, icerik: bytes, content_type: str = "image/png"):
    return client.post(
        "/api/v1/widget/upload", {"ziyaretci_id": ziyaretci_id, "dosya": dosya(ad, icerik, content_type)}, format="multipart"
    )


def yuklenen_id(client, ziyaretci_id: str = "z1") -> int:
    res = yukle(client, ziyaretci_id, "ekran.png", png_bayt())
    assert res.status_code == 201, res.content
    return res.json()["data"]["dosya"]["id"]


def akis_oku(response) -> bytes:
    if getattr(response, "streaming", False):
        buf = io.BytesIO()
        for chunk in response.streaming_content:
            buf.write(chunk)
        return buf.getvalue()
    return response.content

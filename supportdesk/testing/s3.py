"""An S3 API on loopback for tests (CONTRACT 26): moto's server (`python -m moto.server`, from the
dev lock) as a subprocess on a free port, once per test session; `s3` gives each test fresh buckets
and points the service's storages at them (S3_BUCKET for user files, S3_BACKUP_BUCKET for backups)
exactly as settings.py would from the S3_* variables.
"""
import subprocess
import sys
import time
import uuid

import boto3
import pytest
import requests
from django.conf import settings as django_settings

from .sunucu import kapali_port

ANAHTAR = {"aws_access_key_id": "test", "aws_secret_access_key": "test", "region_name": "us-east-1"}


class S3Sunucusu:
    def __init__(self, gunluk) -> None:
        self.port = kapali_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc = subprocess.Popen([sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(self.port)],
                                     stdout=gunluk, stderr=subprocess.STDOUT, start_new_session=True)
        bitis = time.monotonic() + 30
        while True:
            try:
                requests.get(f"{self.url}/moto-api/", timeout=1)
                break
            except requests.RequestException:
                if self.proc.poll() is not None or time.monotonic() > bitis:
                    self.kapat()
                    pytest.fail("moto sunucusu başlamadı")
                time.sleep(0.05)
        self.istemci = boto3.client("s3", endpoint_url=self.url, **ANAHTAR)

    def kapat(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)


@pytest.fixture(scope="session")
def s3_sunucusu(tmp_path_factory):
    with open(tmp_path_factory.mktemp("moto") / "moto.log", "wb") as gunluk:
        sunucu = S3Sunucusu(gunluk)
        yield sunucu
        sunucu.kapat()


class Kovalar:
    def __init__(self, sunucu: S3Sunucusu) -> None:
        self.sunucu = sunucu
        self.dosyalar = f"dosyalar-{uuid.uuid4().hex[:12]}"
        self.yedekler = f"yedekler-{uuid.uuid4().hex[:12]}"
        for kova in (self.dosyalar, self.yedekler):
            sunucu.istemci.create_bucket(Bucket=kova)

    def nesneler(self, kova: str) -> dict[str, dict]:
        """Every object of the bucket, by key, with its stored headers (HEAD)."""
        cevap = self.sunucu.istemci.list_objects_v2(Bucket=kova)
        return {n["Key"]: self.sunucu.istemci.head_object(Bucket=kova, Key=n["Key"]) for n in cevap.get("Contents", [])}

    def oku(self, kova: str, anahtar: str) -> bytes:
        return self.sunucu.istemci.get_object(Bucket=kova, Key=anahtar)["Body"].read()


@pytest.fixture
def s3(s3_sunucusu, settings, monkeypatch):
    kovalar = Kovalar(s3_sunucusu)
    # boto3 reads these when S3_ACCESS_KEY_ID is not given; the test gives them (S3_AYARLARI) too.
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "test")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "test")
    ayarlar = {"endpoint_url": s3_sunucusu.url, "region_name": "us-east-1", "addressing_style": "path",
               "access_key": "test", "secret_key": "test", "querystring_auth": True, "querystring_expire": 3600,
               "file_overwrite": False, "default_acl": None}
    settings.S3_BUCKET = settings.AWS_STORAGE_BUCKET_NAME = kovalar.dosyalar
    settings.S3_BACKUP_BUCKET = kovalar.yedekler
    settings.STORAGES = {
        **django_settings.STORAGES,
        "default": {"BACKEND": "supportdesk.core.s3.KullaniciDosyalari",
                    "OPTIONS": {**ayarlar, "bucket_name": kovalar.dosyalar}},
        "yedekler": {"BACKEND": "storages.backends.s3.S3Storage",
                     "OPTIONS": {**ayarlar, "bucket_name": kovalar.yedekler}},
    }
    return kovalar

"""Health probe for containers and process managers: exits 0 when the URL answers 200.

    python ops/saglik.py http://127.0.0.1:8000/api/v1/saglik/canli

Standard library only (it runs in the image, where no test tool is installed). The request
carries what a request through the reverse proxy carries, so the service's production checks let
it through: `Host` is the first name in ALLOWED_HOSTS (not a pattern) and
`X-Forwarded-Proto: https` (otherwise SECURE_SSL_REDIRECT answers 301).
"""
import os
import sys
import urllib.error
import urllib.request


def _host() -> str | None:
    for ad in os.environ.get("ALLOWED_HOSTS", "").split(","):
        ad = ad.strip().lstrip(".")
        if ad and ad != "*":
            return ad
    return None


def main(url: str) -> int:
    basliklar = {"X-Forwarded-Proto": "https", "Accept": "application/json"}
    if host := _host():
        basliklar["Host"] = host
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=basliklar), timeout=5) as yanit:  # noqa: S310
            return 0 if yanit.status == 200 else 1
    except (urllib.error.URLError, OSError) as hata:
        print(f"{url}: {hata}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000/api/v1/saglik/canli"))

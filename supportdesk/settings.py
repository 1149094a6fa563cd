"""Settings, read from the environment through one django-environ object.

Defaults run the service on a bare machine: SQLite, Celery in eager mode, local-memory cache.
With DEBUG off a real SECRET_KEY is required, so a misconfigured deployment stops at start-up.
A development checkout gets both from `.env`, which `make env` (and `make run`) writes once with
DEBUG=true and a random key; a deployment has no such file (it is git-ignored).
"""
import os
import sys
from datetime import timedelta
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import environ
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured
from redis.backoff import NoBackoff
from redis.retry import Retry

from supportdesk.core.redis_adresi import kume_dugumleri, kume_mi

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
# Variables already in the environment win over the file. DJANGO_ENV_FILE names another file
# (the tests use it to run a checkout with and without one).
environ.Env.read_env(os.environ.get("DJANGO_ENV_FILE", BASE_DIR / ".env"), overwrite=False)

DEBUG = env.bool("DEBUG", default=False)
# `yayinla` checks each event's `veri` against its declared type (supportdesk.core.olaylar): on in
# development and in the tests, off in production (one check per event on the hot paths).
OLAY_VERISI_DENETLE = env.bool("OLAY_VERISI_DENETLE", default=DEBUG)
if DEBUG:
    SECRET_KEY = env("SECRET_KEY", default="dev-only-insecure-key-change-me-" + "x" * 32)
else:
    try:
        SECRET_KEY = env("SECRET_KEY")  # required in production: no default on purpose
    except ImproperlyConfigured:
        raise ImproperlyConfigured(
            "Set the SECRET_KEY environment variable (required with DEBUG off). For a development "
            "checkout run `make env`: it writes .env with DEBUG=true and a random SECRET_KEY."
        ) from None
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    # The admin site asks a TOTP code of staff who set one up (required with ADMIN_2FA_ZORUNLU).
    "tenants.admin_sitesi.YonetimAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "corsheaders",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "django_otp",
    "django_otp.plugins.otp_totp",
    "axes",
    "supportdesk.core",
    "tenants",
    "webhooks",
    "dosyalar",
    "chat",
    "tickets",
    "knowledge",
    "context",
    "eposta",
    "arama",
    "widget",
    "panel",
    "portal",
    "canli",
    "denetim",
    "gizlilik",
    "kisiler",
    "otomasyon",
]

MIDDLEWARE = [
    # The request's language (CONTRACT 19; supportdesk/core/dil.py), before anything can answer.
    "supportdesk.core.dil.DilMiddleware",
    # Who acts and from where, for the events a request causes (the audit log; core/eylemci.py).
    "supportdesk.core.eylemci.IstekEylemcisiMiddleware",
    "supportdesk.core.middleware.RequestIdMiddleware",
    "supportdesk.core.middleware.AdresUzunlukSiniri",
    "supportdesk.core.middleware.ParcaliGovde",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "corsheaders.middleware.CorsMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    # The middlewares of pages (sessions, users, messages) run for everything but /api/v1/, whose
    # views authenticate themselves per request and keep no session.
    "supportdesk.core.middleware.SayfaAraKatmanlari",
    # After the pages' users are known: a signed-in caller's write keeps its reads on the primary
    # for a few seconds (CONTRACT 26; only with DATABASE_REPLICA_URL).
    "supportdesk.core.replika.YazanOkusunMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "portal.middleware.PortalCSP",
    "supportdesk.core.csp.YonetimVeBelgeCSP",
]
SAYFA_MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # `request.user.is_verified()`: the session passed a TOTP code (two-factor; tenants/iki_adim.py)
    "django_otp.middleware.OTPMiddleware",
    # A signed-in user's own language (`Kullanici.dil`) over the browser's.
    "supportdesk.core.dil.SayfaDiliMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # A locked-out login (axes, below) is answered 429 with the lockout page.
    "axes.middleware.AxesMiddleware",
]
API_ONEKI = "/api/v1/"
# Longest path + query string answered (longer: 414 in the envelope); see README's gunicorn flags.
ISTEK_ADRESI_SINIRI = env.int("ISTEK_ADRESI_SINIRI", default=8192)
# The admin looks for its middlewares in MIDDLEWARE by name; they run for it, from SAYFA_MIDDLEWARE
# (tests/test_middleware: the admin logs in and works).
# axes.W002 likewise: AxesMiddleware runs for the pages, from SAYFA_MIDDLEWARE; the API's login maps
# a lockout to its own 429 (tenants.api.views.GirisView).
SILENCED_SYSTEM_CHECKS = ["admin.E408", "admin.E409", "admin.E410", "axes.W002"]

ROOT_URLCONF = "supportdesk.urls"
# Where the Django admin lives (CONTRACT 18): a path of its own makes it harder to find; ends in "/".
ADMIN_URL = env("ADMIN_URL", default="admin/").strip("/") + "/"
# Staff must log in to the admin with a TOTP code (set up in the portal's account page) when on.
ADMIN_2FA_ZORUNLU = env.bool("ADMIN_2FA_ZORUNLU", default=False)
WSGI_APPLICATION = "supportdesk.wsgi.application"
# Sockets (CONTRACT 11): `supportdesk.asgi` serves /ws/ (and, in development, everything).
ASGI_APPLICATION = "supportdesk.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
if DATABASES["default"]["ENGINE"].startswith("django.db.backends.postgresql"):
    # Production defaults: a connection is kept for a minute (checked before reuse) instead of a
    # new one per request, about 7 ms each; and statements a connection runs often are prepared
    # on the server (psycopg's server-side binding; `DB_PREPARE_THRESHOLD=0` turns it off, e.g.
    # behind PgBouncer in transaction mode).
    DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60)
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    _hazirla = env.int("DB_PREPARE_THRESHOLD", default=5)
    if _hazirla > 0:
        DATABASES["default"].setdefault("OPTIONS", {}).update(server_side_binding=True, prepare_threshold=_hazirla)
else:
    DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=0)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Concurrent writers (threads of runserver, the local webhook worker) wait instead of failing:
    # a transaction that reads and then writes would otherwise hold a read lock that SQLite cannot
    # upgrade while another writer waits, and fail at once with "database is locked". IMMEDIATE
    # takes the write lock at BEGIN, so writers queue behind `timeout`; WAL lets readers go on.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        timeout=20, transaction_mode="IMMEDIATE", init_command="PRAGMA journal_mode=WAL;"
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# A read replica (CONTRACT 26; supportdesk/core/replika.py): reports, search, exports, the audit
# list and the context reads go there (views marked `@replikadan`), everything else to the primary.
# A caller that wrote within REPLIKA_YAZ_OKU_SANIYE seconds reads from the primary; a replica more
# than REPLIKA_AZAMI_GECIKME seconds behind, or not answering (checked every REPLIKA_DENETIM_ARALIGI
# seconds per process, REPLIKA_BAGLANTI_SURESI seconds to connect), is left for the primary.
DATABASE_REPLICA_URL = env("DATABASE_REPLICA_URL", default="")
REPLIKA_YAZ_OKU_SANIYE = env.float("REPLIKA_YAZ_OKU_SANIYE", default=5)
REPLIKA_AZAMI_GECIKME = env.float("REPLIKA_AZAMI_GECIKME", default=10)
REPLIKA_DENETIM_ARALIGI = env.float("REPLIKA_DENETIM_ARALIGI", default=5)
if DATABASE_REPLICA_URL:
    DATABASES["replica"] = {
        **env.db_url_config(DATABASE_REPLICA_URL),
        "CONN_MAX_AGE": DATABASES["default"]["CONN_MAX_AGE"],
        "CONN_HEALTH_CHECKS": True,
        # The test runner makes no database of its own for it: the primary's test database.
        "TEST": {"MIRROR": "default"},
    }
    DATABASES["replica"].setdefault("OPTIONS", {}).update(
        connect_timeout=env.int("REPLIKA_BAGLANTI_SURESI", default=2),
        **{k: v for k, v in DATABASES["default"].get("OPTIONS", {}).items()
           if k in ("server_side_binding", "prepare_threshold")},
    )
DATABASE_ROUTERS = ["supportdesk.core.replika.ReplikaYonlendirici"]
AUTH_USER_MODEL = "tenants.Kullanici"
# Lockout (CONTRACT 18 wave 4, django-axes): AXES_FAILURE_LIMIT failed logins of one pair of account
# *and* address (each within AXES_COOLOFF_TIME of the one before) lock that pair for AXES_COOLOFF_TIME,
# never an account alone (anyone could lock any member out) nor an address alone (one office's typos
# would lock its whole team out); a success resets the pair. Spraying from one address across many
# accounts is slowed by GIRIS_ADRES_LIMITI (supportdesk.core.throttling.GirisAdresLimiti). The address
# is the one the rate limits use (NUM_PROXIES). The axes backend only refuses locked-out attempts; the
# model backend logs in.
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]
AXES_ENABLED = env.bool("GIRIS_KILIDI", default=True)
AXES_FAILURE_LIMIT = env.int("GIRIS_KILIDI_DENEME", default=10)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("GIRIS_KILIDI_DAKIKA", default=15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]  # the pair (a list inside: combined)
AXES_RESET_ON_SUCCESS = True
# A lockout lasts its 15 minutes from the failure that caused it: attempts refused meanwhile (the
# right password too) neither count nor extend it.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_USERNAME_CALLABLE = "tenants.iki_adim.giris_adi"
AXES_CLIENT_IP_CALLABLE = "tenants.iki_adim.istemci_adresi"
AXES_LOCKOUT_TEMPLATE = "portal/kilitli.html"
AXES_VERBOSE = False
# TOTP (django-otp): the name authenticator apps show, and codes one step either side accepted.
OTP_TOTP_ISSUER = env("OTP_TOTP_ISSUER", default="SupportDesk")

REDIS_URL = env("REDIS_URL", default="")
# Redis is a cache and a broker here, never the only copy of anything: when it is down every
# caller skips it (rate limits fail open, caches fall back to the database, the webhook outbox
# keeps what it could not queue). So a request must learn "down" fast: no retries with backoff
# (redis-py's default spends about a second per call), short timeouts (loopback or LAN).
REDIS_CONNECT_TIMEOUT = env.float("REDIS_CONNECT_TIMEOUT", default=0.5)
REDIS_SOCKET_TIMEOUT = env.float("REDIS_SOCKET_TIMEOUT", default=1.0)
# Past one host (CONTRACT 26, docs/production.md "Redis Cluster"): REDIS_URL may name a Redis
# Cluster, `redis+cluster://host:port,host:port,...` (cache, rate limits, presence, the widget's
# pre-read, semaphores). The socket fan-out (channels-redis) and the broker (kombu, with beat's
# lock, celery-redbeat) do not speak cluster: they then need a plain Redis (or a Sentinel-managed
# one) of their own, REDIS_CHANNEL_URL and REDIS_BROKER_URL. With a plain REDIS_URL both default
# to it, as before.
REDIS_KUME = kume_mi(REDIS_URL)
REDIS_CHANNEL_URL = env("REDIS_CHANNEL_URL", default="") or env("CHANNEL_LAYER_URL", default="") \
    or ("" if REDIS_KUME else REDIS_URL)
REDIS_BROKER_URL = env("REDIS_BROKER_URL", default="") or ("" if REDIS_KUME else REDIS_URL)
if REDIS_KUME:
    try:
        kume_dugumleri(REDIS_URL)
    except ValueError as e:
        raise ImproperlyConfigured(f"REDIS_URL: {e}") from None
    for _ad, _deger in (("REDIS_CHANNEL_URL", REDIS_CHANNEL_URL), ("REDIS_BROKER_URL", REDIS_BROKER_URL)):
        if not _deger or kume_mi(_deger):
            raise ImproperlyConfigured(
                f"REDIS_URL names a Redis Cluster: set {_ad} to a plain Redis (redis://...) or a "
                "Sentinel one; channels-redis and Celery's broker do not support Redis Cluster.")
if REDIS_URL:
    CACHES = {"default": {
        "BACKEND": "supportdesk.core.onbellek.RedisOnbellek",  # Django's RedisCache, one client per pool
        "LOCATION": REDIS_URL,
        "OPTIONS": {"retry": Retry(NoBackoff(), 0), "socket_connect_timeout": REDIS_CONNECT_TIMEOUT,
                    "socket_timeout": REDIS_SOCKET_TIMEOUT},
    }}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "tr"
# Turkish is the source language of every string; English is the second (CONTRACT 19, docs/ceviri.md).
LANGUAGES = [("tr", "Türkçe"), ("en", "English")]  # ceviri: yok (each in its own language)
# UTC unless set: "today" (trial days left, the dashboard's closed-today) is then the same day a
# tenant's server or a client on UTC counts; a deployment serving one country sets its zone.
TIME_ZONE = env("TIME_ZONE", default="UTC")
USE_I18N = True
# Our wording over Django's where they differ: "şifre", never "parola" (locale/tr/LC_MESSAGES/django.po).
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = Path(env("STATIC_ROOT", default=str(BASE_DIR / "staticfiles")))
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_URL = "/media/"
MEDIA_ROOT = Path(env("MEDIA_ROOT", default=str(BASE_DIR / "media")))
STORAGES = {
    "default": {"BACKEND": env("DEFAULT_FILE_STORAGE", default="django.core.files.storage.FileSystemStorage")},
    # Hashed, compressed files once `collectstatic` has run (which itself writes them, manifest
    # included: on a fresh checkout or image build there is no manifest yet); before that (a
    # production start that skipped it) WhiteNoise serves the source files, rather than every page
    # failing on the manifest.
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG and ((STATIC_ROOT / "staticfiles.json").exists() or sys.argv[1:2] == ["collectstatic"])
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = STORAGES["staticfiles"]["BACKEND"].startswith("django.")
# Files browsers ask for at the site's root (/favicon.ico), served by WhiteNoise like static files.
WHITENOISE_ROOT = BASE_DIR / "static" / "kok"
# Files on S3-compatible storage (CONTRACT 26, django-storages): uploads, context screenshots, logos
# and what exports read go to the bucket S3_BUCKET when set, otherwise to MEDIA_ROOT; backups go to
# S3_BACKUP_BUCKET when set (supportdesk.core.yedek). Private buckets: URLs are signed and expire.
# The S3_* names are the documented ones; django-storages' AWS_* names (the older ones here) are
# still read where an S3_* one is not set. Without S3_ACCESS_KEY_ID boto3 finds its credentials
# itself (AWS_ACCESS_KEY_ID in the environment, an instance role).
def _s3(ad: str, eski: str | None = None, varsayilan=None):
    return env(f"S3_{ad}", default=None) or (env(eski, default=None) if eski else None) or varsayilan


S3_BUCKET = _s3("BUCKET", "AWS_STORAGE_BUCKET_NAME", "")
S3_BACKUP_BUCKET = _s3("BACKUP_BUCKET", None, "")
S3_AYARLARI = {
    "endpoint_url": _s3("ENDPOINT_URL", "AWS_S3_ENDPOINT_URL"),
    "region_name": _s3("REGION", "AWS_S3_REGION_NAME"),
    # "path" for servers that have no per-bucket host names (MinIO, a loopback test server)
    "addressing_style": _s3("ADDRESSING_STYLE", "AWS_S3_ADDRESSING_STYLE"),
    "access_key": _s3("ACCESS_KEY_ID"),
    "secret_key": _s3("SECRET_ACCESS_KEY"),
    "querystring_auth": env.bool("S3_QUERYSTRING_AUTH", default=env.bool("AWS_QUERYSTRING_AUTH", default=True)),
    "querystring_expire": int(_s3("QUERYSTRING_EXPIRE", "AWS_QUERYSTRING_EXPIRE", 3600)),
    "file_overwrite": False,
    "default_acl": None,
}
S3_AYARLARI = {k: v for k, v in S3_AYARLARI.items() if v is not None}
AWS_STORAGE_BUCKET_NAME = S3_BUCKET  # the name older code and docs read
if S3_BUCKET:
    STORAGES["default"] = {
        # django-storages' S3Storage, non-images stored and signed as attachments.
        "BACKEND": "supportdesk.core.s3.KullaniciDosyalari",
        "OPTIONS": {**S3_AYARLARI, "bucket_name": S3_BUCKET,
                    "custom_domain": _s3("CUSTOM_DOMAIN", "AWS_S3_CUSTOM_DOMAIN")},
    }
if S3_BACKUP_BUCKET:
    # Backups hold every password hash and chat: never a public URL, never signed for anyone.
    STORAGES["yedekler"] = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {**S3_AYARLARI, "bucket_name": S3_BACKUP_BUCKET, "querystring_auth": True},
    }
# Uploads over this size go to a temporary file, never into memory.
FILE_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("DATA_UPLOAD_MAX_MEMORY_SIZE", default=8 * 1024 * 1024)
# A body sent in chunks (no Content-Length) is read up to this many bytes before the view sees it
# (supportdesk.core.middleware.ParcaliGovde): no endpoint takes more (uploads: 10 MB + multipart).
PARCALI_GOVDE_SINIRI = max(DATA_UPLOAD_MAX_MEMORY_SIZE, 10 * 1024 * 1024 + 64 * 1024)

LOGIN_URL = "/portal/giris"
# A failed CSRF check on a portal form gets a portal page, not Django's technical one.
CSRF_FAILURE_VIEW = "portal.views.csrf_hatasi"

# --- REST API -------------------------------------------------------------------------------
TOKEN_LIFETIME = timedelta(hours=env.float("TOKEN_LIFETIME_HOURS", default=12))
WIDGET_RATE_LIMIT = env("WIDGET_RATE_LIMIT", default="120/min")
LOGIN_RATE_LIMIT = env("LOGIN_RATE_LIMIT", default="10/min")
# Failed logins per client address, whatever the accounts (CONTRACT 18): over it a wrong password is 429.
GIRIS_ADRES_LIMITI = env("GIRIS_ADRES_LIMITI", default="60/hour")
# Portal sign-ups per client IP (the portal's login shares LOGIN_RATE_LIMIT with /auth/login).
PORTAL_RATE_LIMIT = env("PORTAL_RATE_LIMIT", default="20/min")
# Password-reset mails per address, whoever asks (portal.limit.SifreAdresLimiti).
SIFRE_SIFIRLAMA_ADRES_LIMITI = env("SIFRE_SIFIRLAMA_ADRES_LIMITI", default="3/h")
# Sign-up mails (a confirmation link, or "you have an account") per address, whoever signs up.
KAYIT_ADRES_LIMITI = env("KAYIT_ADRES_LIMITI", default="3/h")

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],  # deny by default
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "EXCEPTION_HANDLER": "supportdesk.core.exceptions.exception_handler",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "UNAUTHENTICATED_USER": None,
    "DEFAULT_THROTTLE_RATES": {"widget": WIDGET_RATE_LIMIT, "login": LOGIN_RATE_LIMIT},
    # Client IP is the connection's address unless trusted proxies are declared, so a forged
    # X-Forwarded-For never escapes a limit (CONTRACT 9).
    "NUM_PROXIES": env.int("NUM_PROXIES", default=0),
}

SIMPLE_JWT = {
    "ACCESS_TOKEN_LIFETIME": TOKEN_LIFETIME,
    "AUTH_HEADER_TYPES": ("Bearer",),
    "USER_ID_FIELD": "id",
    "USER_ID_CLAIM": "user_id",
    "SIGNING_KEY": env("JWT_SIGNING_KEY", default=SECRET_KEY),
    "UPDATE_LAST_LOGIN": False,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "SupportDesk API",
    "DESCRIPTION": "Çok kiracılı müşteri destek platformu: widget, operatör, bağlam ve portal API'si.",  # ceviri: yok
    "VERSION": "1.8.5",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # ReDoc's default typography is Google Fonts (templates/drf_spectacular/redoc.html drops the links).
    "REDOC_UI_SETTINGS": {"theme": {"typography": {"fontFamily": "system-ui, sans-serif",
                                                   "headings": {"fontFamily": "system-ui, sans-serif"}}}},
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    "COMPONENT_SPLIT_REQUEST": True,
    # `durum` is the contract's name for several state sets: each gets its own enum name.
    "ENUM_NAME_OVERRIDES": {
        "OperatorDurumEnum": "tenants.models.Kullanici.Durum",
        "TicketDurumEnum": ["acik", "beklemede", "cozuldu", "kapandi"],
        "OturumDurumEnum": ["bekliyor", "aktif", "kapandi"],
        # `gonderen` of a message and `kapatan` of a chat share one value set.
        "TarafEnum": ["ziyaretci", "operator", "sistem"],
        "NitelikTurEnum": "kisiler.models.NitelikTanimi.Tur",
        # What a search hit or a bulk change is about (arama, panel.toplu): a chat or a ticket.
        "IcerikTurEnum": ["chat", "ticket"],
    },
}

# Browsers on tenants' sites call the widget and context API with X-API-Key; the origin
# whitelist (spec 5.2) decides who may, not CORS. No cookies cross origins.
CORS_ALLOW_ALL_ORIGINS = True
CORS_ALLOW_CREDENTIALS = False
CORS_URLS_REGEX = r"^/api/v1/.*$"
CORS_ALLOW_HEADERS = [
    "accept", "authorization", "content-type", "x-api-key", "x-request-id", "x-requested-with", "x-ziyaretci-token",
]
CORS_EXPOSE_HEADERS = ["Retry-After", "X-Request-ID"]

# --- Real-time sockets (CONTRACT 11) ----------------------------------------------------------
# Fan-out crosses processes through Redis pub/sub when REDIS_URL is set; in memory without it.
if REDIS_URL:
    _kanal_url = REDIS_CHANNEL_URL
    # Pub/sub channels belong to the Redis server, not to a database number: two deployments (or
    # test runs) on one server, each with its own database, heard each other's frames (same
    # tenant ids, same group names). The prefix carries the database number to keep them apart.
    _kanal_db = parse_qs(urlsplit(_kanal_url).query).get("db", [urlsplit(_kanal_url).path.strip("/") or "0"])[0]
    CHANNEL_LAYERS = {"default": {
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {"hosts": [_kanal_url], "prefix": env("CHANNEL_LAYER_PREFIX", default=f"asgi{_kanal_db}")},
    }}
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
# Presence (supportdesk/core/varlik.py): an open socket is live this long unless refreshed (every
# third of it); a closed one keeps its operator from being swept offline for the closing window;
# a REST-only client stays reachable for the REST window after each authenticated call.
CANLI_SOKET_TTL = env.float("CANLI_SOKET_TTL", default=30)
CANLI_KAPANIS_PENCERESI = env.float("CANLI_KAPANIS_PENCERESI", default=60)
# A socket lost without a closing handshake (killed client, silent network): presence ends this
# many seconds after (issue 39: within 30 s of a socket gone silent, with the server's ping).
CANLI_KOPMA_PENCERESI = env.float("CANLI_KOPMA_PENCERESI", default=5)
CANLI_REST_PENCERESI = env.float("CANLI_REST_PENCERESI", default=90)
# Every socket process sweeps unreachable operators to `cevrimdisi` this often.
CANLI_TARAMA_ARALIGI = env.float("CANLI_TARAMA_ARALIGI", default=5)
# An operator socket re-checks its token this often (logout, deactivation: closed within 5 s).
CANLI_TOKEN_KONTROL_ARALIGI = env.float("CANLI_TOKEN_KONTROL_ARALIGI", default=4)
# The first frame (`kimlik`) must arrive within this many seconds.
CANLI_KIMLIK_SURESI = env.float("CANLI_KIMLIK_SURESI", default=10)
CANLI_MAKS_SOKET_ZIYARETCI = env.int("CANLI_MAKS_SOKET_ZIYARETCI", default=5)
CANLI_MAKS_SOKET_OPERATOR = env.int("CANLI_MAKS_SOKET_OPERATOR", default=10)
CANLI_MAKS_CERCEVE_BAYT = env.int("CANLI_MAKS_CERCEVE_BAYT", default=4096)
CANLI_MAKS_CERCEVE_SANIYE = env.int("CANLI_MAKS_CERCEVE_SANIYE", default=10)
# Bytes the server may hold for one socket whose client does not read; beyond, its connection is
# cut (it reconnects and re-reads with `sonra=`) instead of holding up or growing the fan-out.
CANLI_YAZMA_TAMPONU_SINIRI = env.int("CANLI_YAZMA_TAMPONU_SINIRI", default=1024 * 1024)

# --- Celery ---------------------------------------------------------------------------------
CELERY_BROKER_URL = REDIS_BROKER_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = False
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SOFT_TIME_LIMIT = 60
CELERY_TASK_TIME_LIMIT = 90
# Publishing happens in the web process after a commit: with the broker down it must give up
# within about a second (logged by the caller; the webhook outbox's sweep queues it later).
CELERY_BROKER_CONNECTION_TIMEOUT = REDIS_CONNECT_TIMEOUT
CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_connect_timeout": REDIS_CONNECT_TIMEOUT,
                                   "socket_timeout": REDIS_SOCKET_TIMEOUT, "max_retries": 1}
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.1, "interval_max": 0.1}
# Crontab jobs (the daily ones below) run at local times of the deployment's TIME_ZONE.
CELERY_TIMEZONE = TIME_ZONE
# Without a broker (`make run`) the runner (supportdesk/core/kosucu.py) runs the timetable below in
# the web process, each job once a period over every process; off in tests, which run jobs by hand.
KOSUCU_ZAMANLAYICI = env.bool("KOSUCU_ZAMANLAYICI", default=True)
# Beat (docs/production.md, "Periodic jobs"): the schedule and each job's last run live in Redis
# (celery-redbeat), so a restart or a redeploy neither re-runs nor skips a job, and a lock that
# expires with its holder (BEAT_KILIT_SANIYE, renewed every loop of at most
# CELERY_BEAT_MAX_LOOP_INTERVAL s, BEAT_DONGU_SANIYE) keeps a second beat waiting: it takes over
# within BEAT_KILIT_SANIYE + CELERY_BEAT_MAX_LOOP_INTERVAL s of the holder's death, under a minute.
BEAT_ANAHTAR_ONEKI = env("BEAT_ANAHTAR_ONEKI", default="redbeat:")
if REDIS_URL:
    CELERY_BEAT_SCHEDULER = "redbeat.RedBeatScheduler"
    CELERY_REDBEAT_REDIS_URL = CELERY_BROKER_URL
    CELERY_REDBEAT_REDIS_OPTIONS = {}
    CELERY_REDBEAT_KEY_PREFIX = BEAT_ANAHTAR_ONEKI
    CELERY_REDBEAT_LOCK_TIMEOUT = env.int("BEAT_KILIT_SANIYE", default=30)
    CELERY_BEAT_MAX_LOOP_INTERVAL = env.float("BEAT_DONGU_SANIYE", default=5)
# Daily jobs run at a fixed local time (TIME_ZONE), not 24 h after each start: a service redeployed
# every day would otherwise never reach them. GUNLUK_ISLER_SAATI is the first one's "HH:MM"; the
# others follow 10 minutes apart, so they do not contend.
GUNLUK_ISLER_SAATI = env("GUNLUK_ISLER_SAATI", default="03:00")


def _gunluk(sira: int) -> crontab:
    saat, _, dakika = GUNLUK_ISLER_SAATI.partition(":")
    try:
        toplam = int(saat) * 60 + int(dakika) + 10 * sira
    except ValueError:
        raise ImproperlyConfigured("GUNLUK_ISLER_SAATI must be HH:MM (e.g. 03:00).") from None
    return crontab(hour=(toplam // 60) % 24, minute=toplam % 60)


CELERY_BEAT_SCHEDULE = {
    # Outbox sweep: queues webhook deliveries that are due but were never queued (CONTRACT 7).
    "webhook-vadesi-gelenler": {
        "task": "webhooks.vadesi_gelenleri_gonder",
        "schedule": env.float("WEBHOOK_SWEEP_INTERVAL_SECONDS", default=30),
        "options": {"expires": 60},
    },
    "webhook-eski-olaylar": {"task": "webhooks.eski_olaylari_temizle", "schedule": _gunluk(0)},
    # Outgoing mails whose task was lost (broker down at commit, worker killed) or is due again.
    "eposta-vadesi-gelenler": {
        "task": "eposta.vadesi_gelenleri_gonder",
        "schedule": env.float("EPOSTA_SWEEP_INTERVAL_SECONDS", default=60),
        "options": {"expires": 120},
    },
    # Uploads never attached to a ticket reply or chat message are deleted after a while.
    "sahipsiz-dosyalar": {"task": "dosyalar.sahipsiz_dosyalari_temizle", "schedule": _gunluk(1)},
}
# CONTRACT 18: retention (tenants with `saklama_gun`) daily, and the sweep of files whose rows an
# erasure, retention or a tenant deletion removed but whose after-commit removal never ran.
CELERY_BEAT_SCHEDULE["gizlilik-saklama"] = {"task": "gizlilik.saklama_uygula", "schedule": _gunluk(2)}
CELERY_BEAT_SCHEDULE["gizlilik-dosya-supurge"] = {"task": "gizlilik.dosya_supurge", "schedule": 3600}
# The audit log keeps a year (DENETIM_SAKLAMA_GUN); older entries go daily.
CELERY_BEAT_SCHEDULE["denetim-eski-kayitlar"] = {"task": "denetim.eski_kayitlari_temizle", "schedule": _gunluk(3)}
DENETIM_SAKLAMA_GUN = env.int("DENETIM_SAKLAMA_GUN", default=365)
# Search rows whose rebuild the broker did not take (unreachable at the commit) are rebuilt here.
CELERY_BEAT_SCHEDULE["arama-bekleyenler"] = {
    "task": "arama.bekleyenleri_dizinle", "schedule": env.float("ARAMA_BEKLEYEN_ARALIGI", default=60),
    "options": {"expires": 60},
}
# Backups by beat (supportdesk.core.yedek.zamanli_yedek): off while YEDEK_KLASORU is empty; else a
# daily `yedek_al` into a dated folder there, the newest YEDEK_SAKLA kept (docs/production.md, "Backups").
CELERY_BEAT_SCHEDULE["yedek-al"] = {"task": "yedek.zamanli_yedek", "schedule": _gunluk(4)}
# CONTRACT 23: a rule's runs stay bounded (its newest 100, none older than the tenant's retention).
CELERY_BEAT_SCHEDULE["otomasyon-calisma-budama"] = {"task": "otomasyon.calismalari_buda", "schedule": _gunluk(5)}
YEDEK_KLASORU = env("YEDEK_KLASORU", default="")
YEDEK_SAKLA = env.int("YEDEK_SAKLA", default=7)
DOSYA_SAHIPSIZ_SAKLAMA_GUN = env.int("DOSYA_SAHIPSIZ_SAKLAMA_GUN", default=7)
# Service levels (CONTRACT 17): warnings and breaches due, each announced once (tickets.sla.tara).
CELERY_BEAT_SCHEDULE["sla-tarama"] = {
    "task": "tickets.sla_tara", "schedule": env.float("SLA_TARAMA_ARALIGI", default=30), "options": {"expires": 60},
}
# The same for chats' first response (CONTRACT 24; chat/sla.py), at the same interval.
CELERY_BEAT_SCHEDULE["sohbet-sla-tarama"] = {
    "task": "chat.sla_tara", "schedule": env.float("SLA_TARAMA_ARALIGI", default=30), "options": {"expires": 60},
}
# Chat time-outs (issue 13): per tenant since issue 26 (`Musteri.bekleme_zaman_asimi_dk`,
# `sessiz_kapatma_dk`, CONTRACT 15); this is only how often they are checked.
CELERY_BEAT_SCHEDULE["sohbet-zaman-asimlari"] = {
    "task": "chat.zaman_asimlari", "schedule": env.float("SOHBET_ZAMAN_ASIMI_ARALIGI", default=60), "options": {"expires": 60},
}
# Routing (CONTRACT 15, chat.atama): re-routing after `yeniden_atama_dk`, chats of operators no
# longer online, and waiting chats someone could take (what an after-commit hook missed). Places
# that free are filled at once by the change's own hook; this sweep is the backstop, within 5 s.
CELERY_BEAT_SCHEDULE["sohbet-atama-taramasi"] = {
    "task": "chat.atama_taramasi", "schedule": env.float("ATAMA_TARAMA_ARALIGI", default=5), "options": {"expires": 10},
}
# Snooze (CONTRACT 24): chats and tickets whose `kadar` has come are back within a minute.
ERTELEME_TARAMA_ARALIGI = env.float("ERTELEME_TARAMA_ARALIGI", default=20)
CELERY_BEAT_SCHEDULE["sohbet-ertelenenleri-uyandir"] = {
    "task": "chat.ertelenenleri_uyandir", "schedule": ERTELEME_TARAMA_ARALIGI, "options": {"expires": 20},
}
CELERY_BEAT_SCHEDULE["ticket-ertelenenleri-uyandir"] = {
    "task": "tickets.ertelenenleri_uyandir", "schedule": ERTELEME_TARAMA_ARALIGI, "options": {"expires": 20},
}
# The views' counters (issue 43, panel/sayaclar.py): each key's +1/-1 rows folded into one, and
# now and then every key recounted from the chats and tickets (a drift is logged and healed).
CELERY_BEAT_SCHEDULE["gorunum-sayaclari-sikistir"] = {
    "task": "panel.gorunum_sayaclarini_sikistir", "schedule": env.float("GORUNUM_SIKISTIRMA_ARALIGI", default=30),
    "options": {"expires": 30},
}
CELERY_BEAT_SCHEDULE["gorunum-sayaclari-yeniden-say"] = {
    "task": "panel.gorunum_sayaclarini_yeniden_say", "schedule": env.float("GORUNUM_SAYIM_ARALIGI", default=3600),
    "options": {"expires": 600},
}

# --- Webhooks -------------------------------------------------------------------------------
WEBHOOK_ALLOW_PRIVATE_TARGETS = env.bool("WEBHOOK_ALLOW_PRIVATE_TARGETS", default=DEBUG)
WEBHOOK_TIMEOUT_SECONDS = env.float("WEBHOOK_TIMEOUT_SECONDS", default=10)
# An address that does not even accept the connection is given up on sooner.
WEBHOOK_CONNECT_TIMEOUT_SECONDS = env.float("WEBHOOK_CONNECT_TIMEOUT_SECONDS", default=3)
# A stopping worker lets the runner's running jobs finish for this long (a webhook attempt: at most
# one timeout); what is still waiting stays due for the next worker.
KOSUCU_DURMA_SANIYE = env.float("KOSUCU_DURMA_SANIYE",
                                default=WEBHOOK_TIMEOUT_SECONDS + WEBHOOK_CONNECT_TIMEOUT_SECONDS + 1)
# Isolation inside a worker process (webhooks/havuz.py): the task hands the delivery to threads of
# two lanes; attempts running at once per endpoint (across all worker processes, on Redis) are
# capped, so a slow or hanging receiver only delays its own deliveries.
WEBHOOK_DELIVERY_THREADS = env.int("WEBHOOK_DELIVERY_THREADS", default=16)
WEBHOOK_SLOW_LANE_THREADS = env.int("WEBHOOK_SLOW_LANE_THREADS", default=8)
WEBHOOK_ENDPOINT_CONCURRENCY = env.int("WEBHOOK_ENDPOINT_CONCURRENCY", default=8)
WEBHOOK_SLOW_ENDPOINT_CONCURRENCY = env.int("WEBHOOK_SLOW_ENDPOINT_CONCURRENCY", default=2)
# A fast endpoint's waiting deliveries are attempted up to this many in a row by one thread, with
# one claim and one log (transaction) for them all.
WEBHOOK_BATCH_MAX = env.int("WEBHOOK_BATCH_MAX", default=20)
# ...and while one of its threads is running, a short line waits at most this long for it (then
# another thread starts): under load the batches grow by themselves, at no cost when idle.
WEBHOOK_BATCH_WAIT_SECONDS = env.float("WEBHOOK_BATCH_WAIT_SECONDS", default=0.05)
# An attempt longer than this (or a timeout) moves its endpoint to the slow lane until it is fast again.
WEBHOOK_SLOW_SECONDS = env.float("WEBHOOK_SLOW_SECONDS", default=1)
# After this many timeouts running, one attempt at a time (half-open circuit breaker).
WEBHOOK_CIRCUIT_TIMEOUTS = env.int("WEBHOOK_CIRCUIT_TIMEOUTS", default=3)
WEBHOOK_SEMAPHORE_RETRY_SECONDS = env.float("WEBHOOK_SEMAPHORE_RETRY_SECONDS", default=0.25)
# Deliveries one worker process holds waiting; beyond that they stay due for the sweep.
WEBHOOK_WORKER_BACKLOG_MAX = env.int("WEBHOOK_WORKER_BACKLOG_MAX", default=10000)
# 8 attempts; waits of 1, 4, 16, 64 min, 4.3 h, 12 h, 12 h (+-20 % jitter): about 29 h in all.
WEBHOOK_MAX_ATTEMPTS = env.int("WEBHOOK_MAX_ATTEMPTS", default=8)
WEBHOOK_BACKOFF_BASE_SECONDS = env.float("WEBHOOK_BACKOFF_BASE_SECONDS", default=60)
WEBHOOK_BACKOFF_FACTOR = env.float("WEBHOOK_BACKOFF_FACTOR", default=4)
WEBHOOK_BACKOFF_MAX_SECONDS = env.float("WEBHOOK_BACKOFF_MAX_SECONDS", default=12 * 3600)
WEBHOOK_BACKOFF_JITTER = env.float("WEBHOOK_BACKOFF_JITTER", default=0.2)
# Waits up to this long use the broker's countdown; longer ones are picked up by the sweep.
WEBHOOK_ETA_MAX_SECONDS = env.float("WEBHOOK_ETA_MAX_SECONDS", default=900)
# The sweep leaves a due delivery to its queued message for this long before queueing it again.
WEBHOOK_SWEEP_GRACE_SECONDS = env.float("WEBHOOK_SWEEP_GRACE_SECONDS", default=60)
WEBHOOK_DISABLE_AFTER_HOURS = env.float("WEBHOOK_DISABLE_AFTER_HOURS", default=72)
# Without a broker (eager Celery) the web process's runner delivers and retries instead, through
# the same per-endpoint pool as a worker (webhooks/havuz.py); off in tests, which deliver by hand.
WEBHOOK_LOCAL_WORKER = env.bool("WEBHOOK_LOCAL_WORKER", default=True)
# Finished events and their delivery log are kept this long (days).
WEBHOOK_RETENTION_DAYS = env.float("WEBHOOK_RETENTION_DAYS", default=30)

# --- E-mail (CONTRACT 14) ---------------------------------------------------------------------
# EMAIL_URL: smtp://host:25, smtp+tls://user:pass@host:587, smtps://..., consolemail://, filemail://PATH.
# Unset: every mail is written as a file under EPOSTA_KLASORU (tmp/eposta), where a developer reads it.
EPOSTA_KLASORU = Path(env("EPOSTA_KLASORU", default=str(BASE_DIR / "tmp" / "eposta")))
EMAIL_URL = env("EMAIL_URL", default="")  # empty: `check --deploy` fails (supportdesk/core/checks.py)
if EMAIL_URL:
    vars().update(env.email_url_config(EMAIL_URL))
else:
    EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    EMAIL_FILE_PATH = str(EPOSTA_KLASORU)
EMAIL_TIMEOUT = env.float("EMAIL_TIMEOUT", default=10)
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", default="SupportDesk <destek@localhost>")
# Where stop links and attachment links in mails point (scheme + host, no trailing slash).
SITE_URL = env("SITE_URL", default="http://127.0.0.1:8000")
# Reply by e-mail: Reply-To is <INBOUND_EMAIL_LOCAL>+<token>@<INBOUND_EMAIL_DOMAIN>.
INBOUND_EMAIL_LOCAL = env("INBOUND_EMAIL_LOCAL", default="destek")
INBOUND_EMAIL_DOMAIN = env("INBOUND_EMAIL_DOMAIN", default="inbound.localhost")
# Empty (the production default): `POST /api/v1/inbound/email` refuses everything (401).
INBOUND_EMAIL_SECRET = env("INBOUND_EMAIL_SECRET", default="dev-inbound-secret" if DEBUG else "")
# A raw inbound message larger than this is refused before it is parsed.
INBOUND_EMAIL_MAX_BYTES = env.int("INBOUND_EMAIL_MAX_BYTES", default=25 * 1024 * 1024)
# 6 attempts; waits of 1, 4, 16, 64 min, 4.3 h (+-20 % jitter), then the mail is marked failed.
EPOSTA_MAX_ATTEMPTS = env.int("EPOSTA_MAX_ATTEMPTS", default=6)
EPOSTA_BACKOFF_BASE_SECONDS = env.float("EPOSTA_BACKOFF_BASE_SECONDS", default=60)
EPOSTA_BACKOFF_FACTOR = env.float("EPOSTA_BACKOFF_FACTOR", default=4)
EPOSTA_BACKOFF_JITTER = env.float("EPOSTA_BACKOFF_JITTER", default=0.2)
# The sweep leaves a due mail to its queued task for this long before queueing it again.
EPOSTA_SWEEP_GRACE_SECONDS = env.float("EPOSTA_SWEEP_GRACE_SECONDS", default=120)
# "Offline message answered": the visitor has neither polled nor held a socket for this long.
EPOSTA_ZIYARETCI_AYRILDI_SANIYE = env.int("EPOSTA_ZIYARETCI_AYRILDI_SANIYE", default=120)
# Without a broker (eager Celery, `make run`) a thread of the web process sends each mail, so a
# request never waits on the mail server; a failed attempt is retried by the sweep (`make beat`).
EPOSTA_YEREL_ISCI = env.bool("EPOSTA_YEREL_ISCI", default=True)
# Without a broker, a thread of the web process rebuilds the search rows a change touched (issue 27),
# so a request never waits on it; tests set it off: the task runs inside the caller, after the commit.
ARAMA_YEREL_ISCI = env.bool("ARAMA_YEREL_ISCI", default=True)
# A chat's new messages reach its search row together, at most this many seconds after the first
# of them committed (issue 41: one hand-off per chat per interval instead of a broker message per
# message, `arama.biriktir`); 0: each message is handed off at its commit (tests).
ARAMA_BIRIKTIRME_SANIYE = env.float("ARAMA_BIRIKTIRME_SANIYE", default=1.0)
# The automation rules' runs whose conditions did not hold (CONTRACT 23) are written after their
# event's commit, every event's of this interval in one statement (issue 42, `otomasyon.biriktir`);
# 0: each event's in its own transaction, one statement (tests).
KURAL_BIRIKTIRME_SANIYE = env.float("KURAL_BIRIKTIRME_SANIYE", default=1.0)
# At most this many transcript mails per chat.
EPOSTA_DOKUM_SINIRI = env.int("EPOSTA_DOKUM_SINIRI", default=3)
# "Ticket received" mails to one address (anyone may open a ticket with anyone's address): per
# tenant, and over all tenants. Over either, the ticket is opened and only the mail is skipped.
EPOSTA_ALINDI_ALICI_LIMITI = env("EPOSTA_ALINDI_ALICI_LIMITI", default="3/h")
EPOSTA_ALINDI_PLATFORM_LIMITI = env("EPOSTA_ALINDI_PLATFORM_LIMITI", default="10/h")

# --- Security (check --deploy clean with DEBUG off) -------------------------------------------
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
if not DEBUG:
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True

# --- Logs, metrics, error reporting (CONTRACT 20; docs/production.md) ------------------------
# LOG_FORMAT=json: one JSON object per line (zaman, seviye, mesaj, istek_id, ...); otherwise text.
LOG_FORMAT = env("LOG_FORMAT", default="text")
if LOG_FORMAT not in ("text", "json"):
    raise ImproperlyConfigured("LOG_FORMAT must be 'text' or 'json'.")
# One closing line per request (route, status, duration, caller); on by default with JSON logs.
ISTEK_GUNLUGU = env.bool("ISTEK_GUNLUGU", default=LOG_FORMAT == "json")
# Django's dictConfig, and Python's warnings into the same handlers (supportdesk.core.gunluk).
LOGGING_CONFIG = "supportdesk.core.gunluk.yapilandir"
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "supportdesk.core.gunluk.IstekFiltresi"}},
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"},
                   "json": {"()": "supportdesk.core.gunluk.JsonBicimi"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "json" if LOG_FORMAT == "json" else "plain",
                             "filters": ["request_id"]}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", default="INFO")},
    "loggers": {"django.request": {"level": "ERROR"}},
}
# `GET /metrics` answers only `Authorization: Bearer <METRICS_TOKEN>`; empty: 404 for everyone.
# Several processes (gunicorn workers, Celery) add their counts up through the directory named by
# PROMETHEUS_MULTIPROC_DIR (read from the environment by prometheus_client; supportdesk/core/metrikler.py).
METRICS_TOKEN = env("METRICS_TOKEN", default="")
# Error reporting (sentry-sdk: Django, Celery, Redis), no personal data (supportdesk/core/hata_raporu.py).
SENTRY_DSN = env("SENTRY_DSN", default="")
if SENTRY_DSN:
    from supportdesk.core.hata_raporu import baslat as _hata_raporu_baslat

    _hata_raporu_baslat(SENTRY_DSN, ortam=env("SENTRY_ENVIRONMENT", default="production"),
                        surum=env("SENTRY_RELEASE", default=None), iz_orani=env.float("SENTRY_TRACES_SAMPLE_RATE", default=0.0))
SERVE_MEDIA = env.bool("SERVE_MEDIA", default=True)
# Uploads on local disk are right only where every process of the service reads and writes the same
# MEDIA_ROOT: one host (compose's shared volume, `make prod`) or a shared file system. Saying so is
# the operator's to do (`check --deploy` cannot see it); more than one host keeps them in a bucket.
MEDIA_PAYLASIMLI = env.bool("MEDIA_PAYLASIMLI", default=False)

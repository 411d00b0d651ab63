"""Settings for the storage service, read from the environment with laptop-friendly defaults."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from botocore.config import Config as BotocoreConfig
from django.core.exceptions import ImproperlyConfigured

from shared.databases import database_config

BASE_DIR = Path(__file__).resolve().parent.parent


def env(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    try:
        return int(value)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be a whole number, got {value!r}") from exc


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in env(name, default).split(",") if item.strip()]


VAR_DIR = Path(env("VAR_DIR", str(BASE_DIR / "var")))

DEBUG = env_bool("DEBUG", False)
SECRET_KEY = env("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = "insecure-development-key-do-not-use-in-production"  # noqa: S105
# Key hashes are keyed with this pepper; set it on its own to rotate SECRET_KEY without
# invalidating every API key.
API_KEY_PEPPER = env("API_KEY_PEPPER", SECRET_KEY)

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")
# Browser clients (the contract's browser SDK) on these origins, e.g. https://app.example.com;
# none by default. Keys travel in Authorization, never in cookies, so no credentials mode.
CORS_ALLOWED_ORIGINS = env_list("CORS_ALLOWED_ORIGINS", "")
CORS_URLS_REGEX = r"^/v1/.*$"
CORS_ALLOW_HEADERS = [
    *("accept", "authorization", "content-type", "user-agent", "x-requested-with"),
    *("range", "if-none-match", "if-range", "x-request-id"),
]
CORS_ALLOW_METHODS = ["DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT"]
CORS_EXPOSE_HEADERS = [
    *("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"),
    *("RateLimit", "RateLimit-Policy", "Retry-After"),
    *("ETag", "Last-Modified", "Content-Range", "Content-Disposition", "Accept-Ranges"),
    "X-Request-Id",
]
CORS_PREFLIGHT_MAX_AGE = 3600
# Cookies ignore ports: both services' admins on one host must not overwrite each other's login.
SESSION_COOKIE_NAME = "storage_sessionid"
CSRF_COOKIE_NAME = "storage_csrftoken"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "corsheaders",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # the docs page's assets, served from here
    "storage_service.accounts",
    "storage_service.folders",
    "storage_service.files",
    "storage_service.uploads",
    "storage_service.billing",
]

MIDDLEWARE = [
    # Outermost, so that every log line of a request and every answer carry its id.
    "shared.request_id.RequestIdMiddleware",
    # Next: preflights are answered here, before the key and the rate limit (a browser
    # sends no Authorization with them), and every other answer, errors included, gets its
    # Access-Control-* headers on the way out.
    "corsheaders.middleware.CorsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Usage outside the rate limiter, so that refused requests are counted too.
    "storage_service.billing.middleware.UsageMiddleware",
    "storage_service.accounts.middleware.RateLimitMiddleware",
    "storage_service.parsers.PathAndQueryGuard",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "storage_service.slashes.CommonMiddlewareOutsideApi",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "storage_service.urls"
WSGI_APPLICATION = "storage_service.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "storage_service" / "templates"],
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


DATABASES = {
    "default": database_config(
        env("DATABASE_URL"),
        VAR_DIR / "storage.sqlite3",
        service="storage",
        prepared_statements=env_bool("DATABASE_PREPARED_STATEMENTS", True),
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env("REDIS_URL")
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "storage",
        }
    }

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = env("STATIC_ROOT") or None  # only collectstatic needs it; WhiteNoise finds files
MEDIA_ROOT = Path(env("MEDIA_ROOT", str(VAR_DIR / "media")))
# Uploads spill here, beside MEDIA_ROOT, so that storing one is a rename on the same disk.
FILE_UPLOAD_TEMP_DIR = env("FILE_UPLOAD_TEMP_DIR") or str(MEDIA_ROOT / ".incoming")
Path(FILE_UPLOAD_TEMP_DIR).mkdir(parents=True, exist_ok=True)
# Every upload spills to disk (and is hashed on the way), so storing it is a rename.
FILE_UPLOAD_HANDLERS = ["storage_service.files.upload_handlers.HashingFileUploadHandler"]
FILE_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024
# Flush uploaded bytes to disk before answering, so an acknowledged file survives a power cut.
FILE_FSYNC = env_bool("STORAGE_FSYNC", True)
# Signed download links stay valid this long (seconds).
DOWNLOAD_URL_TTL = env_int("STORAGE_DOWNLOAD_URL_TTL", 3600)
# Behind nginx, e.g. /protected-media/ (an internal location aliased to MEDIA_ROOT): a download
# from the local disk is answered with X-Accel-Redirect and nginx sends the bytes. Empty: streamed.
DOWNLOAD_ACCEL_REDIRECT_PREFIX = env("STORAGE_ACCEL_REDIRECT_PREFIX")
if DOWNLOAD_ACCEL_REDIRECT_PREFIX and not (
    DOWNLOAD_ACCEL_REDIRECT_PREFIX.startswith("/") and DOWNLOAD_ACCEL_REDIRECT_PREFIX.endswith("/")
):
    raise ImproperlyConfigured("STORAGE_ACCEL_REDIRECT_PREFIX must start and end with /.")
# Multipart uploads: smallest part (but the last) and how long an upload may stay open.
MULTIPART_MIN_PART_SIZE = env_int("STORAGE_MULTIPART_MIN_PART_SIZE", 5 * 1024 * 1024)
MULTIPART_UPLOAD_TTL = env_int("STORAGE_MULTIPART_UPLOAD_TTL", 24 * 3600)
STORAGES: dict[str, dict[str, Any]] = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
# Any S3-compatible object store instead of MEDIA_ROOT (django-storages). Credentials come from
# the usual AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY environment (or an instance role).
S3_BUCKET = env("STORAGE_S3_BUCKET")
if S3_BUCKET:
    STORAGES["default"] = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": S3_BUCKET,
            "endpoint_url": env("STORAGE_S3_ENDPOINT_URL") or None,
            "region_name": env("STORAGE_S3_REGION") or None,
            "file_overwrite": True,  # names are ids: never taken, so skip the existence check
            "default_acl": None,
            "querystring_auth": True,
            "querystring_expire": DOWNLOAD_URL_TTL,
            # With a client config django-storages reads neither addressing_style nor
            # signature_version: they are set here. botocore waits 60 s for a connection by
            # default: a store that is down would hold a request (and GET /ready) for minutes.
            "client_config": BotocoreConfig(
                s3={"addressing_style": env("STORAGE_S3_ADDRESSING_STYLE") or None},
                signature_version="s3v4",
                connect_timeout=5,
                read_timeout=60,
                retries={"mode": "standard", "max_attempts": 3},
            ),
        },
    }
WHITENOISE_USE_FINDERS = True

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "storage_service.accounts.authentication.ApiKeyAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": [
        "storage_service.accounts.permissions.HasRequiredPermission",
        "storage_service.parsers.KnownQueryParameters",
    ],
    "DEFAULT_RENDERER_CLASSES": ["storage_service.api.EnvelopeRenderer"],
    "DEFAULT_PARSER_CLASSES": [
        "storage_service.parsers.JSONBodyParser",
        "storage_service.parsers.UploadParser",
    ],
    "EXCEPTION_HANDLER": "storage_service.api.exception_handler",
    "UNAUTHENTICATED_USER": None,
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
}

# OpenAPI 3 at /v1/schema, a browsable page at /v1/docs (storage_service/openapi.py).
SPECTACULAR_SETTINGS = {
    "TITLE": "Storage service",
    "DESCRIPTION": "Files, folders, API keys and billing usage, in a JSON envelope.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": "/v1",
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "SERVE_AUTHENTICATION": [],
    "POSTPROCESSING_HOOKS": ["storage_service.openapi.finish_schema"],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# Plans: requests per hour (the contract's figures), storage quota and largest file, in bytes.
MIB, GIB = 1024**2, 1024**3
PLANS = {
    "free": {"requestsPerHour": 1_000, "storageLimit": 1 * GIB, "maxUploadSize": 100 * MIB},
    "creator": {"requestsPerHour": 10_000, "storageLimit": 100 * GIB, "maxUploadSize": 5 * GIB},
    "studio": {"requestsPerHour": 50_000, "storageLimit": 1024 * GIB, "maxUploadSize": 50 * GIB},
    "production": {
        "requestsPerHour": 100_000,
        "storageLimit": 10 * 1024 * GIB,
        "maxUploadSize": 100 * GIB,
    },
}
# Active (not revoked, not expired) keys an organisation may hold: `maxKeys`.
MAX_KEYS = env_int("STORAGE_MAX_KEYS", 25)

RATE_LIMIT_NAMESPACE = env("RATE_LIMIT_NAMESPACE", "storage")
# lastUsedAt is written at most this often per key, so that reads do not all become writes.
KEY_LAST_USED_RESOLUTION = 60

# Request counting for GET /v1/billing/usage (off only to measure what it costs).
USAGE_ACCOUNTING = env_bool("STORAGE_USAGE_ACCOUNTING", True)
# The most timeline buckets one usage report carries: a leap year of hours.
USAGE_MAX_BUCKETS = env_int("STORAGE_USAGE_MAX_BUCKETS", 366 * 24)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # Django logs the path of a request that failed, and a download's path holds its signed token.
    "filters": {"redact": {"()": "shared.access_log.RedactingFilter"}},
    # One JSON object a line, with the request id (shared/json_logs.py).
    "formatters": {"json": {"()": "shared.json_logs.JsonFormatter"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["redact"], "formatter": "json"}
    },
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", "INFO")},
    # The access log has every request with its status; Django's warning for each 4xx would say
    # it again, and cost a formatted line per refused request (a scan of unknown paths, a client
    # over its limit). Server errors are still logged, with their traceback.
    # python-multipart warns of a malformed body before raising; the 400 answer says it.
    "loggers": {"django.request": {"level": "ERROR"}, "python_multipart": {"level": "ERROR"}},
}

# Behind TLS only (deploy/*/env.example sets them): all off by default, so that `make run` serves
# plain http on 127.0.0.1. The proxy terminates TLS; gunicorn believes its X-Forwarded-Proto from
# FORWARDED_ALLOW_IPS (deploy/*/gunicorn.conf.py), so Django sees the request as secure.
if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", False)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
# A load balancer's or the container's health check asks over plain http, from inside.
SECURE_REDIRECT_EXEMPT = [r"^ready$"]
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)

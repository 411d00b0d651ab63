"""Settings for the memory service, with laptop-friendly defaults.

Every environment value is read by ``config.read_config``; this module only assigns from it.
Unlike the storage service, the memory service starts with unusable values of its own: each is
named in ``MEMORY_CONFIG_PROBLEMS`` (health reports them) and the default is used instead. Like
the storage service, it refuses to start without a SECRET_KEY when DEBUG is off.
"""

from __future__ import annotations

import os
import re

from memory_service.config import BASE_DIR, read_config
from shared.databases import database_config

# Lower case, so that Django does not keep it as a setting: it holds the secret key.
_config = read_config(os.environ)

VAR_DIR = _config.var_dir

DEBUG = _config.debug
SECRET_KEY = _config.secret_key
# Key hashes are keyed with this pepper; set it on its own to rotate SECRET_KEY without
# invalidating every API key.
API_KEY_PEPPER = _config.api_key_pepper

ALLOWED_HOSTS = list(_config.allowed_hosts)
CSRF_TRUSTED_ORIGINS = list(_config.csrf_trusted_origins)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # the docs page's assets, served from here
    "memory_service.accounts",
    "memory_service.memories",
    "memory_service.recall",
    "memory_service.tensions",
    "memory_service.selfmodel",
]

MIDDLEWARE = [
    # Outermost, so that every log line of a request and every answer carry its id.
    "shared.request_id.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "memory_service.parsers.PathAndQueryGuard",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "memory_service.urls"
WSGI_APPLICATION = "memory_service.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "memory_service" / "templates"],
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
        _config.database_url,
        VAR_DIR / "memory.sqlite3",
        service="memory",
        prepared_statements=_config.database_prepared_statements,
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = _config.redis_url
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "memory",
        }
    }

# Prefix of this service's own Redis keys (the key cache's token), so that instances sharing a
# Redis with other deployments keep apart.
REDIS_NAMESPACE = _config.redis_namespace

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = _config.static_root  # only collectstatic needs it; WhiteNoise finds files
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True

# Both services run on one host in development (ports 8001 and 8002) and cookies ignore ports:
# their own names keep an admin login to one from overwriting the other's.
SESSION_COOKIE_NAME = "memory_sessionid"
CSRF_COOKIE_NAME = "memory_csrftoken"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "memory_service.accounts.authentication.ApiKeyAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": [
        "memory_service.accounts.permissions.HasRequiredScope",
        "memory_service.parsers.KnownQueryParameters",
    ],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    # DRF reads a JSON body through request.body, which refuses a body over
    # DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB) before reading it.
    "DEFAULT_PARSER_CLASSES": ["memory_service.parsers.JSONBodyParser"],
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "memory_service.api.AlwaysJSON",
    # OPTIONS would answer a metadata document the contract does not describe; views also leave
    # "options" out of http_method_names, so that their Allow header does not offer it.
    "DEFAULT_METADATA_CLASS": None,
    "EXCEPTION_HANDLER": "memory_service.api.exception_handler",
    "UNAUTHENTICATED_USER": None,
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
}

MEMORY_URL_PREFIX = _config.url_prefix
MEMORY_MAX_TOTAL_TOKENS = _config.max_total_tokens
MEMORY_MAX_INDEX_ITEMS = _config.max_index_items
MEMORY_DEFAULT_RECALL_LIMIT = _config.default_recall_limit
MEMORY_MODEL_URL = _config.model_url
MEMORY_MODEL_NAME = _config.model_name
MEMORY_MODEL_API_KEY = _config.model_api_key
MEMORY_MODEL_TIMEOUT = _config.model_timeout
MEMORY_SESSION_KEYS = _config.session_keys
MEMORY_CONFIG_PROBLEMS = list(_config.problems)

# lastUsedAt is written at most this often per key, so that reads do not all become writes.
KEY_LAST_USED_RESOLUTION = 60

SPECTACULAR_SETTINGS = {
    "TITLE": "Memory service",
    "DESCRIPTION": "Memories, context blocks, tensions and the self-model; bare JSON resources.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # A regular expression: the mount's segments may hold dots.
    "SCHEMA_PATH_PREFIX": re.escape(f"/{MEMORY_URL_PREFIX}v1"),
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "SERVE_AUTHENTICATION": [],
    "POSTPROCESSING_HOOKS": ["memory_service.openapi.finish_schema"],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # One JSON object a line, with the request id (shared/json_logs.py).
    "formatters": {"json": {"()": "shared.json_logs.JsonFormatter"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "json"}},
    "root": {"handlers": ["console"], "level": _config.log_level},
    # The access log has every request with its status; Django's warning for each 4xx would say
    # it again, and cost a formatted line per refused request (a scan of unknown paths, a client
    # over its limit). Server errors are still logged, with their traceback.
    "loggers": {"django.request": {"level": "ERROR"}},
}

# Behind TLS only (deploy/*/env.example sets them): all off by default, so that `make run` serves
# plain http on 127.0.0.1. The proxy terminates TLS; gunicorn believes its X-Forwarded-Proto from
# FORWARDED_ALLOW_IPS (deploy/*/gunicorn.conf.py), so Django sees the request as secure.
if not DEBUG:
    SESSION_COOKIE_SECURE = _config.secure_cookies
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_SSL_REDIRECT = _config.secure_ssl_redirect
# A load balancer's or the container's health check asks over plain http, from inside.
SECURE_REDIRECT_EXEMPT = [r"^ready$"]
# Anything but a whole number leaves HSTS off, which check --deploy reports (security.W004).
SECURE_HSTS_SECONDS = _config.secure_hsts_seconds
SECURE_HSTS_INCLUDE_SUBDOMAINS = _config.secure_hsts_include_subdomains
SECURE_HSTS_PRELOAD = _config.secure_hsts_preload

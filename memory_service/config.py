"""Every environment value the memory service reads, read so that an unusable one never stops it.

``read_config`` is a pure function of the environment and the only reader of it: ``settings``
assigns from what it returns. Every one of the service's own values (``MEMORY_*``, ``DEBUG``) that
is present but unusable becomes one string in ``problems`` naming the variable, and its default is
used instead. Health reports ``problems`` to anyone, so a problem names the variable and what it
expects, never the value that was found (a URL can carry credentials, and MEMORY_MODEL_API_KEY is
a secret). The deployment's values (database, Redis, hosts, TLS) are read as the storage service
reads them, without problems; a missing SECRET_KEY with DEBUG off refuses to start, as there.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

DEFAULT_URL_PREFIX = "api/"
DEFAULT_MAX_TOTAL_TOKENS = 2000
DEFAULT_MAX_INDEX_ITEMS = 60
DEFAULT_DEFAULT_RECALL_LIMIT = 8
DEFAULT_MODEL_TIMEOUT = 10.0  # seconds
DEFAULT_ALLOWED_HOSTS = "127.0.0.1,localhost,[::1]"
DEFAULT_REDIS_NAMESPACE = "memory"
DEFAULT_LOG_LEVEL = "INFO"
# Only with DEBUG on: a known key is fine on a laptop and useless to an attacker of one.
DEVELOPMENT_SECRET_KEY = "insecure-development-key-do-not-use-in-production"  # noqa: S105

RULES_ONLY = "rules-only"
RULES_AND_MODEL = "rules+model"

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}
_PREFIX_SEGMENT = re.compile(r"[A-Za-z0-9._-]+")
# Plain decimals only: float() would also take "inf", "nan" and "1e3".
_DECIMAL = re.compile(r"[0-9]*\.?[0-9]+")


@dataclass(frozen=True)
class Config:
    debug: bool
    secret_key: str = field(repr=False)
    url_prefix: str
    max_total_tokens: int
    max_index_items: int
    default_recall_limit: int
    model_url: str
    model_name: str
    model_api_key: str = field(repr=False)
    model_timeout: float
    session_keys: bool
    problems: tuple[str, ...]
    # The deployment's values, read as the storage service reads them.
    var_dir: Path
    api_key_pepper: str = field(repr=False)
    allowed_hosts: tuple[str, ...]
    csrf_trusted_origins: tuple[str, ...]
    database_url: str = field(repr=False)  # it can carry a password
    database_prepared_statements: bool
    redis_url: str = field(repr=False)
    redis_namespace: str
    static_root: str | None
    log_level: str
    secure_cookies: bool
    secure_ssl_redirect: bool
    secure_hsts_seconds: int
    secure_hsts_include_subdomains: bool
    secure_hsts_preload: bool

    @property
    def extractor(self) -> str:
        return extractor_mode(self.model_url, self.model_name)


def extractor_mode(model_url: str, model_name: str) -> str:
    """Name the extractor that runs: the model joins the rules only when it is fully configured."""
    return RULES_AND_MODEL if model_url and model_name else RULES_ONLY


class _Reader:
    """Read typed values from an environment, noting each unusable one in ``problems``."""

    def __init__(self, environ: Mapping[str, str]) -> None:
        self.environ = environ
        self.problems: list[str] = []

    def text(self, name: str) -> str:
        """Return the stripped value; an empty value counts as unset."""
        return self.environ.get(name, "").strip()

    def verbatim(self, name: str, default: str = "") -> str:
        """Return the value as set, empty included; ``default`` only when it is not set at all."""
        return self.environ.get(name, default)

    def flag(self, name: str, default: bool) -> bool:
        """Return whether the value is a true word; empty means ``default``, anything else false."""
        value = self.environ.get(name, "")
        if not value:
            return default
        return value.strip().lower() in _TRUE

    def comma_list(self, name: str, default: str) -> tuple[str, ...]:
        """Return the value's comma-separated items, stripped, empty ones left out."""
        items = self.verbatim(name, default).split(",")
        return tuple(item.strip() for item in items if item.strip())

    def whole_number_or_zero(self, name: str) -> int:
        """Return the value as a whole number; anything else (check --deploy reports it) is 0."""
        value = self.verbatim(name).strip()
        return int(value) if value.isdigit() else 0

    def boolean(self, name: str, default: bool) -> bool:
        value = self.text(name).lower()
        if not value:
            return default
        if value in _TRUE | _FALSE:
            return value in _TRUE
        shown = "true" if default else "false"
        self.problems.append(f"{name} must be true or false; using the default, {shown}.")
        return default

    def positive_int(self, name: str, default: int) -> int:
        value = self.text(name)
        if not value:
            return default
        if re.fullmatch(r"[0-9]+", value) and int(value) > 0:
            return int(value)
        self.problems.append(
            f"{name} must be a whole number greater than 0; using the default, {default}."
        )
        return default

    def positive_number(self, name: str, default: float) -> float:
        value = self.text(name)
        if not value:
            return default
        if _DECIMAL.fullmatch(value) and float(value) > 0:
            return float(value)
        self.problems.append(
            f"{name} must be a number greater than 0; using the default, {default:g}."
        )
        return default

    def http_url(self, name: str) -> str:
        """Return an http(s) URL with a host, or "" (with a problem) when it is not one."""
        value = self.text(name)
        if not value:
            return ""
        try:
            parts = urlsplit(value)
            usable = parts.scheme in {"http", "https"} and bool(parts.hostname)
            parts.port  # noqa: B018 -- raises ValueError on a port that is not a number
        except ValueError:
            usable = False
        if usable:
            return value
        self.problems.append(
            f"{name} must be an http or https URL with a host; the model extractor is off."
        )
        return ""

    def url_prefix(self, name: str, default: str) -> str:
        """Return the prefix normalised to end with "/"; present and empty means the root."""
        value = self.environ.get(name)
        if value is None:
            return default
        segments = value.strip().strip("/")
        if not segments:
            return ""
        parts = segments.split("/")
        if all(_PREFIX_SEGMENT.fullmatch(part) and part not in {".", ".."} for part in parts):
            return "/".join(parts) + "/"
        self.problems.append(
            f"{name} may only hold path segments of letters, digits, '-', '_' and '.'; "
            f"using the default, {default}."
        )
        return default


def _secret_key(reader: _Reader, debug: bool) -> str:
    secret_key = reader.text("SECRET_KEY")
    if secret_key:
        return secret_key
    if debug:
        return DEVELOPMENT_SECRET_KEY
    # A key made up per process would hash API keys with a pepper no other process shares: the
    # keys it printed would never work anywhere else. Refuse, as storage does.
    raise ImproperlyConfigured(
        "SECRET_KEY must be set when DEBUG is off (every process and host must share it, and "
        "API_KEY_PEPPER if set)."
    )


def _model_settings(reader: _Reader) -> tuple[str, str]:
    url = reader.http_url("MEMORY_MODEL_URL")
    name = reader.text("MEMORY_MODEL_NAME")
    if url and not name:
        reader.problems.append(
            "MEMORY_MODEL_URL is set but MEMORY_MODEL_NAME is not; the model extractor is off."
        )
    if name and not reader.text("MEMORY_MODEL_URL"):
        reader.problems.append(
            "MEMORY_MODEL_NAME is set but MEMORY_MODEL_URL is not; the model extractor is off."
        )
    return url, name


def read_config(environ: Mapping[str, str]) -> Config:
    """Read the memory service's configuration from ``environ``, collecting its problems."""
    reader = _Reader(environ)
    debug = reader.boolean("DEBUG", False)
    secret_key = _secret_key(reader, debug)
    url_prefix = reader.url_prefix("MEMORY_URL_PREFIX", DEFAULT_URL_PREFIX)
    max_total_tokens = reader.positive_int("MEMORY_MAX_TOTAL_TOKENS", DEFAULT_MAX_TOTAL_TOKENS)
    max_index_items = reader.positive_int("MEMORY_MAX_INDEX_ITEMS", DEFAULT_MAX_INDEX_ITEMS)
    default_recall_limit = reader.positive_int(
        "MEMORY_DEFAULT_RECALL_LIMIT", DEFAULT_DEFAULT_RECALL_LIMIT
    )
    model_url, model_name = _model_settings(reader)
    session_keys = reader.boolean("MEMORY_SESSION_KEYS", True)
    model_timeout = reader.positive_number("MEMORY_MODEL_TIMEOUT", DEFAULT_MODEL_TIMEOUT)
    problems = tuple(reader.problems)  # the deployment's values below add none
    return Config(
        debug=debug,
        secret_key=secret_key,
        url_prefix=url_prefix,
        max_total_tokens=max_total_tokens,
        max_index_items=max_index_items,
        default_recall_limit=default_recall_limit,
        model_url=model_url,
        model_name=model_name,
        model_api_key=reader.text("MEMORY_MODEL_API_KEY"),
        model_timeout=model_timeout,
        session_keys=session_keys,
        problems=problems,
        var_dir=Path(reader.verbatim("VAR_DIR", str(BASE_DIR / "var"))),
        # Key hashes are keyed with this pepper; set it on its own to rotate SECRET_KEY without
        # invalidating every API key.
        api_key_pepper=reader.verbatim("API_KEY_PEPPER") or secret_key,
        allowed_hosts=reader.comma_list("ALLOWED_HOSTS", DEFAULT_ALLOWED_HOSTS),
        csrf_trusted_origins=reader.comma_list("CSRF_TRUSTED_ORIGINS", ""),
        database_url=reader.verbatim("DATABASE_URL"),
        database_prepared_statements=reader.flag("DATABASE_PREPARED_STATEMENTS", True),
        redis_url=reader.verbatim("REDIS_URL"),
        redis_namespace=reader.verbatim("REDIS_NAMESPACE", DEFAULT_REDIS_NAMESPACE),
        static_root=reader.verbatim("STATIC_ROOT") or None,
        log_level=reader.verbatim("LOG_LEVEL", DEFAULT_LOG_LEVEL),
        secure_cookies=reader.flag("SECURE_COOKIES", False),
        secure_ssl_redirect=reader.flag("SECURE_SSL_REDIRECT", False),
        secure_hsts_seconds=reader.whole_number_or_zero("SECURE_HSTS_SECONDS"),
        secure_hsts_include_subdomains=reader.flag("SECURE_HSTS_INCLUDE_SUBDOMAINS", False),
        secure_hsts_preload=reader.flag("SECURE_HSTS_PRELOAD", False),
    )

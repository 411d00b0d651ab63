from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from memory_service.config import read_config

SECRET = {"SECRET_KEY": "configured"}


def test_an_empty_environment_gives_the_documented_defaults():
    config = read_config(SECRET)
    assert config.url_prefix == "api/"
    assert (config.max_total_tokens, config.max_index_items, config.default_recall_limit) == (
        2000,
        60,
        8,
    )
    assert config.model_timeout == 10
    assert config.session_keys is True
    assert config.debug is False
    assert config.extractor == "rules-only"
    assert config.problems == ()


@pytest.mark.parametrize(
    ("name", "default"),
    [
        ("MEMORY_MAX_TOTAL_TOKENS", 2000),
        ("MEMORY_MAX_INDEX_ITEMS", 60),
        ("MEMORY_DEFAULT_RECALL_LIMIT", 8),
    ],
)
@pytest.mark.parametrize("value", ["lots", "0", "-5", "12.5", "1e3"])
def test_an_unusable_limit_is_a_problem_naming_it_and_the_default_stands(name, default, value):
    config = read_config({**SECRET, name: value})
    attribute = {
        "MEMORY_MAX_TOTAL_TOKENS": "max_total_tokens",
        "MEMORY_MAX_INDEX_ITEMS": "max_index_items",
        "MEMORY_DEFAULT_RECALL_LIMIT": "default_recall_limit",
    }[name]
    assert getattr(config, attribute) == default
    assert len(config.problems) == 1
    assert name in config.problems[0]


def test_a_usable_limit_is_taken():
    config = read_config({**SECRET, "MEMORY_MAX_TOTAL_TOKENS": " 4000 "})
    assert config.max_total_tokens == 4000
    assert config.problems == ()


def test_an_empty_limit_counts_as_unset():
    assert read_config({**SECRET, "MEMORY_MAX_INDEX_ITEMS": ""}).problems == ()


@pytest.mark.parametrize(("value", "seconds"), [("30", 30), (" 2.5 ", 2.5), (".5", 0.5)])
def test_a_usable_model_timeout_is_taken_in_seconds(value, seconds):
    config = read_config({**SECRET, "MEMORY_MODEL_TIMEOUT": value})
    assert config.model_timeout == seconds
    assert config.problems == ()


@pytest.mark.parametrize("value", ["soon", "0", "0.0", "-5", "1e3", "inf", "nan", "10s"])
def test_an_unusable_model_timeout_is_a_problem_naming_it_and_the_default_stands(value):
    config = read_config({**SECRET, "MEMORY_MODEL_TIMEOUT": value})
    assert config.model_timeout == 10
    assert len(config.problems) == 1
    assert "MEMORY_MODEL_TIMEOUT" in config.problems[0]
    assert "default, 10." in config.problems[0]


def test_an_empty_model_timeout_counts_as_unset():
    config = read_config({**SECRET, "MEMORY_MODEL_TIMEOUT": ""})
    assert config.model_timeout == 10
    assert config.problems == ()


def test_a_model_url_and_name_turn_the_model_extractor_on():
    config = read_config(
        {**SECRET, "MEMORY_MODEL_URL": "https://llm.example/v1", "MEMORY_MODEL_NAME": "small"}
    )
    assert config.extractor == "rules+model"
    assert config.problems == ()


@pytest.mark.parametrize(
    "url", ["llm.example/v1", "ftp://llm.example", "https://", "http://host:port/", "not a url"]
)
def test_a_malformed_model_url_is_a_problem_and_the_extractor_stays_rules_only(url):
    config = read_config({**SECRET, "MEMORY_MODEL_URL": url, "MEMORY_MODEL_NAME": "small"})
    assert config.extractor == "rules-only"
    assert config.model_url == ""
    assert any("MEMORY_MODEL_URL" in problem for problem in config.problems)


def test_a_model_url_without_a_name_is_a_problem_naming_the_name():
    config = read_config({**SECRET, "MEMORY_MODEL_URL": "https://llm.example/v1"})
    assert config.extractor == "rules-only"
    assert ["MEMORY_MODEL_NAME" in problem for problem in config.problems] == [True]


def test_no_problem_ever_holds_a_value_that_was_found():
    config = read_config(
        {
            "MEMORY_MODEL_URL": "https://user:hunter2@llm.example:bad/v1",
            "MEMORY_MODEL_NAME": "small",
            "MEMORY_MODEL_API_KEY": "sk-live-do-not-leak",
            "MEMORY_MAX_TOTAL_TOKENS": "leaky-value",
            **SECRET,
        }
    )
    text = " ".join(config.problems)
    assert len(config.problems) == 2  # the URL and the limit
    for value in ["hunter2", "sk-live-do-not-leak", "leaky-value", config.secret_key]:
        assert value not in text
    assert "sk-live-do-not-leak" not in repr(config)


@pytest.mark.parametrize(
    ("value", "prefix"),
    [
        ("api", "api/"),
        ("/api/", "api/"),
        ("memory/v-2_x.y", "memory/v-2_x.y/"),
        ("", ""),
        ("/", ""),
    ],
)
def test_the_url_prefix_is_normalised_to_end_with_a_slash_and_empty_means_the_root(value, prefix):
    config = read_config({**SECRET, "MEMORY_URL_PREFIX": value})
    assert config.url_prefix == prefix
    assert config.problems == ()


@pytest.mark.parametrize("value", ["api v1", "api//v1", "../api", "a?b", "ápi", "api/./x"])
def test_an_unusable_url_prefix_is_a_problem_and_the_default_stands(value):
    config = read_config({**SECRET, "MEMORY_URL_PREFIX": value})
    assert config.url_prefix == "api/"
    assert len(config.problems) == 1
    assert "MEMORY_URL_PREFIX" in config.problems[0]


@pytest.mark.parametrize(("value", "expected"), [("false", False), ("0", False), ("YES", True)])
def test_session_keys_takes_the_usual_booleans(value, expected):
    config = read_config({**SECRET, "MEMORY_SESSION_KEYS": value})
    assert config.session_keys is expected
    assert config.problems == ()


def test_a_non_boolean_session_keys_is_a_problem_and_stays_on():
    config = read_config({**SECRET, "MEMORY_SESSION_KEYS": "sometimes"})
    assert config.session_keys is True
    assert len(config.problems) == 1
    assert "MEMORY_SESSION_KEYS" in config.problems[0]


def test_a_non_boolean_debug_is_a_problem_and_debug_stays_off():
    config = read_config({**SECRET, "DEBUG": "verbose"})
    assert config.debug is False
    assert ["DEBUG" in problem for problem in config.problems] == [True]


def test_a_missing_secret_key_with_debug_off_refuses_to_start():
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY must be set"):
        read_config({})


def test_a_missing_secret_key_with_debug_on_is_not_a_problem():
    config = read_config({"DEBUG": "true"})
    assert config.debug is True
    assert config.secret_key
    assert config.problems == ()


def test_the_deployments_values_default_as_on_a_laptop():
    config = read_config(SECRET)
    assert config.api_key_pepper == "configured"  # the secret key, unless set on its own
    assert config.allowed_hosts == ("127.0.0.1", "localhost", "[::1]")
    assert (config.database_url, config.redis_url, config.redis_namespace) == ("", "", "memory")
    assert config.database_prepared_statements is True
    assert (config.static_root, config.log_level) == (None, "INFO")
    assert (config.secure_cookies, config.secure_ssl_redirect, config.secure_hsts_seconds) == (
        False,
        False,
        0,
    )


def test_the_deployments_values_are_read_as_storage_reads_them_and_are_never_problems():
    config = read_config(
        {
            **SECRET,
            "API_KEY_PEPPER": "pepper",
            "ALLOWED_HOSTS": " memory.example , ,[::1]",
            "DATABASE_PREPARED_STATEMENTS": "off",
            "SECURE_COOKIES": "sometimes",  # anything but a true word is off
            "SECURE_SSL_REDIRECT": " On ",
            "SECURE_HSTS_SECONDS": "a year",  # not a whole number: HSTS off
            "REDIS_NAMESPACE": "",
        }
    )
    assert config.api_key_pepper == "pepper"
    assert config.allowed_hosts == ("memory.example", "[::1]")
    assert config.database_prepared_statements is False
    assert (config.secure_cookies, config.secure_ssl_redirect) == (False, True)
    assert config.secure_hsts_seconds == 0
    assert config.redis_namespace == ""
    assert config.problems == ()

from __future__ import annotations

import pytest

from memory_service.extraction.secrets import contains_secret, find_secrets, redact

# Every value below is fake; the AWS pair is the example AWS publishes in its documentation.


@pytest.mark.parametrize(
    "key",
    [
        "sk-proj-4fK9wQ2mZr7TbX1vLp8sNc3yHd6GjE0aUq5oWi",
        "sk_live_51Hx9QeK2vR7mTz4LpW8nC3bY6dF0gJ1aS5uE",
        "ghp_8sK2mLq9XzR4vT1nB7cW3eY6uJ0pA5dF2hG8",
        "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuv",
        "xoxb-2841937561-7319846250193-QzL8mW3kR5vT9yN2bH6jF4dA",
        "npm_Xa7Kq2Lm9Rt4Vw8Zb1Cd5Ef3Gh6Jk0Np2Qs",
        "AKIAIOSFODNN7EXAMPLE",
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        "3f9a7c2e8b1d4f6a9c0e5b7d2a8f1c3e",
        "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7Vx3p9kLmQ2rT",
    ],
)
def test_a_common_key_format_is_found_whole(key):
    text = f"Here it is: {key} - keep it safe."
    assert redact(text) == "Here it is: [redacted] - keep it safe."


def test_a_private_key_block_is_redacted_from_begin_to_end():
    block = (
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n"
        "-----END OPENSSH PRIVATE KEY-----"
    )
    assert redact(f"Key:\n{block}\nThanks.") == "Key:\n[redacted]\nThanks."


def test_a_high_entropy_token_is_a_secret():
    assert contains_secret("use Zq8rT2xL9vB4nM7kW3pH6dF1sG5jC0aY to log in")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("My password is hunter2.", "My password is [redacted]."),
        ("my PIN is 1234", "my PIN is [redacted]"),
        (
            "My bank PIN is 4821, don't tell anyone.",
            "My bank PIN is [redacted], don't tell anyone.",
        ),
        ("Staging DB password: Tr0ub4dor&3.", "Staging DB password: [redacted]."),
        (
            "The wifi password at the office is BlueFalcon!2024.",
            "The wifi password at the office is [redacted].",
        ),
        ("token=abc123XYZ789", "token=[redacted]"),
        ("passphrase: correct horse battery staple", "passphrase: [redacted]"),
        ('the password is "open sesame"', 'the password is "[redacted]"'),
        ("export STRIPE_SECRET_KEY=whatever-it-is", "export STRIPE_SECRET_KEY=[redacted]"),
        ("https://bob:hunter22@example.com/x", "https://bob:[redacted]@example.com/x"),
    ],
)
def test_for_a_phrase_the_secret_is_the_value(text, expected):
    assert redact(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "I prefer ed25519 SSH keys.",
        "I use 1Password for all my passwords.",
        "My password manager is 1Password.",
        "My password is too short, I need a new one.",
        "The key is to be consistent.",
        "Our API key lives in the secrets manager.",
        "Files go in /usr/local/lib/python3.11/site-packages.",
        "Launchers live in /usr/local/share/applications/somethings now.",
        "Pin: the tab to the sidebar.",
        "See https://example.com/docs/getting-started?page=2 for details.",
        "We run version 3.11.4 and v2.0.0-beta in staging.",
        "The request id was 550e8400-e29b-41d4-a716-446655440000.",
        "Call getElementById2024Handler from AbstractSingletonProxyFactoryBean.",
        "internationalization-localization-tooling",
        "The commit 9fceb02d0ae598e95dc970b74767f19372d61af8 broke the build.",
        "We deploy from eu-west-1 on Tuesdays.",
    ],
)
def test_ordinary_text_holds_no_secret(text):
    assert find_secrets(text) == []
    assert redact(text) == text


def test_spans_are_sorted_and_cover_each_secret():
    text = "id AKIAIOSFODNN7EXAMPLE and password is hunter2"
    spans = find_secrets(text)
    assert [text[start:end] for start, end in spans] == ["AKIAIOSFODNN7EXAMPLE", "hunter2"]


def test_a_redacted_text_is_left_alone_when_redacted_again():
    once = redact("My password is hunter2.")
    assert redact(once) == once


def test_a_payment_card_number_is_a_secret_but_a_phone_number_is_not():
    assert redact("card 4111 1111 1111 1111 expires soon") == "card [redacted] expires soon"
    assert not contains_secret("call me on +44 20 7946 0958")


def test_redacted_text_holds_no_secret_any_more():
    for text in [
        "export STRIPE_SECRET_KEY=sk_live_4eC39HqLyjWDarjtT1zdp7dc",
        "my password is hunter2hunter2",
        "token=ghp_4f9KqL2mZx8RtY7vB1nC3dE5gH6jK0pQwS2u",
    ]:
        assert not contains_secret(redact(text))

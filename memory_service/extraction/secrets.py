"""Find credentials in text so that they are never stored, logged or echoed back."""

from __future__ import annotations

import bisect
import itertools
import math
import re
from collections import Counter

from memory_service.extraction.credential_shapes import DIGIT_WORDS, NOT_VALUES
from memory_service.extraction.credentials import (
    credential_spans,
    plain_value,
    sentence_spans,
    value_spans,
)
from memory_service.extraction.segment import overlapping

REDACTED = "[redacted]"

# Well-known credential formats; each match is a secret as a whole.
_KEY_FORMATS = re.compile(
    r"""
    -----BEGIN[ A-Z0-9]*PRIVATE\ KEY-----.*?(?:-----END[ A-Z0-9]*PRIVATE\ KEY-----|\Z)
    | \bsk-(?:proj-|live-|test-)?[A-Za-z0-9_\-]{16,}
    | \b\d{6}(?:-\d{6}){7}\b                    # a BitLocker recovery key
    | \b[rsp]k_(?:live|test)_[A-Za-z0-9]{10,}
    | \bwhsec_[A-Za-z0-9]{16,}
    | \bgh[pousr]_[A-Za-z0-9]{20,}
    | \bgithub_pat_[A-Za-z0-9_]{20,}
    | \bglpat-[A-Za-z0-9_\-]{16,}
    | \bxox[abposr]-[A-Za-z0-9\-]{10,}
    | \bnpm_[A-Za-z0-9]{20,}
    | \bpypi-[A-Za-z0-9_\-]{20,}
    | \b(?:AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{16}\b
    | \bAIza[0-9A-Za-z_\-]{30,}
    | \beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}
    | \bMII[A-Za-z0-9+/=]{30,}
    | \b(?=[0-9a-fA-F]*[0-9])(?=[0-9a-fA-F]*[a-fA-F])[0-9a-fA-F]{32,}\b
    """,
    re.VERBOSE | re.DOTALL,
)

# "password is X", "my PIN is 1234", "passphrase: X", "token=X": the value is the secret.
_STRONG = r"pass(?:word|wd|phrase|code)|pwd|pin(?:\s+(?:code|number))?"
_WEAK = (
    r"secret(?:\s+key)?|api[\s_-]?key|(?:access|secret|private|signing)[\s_-]?key(?:\s+id)?"
    r"|(?:auth(?:entication)?|access|bearer|refresh|bot)?[\s_-]?token|credentials?|key"
)
_PHRASE = re.compile(
    rf"\b(?P<keyword>{_STRONG}|{_WEAK})"
    r"(?:\s+(?:for|at|on|to|of|in)\s+(?:the\s+|my\s+|our\s+|this\s+)?[\w.\-]+(?:\s+[\w.\-]+)?)?"
    r"\s*(?P<separator>\bis\b|\bwas\b|=|:|->)\s*"
    r"(?P<value>\"[^\"]+\"|'[^']+'|`[^`]+`|[^\s\"'`]+)",
    re.IGNORECASE,
)
# A setting whose name says it holds a credential: PASSWORD=x, "api_key": "x", db_password = "x",
# POSTGRES_PASSWORD: x. The value may be quoted, then it may hold blanks.
_ASSIGNMENT = re.compile(
    # Names are bounded: an unbounded [\w.-]* would rescan a long token from every boundary.
    r"(?i:\b[\w.-]{0,40}(?:pass(?:word|wd|phrase)?|pwd|secret|token|api_?key|access_?key"
    r"|private_?key|auth|credentials?|dsn|salt|signing_?key|client_?key)[\w.-]{0,40})"
    r"[\"']?\s*(?:=|:(?!//))\s*"
    r"(?:\"(?P<dq>[^\"\n]+)\"|'(?P<sq>[^'\n]+)'|(?P<value>[^\s\"',;]+))"
)
# "curl -u deploy:pass", "--user backup:pass": the half after the colon.
_USER_OPTION = re.compile(r"(?:^|\s)(?:-u|--user)\s+[^\s:]*:(?P<value>\S+)")
# IBANs: country, check digits, then groups.
_IBAN = re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){3,7}(?: ?[A-Z0-9]{1,3})?\b")
# Payment cards (checked with Luhn below) and US social security numbers.
_CARD = re.compile(r"(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])")
_CARD_GROUPS = re.compile(r"(?<![\d-])\d{4}(?:[ -]\d{4}){3}(?![\d-])")
_SHORT_CODE = re.compile(r"(?<![\w./:-])\d{3,4}(?![\w/:-]|\.\d)")
_SSN = re.compile(
    r"\b(?:ssn|social security(?: number)?)\b\D{0,12}(?P<value>\d{3}-?\d{2}-?\d{4})\b", re.I
)
# "https://bob:pw@host", "redis://:pw@host", "https://<token>@host".
_URL_CREDENTIALS = re.compile(
    r"://(?:[^/\s:@]*:(?P<value>[^@\s/]+)|(?P<token>[^/\s:@]{16,}))@"
    # A credential in a link's query: "?access=Lily-Bloom-0921", "&api_key=...".
    r"|[?&](?:access|access_?token|token|key|api_?key|apikey|pass|passwd|password|pwd|auth|code"
    r"|secret|sig|signature)=(?P<query>[^&#\s]{4,})"
)
# A link that opens something by itself: named an edit, share, invite, magic or reset link, or
# told not to be shared ("the edit link is https://www.overleaf.com/38291..., do not share"). Its
# path is the secret; the host stays readable.
_CAPABILITY_LINK = re.compile(
    r"\b(?:edit|editing|share|sharing|invite|invitation|magic|reset|private|secret|join|access"
    r"|login|sign-?in|admin)\s+(?:link|url)\b[^\n]{0,60}?https?://[^/\s]+"
    r"(?P<value>/[^\s,;'\")\]]+)"
    r"|https?://[^/\s]+(?P<told>/[^\s,;'\")\]]+)"
    r"(?=[^.!?\n]{0,40}\b(?:do not|don'?t|never|pls don'?t) (?:share|forward|post|send)\b)",
    re.IGNORECASE,
)

# What a credential setting may be set to without holding one.
_ASSIGNED_NON_VALUES = frozenset(
    [
        "true",
        "false",
        "none",
        "null",
        "yes",
        "no",
        "required",
        "optional",
        "changeme",
        "redacted",
        "[redacted]",
        "********",
        "***",
        "env",
        "secret",
    ]
)
_DETERMINERS = frozenset(("a", "an", "the", "my", "our", "your", "this", "that", "it"))
_UNITS_AFTER_NUMBER = re.compile(r"\s+(?:characters|chars|digits|letters|long|days|months)\b")
_TRAILING = ".,;:!?)]}>'\"`"

# An AWS secret access key: 40 base64 characters of mixed case (checked below).
_FORTY = re.compile(r"(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])")
_TOKEN = re.compile(r"[A-Za-z0-9+/_\-]{20,}={0,2}")
_CLAUSE_END = re.compile(r"[.;!?\n]|$")
_HEX = re.compile(r"[0-9a-f]{7,40}")
_COMMIT_WORD = re.compile(r"\b(?:commit|sha1?|hash|revision|rev)\b[\s:#]*$", re.IGNORECASE)
_UUID = re.compile(r"^[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$")


def _entropy(token: str) -> float:
    """Return the Shannon entropy of ``token`` in bits per character."""
    counts = Counter(token)
    size = len(token)
    return -sum(n / size * math.log2(n / size) for n in counts.values())


def _mixed_case(token: str) -> bool:
    """Tell whether ``token`` mixes upper and lower case with digits or symbols, as keys do."""
    return (
        any(c.isupper() for c in token)
        and any(c.islower() for c in token)
        and any(not c.isalpha() for c in token)
    )


def _looks_random(token: str) -> bool:
    """Tell whether ``token`` reads like generated key material rather than a word or a path."""
    if token.startswith(("/", "~", "-", "_")) or _UUID.match(token):
        return False
    has_upper = any(c.isupper() for c in token)
    has_lower = any(c.islower() for c in token)
    has_digit = any(c.isdigit() for c in token)
    # Lowercase keys (base36 tokens, session ids) mix letters and digits just as often.
    if not (has_digit and has_lower and (has_upper or len(token) >= 20)):
        return False
    # Identifiers such as getElementById2024Handler change class a few times; keys do so constantly.
    classes = [
        "u" if c.isupper() else "l" if c.islower() else "d" if c.isdigit() else "s" for c in token
    ]
    changes = sum(1 for a, b in itertools.pairwise(classes) if a != b)
    return changes >= 0.4 * len(token) and _entropy(token) >= 3.5


def _value_span(match: re.Match[str], strong: bool) -> tuple[int, int] | None:
    """Return the span of the value in a phrase match, or None when it is not a credential."""
    start, end = match.span("value")
    value = match.group("value")
    if value[:1] in "\"'`":
        return (start + 1, end - 1) if len(value) > 2 else None
    stripped = value.rstrip(_TRAILING)
    end -= len(value) - len(stripped)
    if match.group("keyword").lower().startswith("passphrase"):
        # A passphrase is several words: the rest of the clause is the secret.
        clause_end = _CLAUSE_END.search(match.string, start)
        assert clause_end is not None  # "$" matches at the end
        return start, clause_end.start()
    # After ":" or "=" a value is introduced as such, so only a determiner is not one.
    introduced = match.group("separator") in (":", "=")
    stop = _DETERMINERS if introduced else NOT_VALUES
    if not stripped or stripped.startswith("[redacted") or stripped.lower() in stop:
        return None
    if not introduced and not plain_value(stripped):
        return None  # "the password is printed on the router": a verb, not a value
    if stripped.isdigit() and _UNITS_AFTER_NUMBER.match(match.string, end):
        return None
    if not strong:
        # "key" and "token" are ordinary words; only a credential-shaped value counts.
        mixed = sum((any(c.isdigit() for c in stripped), any(c.isupper() for c in stripped)))
        symbol = any(not c.isalnum() for c in stripped)
        if len(stripped) < 8 or not (mixed or symbol):
            return None
    return start, end


def _luhn(digits: str) -> bool:
    """Tell whether ``digits`` pass the Luhn checksum that payment card numbers carry."""
    total = 0
    for position, char in enumerate(reversed(digits)):
        value = int(char) * (2 if position % 2 else 1)
        total += value - 9 if value > 9 else value
    return total % 10 == 0


def _is_commit_hash(text: str, span: tuple[int, int]) -> bool:
    """Tell whether ``span`` is a hex commit id named as such ("commit 9fceb02...")."""
    start, end = span
    return bool(
        _HEX.fullmatch(text, start, end) and _COMMIT_WORD.search(text, max(0, start - 24), start)
    )


def find_secrets(text: str) -> list[tuple[int, int]]:
    """Return the sorted, merged spans of ``text`` that hold secrets."""
    spans = [m.span() for m in _KEY_FORMATS.finditer(text)]
    for match in _PHRASE.finditer(text):
        strong = re.fullmatch(_STRONG, match.group("keyword"), re.IGNORECASE) is not None
        span = _value_span(match, strong)
        if span:
            spans.append(span)
    cards = [m.span() for m in _CARD.finditer(text) if _luhn(re.sub(r"\D", "", m.group()))]
    # Four groups of four digits read off a card, whatever their checksum.
    cards += [m.span() for m in _CARD_GROUPS.finditer(text)]
    spans.extend(cards)
    if cards:
        # The few digits on the back of the card, said after it ("the three numbers are 316").
        after = text[cards[0][0] : cards[-1][1] + 160]
        spans.extend(
            (cards[0][0] + m.start(), cards[0][0] + m.end()) for m in _SHORT_CODE.finditer(after)
        )
    for match in _ASSIGNMENT.finditer(text):
        group = next(g for g in ("dq", "sq", "value") if match.group(g) is not None)
        value = match.group(group).strip().lower()
        if value not in _ASSIGNED_NON_VALUES and (group != "value" or value not in NOT_VALUES):
            spans.append(match.span(group))
    for match in _URL_CREDENTIALS.finditer(text):
        spans.append(match.span(next(g for g in ("value", "token", "query") if match.group(g))))
    for match in _CAPABILITY_LINK.finditer(text):
        spans.append(match.span("value" if match.group("value") else "told"))
    for pattern in (_USER_OPTION, _SSN):
        spans.extend(m.span("value") for m in pattern.finditer(text))
    spans.extend(m.span() for m in _IBAN.finditer(text))
    spans.extend(m.span() for m in _FORTY.finditer(text) if _mixed_case(m.group()))
    spans.extend(m.span() for m in _TOKEN.finditer(text) if _looks_random(m.group()))
    spans.extend(credential_spans(text))
    # A commit hash is long hex too, but it identifies code rather than unlocking anything.
    spans = [s for s in spans if not _is_commit_hash(text, s)]
    spans = [_trimmed(text, s) for s in spans]
    # What redact() left behind is not a secret: redacted text must read as clean.
    spans = [s for s in spans if s[0] < s[1] and not _is_marker(text[s[0] : s[1]])]
    if spans:
        # Beside a credential, digits read out are part of it ("The back bit says eight one nine").
        spans += [m.span() for m in DIGIT_WORDS.finditer(text)]
    return _merged(spans + _said_again(text, spans))


def _said_again(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Return the other places where a found secret is written again ("... a room called B-217").

    One pass over the words for one-word values, a plain search for the few of several words: a
    search per value would cost a message of many values its square.
    """
    values = {text[start:end] for start, end in spans if end - start >= 3}
    again = []
    for token in re.finditer(r"\S+", text):
        start, word = token.start(), token.group()
        trimmed = word.strip(".,;:!?\"'()[]{}")
        if trimmed in values:
            offset = word.index(trimmed)
            again.append((start + offset, start + offset + len(trimmed)))
    for value in (v for v in values if " " in v):
        at = text.find(value)
        while at != -1:
            again.append((at, at + len(value)))
            at = text.find(value, at + len(value))
    return again


def _is_marker(value: str) -> bool:
    """Tell whether ``value`` is only the redaction marker, with punctuation around it."""
    return value.strip(".,;:!?\"'`()[]{}<> ").lower() == REDACTED.strip("[]")


def _trimmed(text: str, span: tuple[int, int]) -> tuple[int, int]:
    """Return ``span`` without the sentence punctuation or closing quote it ends with."""
    start, end = span
    while end > start + 1 and text[end - 1] in ".,;:?\"'`)]":
        end -= 1
    return start, end


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Return ``spans`` sorted, with overlapping ones joined."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def contains_secret(text: str) -> bool:
    """Tell whether ``text`` holds anything that looks like a secret."""
    return bool(find_secrets(text))


def redact(text: str) -> str:
    """Return ``text`` with each secret replaced by ``[redacted]``."""
    return redacted(text, (0, len(text)), find_secrets(text))


def redacted(text: str, span: tuple[int, int], secrets: list[tuple[int, int]]) -> str:
    """Return the text of ``span`` with ``secrets`` (spans of ``text``) replaced.

    In a sentence that holds a secret, every value-like token goes too: the username beside a
    password or the expiry date and security code beside a card number belong to the credential.
    """
    first, past = span
    spans = [(max(s, first), min(e, past)) for s, e in overlapping(secrets, first, past)]
    if not spans:
        return text[first:past]
    sentences = sentence_spans(text)
    # The sentences that overlap ``span``: from the last one starting at or before it, onwards.
    at = max(0, bisect.bisect_right(sentences, (first, len(text) + 1)) - 1)
    for start, end in itertools.takewhile(lambda s: s[0] < past, sentences[at:]):
        if first < end and any(s < end and start < e for s, e in spans):
            # Only the part of the sentence inside ``span`` is shown, so only it is read.
            spans += value_spans(text, max(start, first), min(end, past))
    parts = []
    last = first
    for start, end in _merged([s for s in spans if text[s[0] : s[1]] != REDACTED]):
        parts.append(text[last:start])
        parts.append(REDACTED)
        last = end
    parts.append(text[last:past])
    return "".join(parts)

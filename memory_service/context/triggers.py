"""The concrete terms of a message: what it names, which may trigger a memory's body.

A term is concrete when its shape says so, never because of what it means: a quoted phrase, a
path or URL, an identifier (letters mixed with digits, underscores, inner dots or dashes,
camelCase, capitals), a number, or a name (capitalised words, not opening a sentence alone, not
stop words). Meaning-free rules behave the same on any message, and a stop word never triggers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memory_service.recall.text import STOP_WORDS

QUOTED, PATH, IDENTIFIER, NUMBER, NAME = "quoted", "path", "identifier", "number", "name"

# A message of a megabyte names thousands of things; the first ones are what it is about.
MAX_TERMS = 50
MAX_TERM_LENGTH = 200

_QUOTED = re.compile(
    r'"([^"\n]{1,200})"|\u201c([^\u201d\n]{1,200})\u201d|`([^`\n]{1,200})`|(?<!\w)\'([^\'\n]{1,200})\'(?!\w)'
)
_TOKEN = re.compile(r"\S+")
# Punctuation around a token, not part of it: "(see src/app.py)," names src/app.py.
_EDGES = "\"'\u201c\u201d\u2018\u2019`()[]{}<>,;:!?.…*"
_SENTENCE_END = re.compile(r"[.!?…]['\"\u201d\u2019)]*$")
_NUMBER = re.compile(r"[+-]?\d[\d,.:/]*%?")
_WORDY = re.compile(r"[^\W\d_]")  # a letter
_CAPITALISED = re.compile(r"[^\W\d_][^\W\d_'\u2019-]*(?:['\u2019]s)?")
_CAMEL = re.compile(r"[a-z][A-Z]")
_ACRONYM = re.compile(r"[A-Z]{2,}[0-9]*s?")
_POSSESSIVE = re.compile(r"['\u2019]s$")
_APOSTROPHE = re.compile(r"['\u2019]")


@dataclass(frozen=True)
class Term:
    """Something the message names, as written, and which shape made it concrete."""

    text: str
    kind: str


def concrete_terms(message: str, *, limit: int = MAX_TERMS) -> list[Term]:
    """Return the distinct concrete terms of ``message`` in the order it names them."""
    found: list[tuple[int, Term]] = []
    for match in _QUOTED.finditer(message):
        inner = next(group for group in match.groups() if group is not None).strip()
        if (inner and _WORDY.search(inner)) or _NUMBER.fullmatch(inner or "-"):
            found.append((match.start(), Term(inner, QUOTED)))
    found += _shaped_terms(message)
    terms: list[Term] = []
    seen: set[str] = set()
    for _, term in sorted(found, key=lambda item: item[0]):
        key = term.text.casefold()
        if key not in seen and len(term.text) <= MAX_TERM_LENGTH:
            seen.add(key)
            terms.append(term)
            if len(terms) == limit:
                break
    return terms


def _shaped_terms(message: str) -> list[tuple[int, Term]]:
    """Return paths, identifiers, numbers and names, with where each starts."""
    found: list[tuple[int, Term]] = []
    name: list[str] = []  # the run of capitalised words being read
    name_start, name_opens = 0, False
    opens_sentence = True

    def close_name() -> None:
        # Every sentence opens with a capital: a run that opens one names what follows its first
        # word ("Tell Kofi" names Kofi; "Maria said" names nothing a shape can tell).
        words = name[1:] if name_opens else name
        if words:
            found.append((name_start, Term(" ".join(words), NAME)))
        name.clear()

    for match in _TOKEN.finditer(message):
        raw = match.group()
        token = raw.strip(_EDGES)
        start = match.start() + raw.find(token[:1]) if token else match.start()
        kind = _shape(token)
        if kind == NAME:
            word = _POSSESSIVE.sub("", token)
            if not name:
                name_start, name_opens = start, opens_sentence
            name.append(word)
            if raw.rstrip(_EDGES) != raw and raw[-1] not in "'\u2019":
                close_name()  # punctuation after it ends the name: "Maria, Jon"
        else:
            close_name()
            if kind is not None:
                found.append((start, Term(token, kind)))
        opens_sentence = bool(_SENTENCE_END.search(raw))
    close_name()
    return found


def _shape(token: str) -> str | None:
    """Return the kind of concrete term ``token`` is, or None for an ordinary word."""
    if not token:
        return None
    if "://" in token or (("/" in token or "\\" in token) and _has_alnum(token.strip("/\\"))):
        return PATH
    if _NUMBER.fullmatch(token):
        return NUMBER
    if token[0] in "#@" and token[1:].replace("_", "").isalnum():
        return IDENTIFIER  # a ticket, a handle: #4411, @kofi
    if not _has_alnum(token):
        return None
    has_digit = any(ch.isdigit() for ch in token)
    has_letter = bool(_WORDY.search(token))
    inner = token[1:-1]
    if (
        (has_digit and has_letter)
        or "_" in token
        or any(mark in inner for mark in ".-@#:")
        or _CAMEL.search(token)
        or _ACRONYM.fullmatch(token)
    ):
        return IDENTIFIER
    if token[0].isupper() and _CAPITALISED.fullmatch(token):
        if _APOSTROPHE.split(token)[0].lower() in STOP_WORDS:  # "I'm", "They've"
            return None
        return NAME
    return None


def _has_alnum(text: str) -> bool:
    return any(ch.isalnum() for ch in text)

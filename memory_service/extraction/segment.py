"""Cut a user message into candidate statements, as spans of the original text."""

from __future__ import annotations

import bisect
import re

Span = tuple[int, int]

# Sentence ends: terminal punctuation then space, or a line break. Semicolons join clauses that
# belong together ("No, it's Neovim now; I switched away from VS Code."), so they do not cut.
_BOUNDARY = re.compile(
    r"[.!?]+[\"')\]]*(?=\s)|\n"
    # A run of emoji closes what came before it ("my bias is Felix 😭😭 istg ...").
    r"|[\U0001F300-\U0001FAFF\u2600-\u27BF\ufe0f]+(?=\s)"
    # Punctuation spoken to a dictation app ("I'm an agent in Phoenix period I mostly work ..."),
    # where what follows starts a clause of its own. At a message's end it is left as it was said.
    r"|(?P<spoken>\s+(?:full stop|period|exclamation (?:mark|point)|new (?:line|paragraph))"
    r"(?=\s+(?i:i|i'm|im|my|we|our|the|it|it's|so|and|also|but|please|pls|thanks|thank|he|she"
    r"|they|you|that|this|there|no|yes|oh|ok|okay|then|anyway|when|whenever|if|always|never)\b)"
    # "full stop" names nothing else: it ends a dictated sentence wherever it stands.
    r"|\s+full stop(?=\s+\w))"
)
_ABBREVIATIONS = frozenset(
    (
        *("e.g", "i.e", "etc", "vs", "mr", "mrs", "ms", "dr", "st", "approx", "incl", "jr", "prof"),
        *("cf", "ibid", "'ibid", "nr", "fig", "vol", "pp"),
    )
)
_BULLET = re.compile(r"(?:[-*•]|\d+[.)])\s+")  # matched at a sentence start

# "..., and I fly with KLM": a new first-person clause is a statement of its own.
# After a comma, any new subject starts one too ("..., and she hates long decks", "..., and specs
# live in Notion").
_FIRST_PERSON_CLAUSE = re.compile(
    r",?\s+(?i:and)\s+(?=(?:I|we|WE)(?:'\w+)?\s+(?!and\b)\w)"
    r"|\s+and\s+(?=(?:he|she|they)\s+\w)"
    r"|\s+(?:and|but)\s+(?=(?:the|my|our|his|her|their)\s+(?:[\w-]+\s+){0,2}(?:is|are|was|were|has"
    r"|have|live|lives|run|runs|go|goes|get|gets|stay|stays|sit|sits|come|comes|work|works|use|uses"
    r"|take|takes|do|does)\b)"
    r"|\s+and\s+(?=(?:everything|nothing|everyone|nobody|all of it)\s+\w)"
    # Not before "it": "..., and it's the hardest one yet" leans on what came before.
    r"|,\s*(?:and|but)\s+(?:(?:fyi|btw|also|tbh|ngl|honestly|frankly|truthfully)\s+)?"
    r"(?=(?:I|we|she|he|they|my|our|his|her|their|the|every|each|please|pls|[A-Z][a-z]+)\b"
    r"(?!\s+(?:and|or)\b))"
)
# Around a secret, cut only where a new first-person statement starts ("..., and I prefer Slack"):
# the rest of the sentence ("so i dont forget", "only me and the manager know it") goes with it.
_ANY_CLAUSE = re.compile(r",\s*(?:and|but|also)\s+(?=(?:I|we)\b)", re.IGNORECASE)
_MIN_LEFT_WORDS = 3
# Two words make a clause when the first holds its subject and verb ("I'm seventy-one and I've").
_CONTRACTED_CLAUSE = re.compile(r"^\s*(?:I|we|they|he|she)['\u2019](?:m|re|s|ve)\s+\S", re.I)
# The words before "and I" must make a clause ("I'm a nurse"), not a subject ("My wife Ana").
_HAS_VERB = re.compile(
    r"^(?:I|we|you|he|she|they|it)\b|\b(?:am|is|are|was|were|has|have|had)\b|'(?:m|s|re|ve)\b",
    re.IGNORECASE,
)


def _trim(text: str, start: int, end: int) -> Span | None:
    """Return ``start:end`` without surrounding blanks, bullets or joining commas, or None."""
    while start < end and (text[start].isspace() or text[start] in ",;"):
        start += 1
    while end > start and (text[end - 1].isspace() or text[end - 1] in ",;"):
        end -= 1
    bullet = _BULLET.match(text, start, end)
    if bullet:
        start = bullet.end()
    return (start, end) if start < end else None


def overlapping(spans: list[Span], start: int, end: int) -> list[Span]:
    """Return the spans of ``spans`` (sorted, not overlapping) that share characters with start:end.

    Found by bisection: a message may hold thousands of secrets (a pasted table of passwords).
    """
    first = max(0, bisect.bisect_right(spans, (start, start)) - 1)
    found = []
    for span in spans[first:]:
        if span[0] >= end:
            break
        if span[1] > start:
            found.append(span)
    return found


def _inside(position: int, spans: list[Span]) -> bool:
    """Tell whether ``position`` falls within one of ``spans``."""
    return any(start < position < end for start, end in overlapping(spans, position, position + 1))


def sentences(text: str, secrets: list[Span]) -> list[Span]:
    """Return the spans of the sentences of ``text``, never cutting through a secret."""
    spans: list[Span] = []
    start = 0
    for match in _BOUNDARY.finditer(text):
        end = match.start() if match.group("spoken") else match.end()
        if _inside(match.start(), secrets):
            continue
        if match.group() == ".":
            # A short window is enough to read the word before the point, in linear time overall.
            before = text[max(start, match.start() - 12) : match.start()].split()
            last = before[-1].lower() if before else ""
            # Abbreviations and initials ("e.g.", "J.") do not end a sentence.
            # "where was I." ends its sentence: "I" after a lowercase word is the pronoun.
            pronoun = last == "i" and len(before) > 1 and before[-2][:1].islower()
            if last in _ABBREVIATIONS or (len(last) == 1 and last.isalpha() and not pronoun):
                continue
            if last == "no" and text[match.end() : match.end() + 2].strip()[:1].isdigit():
                continue  # "Shipton Mill No. 4 flour"
        piece = _trim(text, start, end)
        if piece:
            spans.append(piece)
        start = match.end()
    piece = _trim(text, start, len(text))
    if piece:
        spans.append(piece)
    return spans


def _cut(text: str, span: Span, pattern: re.Pattern[str], secrets: list[Span]) -> list[Span]:
    """Cut ``span`` at each match of ``pattern`` that leaves a clause of a few words before it."""
    start, end = span
    pieces: list[Span] = []
    for match in pattern.finditer(text, start, end):
        if _inside(match.start(), secrets):
            continue
        left = text[start : match.start()]
        # A comma before the conjunction marks a clause boundary well enough on its own.
        comma = match.group().lstrip().startswith(",")
        short = len(left.split()) < _MIN_LEFT_WORDS and not _CONTRACTED_CLAUSE.match(left)
        if not secrets and (short or not (comma or _HAS_VERB.search(left))):
            continue
        piece = _trim(text, start, match.start())
        if piece:
            pieces.append(piece)
        start = match.end()
    piece = _trim(text, start, end)
    if piece:
        pieces.append(piece)
    return pieces


def _overlaps(span: Span, secrets: list[Span]) -> bool:
    """Tell whether ``span`` shares characters with a secret."""
    return any(start < span[1] and span[0] < end for start, end in secrets)


def clauses(text: str, span: Span, secrets: list[Span]) -> list[Span]:
    """Split a sentence into the statements it coordinates, each secret in a clause of its own."""
    inner = overlapping(secrets, *span)
    if not inner:
        return _cut(text, span, _FIRST_PERSON_CLAUSE, [])
    pieces = _cut(text, span, _ANY_CLAUSE, inner)
    # Join neighbouring clauses that hold no secret back together: only the secret is set apart.
    joined: list[Span] = []
    for piece in pieces:
        if joined and not _overlaps(piece, inner) and not _overlaps(joined[-1], inner):
            joined[-1] = (joined[-1][0], piece[1])
        else:
            joined.append(piece)
    return joined

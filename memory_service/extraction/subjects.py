"""Name what a statement is about, so that a later statement on the same thing can be found."""

from __future__ import annotations

import re

from memory_service.extraction.lexicon import CORRECTION_PREFIX, DISCOURSE_PREFIX, word_set
from memory_service.extraction.subject_lexicon import (
    FAMILY_MEMBERS,
    FAMILY_SUBJECTS,
    PERSONAL_TOPICS,
    SUBJECTS,
)

_LEXICON = tuple((subject, re.compile(pattern)) for subject, pattern in SUBJECTS)

# A statement whose grammatical subject is a relative is about that relative.
_FAMILY = re.compile(
    rf"^(?:(?:my|our) |i have (?:an? |two |three |four |\d+ )?|[a-z]+ is (?:my|our) )"
    rf"({FAMILY_MEMBERS})\b(?!'s (?:name|age))"
    rf"|^(?:my|our) ({FAMILY_MEMBERS})'s (?:name|age)\b"
)
# Subjects that are about the user even when a relative is named ("I visit my parents").
_OUTRANK_FAMILY = frozenset({"family visits"})

# What one drinks at a time of day is one subject whatever the drink.
_DRINK_TIME = re.compile(
    r"\b(?:tea|coffee|drinks?|water|juice)\b.*"
    r"\b(?:in the|every|each) (morning|afternoon|evening)s?\b"
)
_STYLE_LANGUAGE = re.compile(
    r"\b(python|javascript|typescript|java|kotlin|rust|ruby|swift|php|scala|golang|elixir|haskell"
    r"|c#|c\+\+|css|html|sql)\b"
)

# Pattern rules for statements the lexicon has no word for; each captures the subject.
_PATTERNS = tuple(
    re.compile(p)
    for p in (
        r"\b(?:don'?t|do not|never|can'?t|cannot|won'?t) eat (\w+)",
        r"\bmy ((?:[a-z-]+ ){0,2}?[a-z-]+?)(?:'s name)? (?:is|are|was|were)\b",
        r"\bour ((?:[a-z-]+ ){0,2}?[a-z-]+) (?:is|are|was|were)\b",
        r"\b(?:prefer|use|like) .+? for (?:my |our |all my |the |most )?((?:[a-z-]+ ){0,2}[a-z-]+)",
        r"\b(?:is|are) (?:my|our) ((?:favou?rite|go-to) [a-z-]+)",
        r"^((?:[a-z-]+ ){0,2}[a-z-]+) (?:is|are) (?:my|our) (?:favou?rite|go-to)\b",
        r"^[a-z0-9-]+ is (?:my|our) ((?:[a-z-]+ )?[a-z-]+)\b",
        # The thing liked or avoided: "I love mushrooms" and "I hate mushrooms" share a subject.
        r"\bi (?:really |also |still |no longer |don'?t |do not |never )?(?:like|love|hate|dislike"
        r"|enjoy|prefer|can'?t stand|eat|drink|avoid|fan of) (?:the |a |an )?([a-z-]+(?: [a-z-]+)?)"
        r"(?= (?:and|or|but|with|for|in|on|at|when|because|so)\b|[^a-z -]|$)",
    )
)
_NOT_SUBJECTS = word_set(
    "everything anything something me us you it this that now work things stuff all"
)


def _lexicon(text: str) -> str | None:
    """Return the first lexicon subject that ``text`` mentions."""
    for subject, pattern in _LEXICON:
        if pattern.search(text):
            return subject
    return None


# Words that date a subject rather than name it: "my new advisor" and "my advisor" are one subject,
# and so are "the go-to now" and "the go-to".
_DATING = re.compile(
    r"^(?:(?:new|current|old|former|latest|present|usual|main|own)\s+)+"
    r"|(?:\s+(?:now|anymore|any more|these days|nowadays|again|too|also|still|today|lately))+$"
)


def _from_patterns(text: str) -> str | None:
    """Return the noun phrase that a pattern rule names as the subject, if any."""
    for pattern in _PATTERNS:
        match = pattern.search(text)
        if match and match.group(1) not in _NOT_SUBJECTS:
            phrase = _DATING.sub("", match.group(1).strip())
            if not phrase or phrase in _NOT_SUBJECTS:
                continue
            # "my dog is ..." is about a pet: the lexicon has the common name of the phrase.
            return _lexicon(phrase) or phrase
    return None


def subject_of(text: str) -> str | None:
    """Return a short lowercase noun phrase naming what ``text`` is about, or None."""
    lowered = text.lower().replace("\u2019", "'").strip()
    lowered = DISCOURSE_PREFIX.sub("", CORRECTION_PREFIX.sub("", lowered))
    drink = _DRINK_TIME.search(lowered)
    if drink:
        return f"{drink.group(1)} drink"
    subject = _lexicon(lowered)
    if subject not in _OUTRANK_FAMILY:
        family = _FAMILY.search(lowered)
        if family:
            member = family.group(1) or family.group(2)
            member = FAMILY_SUBJECTS.get(member, member)
            return f"{member} {subject}" if subject in PERSONAL_TOPICS else member
    if subject == "code style":
        language = _STYLE_LANGUAGE.search(lowered)
        return f"{language.group(1)} style" if language else subject
    return subject or _from_patterns(lowered)

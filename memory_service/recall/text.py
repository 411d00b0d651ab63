"""Turning text into index terms: lowercase word tokens, minus stop words, Snowball-stemmed."""

from __future__ import annotations

import functools
import re
import threading

import snowballstemmer

# The posting column's width; a longer stem is cut to it, the same way for memories and queries.
MAX_TERM_LENGTH = 64

# NLTK's English stop-word list (the Snowball list plus a few contraction fragments). Forms with
# an apostrophe are left out: the tokeniser splits "don't" into "don" and "t", both listed here.
_STOP_WORDS = """
    i me my myself we our ours ourselves you your yours yourself yourselves he him his himself
    she her hers herself it its itself they them their theirs themselves what which who whom
    this that these those am is are was were be been being have has had having do does did
    doing a an the and but if or because as until while of at by for with about against
    between into through during before after above below to from up down in out on off over
    under again further then once here there when where why how all any both each few more
    most other some such no nor not only own same so than too very s t can will just don
    should now d ll m o re ve y ain aren couldn didn doesn hadn hasn haven isn ma mightn
    mustn needn shan shouldn wasn weren won wouldn
"""
STOP_WORDS = frozenset(_STOP_WORDS.split())

# Word characters only: "k8s" stays whole, "eu-west-1" becomes "eu", "west" and "1".
_WORD = re.compile(r"\w+")

# A Snowball stemmer keeps its working state on the instance, so each thread gets its own.
_local = threading.local()


def _stemmer() -> snowballstemmer.stemmer:
    stemmer = getattr(_local, "stemmer", None)
    if stemmer is None:
        stemmer = _local.stemmer = snowballstemmer.stemmer("english")
    return stemmer


@functools.lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """Return the index term for the lowercase, non-stop ``word``."""
    return _stemmer().stemWord(word)[:MAX_TERM_LENGTH]


def _words(text: str) -> list[tuple[str, str]]:
    """Return ``(as written, lowercased)`` for each word of ``text`` that is not a stop word."""
    pairs = [(word, word.lower()) for word in _WORD.findall(text)]
    return [(word, lower) for word, lower in pairs if lower not in STOP_WORDS]


def terms(text: str) -> list[str]:
    """Return the index terms of ``text`` in order, repeats included."""
    return [stem(lower) for _, lower in _words(text)]


def query_words(query: str) -> dict[str, str]:
    """Map each distinct term of ``query`` to the word that first produced it, as written."""
    found: dict[str, str] = {}
    for word, lower in _words(query):
        found.setdefault(stem(lower), word)
    return found

"""Deciding how a new statement relates to what is held on the same subject.

The rules are deliberately plain, so that a user can predict them, and never lose a statement:
among the working and core memories that share the statement's subject, one holding every value
term of the statement is restated by it (merged); a statement that shares some value terms and does
not read as a correction adds to what is held and is stored on its own; anything else contradicts
the newest held memory on the subject (stored, with a tension).
"""

from __future__ import annotations

import functools
import re
from collections import defaultdict
from dataclasses import dataclass

from memory_service.accounts.models import Organisation
from memory_service.extraction import other_languages
from memory_service.memories.models import ARCHIVE, Memory
from memory_service.recall.search import holders
from memory_service.recall.text import terms

MERGE, CONTRADICT = "merge", "contradict"
# How many held memories on one subject are compared; a subject rarely holds more than a few.
MAX_COMPARED = 20
# A term held by more memories than this is too common to tell what a correction refers to.
MAX_REFERENT_DF = 50

_CORRECTION = re.compile(
    r"\b(actually|no longer|any ?more|any longer|no more|instead|switched|moved|changed|now|not"
    r"|rather than|from now on|these days|nowadays|left|new|used to|replaced|come round to"
    r"|(?:down|up) to|gone|quit|stopped|started|since|took over|taken over|pushed (?:back )?to"
    r"|postponed|brought forward|shifted to|relocated|got rid of|dropped|sold|migrated|gave up"
    r"|given up|back (?:on|to)|went back|upgraded|downgraded|swapped|ditched|retired|closed"
    # "..., back in VS Code" is a change; "back in 2019", "back in '99", "back in the day" and
    # "repeated back in replies" are not.
    r"|(?:^|(?<=[,;:] )|(?<=\bi'm )|(?<=\bim )|(?<=\bwe're )|(?<=\bnow ))back in"
    r"(?! (?:'?\d|the day|the old days|school|college|uni|january|february|march|april|may|june"
    r"|july|august|september|october|november|december)\b)"
    r"|(?:works?|worked) better|better value|pivot(?:ed|ing)?|rais(?:e|ed|ing)|lower(?:ed|ing)"
    r"|increas(?:e|ed|ing)|bump(?:ed|ing)"
    # The same in dialect and in the languages users slip into: "noo", "nae mair", "ya no", "ahora".
    r"|noo|nae mair|nae more|ya no|ahora|cambi[ée]|switch|swichd|switchd|traded|promoted|stop"
    r"|(?:no|not|never)\b[^.]{0,40}\bagain|transferred|taken up|re-?listed|re-?scheduled"
    rf"|{other_languages.CHANGE})\b|^\s*no\b",
    re.IGNORECASE,
)


# "I also swim on Sundays" adds to "I run three times a week"; it changes nothing.
_ADDITION = re.compile(r"\b(also|too|as well|another|in addition|plus)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Relation:
    action: str  # MERGE or CONTRADICT
    memory: Memory


def reads_as_correction(text: str) -> bool:
    """Tell whether ``text`` announces a change ("actually", "no longer", "now", "not ...")."""
    return bool(_CORRECTION.search(text))


# Verbs and words that frame a statement without saying what it states: "I use Vim" and "I use
# VS Code" share "use" and nothing else.
_FRAMING = frozenset(
    terms(
        "use using like love prefer want need have get go make work always never usual please "
        "really also just still main favourite default every day time good best"
        # The function words of the languages users slip into, which the English stop words
        # miss: "Standup ab 9:45 pe hai" shares only "hai" with "standup 10:30 baje hota hai".
        " hai hain ho hota hoti tha thi ka ki ke ko se mein pe par ab bhi aur toh"
        " ang ng sa na mo ako ay yung po din rin lang pa mga"
        " el la los las del en con y que es un una mi por para"
        " os da do em com meu minha"
        " le les du des et est une mon avec pour"
    )
)


def _value_terms(text: str, noise: set[str]) -> frozenset[str]:
    return _terms_of(text) - noise


@functools.lru_cache(maxsize=4096)
def _terms_of(text: str) -> frozenset[str]:
    # A batch compares each statement with the same few held memories on its subject.
    return frozenset(terms(text)) - _FRAMING


# A count in words is what a correction says, not what it refers to: "Caseload is at 131 now because
# two attorneys left" says nothing about "Two kids, Theo is 9". Digits stay: "Upgraded to 3.12"
# refers to "Python 3.11" by nothing else.
_NUMBER = re.compile(
    r"^(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty"
    r"|forty|fifty|hundred|thousand|million|first|second|third|half|dozen)$"
)


def corrected_memory(*, org: Organisation, content: str) -> Memory | None:
    """Return the held memory a subject-less correction ("No, it's plot 17 now") refers to.

    It is the working or core memory sharing the correction's rarest terms (by summed IDF), so
    "plot" finds "My allotment is plot 14" while "now" or "use" point at nothing in particular.
    """
    if not reads_as_correction(content):
        return None
    named = [term for term in terms(content) if not _NUMBER.match(term)]
    weight: dict[str, float] = defaultdict(float)
    for holding in holders(org, named, most=MAX_REFERENT_DF).values():
        for memory_id in holding:
            weight[memory_id] += 1 / len(holding)
    if not weight:
        return None
    ranked = sorted(weight, key=lambda memory_id: (-weight[memory_id], memory_id))[:MAX_COMPARED]
    live = Memory.objects.for_org(org).exclude(tier=ARCHIVE).in_bulk(ranked)
    return next((live[memory_id] for memory_id in ranked if memory_id in live), None)


def related_memory(*, compared: list[Memory], content: str, subject: str) -> Relation | None:
    """Return the memory ``content`` restates or contradicts among ``compared``, or None.

    ``compared`` is what the organisation holds on ``subject`` outside the archive, newest first
    (``MAX_COMPARED`` of them at most); an empty list or no subject means a new subject.
    """
    if not subject or not compared:
        return None
    # The subject's own words ("live", "work", "editor") say nothing about agreement.
    noise = set(terms(subject))
    wanted = _value_terms(content, noise)
    if not wanted:
        return None  # nothing but framing words: no way to tell, so store it plainly
    scored = [(len(wanted & _value_terms(m.content, noise)), m) for m in compared]
    shared, best = max(scored, key=lambda item: item[0])
    if shared == len(wanted):
        return Relation(MERGE, best)  # it says nothing the held memory does not
    if (shared or _ADDITION.search(content)) and not reads_as_correction(content):
        return None  # it adds to what is held ("Biscuit is my dog, a beagle"): a memory of its own
    return Relation(CONTRADICT, compared[0])

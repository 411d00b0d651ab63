"""Credentials said in words: a cue ("password", "gate code", "pw") close to a value-like token.

``secrets`` finds keys by their shape alone (``sk-...``, ``AKIA...``). People also hand over
credentials in prose, in any order and with any separator: "user svc_ops, password Kite-Fern-4410",
"Kite-Fern-4410 is my password now", "alarm code 4471", "netflix login: mia@x.com / Pumpkin88".
Here a credential is a cue and a value-like token a few words apart in one sentence. When in doubt
this refuses: a refused fact costs one memory, a kept password costs the user's trust.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import re

from memory_service.extraction.credential_shapes import (
    ASIDE_REACH,
    ASSIGNMENT,
    BASE32,
    CASED_WORD,
    CHAIN,
    CJK_CUE,
    CLAUSE_END,
    CODE_SECRET,
    CORRECTED,
    CUE,
    DERIVED,
    DETERMINERS,
    DICTATED_AFTER,
    DICTATION,
    DIGIT_GROUPS,
    DIGIT_WORDS,
    EDGE,
    FILLERS_AFTER_SEPARATOR,
    GROUPS,
    IDENTIFIER,
    KEY_GROUPS,
    LEADS,
    LOCATION,
    LOGIN_PAIR,
    MISHEARD_DIGITS,
    NAMED,
    NOT_A_CREDENTIAL,
    NOT_VALUE_SHAPES,
    NOT_VALUES,
    NUMBER_CONTEXT,
    NUMBERED_SEED,
    PART_GIVEN,
    PARTS,
    PASSWORD_SHAPE,
    PHRASE_STARTS,
    QUOTED,
    QUOTED_AFTER_CUE,
    READ_OUT,
    REFERENCE,
    REFERENCE_WORDS,
    REMARK,
    SEED,
    SENTENCE_END,
    SEPARATOR_MARKS,
    SEPARATOR_REACH,
    SEPARATORS,
    SHORT_KEY,
    SMALL_WORDS,
    SPELLED_OUT,
    SPELLING,
    SPOKEN_JOIN,
    STRONG_CUE,
    STRONG_REACH,
    SYMBOL_PIECE,
    SYMBOLS,
    TOKEN,
    UNITS,
    VALUE_PATTERNS,
    WHAT_I_USE,
    WINDOW,
)

Span = tuple[int, int]


def value_like(token: str, previous: str = "", following: str = "") -> bool:
    """Tell whether ``token`` reads like a code, key or password rather than a word or a number."""
    if "redacted]" in token:
        return False  # what redaction left behind reads as clean
    assignment = ASSIGNMENT.match(token)
    value = token[assignment.end() :] if assignment else token
    value = value.strip(EDGE)
    if len(value) < 3 or value.lower() in NOT_VALUES or LOCATION.search(value):
        return False
    if NOT_VALUE_SHAPES.match(value) or REFERENCE.match(value):
        return False
    if re.fullmatch(r"[A-Za-z]+(?:\+\+|#)", token.strip(".,;:!?\"'()")):
        return False  # C++, Notepad++, F#: names
    if previous.strip(EDGE).lower() in REFERENCE_WORDS:
        return False
    if value.isdigit():
        prior = previous.strip(EDGE).lower()
        return prior not in NUMBER_CONTEXT and not UNITS.match(following)
    # Inner capitals alone make product names (GitHub, PostgreSQL), not values.
    return any(c.isdigit() for c in value) or any(c in SYMBOLS for c in value) or _random(value)


def _random(value: str) -> bool:
    """Tell whether a long lowercase token lacks the vowels words have ("rjtklmwzqpvhbcsd")."""
    if len(value) < 8 or not value.isalpha():
        return False
    return sum(c in "aeiouy" for c in value.lower()) < 0.2 * len(value)


def password_shaped(token: str) -> bool:
    """Tell whether ``token`` is made like a password (Juniper-Copper-6581, Clover_2017$)."""
    value = token.strip(EDGE)
    return (
        PASSWORD_SHAPE.match(value) is not None
        and IDENTIFIER.match(value) is None
        and value.lower() not in NOT_VALUES
        and not LOCATION.search(value)
        and "://" not in value
    )


def plain_value(token: str) -> bool:
    """Tell whether ``token`` may be a password after a strong cue ("password hunter").

    A plain word ending in "-ed" or "-ing" is the verb of the sentence ("the seed phrase is
    stamped on steel"), not its value.
    """
    value = token.strip(EDGE)
    if value.isalpha() and value.islower() and value.endswith(("ed", "ing")):
        return False
    return bool(value) and value.lower() not in NOT_VALUES and not LOCATION.search(value)


# No passphrase or answer runs longer than this many characters.
_LONGEST_VALUE = 200
_SHORT = frozenset(("no.", "nr.", "dr.", "st.", "mr.", "mrs.", "ms.", "vs.", "acct.", "approx."))


def _sentences(tokens: list[re.Match[str]]) -> list[list[re.Match[str]]]:
    """Group tokens into sentences, so that a cue never reaches into the next one."""
    groups: list[list[re.Match[str]]] = [[]]
    for token in tokens:
        groups[-1].append(token)
        word = token.group()
        # An initial ("J. Amadi") or an abbreviation ("A/c no. 5010...") does not end the sentence.
        if SENTENCE_END.search(word) and len(word.strip(EDGE)) > 1 and word.lower() not in _SHORT:
            groups.append([])
    return [group for group in groups if group]


def _value_span(token: re.Match[str]) -> Span:
    """Return the span of ``token`` without the punctuation around it or a ``name=`` before it."""
    text = token.group()
    assignment = ASSIGNMENT.match(text)
    start = assignment.end() if assignment else len(text) - len(text.lstrip(EDGE))
    end = len(text.rstrip(EDGE.replace("!", "").replace("*", "")))
    if end <= start:
        return token.span()
    return token.start() + start, token.start() + end


# A product named after "a" or "an", whose number follows: "a Master Lock 5400", "an Xbox 360".
_MODEL_NAME = re.compile(r"\ban?\s+(?:[A-Z][\w-]*\s+){1,2}$")


def _cue_spans(sentence: list[re.Match[str]], text: str) -> list[Span]:
    """Return the value spans near each cue in one sentence."""
    words = [t.group() for t in sentence]
    ends = [t.end() for t in sentence]
    spans: list[Span] = []
    joined_start, joined_end = sentence[0].start(), sentence[-1].end()
    # Read once a sentence: a search per cue would cost a sentence of many cues its square.
    lead = LED.search(text, joined_start, joined_end)
    first_lead = lead.start() if lead else None
    judged: dict[tuple[int, str, bool], bool] = {}
    for cue in CUE.finditer(text, joined_start, joined_end):
        # A quoted value after the cue's "is" or colon, whatever the words before the cue.
        quoted = QUOTED_AFTER_CUE.match(text, cue.end(), joined_end)
        if quoted:
            spans.append(quoted.span("value"))
        if NOT_A_CREDENTIAL.search(text, max(0, cue.start() - 16), cue.start()):
            continue
        # Found by bisection, so that a sentence of many cues costs no more than its length.
        at = bisect.bisect_right(ends, cue.start())
        last = bisect.bisect_left(ends, cue.end())
        strong = cue.group("strong") is not None
        reach = STRONG_REACH if strong else WINDOW
        lo, hi = max(0, at - reach), min(len(sentence), last + 1 + reach)
        for i in range(lo, hi):
            if at <= i <= last and not _token_beyond_cue(sentence[i], cue):
                continue
            if _MODEL_NAME.search(text, max(0, sentence[i].start() - 40), sentence[i].start()):
                continue  # "is a Master Lock 5400": the number of a product's model
            # The word before may be the cue's own ("account number 70457988").
            previous = words[i - 1] if i and i != last + 1 else ""
            if i == last + 2 and previous.strip(EDGE).lower() in ("no", "nr", "number", "#"):
                previous = ""  # "A/c no. 5010...": the number the cue announces
            # Cues a few words apart share their windows: each reading is made once.
            key = (i, previous, strong)
            if key not in judged:
                following = text[sentence[i].end() : sentence[i].end() + 16]
                judged[key] = (
                    value_like(words[i], previous, following)
                    or (strong and CHAIN.match(words[i]) is not None)
                    or (strong and _code_number(words[i], previous, following))
                    # Right after a strong cue, a word with digits is its value ("pw hunter22"),
                    # whatever technical name it looks like.
                    or (strong and i == last + 1 and _letters_and_digits(words[i]))
                )
            if judged[key] or (i == last + 1 and _hex_after_cue(words[i])):
                spans.append(_value_span(sentence[i]))
        if strong:
            spelled = cue.group().lower().startswith(("spell", "letter"))
            # "my maiden name, which is the answer everywhere, is X": the aside is skipped.
            skip = _aside(sentence, last, text, cue.end())
            cue_end = sentence[skip].end() if skip > last else cue.end()
            after = sentence[skip + 1 : skip + 2 + SEPARATOR_REACH]
            # "I set the disk encryption phrase to ...": "to" introduces the value.
            led = first_lead is not None and first_lead < cue.start()
            spans += _introduced_value(after, cue_end, text, joined_end, spelled, led=led)
    return spans


def _aside(sentence: list[re.Match[str]], last: int, text: str, cue_end: int) -> int:
    """Return the index of the token that closes an aside set off by commas right after a cue
    (", which I never change,"), or ``last`` when none follows."""
    if text[cue_end : cue_end + 1] != ",":
        return last
    for i in range(last + 1, min(len(sentence), last + 1 + ASIDE_REACH)):
        if sentence[i].group().endswith(","):
            return i
    return last


def _introduced_value(
    after: list[re.Match[str]],
    cue_end: int,
    text: str,
    sentence_end: int,
    spelled: bool,
    *,
    led: bool = False,
) -> list[Span]:
    """Return what a separator introduces after a strong cue, to the end of its clause.

    "the pw is bluebird", "PIN for my card: 1234", "spell the wifi key: two, capital Q": words
    between the cue and its separator must make a phrase (a preposition or a determiner and a
    few words). A noun right after the cue makes a compound ("PIN pad", "password manager") that
    introduces nothing.
    """
    # "PIN: 4471", "(maiden name): Vandersloot": a mark right after the cue introduces its value.
    introduced = re.match(r"[)\]'\"]*[:=]", text[cue_end : cue_end + 3]) is not None
    # "Password's open sesame 77": the "'s" is "is".
    introduced = introduced or re.match(r"['\u2019]s\s", text[cue_end : cue_end + 3]) is not None
    phrase = False
    previous = ""
    for token in after[:SEPARATOR_REACH]:
        raw = token.group().lower()
        word = raw.strip(EDGE)
        if introduced and DICTATION.match(text, token.start()):
            return []  # how the value is written: ``_dictated`` finds the value itself
        if introduced and word in FILLERS_AFTER_SEPARATOR:
            previous = word
            continue
        if introduced:
            if word.endswith(("'s", "\u2019s")) and token.group().lstrip(EDGE)[:1].isupper():
                return []  # "Door codes == Priya's job": whose job it is, not a value
            colon = text[cue_end : cue_end + 1] in (":", "=") or previous.endswith((":", "="))
            if not (plain_value(raw) or (colon and word and word not in DETERMINERS)):
                return []
            if word.isdigit() and UNITS.match(text, token.end()):
                return []  # "my passwords are 20 characters": a length, not a value
            # A spelling runs to the end of the sentence; other values to the end of their clause.
            end = sentence_end
            if not spelled:
                # Bounded, so that a sentence of many cues is not read to its end for each.
                limit = min(sentence_end, token.start() + _LONGEST_VALUE)
                clause_end = CLAUSE_END.search(text, token.start() + 1, limit)
                assert clause_end is not None  # "$" matches at the limit
                end = clause_end.start()
            return [(token.start() + _lead(token.group()), max(end, token.start() + 1))]
        if raw in SEPARATOR_MARKS or raw.endswith((":", "=")):
            introduced = True  # a mark introduces whatever stands between ("Q 'street' → X")
        elif word in SEPARATORS or (word == "to" and (previous in LEADS or led)):
            introduced = True
        elif word in LEADS and not phrase:
            pass  # "password changed to ...": only "to" may follow
        elif (word in PHRASE_STARTS and previous.strip(EDGE) not in LEADS) or raw.startswith("("):
            phrase = True  # "pass (first part): Walrus": an aside in brackets before the mark
        elif not phrase and not SEPARATOR_MARKS & {t.group() for t in after[:SEPARATOR_REACH]}:
            return []
        previous = raw
    return []


def _lead(token: str) -> int:
    """Return how many opening quotes or brackets ``token`` starts with."""
    return len(token) - len(token.lstrip(EDGE))


def _code_number(token: str, previous: str, following: str) -> bool:
    """Tell whether ``token`` is a code near a strong cue ("the alarm code change from 5529").

    Only a year after "in", "since" and the like ("I changed my PIN in 2023") or a count of
    something ("24 characters") is not.
    """
    value = token.strip(EDGE)
    if not re.fullmatch(r"\d{4,8}", value) or UNITS.match(following):
        return False
    prior = previous.strip(EDGE).lower()
    if re.fullmatch(r"(?:19|20)\d\d", value) and prior in _DATING:
        return False  # a year ("since the 2024 upgrade"); "the year we met, 2011" is the code
    # "extension 5520", "room 2417": the number names something else.
    return prior not in NUMBER_CONTEXT or prior in _PREPOSITIONS


# The words that make a year a date rather than a code: "changed my PIN in 2023".
_DATING = frozenset(
    """in since from until till by before after during of the a an around circa early late mid
    expires expiry exp january february march april may june july august september october
    november december jan feb mar apr jun jul aug sep sept oct nov dec spring summer autumn
    fall winter""".split()  # noqa: SIM905
)


# Words of NUMBER_CONTEXT that only place a number; after a strong cue the number is the code.
_PREPOSITIONS = frozenset(
    ["in", "from", "until", "till", "by", "of", "at", "after", "before", "for", "since"]
)


LED = re.compile(r"\b(?:set|changed|change|reset|updated)\b", re.I)


def _hex_after_cue(token: str) -> bool:
    """Tell whether ``token`` is hex key material ("WPA key c8f2a91d7e"), as right after a cue."""
    return re.fullmatch(r"[0-9a-f]{8,64}", token.strip(EDGE), re.I) is not None


def _token_beyond_cue(token: re.Match[str], cue: re.Match[str]) -> bool:
    """Tell whether ``token`` reaches past the cue it holds ("pw:hunter2", "PIN=4821")."""
    return token.end() > cue.end() + 1


def _login_spans(sentence: list[re.Match[str]], text: str) -> list[Span]:
    """Return the secret half of a "name / secret" pair.

    With a login cue in the sentence any word counts ("admin / admin"); without one, only a
    value-like half does ("jsmith / Saffron_1971?"), so "tabs / spaces" stays a choice.
    """
    start, end = sentence[0].start(), sentence[-1].end()
    cued = CUE.search(text, start, end) is not None
    spans = []
    for pair in LOGIN_PAIR.finditer(text, start, end):
        name = pair.group("name").strip(EDGE).lower()
        value = pair.group("value")
        if not name or name in NOT_VALUES:
            continue
        # A row of cells set apart by bars ("Admin accounts | hardware keys only | since 2023")
        # pairs no name with a secret unless the cell looks like one.
        row = text.count("|", start, end) >= 2 and "|" in pair.group()
        if value_like(value) or (cued and pair.group("blank") and plain_value(value) and not row):
            spans.append(pair.span("value"))
    return spans


def credential_spans(text: str) -> list[Span]:
    """Return the spans of credential values that ``text`` gives in words."""
    spans: list[Span] = []
    for sentence in _sentences(list(TOKEN.finditer(text))):
        spans += _cue_spans(sentence, text)
        spans += _login_spans(sentence, text)
        start, end = sentence[0].start(), sentence[-1].end()
        # Read once a sentence: most checks below depend on whether it names a credential.
        cued = CUE.search(text, start, end) is not None
        cjk = CJK_CUE.search(text, start, end) is not None
        for pattern in VALUE_PATTERNS:
            for match in pattern.finditer(text, start, end):
                spans += [
                    match.span(g) for g, v in match.groupdict().items() if v and plain_value(v)
                ]
        # Four or more digits read out are a code with or without a cue ("six, oh, eight, five").
        spans += [
            m.span()
            for m in DIGIT_WORDS.finditer(text, start, end)
            if cued or len(re.findall(r"[a-z]+", m.group(), re.I)) >= 4
        ]
        spans += [m.span() for m in SPELLING.finditer(text, start, end)]
        if STRONG_CUE.search(text, start, end):
            spans += [m.span("value") for m in NAMED.finditer(text, start, end)]
            # Not a cue word quoted: "I often type 'pasword' when I mean password".
            spans += [
                m.span("value")
                for m in QUOTED.finditer(text, start, end)
                if not CUE.fullmatch(m.group("value"))
            ]
        if cued:
            spans += [
                m.span(g) for m in DERIVED.finditer(text, start, end) for g in m.groupdict() if m[g]
            ]
            spans += [m.span() for m in SPELLED_OUT.finditer(text, start, end)]
            spans += [
                m.span("value")
                for m in MISHEARD_DIGITS.finditer(text, start, end)
                if len(_SOUNDS_LIKE_DIGITS.sub("", m.group("value")).split()) >= 2
            ]
            spans += [m.span("value") for m in CORRECTED.finditer(text, start, end)]
            spans += [m.span("value") for m in SYMBOL_PIECE.finditer(text, start, end)]
            spans += [
                m.span("value")
                for m in PART_GIVEN.finditer(text, start, end)
                if plain_value(m.group("value"))
            ]
            spans += [
                m.span("value")
                for m in CASED_WORD.finditer(text, start, end)
                if plain_value(m.group("value"))
            ]
        if cjk:
            # Without blanks the cue and its value share a token ("暗証番号は3918です").
            spans += [_value_span(t) for t in sentence if _has_digits(t.group(), 3)]
        if cued or cjk:
            spans += [m.span() for m in GROUPS.finditer(text, start, end)]
            spans += [
                m.span()
                for m in DIGIT_GROUPS.finditer(text, start, end)
                if _code(m.group()) and not _referenced(text, m.start())
            ]
        spans += [_value_span(t) for t in sentence if password_shaped(t.group())]
        spans += [
            m.span()
            for m in SEED.finditer(text, start, end)
            if not SMALL_WORDS & set(re.split(r"[ ,]+", m.group()))
        ]
        spans += [m.span() for m in KEY_GROUPS.finditer(text, start, end)]
        spans += [m.span() for m in SHORT_KEY.finditer(text, start, end)]
        # Dictated joins are a value with digits in them, or in a sentence naming a credential.
        spans += [
            m.span()
            for m in SPOKEN_JOIN.finditer(text, start, end)
            if cued or _has_digits(m.group(), 1)
        ]
        if cued:
            spans += _dictated(text, start, end) + _after_strong_cue(text, start, end)
    spans += _asked_and_answered(text)
    spans += [m.span("value") for m in WHAT_I_USE.finditer(text)]
    spans += [m.span() for m in READ_OUT.finditer(text)]
    spans += [m.span() for m in NUMBERED_SEED.finditer(text)]
    # Parts are a credential's when the message names one or says how to join them ("no spaces").
    if CUE.search(text) or DICTATION.search(text):
        for match in PARTS.finditer(text):
            spans += [match.span(g) for g, v in match.groupdict().items() if v]
    spans += [m.span() for m in BASE32.finditer(text)]
    spans += [m.span("value") for m in CODE_SECRET.finditer(text)]
    return spans + _table_spans(text) + _answer_spans(text)


# The words a speech-to-text engine writes for digits ("for", "to"): a misheard read-out holds at
# least two real digits besides them.
_SOUNDS_LIKE_DIGITS = re.compile(r"\b(?:for|to|too|won|ate)\b|,", re.I)


def _dictated(text: str, start: int, end: int) -> list[Span]:
    """Return a value dictated with how it is written, after a cue and its separator:
    "the password is all lower case, lemon tree garden, no spaces", "the passphrase ... is the
    owl flies at half past nine, all in small letters". Said of passwords in general ("my
    passwords are all lower case, which is bad"), the description introduces no value.
    """
    # A weak cue serves when the sentence has no strong one: "the Wi-Fi is ..., no spaces".
    cue = STRONG_CUE.search(text, start, end) or CUE.search(text, start, end)
    if not cue:
        return []
    described = DICTATION.search(text, cue.end(), end)
    if not described:
        return []
    separator = DICTATED_AFTER.search(text, cue.end(), described.start() + 1)
    if not separator:
        return []
    if text[separator.end() : described.start()].strip(" ,;:"):
        return [(separator.end(), described.start())]
    if REMARK.match(text, described.end(), end):
        return []
    after = (
        described.end()
        + len(text[described.end() : end])
        - len(text[described.end() : end].lstrip(" ,;:"))
    )
    close = CLAUSE_END.search(text, after + 1, end)
    return [(after, close.start() if close else end)] if after < end else []


# After a strong cue, words ending in a number, with no separator: "password copper kettle 77".
_WORDS_THEN_NUMBER = re.compile(r"\s+(?P<value>(?:[A-Za-z][\w'-]*\s+){1,3}\d{2,})(?![\w.:/-])")
# After "set/reset ... PIN", what it was set to: "Reset the door PIN for badge 4471 to 839201".
_SET_TO = re.compile(r"\bto\s+(?P<value>[^\s,;]*\d[^\s,;]*)")


def _after_strong_cue(text: str, start: int, end: int) -> list[Span]:
    """Return values given after a strong cue without a separator: words ending in a number
    ("password copper kettle 77"), or what a credential was set to ("Reset the door access PIN
    for badge 4471 (J. Ortiz) to 839201")."""
    spans: list[Span] = []
    lead = LED.search(text, start, end)
    set_from = None  # the end of the first strong cue after the lead
    for cue in STRONG_CUE.finditer(text, start, end):
        given = _WORDS_THEN_NUMBER.match(text, cue.end(), end)
        model = given and _MODEL_NAME.search(text, max(0, cue.start() - 8), given.start("value"))
        if given and not model and not UNITS.match(text, given.end()):
            words = given.group("value").split()[:-1]
            if all(plain_value(word) and word.lower() not in PHRASE_STARTS for word in words):
                spans.append(given.span("value"))
        if set_from is None and lead is not None and lead.start() < cue.start():
            set_from = cue.end()
    # One search a sentence, so that a sentence of many cues costs what its length does.
    set_to = set_from is not None and _SET_TO.search(text, set_from, end)
    if set_to and not UNITS.match(text, set_to.end()):
        spans.append(set_to.span("value"))
    return spans


# An answer that gives the value after "it's", a speaker's name before it or not.
_ANSWERED = re.compile(
    r"(?:[\w ]{1,20}:\s*)?(?:it'?s|it is|that'?s)\s+(?P<value>[^,.;!?\n]+)", re.I
)


def _asked_and_answered(text: str) -> list[Span]:
    """Return the value of a short sentence that answers one asking for a credential.

    "what's the code? -> 4471": the question names the credential, the answer holds it.
    """
    spans: list[Span] = []
    groups = _sentences(list(TOKEN.finditer(text)))
    for asked, answer in itertools.pairwise(groups):
        cue = CUE.search(text, asked[0].start(), asked[-1].end())
        if len(answer) > 4:
            # A sentence naming a credential, then its code in the next: "The door code is the
            # year I was born. That's 1953, followed by the star key."
            asked_for = cue is not None and asked[-1].group().endswith("?")
            if cue is not None and (cue.group("strong") or asked_for) and len(answer) <= 12:
                spans += [
                    _value_span(t)
                    for i, t in enumerate(answer)
                    if _code_number(
                        t.group().replace("-", ""), answer[i - 1].group() if i else "", ""
                    )
                    and not UNITS.match(text, t.end())
                ]
            # "what's the password on the account? Customer: it's Marmalade Sky, two words".
            given = asked_for and _ANSWERED.match(text, answer[0].start(), answer[-1].end())
            if given:
                spans.append(given.span("value"))
            continue
        # After a question naming a credential, or a sentence giving one ("PIN for the card is
        # 3092. sorry, typo, 3029.").
        if cue is None or not (asked[-1].group().endswith("?") or cue.group("strong")):
            continue
        spans += [
            _value_span(t) for t in answer if value_like(t.group()) or _has_digits(t.group(), 3)
        ]
    return spans


def _letters_and_digits(token: str) -> bool:
    """Tell whether ``token`` is a word with digits after it ("hunter22", "Maple1987"), as
    passwords are made; a product's name leads with its digits ("1Password")."""
    return re.fullmatch(r"[A-Za-z]{3,}\d{2,}[A-Za-z\d]*", token.strip(EDGE)) is not None


def _has_digits(token: str, least: int) -> bool:
    """Tell whether ``token`` holds at least ``least`` digits."""
    return sum(c.isdigit() for c in token) >= least


def _referenced(text: str, start: int) -> bool:
    """Tell whether the number at ``start`` is announced as a reference ("Order #113-4478210")."""
    before = text[max(0, start - 16) : start].lower().split()
    return text[start - 1 : start] == "#" or bool(
        before and before[-1].strip("#:") in REFERENCE_WORDS
    )


def _code(groups: str) -> bool:
    """Tell whether digit groups read as a code ("339 801", "0-4-7-5") rather than a range."""
    if re.match(r"\d{4}-\d\d-\d\d", groups):
        return False  # an ISO date, perhaps with the hour after it
    digits = sum(c.isdigit() for c in groups)
    parts = len(re.split(r"[ -]", groups))
    return digits >= 6 or (parts >= 3 and digits >= 4)


def _table_spans(text: str) -> list[Span]:
    """Return the cells under a credential column of a pasted CSV ("name,username,password")."""
    spans: list[Span] = []
    columns: list[int] = []
    width = 0
    for line in re.finditer(r"[^\n]+", text):
        cells = list(re.finditer(r"[^,\t]+", line.group()))
        if len(cells) < 2:
            columns = []
            continue
        secret = [i for i, c in enumerate(cells) if _SECRET_COLUMN.search(c.group().strip())]
        if secret:
            columns, width = secret, len(cells)
            continue
        if columns and len(cells) == width:
            spans += [
                (line.start() + cells[i].start(), line.start() + cells[i].end())
                for i in columns
                if cells[i].group().strip().lower() not in NOT_VALUES
            ]
    return spans


# A column whose name says it holds a credential: password, vpn_pin, api-key, otp_secret.
_SECRET_COLUMN = re.compile(
    r"^(?:[\w-]*[_-])?(?:pin|pass|password|passwd|pwd|secret|token|key|api_?key|code|otp|cvv)"
    r"(?:[_-][\w-]*)?$",
    re.I,
)


def _answer_spans(text: str) -> list[Span]:
    """Return the values on the short lines after a line that asks for or announces a credential.

    A pasted chat: "Agent: ... your account PIN?" then "Me: 90417". A list: "GitHub recovery
    codes:" then one code a line, up to a blank line.
    """
    spans: list[Span] = []
    cued = False  # the line before asked for a credential, or a list of them continues
    listing = False
    for line in re.finditer(r"(?m)^.*$", text):
        words = line.group().split()
        if not words:
            cued = listing = False
            continue
        if cued and len(words) <= 4:
            spans += [
                (line.start() + t.start(), line.start() + t.end())
                for t in TOKEN.finditer(line.group())
                if value_like(t.group()) or _has_digits(t.group(), 4)
            ]
            # "Me: 60 19 44": a code read out in groups.
            spans += [
                (line.start() + m.start(), line.start() + m.end())
                for m in DIGIT_GROUPS.finditer(line.group())
                if _has_digits(m.group(), 4)
            ]
        has_cue = CUE.search(line.group()) is not None
        listing = (has_cue and line.group().rstrip().endswith(":")) or (listing and len(words) <= 4)
        cued = has_cue or listing
    return spans


@functools.lru_cache(maxsize=16)
def sentence_spans(text: str) -> tuple[Span, ...]:
    """Return the spans of the sentences that ``credential_spans`` reads one at a time.

    Cached: redaction asks again for every clause of a message that holds a secret.
    """
    return tuple((g[0].start(), g[-1].end()) for g in _sentences(list(TOKEN.finditer(text))))


def value_spans(text: str, start: int, end: int) -> list[Span]:
    """Return the spans of every value-like token between ``start`` and ``end``."""
    tokens = list(TOKEN.finditer(text, start, end))
    return [
        _value_span(token)
        for i, token in enumerate(tokens)
        if value_like(token.group(), tokens[i - 1].group() if i else "")
        # Any number of three digits or more, whatever it looks like ("4.99, I mean 499").
        or _has_digits(token.group(), 3)
    ]

"""Credentials said in words: a cue ("password", "gate code", "pw") close to a value-like token.

``secrets`` finds keys by their shape alone (``sk-...``, ``AKIA...``). People also hand over
credentials in prose, in any order and with any separator: "user svc_ops, password Kite-Fern-4410",
"Kite-Fern-4410 is my password now", "alarm code 4471", "netflix login: mia@x.com / Pumpkin88".
Here a credential is a cue and a value-like token a few words apart in one sentence. When in doubt
this refuses: a refused fact costs one memory, a kept password costs the user's trust.
"""

from __future__ import annotations

import re

Span = tuple[int, int]

# Cues that name a credential outright: after "password" even a plain word is the secret.
_STRONG = (
    r"pass(?:word|wd|wrd|owrd|wort|word's|phrase|code|key)?s?|pasword|paswd|pword|pswd|pwd|pw|p/w"
    r"|pins?(?:\s*(?:code|number|no|#))?|cvv2?|cvc|csc|combo|combination"
    r"|(?:alarm|gate|door|safe|locker|voicemail|garage|entry|access|keypad|lock ?box|key ?box"
    r"|key ?safe|building|lock|padlock|unlock|security|verification|recovery|backup|admin|wifi"
    r"|wi-fi|alarm system|front door|back door|side door|house|apartment|intercom|buzzer)"
    r"\s*codes?"
    r"|(?:seed|recovery|mnemonic|backup|wallet)\s+(?:phrase|words)|mnemonic|seed"
    r"|(?:security|secret|memorable)\s+(?:q|question|answer|word|information)s?|maiden\s+name"
    r"|master|verbal\s+password|spell(?:ed|t|ing)?(?:\s+(?:it|out))?|letter\s+by\s+letter"
    # The word for password in the languages users most often slip into.
    r"|contrase[ñn]a|wachtwoord|senha|has[łl]o|mot\s+de\s+passe|passwort|kennwort|parola"
    r"|l[öo]senord|adgangskode|salasana|heslo|jelsz[óo]|[şs]ifre|kata\s+sandi|пароль"
)
# Scripts written without blanks take the cue wherever it stands.
_CJK_CUE = re.compile(r"パスワード|暗証番号|密码|密碼|비밀번호")
# Cues that are ordinary words too ("the key insight", "a login page"): only a value-like token
# near them makes a credential.
_WEAK = (
    r"(?:api|access|secret|private|signing|licen[cs]e|product|serial|activation|registration"
    r"|recovery|encryption|master|wifi|wi-fi|wpa2?|wpa3|network|app|client|consumer|deploy|bot"
    r"|admin|root|ssh|pgp|gpg|stripe|openai|aws|azure|twilio|sendgrid|mailgun|datadog|slack)"
    r"[\s_-]?keys?"
    r"|api[\s_-]?key|apikey|keys?|tokens?|secrets?|credentials?|creds|login|log-?in|sign-?in"
    r"|user\s?(?:name|id)|usr|user|account(?:\s+(?:number|no|#))?|acct|routing(?:\s+number)?"
    r"|aba|iban|bic|swift|sort\s+code|card(?:\s+number)?|ssn|social\s+security(?:\s+number)?"
    r"|2fa|mfa|otp|totp|psk|pre-?shared(?:\s+key)?|bearer|authori[sz]ation|auth|session"
    r"|cookie|dsn|connection\s+string|ssid|visa|mastercard|amex|expiry|exp"
    # Things that open with a code: "Back door's 1198", "alarm master code is 13579".
    r"|codes?|admin|root|door|gate|safe|alarm|locker|lock ?box|garage|padlock|keypad|router|vpn"
    r"|wifi|wi-fi|network|unlock(?:s|ed)?|badge|locks?"
    r"|voicemail|panel|punch\s+in|key\s+in|type\s+in|enter|dial|combo"
)
CUE = re.compile(rf"(?<![\w/.-])(?:(?P<strong>{_STRONG})|(?P<weak>{_WEAK}))(?![\w/-])", re.I)

_TOKEN = re.compile(r"\S+")
_EDGE = "\"'`()[]{}<>.,;:!?*"
# A cue and its value stand this many tokens apart at most; a strong cue reaches the whole
# sentence ("badge PIN for the new starter in radiology, J. Amadi, is 6620").
_WINDOW = 8
# Words that follow a cue without being its value ("my password is too short").
_NOT_VALUES = frozenset(
    """
    a an the my our your his her their its this that these those it there here below above is was
    are were be been being am following not no still too very so same secure strong weak long short
    safe required needed stored saved kept in on at of for to and or but set changed reset expired
    missing wrong correct incorrect different empty blank private public secret hidden encrypted
    hashed now also just always never managed rotated written somewhere unknown visible shared none
    valid invalid what which where who how when why easy hard simple complicated protected new old
    same with without from by via into as if then than i me we us you they he she them him
    against over under about after before through across behind between during within per like
    manager managers vault app apps page pages screen field box prompt policy policies reset resets
    rotation rules rule change changes every each all any some one two three four five
    lol haha thanks please pls again later soon today tonight 1password keepassxc lastpass
    bitwarden dashlane authy redacted
    """.split()  # noqa: SIM905 - a word list reads better as words
)
_NOT_VALUE_SHAPES = re.compile(
    r"""^(?:
      v?\d+(?:\.\d+)+[a-z]?            # a version: 3.11, v2.0.1
    | \d{1,2}(?::\d\d){1,2}(?:am|pm)?  # a time: 10:30, 9:00pm
    | \d{1,2}(?:am|pm)                 # 9am
    | \d+(?:st|nd|rd|th|s|k|m|gb|mb|tb|kb|ms|px|%)  # 1st, 1990s, 5k, 16gb, 200ms, 50%
    | [$€£¥]\d[\d,.]*                  # money
    | (?:19|20)\d\d                    # a year
    | \d{4}-\d\d-\d\d                  # an ISO date
    | (?-i:[a-z]{1,4}\d{1,5}|[a-z]{5,7}\d{1,2}|[A-Z]{1,3}\d{1,4}|[A-Z][a-z]{1,3}\d{1,4})
                                       # technical names: ed25519, sha256, python3, X86, IPv6
    | (?-i:[A-Z]{0,5}\d{2,5}[A-Z]{1,4})  # model numbers: 100F, SFW123GDC
    | \d{1,3}                          # short numbers (a strong cue still takes them)
    | \d+-[a-z]+(?:-[a-z]+)*            # compounds: 60-day, 24-character
    | \d{1,3}-\d{1,3}                   # ranges: 30-40
    | [A-Za-z0-9]{1,3}                 # too short to unlock anything: 2FA, 20P
    )$""",
    re.I | re.X,
)
# Tracker references name a piece of work: PROJ-4412, JIRA-12.
_REFERENCE = re.compile(r"^(?:[A-Z][A-Z0-9]{1,9}-\d{1,6}|[A-Z]{2,5}\d{5,10})$")
_REFERENCE_WORDS = frozenset(
    [
        "ticket",
        "issue",
        "order",
        "invoice",
        "pr",
        "build",
        "version",
        "release",
        "flight",
        "room",
        "ext",
        "extension",
        "called",
        "named",
        "titled",
    ]
)
# Places, handles and addresses name things; they unlock nothing.
_LOCATION = re.compile(
    r"^(?:https?://|www\.|/|~/|\./|@[\w.-]+$|[\w.+-]+@[\w-]+\.[\w.-]+$)"
    r"|\.(?:com|org|net|io|py|js|md|txt|json)$"
)
# Numbers these words announce are counts, places or references, not codes.
_NUMBER_CONTEXT = frozenset(
    """
    port ports room floor line lines page pages version ver step steps flight route bus suite unit
    apartment apt ext extension ticket issue issues pr order invoice build release chapter since in
    from until till by of at after before every for about around over under than top last first
    year years aged age number no
    """.split()  # noqa: SIM905
)
_UNITS = re.compile(
    r"\s*(?:characters|chars|digits|letters|long|days?|weeks?|months?|years?|hours?|minutes?"
    r"|mins?|seconds?|times|people|users|keys|tokens|attempts|tries|percent)\b",
    re.I,
)
_SYMBOLS = frozenset("!@#$%^&*+=~|?")
# "admin / Sunflower77", "mia@x.com / Pumpkin88": after a login cue, what follows the slash.
_LOGIN_PAIR = re.compile(
    r"(?<![^\s(])(?P<name>[\w.@+-]{2,})(?:(?P<blank>\s+[/|]\s*|\s*[/|]\s+)|[/|])"
    r"(?P<value>[^\s/|]+)(?=\s|$|[.,;!?)])"
)
# Dictated spelling: "capital T, lowercase r, zero, u".
_SPELLING = re.compile(
    r"(?:\b(?:capital|upper ?case|lower ?case|small|the (?:letter|number|digit))\s+\w\b[\s,;-]*"
    r"(?:\w{1,5}\b[\s,;-]*){0,3}){2,}[^.;\n]*",
    re.I,
)
_DIGIT_WORDS = re.compile(
    r"\b(?:(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)\b[\s,-]*){3,}", re.I
)
# "token=abc123", "pw:hunter2": the value is what follows the name.
_ASSIGNMENT = re.compile(r"^[\"'`(]*[A-Za-z_][\w.-]*[\"']?\s*(?:=|:(?!//))\s*[\"'`]?")
_SEPARATORS = frozenset(("is", "was", "are", "it's", "its", "=", "->", "reads", "says"))
_FILLERS_AFTER_SEPARATOR = frozenset(
    ("now", "still", "just", "literally", "actually", "set", "to", "currently", "always", "")
)
_LEADS = frozenset(("changed", "set", "reset", "updated", "switched", "moved"))
_PHRASE_STARTS = frozenset(
    """
    for at on to of in from with about under behind the my our your his her their this that
    """.split()  # noqa: SIM905
)
_DETERMINERS = frozenset(
    ["a", "an", "the", "my", "our", "your", "his", "her", "their", "this", "that", "these", "those"]
)
_SEPARATOR_MARKS = frozenset(("-", "--", "\u2014", "\u2013", "->", "\u2192", "=", ":"))
# A strong cue's separator stands this many words after it at most ("PIN for my card is ...").
_SEPARATOR_REACH = 8
# "its nimbussparrowmuffin for the hulu acct": the value named for an account.
_FOR_ACCOUNT = re.compile(
    rf"\b(?:it'?s|it is)\s+(?P<value>[^\s,.]+)\s+(?:for|on)\s+(?:the|my|our)\s+(?:[\w-]+\s+){{0,2}}"
    rf"(?:{_WEAK}|{_STRONG})(?![\w-])",
    re.I,
)
# "bluebird is my password now": the value before the cue.
_VALUE_FIRST = re.compile(
    rf"(?<!\S)(?P<value>[^\s\"'`]+)\s+(?:is|was|will be|=)\s+(?:now\s+|still\s+)?"
    rf"(?:my|the|our|your|his|her|their)\s+(?:new\s+|current\s+|old\s+)?(?:[\w-]+\s+){{0,2}}"
    rf"(?:{_STRONG})(?![\w-])",
    re.I,
)
# "lotus-vesper-saffron": words chained into a passphrase.
_CHAIN = re.compile(r"^[a-z]+(?:-[a-z]+){2,}[.,;!?]*$")
# A wallet's seed: twelve or more short lowercase words with no small word between them.
_SEED = re.compile(r"(?<![\w-])(?:[a-z]{3,8}[ ,]+){11,23}[a-z]{3,8}(?![\w-])")
_SMALL_WORDS = frozenset(
    [
        "the",
        "and",
        "for",
        "with",
        "you",
        "your",
        "are",
        "was",
        "that",
        "this",
        "from",
        "have",
        "has",
        "not",
        "but",
        "all",
        "can",
        "our",
        "out",
        "its",
    ]
)
# Names in code: getElementById2024Handler, AbstractSingletonProxyFactoryBean2.
_IDENTIFIER = re.compile(r"^(?:[a-z]+(?:[A-Z][a-z]+){2,}|(?:[A-Z][a-z]+){3,})\w*$")
_SENTENCE_END = re.compile(r"[.!?]+[\"')\]]*$")
# A value introduced by a separator runs to the end of its clause ("pass is Gravel hollow delta").
_CLAUSE_END = re.compile(r"[,;]\s|[.!?](?:\s|$)|\s(?:and|but|so|because|which)\s|$")
# Licence keys: four or more hyphenated groups of four or five (a UUID's groups differ in length).
_KEY_GROUPS = re.compile(r"(?<![\w-])[A-Za-z0-9]{4,5}(?:-[A-Za-z0-9]{4,5}){3,}(?![\w-])")
# Keys read out in groups: "ABCD-EFGH-IJKL-MNOP", and app passwords "xqwp lzhl pnfe uhrz" (blank
# separated groups of four, one without a vowel: English words have vowels).
_GROUPS = re.compile(
    r"(?<![\w-])(?:[A-Za-z0-9]{4,5}(?:-[A-Za-z0-9]{4,5}){3,}"
    r"|(?=(?:[a-z]{4} ){0,7}[b-df-hj-np-tv-xz]{4}\b)[a-z]{4}(?: [a-z]{4}){3,})(?![\w-])"
)
# Passwords people make: letters, digits and a capital or a symbol (Juniper-Copper-6581,
# Clover_2017$).
_PASSWORD_SHAPE = re.compile(
    r"^(?=.*[a-z])(?=.*\d)(?=.*(?:[A-Z]|[!@#$%^&*+=?~_]))(?![A-Za-z]+\d+(?:\.\d+)+$)\S{8,}$"
)


def value_like(token: str, previous: str = "", following: str = "") -> bool:
    """Tell whether ``token`` reads like a code, key or password rather than a word or a number."""
    assignment = _ASSIGNMENT.match(token)
    value = token[assignment.end() :] if assignment else token
    value = value.strip(_EDGE)
    if len(value) < 3 or value.lower() in _NOT_VALUES or _LOCATION.search(value):
        return False
    if _NOT_VALUE_SHAPES.match(value) or _REFERENCE.match(value):
        return False
    if previous.strip(_EDGE).lower() in _REFERENCE_WORDS:
        return False
    if value.isdigit():
        prior = previous.strip(_EDGE).lower()
        return prior not in _NUMBER_CONTEXT and not _UNITS.match(following)
    # Inner capitals alone make product names (GitHub, PostgreSQL), not values.
    return any(c.isdigit() for c in value) or any(c in _SYMBOLS for c in value)


def password_shaped(token: str) -> bool:
    """Tell whether ``token`` is made like a password (Juniper-Copper-6581, Clover_2017$)."""
    value = token.strip(_EDGE)
    return (
        _PASSWORD_SHAPE.match(value) is not None
        and _IDENTIFIER.match(value) is None
        and value.lower() not in _NOT_VALUES
        and not _LOCATION.search(value)
        and "://" not in value
    )


def _plain_value(token: str) -> bool:
    """Tell whether ``token`` may be a password after a strong cue ("password hunter")."""
    value = token.strip(_EDGE)
    return bool(value) and value.lower() not in _NOT_VALUES and not _LOCATION.search(value)


def _sentences(tokens: list[re.Match[str]]) -> list[list[re.Match[str]]]:
    """Group tokens into sentences, so that a cue never reaches into the next one."""
    groups: list[list[re.Match[str]]] = [[]]
    for token in tokens:
        groups[-1].append(token)
        word = token.group()
        # An initial ("J. Amadi") or an abbreviation does not end the sentence.
        if _SENTENCE_END.search(word) and len(word.strip(".")) > 1:
            groups.append([])
    return [group for group in groups if group]


def _value_span(token: re.Match[str]) -> Span:
    """Return the span of ``token`` without the punctuation around it or a ``name=`` before it."""
    text = token.group()
    assignment = _ASSIGNMENT.match(text)
    start = assignment.end() if assignment else len(text) - len(text.lstrip(_EDGE))
    end = len(text.rstrip(_EDGE.replace("!", "").replace("*", "")))
    if end <= start:
        return token.span()
    return token.start() + start, token.start() + end


def _cue_spans(sentence: list[re.Match[str]], text: str) -> list[Span]:
    """Return the value spans near each cue in one sentence."""
    words = [t.group() for t in sentence]
    spans: list[Span] = []
    joined_start, joined_end = sentence[0].start(), sentence[-1].end()
    for cue in CUE.finditer(text, joined_start, joined_end):
        at = next(i for i, t in enumerate(sentence) if t.end() > cue.start())
        last = next(i for i, t in enumerate(sentence) if t.end() >= cue.end())
        strong = cue.group("strong") is not None
        reach = len(sentence) if strong else _WINDOW
        lo, hi = max(0, at - reach), min(len(sentence), last + 1 + reach)
        for i in range(lo, hi):
            if at <= i <= last and not _token_beyond_cue(sentence[i], cue):
                continue
            # The word before may be the cue's own ("account number 70457988").
            previous = words[i - 1] if i and i != last + 1 else ""
            following = text[sentence[i].end() : sentence[i].end() + 16]
            if value_like(words[i], previous, following) or (strong and _CHAIN.match(words[i])):
                spans.append(_value_span(sentence[i]))
        if strong:
            spelled = cue.group().lower().startswith(("spell", "letter"))
            spans += _introduced_value(sentence[last + 1 :], cue.end(), text, spelled)
    return spans


def _introduced_value(
    after: list[re.Match[str]], cue_end: int, text: str, spelled: bool = False
) -> list[Span]:
    """Return what a separator introduces after a strong cue, to the end of its clause.

    "the pw is bluebird", "PIN for my card: 1234", "spell the wifi key: two, capital Q": words
    between the cue and its separator must make a phrase (a preposition or a determiner and a
    few words). A noun right after the cue makes a compound ("PIN pad", "password manager") that
    introduces nothing.
    """
    introduced = text[cue_end : cue_end + 1] in (":", "=")
    phrase = False
    previous = ""
    for token in after[:_SEPARATOR_REACH]:
        raw = token.group().lower()
        word = raw.strip(_EDGE)
        if introduced and word in _FILLERS_AFTER_SEPARATOR:
            previous = word
            continue
        if introduced:
            colon = text[cue_end : cue_end + 1] in (":", "=") or previous.endswith((":", "="))
            if not (_plain_value(raw) or (colon and word and word not in _DETERMINERS)):
                return []
            end = _CLAUSE_END.search(text, token.start() + 1).start()
            if spelled:
                end = after[-1].end()  # a spelling runs to the end of the sentence
            return [(token.start() + _lead(token.group()), max(end, token.start() + 1))]
        if raw in _SEPARATOR_MARKS or raw.endswith((":", "=")):
            introduced = True  # a mark introduces whatever stands between ("Q 'street' → X")
        elif word in _SEPARATORS or (word == "to" and previous in _LEADS):
            introduced = True
        elif word in _LEADS and not phrase:
            pass  # "password changed to ...": only "to" may follow
        elif word in _PHRASE_STARTS and previous.strip(_EDGE) not in _LEADS:
            phrase = True
        elif not phrase and not _SEPARATOR_MARKS & {t.group() for t in after[:_SEPARATOR_REACH]}:
            return []
        previous = raw
    return []


def _lead(token: str) -> int:
    """Return how many opening quotes or brackets ``token`` starts with."""
    return len(token) - len(token.lstrip(_EDGE))


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
    for pair in _LOGIN_PAIR.finditer(text, start, end):
        name = pair.group("name").strip(_EDGE).lower()
        value = pair.group("value")
        if not name or name in _NOT_VALUES:
            continue
        if value_like(value) or (cued and pair.group("blank") and _plain_value(value)):
            spans.append(pair.span("value"))
    return spans


def credential_spans(text: str) -> list[Span]:
    """Return the spans of credential values that ``text`` gives in words."""
    spans: list[Span] = []
    for sentence in _sentences(list(_TOKEN.finditer(text))):
        spans += _cue_spans(sentence, text)
        spans += _login_spans(sentence, text)
        spans += [
            m.span("value")
            for pattern in (_VALUE_FIRST, _FOR_ACCOUNT)
            for m in pattern.finditer(text, sentence[0].start(), sentence[-1].end())
            if _plain_value(m.group("value"))
        ]
        start, end = sentence[0].start(), sentence[-1].end()
        if CUE.search(text, start, end):
            spans += [m.span() for m in _DIGIT_WORDS.finditer(text, start, end)]
        spans += [m.span() for m in _SPELLING.finditer(text, start, end)]
        if CUE.search(text, start, end) or _CJK_CUE.search(text, start, end):
            spans += [m.span() for m in _GROUPS.finditer(text, start, end)]
        spans += [
            _value_span(t) for t in sentence if _CJK_CUE.search(t.group()) and value_like(t.group())
        ]
        spans += [_value_span(t) for t in sentence if password_shaped(t.group())]
        spans += [
            m.span()
            for m in _SEED.finditer(text, start, end)
            if not _SMALL_WORDS & set(re.split(r"[ ,]+", m.group()))
        ]
        spans += [m.span() for m in _KEY_GROUPS.finditer(text, start, end)]
    return spans


def sentence_spans(text: str) -> list[Span]:
    """Return the spans of the sentences that ``credential_spans`` reads one at a time."""
    return [
        (group[0].start(), group[-1].end()) for group in _sentences(list(_TOKEN.finditer(text)))
    ]


def value_spans(text: str, start: int, end: int) -> list[Span]:
    """Return the spans of every value-like token between ``start`` and ``end``."""
    tokens = list(_TOKEN.finditer(text, start, end))
    return [
        _value_span(token)
        for i, token in enumerate(tokens)
        if value_like(token.group(), tokens[i - 1].group() if i else "")
        or (token.group().strip(_EDGE).isdigit() and len(token.group().strip(_EDGE)) >= 3)
    ]

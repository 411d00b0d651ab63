"""What a credential looks like in words: the cues that name one, and the shapes of its value.

``credentials`` reads sentences with these. A cue is strong when it names a credential outright
("password", "PIN", "gate code") and weak when it is an ordinary word too ("key", "login", "card").
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass

# Cues that name a credential outright: after "password" even a plain word is the secret.
STRONG = (
    r"pass(?:word|wd|wrd|owrd|wort|word's|phrase|code|key)?s?|pasword|paswd|pword|pswd|pwd|pw|p/w"
    r"|ps+word|passw0rd|passwrod|passowrd"
    # Compounds that end in a cue: "telefoon-toegangscode".
    r"|\w+-(?:toegangscode|pincode|zugangscode|wachtwoord|passwort|kennwort)"
    r"|pins?(?:\s*(?:code|number|no|#))?|pinn|[mtu]pin|puk2?(?:\s*codes?)?|cvv2?|cvc|csc|combo|combination"
    # "the code for the night door", "the number to the key safe"
    r"|(?:codes?|numbers?|combos?)(?:\s+(?:thingy|thing))?\s+(?:for|to|on|of)\s+"
    r"(?:the\s+|my\s+|our\s+|your\s+|[\w'-]+'s\s+)?"
    r"(?:[\w'-]+\s+){0,2}(?:doors?|gates?|alarm|safe|locker|lock|padlock|garage|building"
    r"|entrance|barrier|shed|keypad|lock ?box|key ?safe|key ?box)"
    r"|(?:alarm|gate|door|safe|locker|voicemail|garage|entry|access|keypad|lock ?box|key ?box"
    r"|key ?safe|building|lock|padlock|unlock|security|verification|recovery|backup|admin|wifi"
    r"|wi-fi|alarm system|front door|back door|side door|house|apartment|intercom|buzzer)"
    r"\s*codes?"
    r"|(?:seed|recovery|mnemonic|backup|wallet)\s+(?:phrase|words)|mnemonic|seed"
    r"|code\s+(?:de\s+)?(?:v[ée]rification|s[ée]curit[ée]|acc[èe]s|confirmation)"
    r"|c[óo]digo\s+de\s+(?:verifica[çc][ãa]o|acesso|seguran[çc]a|verificaci[óo]n|acceso)"
    r"|(?:security|secret|memorable|recovery)\s+(?:q|question|answer|word|information|phrase|number"
    r"|no)s?"
    r"|maiden\s+name|(?:12|18|24|twelve|eighteen|twenty-four)\s+words"
    r"|(?:code|safe|secret)\s*words?|(?-i:NIP)"
    r"|(?:encryption|disk|vault|unlock|wallet|master|secret)\s+(?:pass)?phrase"
    r"|lock\s*screen|screen\s*lock|key\s+in|punch\s+in|type\s+in|punch"
    # The same words in the scripts and languages users slip into.
    r"|كلمة\s+(?:السر|المرور)|الرقم\s+السري|पासवर्ड|m[ậa]t\s+kh[ẩa]u|пин(?:-код)?"
    r"|first\s+(?:pet|car|school|teacher|job|boss)|city\s+of\s+birth|childhood\s+(?:best\s+)?friend"
    r"|favou?rite\s+teacher|street\s+(?:i|you|we)\s+grew\s+up\s+on|answers?\s+i\s+(?:set|gave|used)"
    r"|master|verbal\s+password|spell(?:ed|t|ing)?(?:\s+(?:it|out))?|letter\s+by\s+letter"
    # The word for password in the languages users most often slip into.
    r"|contrase[ñn]as?|wachtwoord|senha|has[łl]o|mot\s+de\s+passe|passwort|kennwort|parola"
    r"|digicode|pincode|pin-code|toegangscode|zugangscode|t[üu]rcode|geheimzahl|c[óo]digo\s+de\s+la"
    r"\s+puerta|code\s+(?:de\s+la\s+porte|porte|d'entr[ée]e)"
    # "Four digits: 5813": a code announced by its length.
    r"|(?:three|four|five|six|seven|eight|\d)[- ]digits?(?=\s*:)"
    r"|l[öo]senord|adgangskode|salasana|heslo|jelsz[óo]|[şs]ifre(?:si|m|n)?|kata\s+sandi|пароль"
    # Swahili "nenosiri", "nywila" (password), "msimbo" (code); German compounds ending in a code.
    r"|nenosiri|nywila|msimbo|namba\s+ya\s+siri"
    r"|(?:wiederherstellungs|sicherheits|zugangs|best[äa]tigungs|backup|notfall|zahlen|tresor"
    r"|schloss)codes?"
    # Welsh "cyfrinair" (password) and "côd" (code: not the fish), Hindi "पिन" (PIN).
    r"|cyfrinair|c[ôo]d\s+(?:y|yr|pin|drws|giât|giat|larwm|sied)\b|(?-i:Côd)|पिन"
    r"|(?-i:pim)"
)
# Scripts written without blanks take the cue wherever it stands.
CJK_CUE = re.compile(r"パスワード|暗証番号|番号|密码|密碼|验证码|비밀번호|번호")
# Cues that are ordinary words too ("the key insight", "a login page"): only a value-like token
# near them makes a credential.
WEAK = (
    r"serial(?:\s+(?:number|no|#|code))?"
    r"|(?:api|access|secret|private|signing|licen[cs]e|product|serial|activation|registration"
    r"|recovery|encryption|master|wifi|wi-fi|wpa2?|wpa3|network|app|client|consumer|deploy|bot"
    r"|admin|root|ssh|pgp|gpg|stripe|openai|aws|azure|twilio|sendgrid|mailgun|datadog|slack)"
    r"[\s_-]?keys?"
    r"|api[\s_-]?key|apikey|keys?|tokens?|secrets?|credentials?|creds|login|log-?in|sign-?in"
    r"|user\s?(?:name|id)|usr|user|account(?:\s+(?:number|no|#))?|acct|routing(?:\s+number)?"
    r"|aba|iban|bic|swift|sort\s+code|card(?:\s+number)?|ssn|social\s+security(?:\s+number)?"
    r"|2fa|mfa|otp|totp|psk|pre-?shared(?:\s+key)?|bearer|authori[sz]ation|auth|session"
    r"|pat|sas(?:\s+token)?|jwt|phpsessid|sessionid|session\s+id|bitlocker|filevault"
    r"|voucher|gift\s*card|(?:pattern|swipe)(?:\s+(?:lock|thing|code))?|metamask|wallet"
    r"|licen[cs]e|authenticator|clave"
    r"|(?:webhook|signing|client)\s+secret|deploy\s+key"
    r"|(?:snmp\s+)?community\s+strings?|snmp\s+community"
    r"|cookie|dsn|connection\s+string|ssid|visa|mastercard|amex|expiry|exp"
    # Things that open with a code: "Back door's 1198", "alarm master code is 13579".
    r"|codes?|admin|root|door|gate|safe|alarm|locker|lock ?box|key ?safe|key ?box|garage|padlock"
    r"|keypad|router|vpn"
    r"|wifi|wi-fi|network|unlock(?:s|ed)?|badge|locks?"
    r"|voicemail|panel|punch\s+in|key\s+in|type\s+in|enter|dial|combo"
    r"|c[óo]digo|codice|kod|kodu|kombination|combinaison|combinazione|combinaci[óo]n|tresor"
    r"|a/c|acc|conta|ag[êe]ncia|ifsc|bsb|clabe|transit|iban"
)
CUE = re.compile(rf"(?<![\w/.-])(?:(?P<strong>{STRONG})|(?P<weak>{WEAK}))(?![\w/-])", re.I)
STRONG_CUE = re.compile(rf"(?<![\w/.-])(?:{STRONG})(?![\w/-])", re.I)
# A security answer given as a name: "my first pet was a hamster called Bartholomew Nibbles".
NAMED = re.compile(
    r"\b(?:was|is)\s+an?\s+[\w-]+\s+(?:called|named)\s+(?P<value>[\w'-]+(?: [A-Z][\w'-]*)*)"
)

# "error code 0x80190001", "zip code 90210": these codes identify, they do not unlock.
NOT_A_CREDENTIAL = re.compile(
    r"\b(?:error|status|exit|return|response|http|zip|post|postal|area|country|source|promo|discount"
    r"|vs|visual studio|claude|morse|dress|genetic|machine|pin"
    r"|coupon|tracking|item|model|part|sku|qr|bar|colou?r|dress|morse|diagnostic|obd|fault)\s+$"
    # "a Master Lock 5400": a cue after "a" and a brand names a product.
    r"|\ban?\s+(?-i:[A-Z][\w-]+)\s+$",
    re.I,
)

TOKEN = re.compile(r"\S+")
EDGE = "\"'`()[]{}<>.,;:!?*"
# A cue and its value stand this many tokens apart at most; a strong cue reaches further ("badge
# PIN for the new starter in radiology, J. Amadi, is 6620"), though not without bound, so that a
# sentence of a thousand cues costs what its length does.
WINDOW = 8
STRONG_REACH = 48
# Words that follow a cue without being its value ("my password is too short").
NOT_VALUES = frozenset(
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
    rotation rules rule change changes every each all any some one two three four five six seven
    eight nine ten twelve sixteen twenty only monitored named
    known held taped stuck pinned split posted printed taught told given seen sent found kept
    lol haha thanks please pls again later soon today tonight 1password keepassxc lastpass
    bitwarden dashlane authy redacted up down out off usually generally typically normally mostly
    often sometimes rarely scritta scritto escrita escrito écrit écrite trocada trocado cambiada
    cambiado cambiata cambiato changée changé guardada guardado salvata salvato geändert anotada
    """.split()  # noqa: SIM905 - a word list reads better as words
)
NOT_VALUE_SHAPES = re.compile(
    r"""^(?:
      v?\d+(?:\.\d+)+[a-z]?            # a version: 3.11, v2.0.1
    | (?:ctrl|cmd|alt|shift|win|super|option|opt|fn|meta)\+\S+  # a shortcut: Win+L, Ctrl+Alt+Del
    | \d{1,2}(?::\d\d){1,2}(?:am|pm)?  # a time: 10:30, 9:00pm
    | \d{1,2}(?:am|pm)                 # 9am
    | \d+(?:st|nd|rd|th|s)             # 1st, 1990s
    | \d+(?:\.\d+)?(?:k|m|gb|mb|tb|kb|ms|px|%|ghz|mhz|hz|kg|km|cm|mm|mph|kwh|kw|mah|fps|hp)
                                       # 5k, 16gb, 200ms, 50%, 2.4GHz, 20kg
    | (?-i:[A-Z][A-Za-z]{1,10}\+{1,2})  # a brand with a plus: Disney+, Notepad++
    | [$€£¥₦₹₱₩₽₺₴₪]\d[\d,.]*          # money
    | (?:19|20)\d\d                    # a year
    | \d{4}-\d\d-\d\d                  # an ISO date
    | (?-i:[a-z]{1,4}\d{1,5}|[a-z]{5,7}\d{1,2}|[A-Z]{1,3}\d{1,4}|[A-Z][a-z]{1,3}\d{1,4})
                                       # technical names: ed25519, sha256, python3, X86, IPv6
    | (?-i:[A-Z]{0,5}\d{2,5}[A-Z]{1,4})  # model numbers: 100F, SFW123GDC
    | \d{1,3}                          # short numbers (a strong cue still takes them)
    | \d+-[a-z]+(?:-[a-z]+)*            # compounds: 60-day, 24-character
    | \d{1,3}-\d{1,3}                   # ranges: 30-40
    | \d{1,5}x\d{1,5}                    # dimensions: 32x32, 1920x1080
    | (?-i:[A-Z]?(?:19|20)\d\d[a-z])     # a yearly release: R2023a, 2024b
    | 0x[0-9a-f]+                      # error and status codes: 0x80190001
    | (?-i:(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,12})  # short commit hashes: 9f2c4e1
    | [A-Za-z0-9]{1,3}                 # too short to unlock anything: 2FA, 20P
    )$""",
    re.I | re.X,
)
# Tracker references name a piece of work: PROJ-4412, JIRA-12.
REFERENCE = re.compile(r"^(?:[A-Z][A-Z0-9]{1,9}-\d{1,6}|[A-Z]{2,5}\d{5,10})$")
REFERENCE_WORDS = frozenset(
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
        "helpline",
        "phone",
        "tel",
        "telephone",
        "mobile",
        "fax",
        "extension",
        "called",
        "named",
        "titled",
    ]
)
# Places, handles and addresses name things; they unlock nothing.
LOCATION = re.compile(
    r"^(?:https?://|www\.|/|~/|\./|@[\w.-]+$|[\w.+-]+@[\w-]+\.[\w.-]+$)"
    r"|\.(?:com|org|net|io|py|js|md|txt|json)$"
)
# Numbers these words announce are counts, places or references, not codes.
NUMBER_CONTEXT = frozenset(
    """
    port ports room floor line lines page pages version ver step steps flight route bus suite unit
    apartment apt ext extension ticket issue issues pr order invoice build release chapter since in
    from until till by of at after before every for about around over under than top last first
    year years aged age number no
    """.split()  # noqa: SIM905
)
UNITS = re.compile(
    r"\s*(?:characters|chars|digits|letters|long|days?|weeks?|months?|years?|hours?|minutes?"
    r"|mins?|seconds?|times|people|users|keys|tokens|attempts|tries|percent)\b",
    re.I,
)
SYMBOLS = frozenset("!@#$%^&*+=~|?")
# "admin / Sunflower77", "mia@x.com / Pumpkin88": after a login cue, what follows the slash.
LOGIN_PAIR = re.compile(
    r"(?<![^\s(])(?P<name>[\w.@+-]{2,})(?:(?P<blank>\s+[/|]\s*|\s*[/|]\s+)|[/|])"
    r"(?P<value>[^\s/|]+)(?=\s|$|[.,;!?)])"
)
# Dictated spelling: "capital T, lowercase r, zero, u".
SPELLING = re.compile(
    r"(?:\b(?:capital|upper ?case|lower ?case|small|the (?:letter|number|digit))\s+\w\b[\s,;-]*"
    r"(?:\w{1,5}\b[\s,;-]*){0,3}){2,}[^.;\n]*",
    re.I,
)
# A value spelled one character at a time: "capital T, o, r, c, h, 9, 9, exclamation mark".
SPELLED_OUT = re.compile(
    r"(?<![\w'])(?:(?:capital |upper ?case |lower ?case |small )?[A-Za-z0-9](?![\w'])[\s,]+){3,}"
    r"(?:(?:capital |upper ?case |lower ?case |small )?[A-Za-z0-9](?![\w'])"
    r"|exclamation (?:mark|point)|hash|at sign|dollar sign|underscore|dash|dot)",
    re.I,
)
# Five or more characters read out one at a time are a value with or without a cue: "hash, k, 9,
# m, zed, capital P, 4, 4".
_READ_OUT = (
    r"(?:(?:capital |upper ?case |lower ?case |small )?[A-Za-z0-9]|hash|zed|dash|dot|at|star)"
)
READ_OUT = re.compile(rf"(?<![\w'])(?:{_READ_OUT}(?![\w'])[\s,]+){{4,}}{_READ_OUT}(?![\w'])", re.I)
# A digit written as one among the words counts too: "four 4 seven 1".
_DIGIT_WORD = (
    r"(?:zero|oh|one|two|three|four|five|six|seven|eight|nine|\d"
    # The digits in the languages and dialects users read codes out in: Swahili, Welsh, Scots,
    # Spanish, German, French, Portuguese, Tagalog.
    r"|sifuri|moja|mbili|tatu|nne|tano|sita|saba|nane|tisa"
    r"|un|dau|tri|pedwar|pump|chwech|saith|wyth|naw"
    r"|wan|twa|twae|fower|sax|seeven|aicht"
    r"|cero|uno|dos|tres|cuatro|cinco|seis|siete|ocho|nueve"
    r"|null|eins|zwei|drei|vier|f[üu]nf|sechs|sieben|acht|neun"
    r"|z[ée]ro|deux|trois|quatre|cinq|sept|huit|neuf"
    r"|um|dois|tr[êe]s|quatro|sete|oito|nove"
    r"|isa|dalawa|tatlo|apat|lima|anim|pito|walo|siyam)\b"
)
# Digits read out as words, three or more; the blank after the last one is not part of it.
DIGIT_WORDS = re.compile(rf"\b{_DIGIT_WORD}(?:[\s,-]+{_DIGIT_WORD}){{2,}}", re.I)
# Digits as speech-to-text hears them, four or more with words that sound like digits, given as
# a value: "the garage code is for four to seven" (read only in a sentence that names a credential;
# "the code for one to four guests" gives none).
_HEARD_DIGIT = rf"(?:{_DIGIT_WORD}|(?:for|to|too|won|ate)\b)"
MISHEARD_DIGITS = re.compile(
    rf"(?:\b(?:is|was|are)|:)\s+(?P<value>{_HEARD_DIGIT}(?:[\s,-]+{_HEARD_DIGIT}){{3,}})", re.I
)
# Words joined as dictation says the joins: "Bluebell dash Cottage dash 61", "Hollis underscore
# Home" (a join before a small word is a dash in prose: "an em dash in the title").
SPOKEN_JOIN = re.compile(
    r"(?<![\w'-])[A-Za-z0-9][\w']*(?:\s+(?:dash|hyphen|underscore)\s+"
    r"(?!(?:and|or|the|a|an|in|on|of|to|for|with|is|was|are|it|i)\b)[A-Za-z0-9][\w']*)+",
    re.I,
)
# How a dictated value is written: "all lower case", "no spaces", "all in small letters".
DICTATION = re.compile(
    r"\b(?:all (?:in )?(?:lower ?case|upper ?case|small letters|capitals|capital letters|caps"
    r"|one word)|(?:no|without|with) spaces|in (?:small|capital|lower ?case|upper ?case) letters"
    r"|(?:lower|upper) ?case)\b",
    re.I,
)
# The separator a dictated value follows, and the words that start a remark rather than a value.
DICTATED_AFTER = re.compile(r"\s(?:is|was|are|reads|says)\s|:\s")
REMARK = re.compile(r"[\s,;:]*(?:which|and|but|so|because|though|although|that|i|it|if)\b", re.I)
# A quoted value right after a cue's "is" or colon: "login: 'Sunny.Day;Rainy-Night?'", "the wifi
# is 'Echo Chamber 9 '" (its quotes keep blanks and punctuation).
QUOTED_AFTER_CUE = re.compile(
    r"[^'\"\n\u2018\u201c]{0,40}?(?:\bis|:|=)\s*['\"\u2018\u201c]"
    r"(?P<value>[^'\"\n\u2018\u2019\u201c\u201d]{2,80})['\"\u2019\u201d]"
)
# Anything quoted in a sentence that names a credential outright: "it's 'blue heron at dawn' with
# no capitals, that's the passphrase", "Set the laptop password to 'the kettle is always on'".
QUOTED = re.compile(
    r"(?:^|(?<=[\s(\[:=]))['\"\u2018\u201c](?P<value>[^'\"\n\u2018\u2019\u201c\u201d]{2,80})"
    r"['\"\u2019\u201d](?=[\s.,;:!?)\]\u2014-]|$)"
)
# "token=abc123", "pw:hunter2": the value is what follows the name.
ASSIGNMENT = re.compile(r"^[\"'`(]*[A-Za-z_][\w.-]*[\"']?\s*(?:=|:(?!//))\s*[\"'`]?")
# "colon" is the separator as dictation spells it ("Netflix password colon ...").
SEPARATORS = frozenset(
    (
        *("is", "was", "are", "it's", "its", "=", "->", "reads", "says", "colon", "as"),
        # "is" in the languages users slip into: "le mot de passe du wifi est croissant".
        *("est", "es", "ist", "é", "è", "er", "ni", "adalah", "ialah", "jest", "är"),
    )
)
FILLERS_AFTER_SEPARATOR = frozenset(
    (
        *("now", "still", "just", "literally", "actually", "set", "to", "currently", "always"),
        *("all", "lowercase", "uppercase", "caps", "simply", ""),
    )
)
LEADS = frozenset(("changed", "set", "reset", "updated", "switched", "moved"))
PHRASE_STARTS = frozenset(
    """
    for at on to of in from with about under behind the my our your his her their this that
    i you u we they he she
    du de del da do della des la le el mon ma mein meine
    """.split()  # noqa: SIM905
)
DETERMINERS = frozenset(
    ["a", "an", "the", "my", "our", "your", "his", "her", "their", "this", "that", "these", "those"]
)
SEPARATOR_MARKS = frozenset(("-", "--", "\u2014", "\u2013", "->", "\u2192", "=", ":"))
# A strong cue's separator stands this many words after it at most ("PIN for my card is ...").
SEPARATOR_REACH = 10
# The most words an aside between a strong cue and its separator may take.
ASIDE_REACH = 16
# "its nimbussparrowmuffin for the hulu acct": the value named for an account.
FOR_ACCOUNT = re.compile(
    rf"\b(?:it'?s|it is)\s+(?P<value>[^\s,.]+)\s+(?:for|on)\s+(?:the|my|our)\s+(?:[\w-]+\s+){{0,2}}"
    rf"(?:{WEAK}|{STRONG})(?![\w-])",
    re.I,
)
# "bluebird is my password now": the value before the cue.
VALUE_FIRST = re.compile(
    rf"(?<!\S)(?P<value>[^\s\"'`]+)\s+(?:is|was|will be|=)\s+(?:now\s+|still\s+)?"
    rf"(?:my|the|our|your|his|her|their)\s+(?:new\s+|current\s+|old\s+)?(?:[\w-]+\s+){{0,2}}"
    rf"(?:{STRONG})(?![\w-])"
    # "4471, that's the keysafe at mum's": the value first, then what it opens.
    rf"|^\W*(?P<first>[^\s,]*\d[^\s,]*),\s+(?:that'?s|thats|that is|it'?s)\s+(?:the|my|our|your"
    rf"|[\w'-]+'s)\s+(?:new\s+)?(?:[\w-]+\s+){{0,2}}(?:{STRONG}|{WEAK})(?![\w-])"
    # Codes listed by what they open, named after: "4471 for the front, 9930 for the back, those
    # are the keypads".
    r"|(?<!\S)(?P<listed>\d{3,8}[#*]?) for the [\w-]+(?=[^.!?]*\b(?:those|these|they)(?: are|'re)"
    r" (?:the|my|our) (?:[\w-]+ )?(?:keypads?|codes?|pins?|locks?|alarms?|padlocks?)\b)",
    re.I,
)
_CODE_DIGITS = r"\d(?:[ -]?\d){2,7}[#*]?"
# A number that lets someone in: "3321 gets you through the barrier", "the lock opens at 6082".
OPENS = (
    re.compile(
        r"(?<!\S)(?P<value>\d{3,8}[#*]?)\s+(?:gets|lets|will get|will let)\s+(?:you|us|me|them"
        r"|people|anyone)\s+(?:in|into|through|past|inside)\b",
        re.I,
    ),
    re.compile(
        rf"\b(?:opens|unlocks|releases|disarms)\s+(?:at|with|on|to|for)\s+(?P<value>{_CODE_DIGITS})"
        r"(?![\w:.]\d)",
        re.I,
    ),
    # "boots into Windows with kestrel99", "wakes up with 0606", "the gate opens with C2580".
    re.compile(
        r"\b(?:opens|unlocks|boots(?: up| into \w+)?|wakes(?: up)?|logs? in|signs? in"
        r"|starts(?: up)?)"
        r"\s+(?:with|using)\s+(?P<value>[^\s,.;:!?]*\d[^\s,.;:!?]*)",
        re.I,
    ),
    # "my banking app wants 271903 every time", "Monzo wants 8842 before it shows me".
    re.compile(r"\b(?:wants|asks for|asks me for|needs)\s+(?P<value>\d{4,8})\b(?![.,:]\d)", re.I),
    re.compile(
        r"(?<!\S)(?P<value>\d{3,8}[#*]?)\s+(?:opens|unlocks|disarms)\s+(?:the|it|my|our|both)\b",
        re.I,
    ),
)
# A value put in place of a credential: "Enter Blue Moon Cafe 9 as the password for the laptop".
ENTERED_AS = re.compile(
    r"\b(?:enter|use|type|put in|set)\s+(?P<value>[^,.;]{1,40}?)\s+as\s+(?:the|my|your|our)\s+"
    rf"(?:[\w-]+\s+)?(?:{STRONG})(?![\w-])",
    re.I,
)
# A value before "is what I use": "quietharbor2031 is what i use for everything".
WHAT_I_USE = re.compile(
    r"(?:^|[.!?]\s+)(?P<value>[^\s,]*\d[^\s,]*)[\s,].{0,200}?\bis what (?:i|we) (?:set|use"
    r"|chose|picked|made|type)\b",
    re.I,
)
# A passphrase given after what it unlocks: "the vault unlocks with the phrase purple tractor".
WITH_THE_PHRASE = re.compile(
    r"\b(?:unlocks|opens|decrypts)\s+with\s+the\s+(?:pass)?(?:phrase|words?)\s+(?P<value>[^,.;]+)",
    re.I,
)


@dataclass(frozen=True)
class Gated:
    """``pattern``, tried only where ``gate`` finds what every match of it contains.

    A pattern opening on a long alternation (every strong cue) is tried at every position of a
    sentence; a short literal one is found at once, or not at all in most sentences.
    """

    gate: re.Pattern[str]
    pattern: re.Pattern[str]

    def finditer(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[re.Match]:
        if self.gate.search(text, pos, endpos) is None:
            return iter(())
        return self.pattern.finditer(text, pos, endpos)


_PUT = r"(?:i|we) (?:put|use|used|gave|wrote|chose|entered|typed)"
# What was put in for a security question: "For 'name of your first school' I put Saint Brigid's".
PUT_IN = Gated(
    re.compile(rf"\s{_PUT}\s", re.I),
    re.compile(rf"(?:{STRONG})['\"\u2019]?\s*,?\s+{_PUT}\s+(?P<value>[^,.;]+)", re.I),
)
# A symbol named as the next piece of a value: "Heather then 1949 then an exclamation mark".
SYMBOL_PIECE = re.compile(
    r"\b(?:then|followed by|and) (?:an? )?(?P<value>(?:exclamation|question) mark|(?:at|dollar"
    r"|pound|hash|percent|plus|equals) sign|hash ?tag|asterisk|ampersand|underscore)\b",
    re.I,
)
# A credential given in parts: "The first part is Pewter and the second part is Gull#58".
PARTS = re.compile(
    r"\b(?:(?:first|second|third|last|other|next) (?:part|half|bit|word|two|three|four|digits?"
    r"|letters?|characters?)|the rest)(?: (?:is|are|was|were)[:,]?| ?[:,]|(?= \d))"
    r"(?: no space[:,]?)?\s+"
    r"(?P<value>[^\s,.;]+)"
    r"|\b(?:starts|begins)(?: with)?\s+(?P<start>\d{2,8}|[A-Z][\w!#$%&*+-]*\d[\w!#$%&*+-]*"
    # A word given as the first of several pieces: "starts Heather then 1949 then a !".
    r"|[A-Z][\w'-]+(?=,?\s+(?:then|and then|followed by)\b))"
    # The same in the languages users slip into: "A senha começa com Flamengo."
    r"|\b(?:come[çc]a com|empieza con|commence par|beginnt mit)\s+(?P<begins>[^\s,.;!?]+)",
    re.I,
)
# More ways a code is given without its name: "types 6193", "it's not 4415 it's 4451", "opens on 61
# right, 22 left", "Shed padlock is 724", "type latte-art-42 when it asks", "the bank texted
# 551708".
GIVEN = (
    re.compile(
        r"\b(?:types?|typed|enters?|entered|keys? in|punch(?:es)? in|dials?)\s+"
        r"(?P<value>\d{4,8})\b",
        re.I,
    ),
    re.compile(
        r"\bnot (?P<value>\d{3,8}),? it'?s \d{3,8}\b|\bnot \d{3,8},? it'?s (?P<v2>\d{3,8})\b", re.I
    ),
    # The turns of a dial, the number before or after its direction: "opens on 61 right, 22 left",
    # "opens with left 34, right 12, left 7".
    re.compile(
        r"\b(?:opens? (?:on|with)|combination(?: is)?:?|combo(?: is)?:?)\s+"
        r"(?P<value>(?:\d{1,3} (?:right|left)|(?:right|left) \d{1,3})"
        r"(?:,? (?:then |and )?(?:\d{1,3} (?:right|left)|(?:right|left) \d{1,3}))+)",
        re.I,
    ),
    re.compile(
        r"\b(?:padlock|lock|safe|locker|gate|door|alarm|keypad|key ?safe|lock ?box)"
        r"(?: (?:at|for|to|of|on) (?:the |my |our )?[\w'-]+(?: [\w'-]+){0,2})?(?:'s| is| was"
        r"| code is| combo is)(?: (?:now |still )?set to| now)?\s+"
        r"(?P<value>\d(?:\.\d){3,7}|\d(?:[ -]?\d){2,7}(?-i:[A-Z])?)\b",
        re.I,
    ),
    re.compile(r"\b(?:type|enter|put in)\s+(?P<value>\S*\d\S*)\s+when (?:it|they) asks?\b", re.I),
    re.compile(r"\b(?:texted|sent|emailed|sms'?d)(?: me| us)? (?P<value>\d{4,8})\b", re.I),
    # "PINsentry gave me 38817602": a code a device or an app shows (six digits or more: fewer
    # are a price or a count).
    re.compile(
        r"\b(?:gave|gives|generated|showed|shows|displayed|displays)(?: me| us)?"
        r" (?P<value>\d{6,8})\b",
        re.I,
    ),
    # A sort code beside an account number: "Mira, 41-17-09 and 55120384".
    re.compile(r"(?P<value>\b\d{2}-\d{2}-\d{2}\b(?:\D{1,12}\d{8}\b)?)"),
    # A security answer: "for the first pet question the answer is Mr Whiskerton".
    re.compile(
        r"\b(?:question|maiden|born|pet|memorable|asks?|asked|bank|pregunta|mascota)\b[^.]{0,60}?"
        r"\banswer(?: for [^.]{1,50}?)? is "
        r"(?P<value>[A-Z][\w'-]*(?: [A-Z][\w'-]*)*)"
        r"|\banswer for [^.]{1,50}? is (?P<a2>[A-Z][\w'-]*(?: [A-Z][\w'-]*)*)",
        re.I,
    ),
)
# A code keyed in as a sequence: "punch 77 then 09 then press enter".
KEYED = re.compile(
    r"\b(?:punch|key|type|enter|press|dial)\s+(?:in\s+)?(?P<value>\d{1,8}(?:\s+then\s+\d{1,8})+)",
    re.I,
)
# The answer to a security question after the question it answers: "Apple ID security question,
# favourite childhood book: Swallows and Amazons", "recovery question, city where I was born, I
# put Gdynia".
QUESTION_ANSWERED = re.compile(
    r"\b(?:security|recovery|secret|memorable|bank)\s+(?:q|question)s?\b[^.:!?\n]{0,60}?"
    rf"(?::\s*|,\s+{_PUT}\s+)(?P<value>[^,.;!?\n]+)",
    re.I,
)
# A lock's numbers read out as words: "opens with twenty two, eleven, sixty".
_NUMBER_WORD = (
    r"(?:zero|oh|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen"
    r"|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty"
    r"|ninety|\d{1,3})(?:[ -](?:one|two|three|four|five|six|seven|eight|nine))?"
)
SPOKEN_COMBINATION = re.compile(
    r"\b(?:opens? (?:on|with)|combination(?: is)?:?|combo(?: is)?:?)\s+"
    rf"(?P<value>{_NUMBER_WORD}(?:,? (?:then |and )?{_NUMBER_WORD}){{2,}})\b",
    re.I,
)
# How a phone's unlock pattern is drawn: "her unlock pattern is an L shape starting top left".
UNLOCK_PATTERN = re.compile(
    r"\b(?:unlock|swipe|screen|lock)\s+pattern\b[^.,;]{0,30}?\b(?:is|was|:)\s+"
    r"(?P<value>[^,.;!?\n]+)",
    re.I,
)
# A dial's turns, three or more, with or without a cue: "left to 32, right to 11, left to 54".
DIAL_TURNS = re.compile(
    rf"\b(?P<value>(?:left|right)(?: to)? {_NUMBER_WORD}"
    rf"(?:,? (?:then |and )?(?:left|right)(?: to)? {_NUMBER_WORD}){{2,}})",
    re.I,
)
# A security question's answer in capitals or title case right after it: "FIRST SCHOOL ST
# CUTHBERTS INFANTS", "first pet Biscuit".
QUESTION_THEN_NAME = re.compile(
    r"(?i:\b(?:first\s+(?:pet|car|school|teacher|job|boss)|maiden\s+name|city\s+of\s+birth"
    r"|birth\s*place|favou?rite\s+(?:teacher|book|film|movie|band|food)"
    r"|street\s+(?:you|i|we)\s+grew\s+up\s+(?:on|in)|(?:town|city)\s+(?:you\s+were|i\s+was)\s+born"
    r"(?:\s+in)?|(?:father|mother)'?s\s+middle\s+name))['\"\u2019\u201d]?[:,]?\s+"
    r"(?:(?:and\s+)?(?-i:I)\s+(?:put|used|answered|wrote|chose|gave|typed|entered)\s+)?"
    r"(?P<value>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*)"
)
# Letters of a memorable word asked by position: "the 2nd, 5th and 7th letters are A, L and D".
LETTERS_BY_POSITION = re.compile(
    r"\b\d{1,2}(?:st|nd|rd|th)(?:,? (?:and )?\d{1,2}(?:st|nd|rd|th))* (?:letters?|characters?"
    r"|digits?)(?: (?:of|from) [\w ]{1,30}?)? (?:are|is|=|:)\s+"
    r"(?P<value>[A-Za-z0-9](?:,? (?:and )?[A-Za-z0-9]\b)*)"
    # Without the noun: "I've typed in the 2nd, 4th and 7th: O, E and U".
    r"|\b\d{1,2}(?:st|nd|rd|th)(?:,? (?:and )?\d{1,2}(?:st|nd|rd|th))+\s*:\s*"
    r"(?P<letters>[A-Za-z0-9](?:,? (?:and )?[A-Za-z0-9]\b)+)"
    # The word itself, in capitals, before the letters asked of it: "It's HONEYSUCKLE, so ...".
    r"|\b(?:it'?s|is|was)\s+(?P<word>(?-i:[A-Z]{5,}))\b(?=[^.\n]{0,60}\d{1,2}(?:st|nd|rd|th)\b)",
    re.I,
)
# Seed words given in numbered groups: "words 1-6: crane hobby ...", "25th word: Stardust-Ferret".
SEED_GROUP = re.compile(
    r"\b(?:words? \d{1,2}\s*[-\u2013]\s*\d{1,2}|\d{1,2}(?:st|nd|rd|th) word)\s*:\s*"
    r"(?P<value>[^\n]+)",
    re.I,
)
# A code described before it is given: "opens with our wedding date written as six digits, 170698";
# a code to use at a door: "Just use 7731 at the staff entrance".
DESCRIBED_CODE = re.compile(
    r"\b(?:opens|unlocks) with\s+[^\d.!?]{0,50}?\b(?:digits?|numbers?|code|date|year|birthday)\b"
    rf"[^\d.!?]{{0,20}}?(?P<value>{_CODE_DIGITS})"
    r"|\b(?:use|try)\s+(?P<used>\d{4,8})\s+(?:at|for|on)\s+the\s+(?:[\w-]+\s+)?(?:entrance|door"
    r"|gate|keypad|barrier|lock|locker|safe)\b",
    re.I,
)
# A lock's code given after a colon later in its sentence: "The key cabinet at Harlow Lettings is
# 5 squared, then 5 squared again: 2525", "Tower B lobby access for tenants this month: 5521*".
CODE_AFTER_COLON = re.compile(
    r"\b(?:padlock|lock|safe|locker|gate|door|alarm|keypad|key ?safe|lock ?box|cabinet|access|entry"
    r"|override)\b[^.:\n]{0,80}(?::|\s[\u2013\u2014-])\s*(?:it'?s\s+)?"
    r"(?P<value>\d{3,8}[#*]?|\d(?: \d){3,7}(?![\w.])|\d{3,8}(?-i:[A-Z])"
    r"|(?-i:[A-Z])\d{3,8})(?!\w|\.\d)",
    re.I,
)
# A code of digits and one letter after "code": "bin store code is 3390A", "visitor code: it's
# A7719" (a model number's shape, but a code names it).
LETTERED_CODE = re.compile(
    r"(?<!error )(?<!status )(?<!promo )(?<!discount )(?<!zip )(?<!post )(?<!tracking )"
    r"\b(?:code|passcode|pin)\b(?:\s+(?:is|was)|:)\s+(?:it'?s\s+)?"
    r"(?P<value>\d{3,8}(?-i:[A-Z])|(?-i:[A-Z])\d{3,8}(?-i:[A-Z])?)\b"
    # Without "is" after a lock's code: "Dispensary door code C4829X".
    r"|\b(?:door|gate|alarm|safe|lock|keypad|access|entry|building|dispensary)\s+code\s+"
    r"(?P<bare>\d{3,8}(?-i:[A-Z])|(?-i:[A-Z])\d{3,8}(?-i:[A-Z])?)\b"
    # A door or a lock said to be its code: "Golf club locker room door is C1984X now".
    r"|\b(?:door|gate|keypad|padlock|lock|locker|safe|alarm)\s+(?:is|was)\s+(?:now\s+)?"
    r"(?P<door>\d{3,8}(?-i:[A-Z])|(?-i:[A-Z])\d{3,8}(?-i:[A-Z])?)\b",
    re.I,
)
# A password said to be a sentence, then given: "My master password is a whole sentence: I
# walked Bruno to Loch Ness in 2009!"; a code said to be a year: "PIN is the year Grandad was
# born, 1929".
SENTENCE_GIVEN = re.compile(
    rf"(?:{STRONG})\s+(?:is|was)\s+(?:a|an|the)\s+(?:whole |full |long |short )?(?:sentence"
    r"|phrase|quote|line|lyric)\s*:\s*(?P<value>[^\n]+)"
    rf"|(?:{STRONG})\s+(?:is|was)\s+the\s+year\b[^.\n]{{0,40}}?(?P<year>(?:19|20)\d\d)\b",
    re.I,
)
# The Wi-Fi's key as one plain word after its "is": "The wifi at the lodge is thistle, all small
# letters". How the Wi-Fi is ("slow", "down", "free") is not a key.
WIFI_WORD = re.compile(
    r"\bwi-?fi\b(?: (?:at|in|for|on) (?:the |my |our )?[\w'-]+(?: [\w'-]+){0,2})? is\s+"
    r"(?!(?:slow|down|off|on|fine|great|good|bad|rubbish|patchy|terrible|awful|fast|broken|dead"
    r"|out|back|working|free|unreliable|spotty|flaky|decent|ok|okay|better|worse|shocking|grand"
    r"|included|password|called|named|the|a|an|not|still|now|always|never|so|really|very|pretty"
    r"|quite|super)\b)(?P<value>(?-i:[a-z][a-z0-9]{3,}))(?=\s*(?:[,.;!]|\n|$))",
    re.I,
)
# A lock set to a number, a year included: "the hotel safe is set to 1986"; a lock's number
# followed by the key that confirms it: "Alarm 2020 then the tick button".
LOCK_NUMBER = re.compile(
    r"\b(?:safe|padlock|lock|locker|keypad|alarm|key ?safe|lock ?box|key ?box|combination|combo"
    r"|gate|door)\b[^.:\n]{0,40}?\b(?:set|changed|reset)\s+to\s+(?P<value>\d(?:[ -]?\d){2,7})\b"
    r"|\b(?:alarm|keypad|key ?safe|lock ?box|key ?box|padlock|safe)\s+(?P<keyed>\d{4,8})"
    r"(?=\s*(?:then|followed by|and (?:press|hit|push)|[#*]|enter\b))",
    re.I,
)
# A value read out in the phonetic alphabet: "Hotel Four Xray Kilo Nine Papa".
_PHONETIC = (
    r"(?:alfa|alpha|bravo|charlie|delta|echo|foxtrot|golf|hotel|india|juliett?|kilo|lima|mike"
    r"|november|oscar|papa|quebec|romeo|sierra|tango|uniform|victor|whiske?y|x-?ray|yankee|zulu)"
)
_PHONETIC_OR_DIGIT = rf"(?:{_PHONETIC}|zero|one|two|three|four|five|six|seven|eight|nine|niner|\d)"
PHONETIC_READ_OUT = re.compile(
    rf"(?<![\w'])(?=(?:{_PHONETIC_OR_DIGIT}[\s,-]+)*{_PHONETIC}[\s,-]+"
    rf"(?:{_PHONETIC_OR_DIGIT}[\s,-]+)*{_PHONETIC}\b)"
    rf"(?P<value>(?:{_PHONETIC_OR_DIGIT}[\s,-]+){{3,}}{_PHONETIC_OR_DIGIT})(?![\w'])",
    re.I,
)
# The answer to a hinted or asked question: "the hint I set was 'childhood street' and the answer
# is Wellington Crescent".
ANSWER_GIVEN = re.compile(
    r"\b(?:hint|question|prompt)\b[^.\n]{0,80}?\bthe answer (?:is|was|:)\s*['\"\u2018\u201c]?"
    r"(?P<value>[^,.;!?\n'\"\u2019\u201d]+)",
    re.I,
)
# A value given as things after a colon that says what kind: "the password on the iPad is
# literally three emoji: unicorn, pizza, thumbs up".
KINDS_GIVEN = re.compile(
    rf"(?:{STRONG})\b[^.:\n]{{0,60}}?\b(?:is|was|are)\b[^.:\n]{{0,30}}\b(?:emoji|emojis|words"
    r"|names|animals|colou?rs|things|pictures)\s*:\s*(?P<value>[^.\n]+)",
    re.I,
)
# A value worked out in words, then given: "it's 45 times 2 and then a 7 on the end, so 907",
# "our initials on the keypad, SK-JP, i.e. 75-57"; read in a sentence that names a credential.
DERIVED = re.compile(
    r"(?:\b(?:so|ie|that'?s|thats|which (?:makes|gives)|making)\b,?\s+|\bi\.e\.,?\s*"
    r"|[=\u2014\u2013]\s*)"
    r"(?P<value>\d{3,8}|\d{2,4}(?:-\d{2,4})+|(?-i:[A-Z]{2,}\d*(?:-[A-Z0-9]{2,})*))"
    r"(?=\s*(?:[.,;!?\u2014\u2013-]|$))"
    r"|\b(?:initials|birthday|birth ?year|year|name|date|digits)\b[^.,;\n]{0,30},\s*"
    r"(?P<described>(?-i:[A-Z]{2,}[\w-]*\d[\w-]*|[A-Z]{2,}-[A-Z]{2,}))(?=\s*(?:[.,;!?]|$))",
    re.I,
)
# Every pattern whose named groups are credential values wherever it matches in a sentence.
VALUE_PATTERNS = (
    VALUE_FIRST,
    WIFI_WORD,
    CODE_AFTER_COLON,
    LOCK_NUMBER,
    PHONETIC_READ_OUT,
    ANSWER_GIVEN,
    KINDS_GIVEN,
    LETTERED_CODE,
    Gated(re.compile(r"\b(?:sentence|phrase|quote|line|lyric|year)\b", re.I), SENTENCE_GIVEN),
    DESCRIBED_CODE,
    DIAL_TURNS,
    QUESTION_THEN_NAME,
    LETTERS_BY_POSITION,
    SEED_GROUP,
    QUESTION_ANSWERED,
    SPOKEN_COMBINATION,
    UNLOCK_PATTERN,
    FOR_ACCOUNT,
    ENTERED_AS,
    WITH_THE_PHRASE,
    PUT_IN,
    KEYED,
    *OPENS,
    *GIVEN,
)
# A number corrected after a cue: "the padlock is 4.99 in my notes, I mean 499".
CORRECTED = re.compile(
    r"\b(?:i mean|i meant|no wait|sorry|typo|correction|actually)[,:]?\s+(?:it'?s\s+)?"
    r"(?P<value>\d{3,8})\b",
    re.I,
)
# A hint that gives part of a password away: "same as always but ending 77!".
PART_GIVEN = re.compile(
    r"\b(?:ending|ends|ending in|ends in|ends with|starting with|starts with|begins with)\s+"
    r"(?P<value>[^\s,;]+)",
    re.I,
)
# A word dictated with its case: "it's lower case gullrock then the number 515".
CASED_WORD = re.compile(
    r"\b(?:(?:lower|upper)[ -]?case\s+(?:(?:letters?|word)\s+)?|all\s+caps\s+)"
    r"(?P<value>[^\s,;]+)",
    re.I,
)
# One-time codes and PINs read out in groups: "339 801", "604-372", "0-4-7-5".
DIGIT_GROUPS = re.compile(r"(?<![\w-])\d{1,4}(?:[ -]\d{1,4}){1,7}(?![\w-])")
# Base32 secrets (TOTP seeds): long runs of capitals and the digits 2-7.
BASE32 = re.compile(r"(?<![\w])(?=(?:[A-Z]*[2-7]){2})[A-Z2-7]{16,}(?![\w])")
# Secrets in code: jwtKey = []byte("..."), API_TOKEN := "...", apiKey: '...'.
CODE_SECRET = re.compile(
    # KeyError: 'user' names an exception, not a setting.
    r"(?i:\b(?![\w.-]{0,40}(?:error|exception)\b)[\w.-]{0,40}(?:key|token|secret|passw(?:or)?d"
    r"|pwd|auth|credential)[\w.-]{0,40})[\"']?\s*(?::=|=|:)"
    r"[^\"'\n]{0,20}[\"'](?P<value>[^\"'\n]{4,})[\"']"
)
# "lotus-vesper-saffron": words chained into a passphrase.
CHAIN = re.compile(r"^[a-z]+(?:-[a-z]+){2,}[.,;!?]*$")
# A wallet's seed numbered word by word: "1. walnut 2. frost 3. embark ...".
NUMBERED_SEED = re.compile(r"(?:\b\d{1,2}[.)]\s*[a-z]{3,8}\s+){11,23}\d{1,2}[.)]\s*[a-z]{3,8}\b")
# A wallet's seed: twelve or more short lowercase words with no small word between them.
SEED = re.compile(r"(?<![\w-])(?:[a-z]{3,8}[ ,]+){11,23}[a-z]{3,8}(?![\w-])")
SMALL_WORDS = frozenset(
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
IDENTIFIER = re.compile(r"^(?:[a-z]+(?:[A-Z][a-z]+){2,}|(?:[A-Z][a-z]+){3,})\w*$")
SENTENCE_END = re.compile(r"[.!?]+[\"')\]]*$")
# A value introduced by a separator runs to the end of its clause ("pass is Gravel hollow delta").
CLAUSE_END = re.compile(r"[,;]\s|[.!?](?:\s|$)|\s(?:and|but|so|because|which)\s|$")
# Licence keys: four or more hyphenated groups of four or five (a UUID's groups differ in length).
KEY_GROUPS = re.compile(r"(?<![\w-])[A-Za-z0-9]{4,5}(?:-[A-Za-z0-9]{4,5}){3,}(?![\w-])")
# Game and product keys of three groups of five, each of letters and digits: "4JQ7M-2XPKT-9RW3B".
SHORT_KEY = re.compile(
    r"(?<![\w-])(?:(?=[A-Z]*\d)(?=\d*[A-Z])[A-Z0-9]{5}-){2,}(?=[A-Z]*\d)(?=\d*[A-Z])[A-Z0-9]{5}"
    r"(?![\w-])"
)
# Keys read out in groups: "ABCD-EFGH-IJKL-MNOP", and app passwords "xqwp lzhl pnfe uhrz" (blank
# separated groups of four, one without a vowel: English words have vowels).
GROUPS = re.compile(
    r"(?<![\w-])(?:[A-Za-z0-9]{4,5}(?:-[A-Za-z0-9]{4,5}){3,}"
    r"|(?=(?:[a-z]{4} ){0,7}[b-df-hj-np-tv-xz]{4}\b)[a-z]{4}(?: [a-z]{4}){3,})(?![\w-])"
)
# Passwords people make: letters, digits and a capital or a symbol (Juniper-Copper-6581,
# Clover_2017$).
PASSWORD_SHAPE = re.compile(
    # An underscore alone makes a snake_case name (caching_sha2_password), not a password.
    r"^(?:(?=.*[a-z])(?=.*\d)(?=.*(?:[A-Z]|[!@#$%^&*+=?~]))(?![A-Za-z]+\d+(?:\.\d+)+$)\S{8,}"
    # Capitals, digits and a symbol: KT93LPA#.
    r"|(?=.*[A-Z])(?=.*\d)(?=.*[!@#$%^&*+=?~])[A-Z0-9!@#$%^&*+=?~]{6,}"
    # ... but words joined by underscores and ending in digits are one (pinecone_lodge_6630).
    r"|[a-z]+(?:_[a-z0-9]+)*_\d{2,})$"
)

"""What a message says that is not worth keeping: chatter, requests of the moment, pasted material.

Each check reads one candidate statement (a sentence or clause) and answers from its shape and its
cue words, not from the topics it names, so that it holds for conversations nobody here wrote.
"""

from __future__ import annotations

import re

from memory_service.extraction import other_languages
from memory_service.extraction.credential_shapes import CUE

_I = re.IGNORECASE

# Laughter, exclamations and emoticons: a clause carrying one is a reaction unless it also says
# something about the user ("lol i use arch btw").
REACTION = re.compile(
    r"(?<![\w'])(?:lol+|lmf?ao+|rofl|ha(?:ha)+h?|ha(?: ha)+|he(?:he)+|omg+|omfg|ugh+|smh|yikes|oof"
    r"|welp|ffs|rip|istg"
    r"|jk|xd|ikr|bruh|wtf|gg|pog|fr|ngl|aight|meh|pmsl|pmsfl"
    # Laughter as other languages type it: "kkkkk" (Portuguese), "jajaja", "rsrs".
    r"|k{4,}|ja(?:ja)+|rs(?:rs)+|wah lau|walao|sian|aiyo+|aiya+|alamak|haiz|shiok"
    r"|in stitches|pure buzzing|buzzin|gutted|raging|chuffed|stoked|innit|ngmi|wagmi|lfg)(?![\w'])"
    r"|[:;]-?[)(DPp]\B"
    # "man" as an interjection, not as a noun: "man, what a day", not "the man dem at the bar".
    r"|^\W*man\b|\b(?:oh|ah|aw|ugh|damn|dang|sheesh) man\b|,\s*man\W*$"
    rf"|{other_languages.SMALL_TALK}"
    r"|[\U0001F300-\U0001FAFF\u2600-\u27BF]"
    r"|made me (?:laugh|smile|cry|feel)|cracked me up|can'?t believe|cannot believe"
    r"|laughed at (?:that|this|it)\b",
    _I,
)
# Laughter alone, with its punctuation: "Ha, ", "lol. ", "hahaha! ", "Hah - ".
LAUGHTER_ONLY = re.compile(
    r"\W*(?:(?:ha){1,6}h?|hah|heh|he(?:he){1,5}|lo+l|lmf?ao+|rofl|xd)(?:[\s,.!~\-\u2014]+|$)",
    _I,
)
# Leaving, pausing and taking back: conversation about the conversation.
MANAGEMENT = re.compile(
    r"^\W*(?:(?:ok|okay|k|so|oh|um|uh|eh|no|wait|sorry|sry|right|alright|bueno|please|pls|aye"
    r"|yeah|yes|ach|och)\b"
    r"[\s,.!]*)*"
    r"(?:(?:hang|hold) on|one (?:sec|second|moment|min)|gimme a"
    r"|give me a (?:sec|second|minute|moment)"
    r"|brb|ttyl|g2g|gtg|gotta (?:go|run|dash|bounce)|talk (?:later|soon|tomorrow)|be right back"
    r"|never ?mind|nvm|my bad|i'?ll let you go\b"
    # A question someone else asked, reported: "The accountant asked me whether we still do the
    # VAT returns on paper" (the answer, if any, is what stands).
    r"|(?:[\w'-]+ ){1,4}asked (?:me|us) (?:whether|if|what|how|why|when|where)\b"
    # "scratch that, it's Bazza's crew I'm with" corrects; "scratch that" alone takes back.
    r"|scratch that(?![,;:.]?\s+(?:it'?s|it is|i'?m|i|we'?re|we|the|my|our|make (?:it|that))\b)"
    r"|(?:forget|ignore|disregard) (?:it|that|this|me|my last\b(?: (?:message|bit|one))?"
    r"|what i (?:just )?(?:said|wrote|typed|asked|sent))"
    r"|no wait|naw wait|nah wait|wait\b|where was i|moving on|back to (?:it|work|the grind)\W*$"
    r"|bye+|good ?night|night night"
    r"|see (?:ya|you)|cya|later|take care|nite|morning all|gm\b|gn\b|i (?:am )?agree\b"
    r"|catch (?:you|u|ya) (?:later|soon|tomorrow|around)"
    r"|i (?:must|need to|have to|gotta|got to) (?:go|run|dash|head off|pop off|see to|get going)\b"
    r"|(?:right,? )?i'?d (?:better|best) (?:go|be off|get going|run|dash)\b"
    r"|(?:right,? )?(?:a (?:bit|little) about me|some context|for context|quick intro)\b"
    r"|(?:(?:lovely|nice|great|good|a pleasure) to (?:meet|see|hear from|chat with) (?:you|u))\b"
    r"|i have a question (?:for|to) (?:you|u) later\b|(?:god )?bless (?:you|u)\b"
    r"|(?:sorry|excuse|forgive|pardon) (?:for )?(?:my|the)"
    r" (?:english|grammar|spelling|typos|brevity|slow repl(?:y|ies)|late repl(?:y|ies)|delay)"
    r"|(?:no|nae) (?:issues|problem|problems|worries|rush|bother)\W*$"
    r"|(?:i'?m |i am )?(?:writing|putting|noting|jotting|leaving) (?:this|it|that) (?:down|here)\b"
    r"|i write (?:this |it )?here\b"
    # An announcement with nothing after it: "Quick brain dump before my next call."
    r"|(?:a |some |quick |a quick |a few )?(?:brain ?dump|update|updates|things|notes|news)"
    r"(?: (?:on|about|before|for|from|while)\b[^,;:]{0,40})?[.!]*$"
    r"|you (?:may|might) (?:remember|recall|be amused|have noticed|laugh|like to know)\b"
    # Praise and oaths: "Glory be to God!", "thank the Lord", "praise be".
    r"|(?:glory be|praise (?:be|god|the lord)|thank (?:god|the lord|heavens|goodness))\b"
    r"[^.!?]{0,30}[.!?]*$"
    r"|(?:thanks|thank you|thank u|thank ya|thx|thanx|thnaks|thansk|tysm|ty|cheers"
    rf"|{other_languages.THANKS})(?:\b|(?=\s))"
    r"(?![^.!?]*\b(?:i|i'?m|im|my(?! (?:dear|friend|love|man|guy|g|life|day|week|bacon)\b)|we"
    r"|we'?re|our)\b)"
    r"[^.!?]{0,60}[.!?]*$"
    r"|(?:i am |i'?m )?(?:much|most|very) obliged\b[^.!?]{0,30}[.!?]*$"
    # A fix confirmed: "hell yeah that fixed it".
    r"|(?:\w+\W+){0,3}(?:that|this|it) (?:fixed|solved|sorted|did) (?:it|the trick)\b"
    r"|(?:\w+\W+){0,3}(?:it|that|this) (?:worked|works now)\b"
    # The weather or the traffic of the moment: "eii this rain ooo", "this Abuja traffic".
    r"|(?:\w+\W+){0,2}this (?:[\w-]+ )?(?:rain|heat|cold|weather|traffic|wind|snow|humidity"
    r"|queue)\b)",
    _I,
)
# A verdict on what was just said or done: "that's wonderful", "you're a star", "ur faster than".
_EVALUATIVE = (
    r"wonderful|great|amazing|awesome|cool|nice|lovely|perfect|brilliant|funny|hilarious|crazy"
    r"|wild|insane|true|fair|interesting|helpful|useful|weird|annoying|frustrating|sad|tough|rough"
    r"|fine|ok|okay|good|bad|terrible|awful|beautiful|cute|sweet|genius|gold|fantastic|excellent"
    r"|incredible|unbelievable|ridiculous|classic|typical|life|mad|nuts|bonkers|fun|epic|legendary"
    r"|exactly|right|correct|spot on|a star|a treasure|a legend|a lifesaver|a gem|the best"
    r"|the worst|a shame|a pity|a relief|a mess|a nightmare|faster|better|smarter|so kind"
    r"|very kind|too kind"
    r"|hard|real|clever|adorable|gorgeous|magic|wicked|sick|fire|goated|peak|patient|\w+er than"
    r"|more \w+ than"
    r"|not wrong|(?:precisely|exactly|just) what i (?:needed|wanted|was after|was looking for)"
    r"|confusing|very confusing"
)
VERDICT = re.compile(
    r"^\W*(?:[\w' ]{1,24},\s*)?(?:(?:(?:that|this|it|which|she|he|they|shes|hes)"
    r"(?:'s|s| is| was| are|'re| sounds| looks| seems"
    r"| feels)|(?:you|u)(?:'re| are|r|'ve been| have been)|ur|you (?:rock|rule)|what a)\s+"
    r"(?:so |really |very |pretty |genuinely |honestly |simply |utterly |quite |rather |bloody "
    # "it's Great Northern in the esky": a capital after the word makes it a name.
    r"|super |absolutely |just |such |too |truly |totally |almost |nearly |kinda |kind of "
    rf"|sort of |somewhat )*(?:{_EVALUATIVE})\b"
    r"(?!\s+(?-i:[A-Z][a-z]))|(?:what|whit|wot|wat) a\b)",
    _I,
)
# Sayings and tautologies: "work is work", "it is what it is", "bread is bread".
SAYING = re.compile(
    r"^\W*(?:(?:ach|och|eh|ah|oh|well|weel|meh|sigh|na ja|naja|nah|aye|ugh)\W+)*"
    # Not "the doctor is Doctor Fennelly": there the word begins a name.
    r"(?:(?:the )?(\w+)(?:'s| is| are|'re| r) (?:the |a )?\1\b(?!\s+(?-i:[A-Z]))"
    r"|it(?: is|'s) (?:what|whit|wot|wat) it is"
    r"|(?:such|that'?s) (?:is )?life|c'?est la vie"
    r"|as (?:they|people|my (?:own )?\w+|you) (?:used to |always |would )?says?\b"
    r"|.*\bas (?:my (?:\w+ ){0,2}\w+|they) used to say"
    # Idioms that fill a conversation without telling anything about the user.
    r"|(?:\w+, )?(?:never a dull moment|them'?s the breaks|same old|par for the course"
    r"|you live and learn|you learn something new every day|life'?s too short|such is life"
    r"|time (?:flies|passes (?:so )?(?:quickly|fast))|(?:someone|somebody) (?:has|'s got|got)"
    r" to\b|(?:\w+ ){0,2}(?:the )?(?:highlight|best part) of my (?:day|week|month|year)\b\W*$)"
    r"|as the saying goes|as our (?:elders|parents|grandparents|old people) say"
    r"|.*\bthat(?:'s| is) what (?:my|our) \w+ (?:used to say|says|always says|would say)"
    r"|.*\b(?:as (?:they|the kids|(?:\w+ )?people|we|i|(?:my|mi|me) \w+)"
    r"|like (?:they|the kids|(?:\w+ )?people|(?:my|mi|me) \w+)) (?:always |used to )?"
    r"(?:say|said|seh"
    r"|sey)\W*$|as they say"
    r"|you can'?t (?:win|make this|rush)|(?:\w+ )?saying:|it'?s always (?:the )?\w+\W*$"
    r"|(?:\w+ ){0,2}(?:gonna|gotta) \w+\W*$"
    # "..., ken how it is", "ach weel, cannae complain", "somehow managing", "getting by".
    r"|.*\b(?:(?:you|ye|ya|u) )?(?:know|ken) how it is\W*$"
    r"|(?:\w+ ){0,2}(?:can'?t|cannae|canny) complain"
    r"|.*\b(?:somehow managing|just about managing|getting by|hanging in there)\W*$)",
    _I,
)

# Verbs of one-off tasks. A sentence that opens with one, and is not a standing instruction, asks
# for something now: "Draft the rota for next week", "rewrite that email, less formal".
_TASK_VERBS = (
    "draft|write|rewrite|redo|put|gen|summari[sz]e|translate|make|create|generate|prepare|turn|convert|jot"
    "|compose|outline|list|draw|sketch|fix|debug|refactor|tidy|clean|proofread|check|review|edit"
    "|reformat|shorten|expand|compare|find|look|book|schedule|plan|suggest|recommend|brainstorm"
    "|come up|give|send|mark|pick|help|walk|set up|build|add|update|calculate|work out|estimate"
    "|describe|show|read|run|print|copy|paste|sort|count|grab|pull|order|cancel|delete|remove"
    "|rename|split|merge|format|polish|improve|simplify|annotate|tag|label|highlight|reply|respond"
    "|answer|explain|draw up|put together|throw together|whip up|knock up|type up|write up"
    "|chart|plot|graph|visuali[sz]e|chuck together|gie|gimme|scale|rephrase|reword|do the needful"
    "|bump|rerun|re-run|retry|restart|roll back|swap out|reformulate|fill in|fill out|pull out"
    "|double[- ]check|revisa|rev[íi]same|checa|chequea|corrige|arregla"
    # As texting and dyslexic spelling write them: "giv me 5 names", "rite me a blurb".
    "|giv|rite(?= (?:me|us|it|a|an|this|that)\\b)|mak|maek|mke|sumarise|sumarize|revert|provide"
    "|redraft|re-draft|dae(?= (?:ma|my|me|us|it|this|that|a|an|the)\\b)"
    # Spanish imperatives: "escribe un text para mi jefa", "hazme una lista", "pásame la receta".
    "|escribe|escr[íi]beme|hazme|haz|p[áa]same|dame|m[áa]ndame|traduce|trad[úu]ceme|resume|redacta"
    "|ay[úu]dame|ap[úu]ntalo|gu[áa]rdalo|tighten|trim|condense|soften|punch up"
    f"|{other_languages.REQUEST}"
    # "right it for me as a letter": "write" as dictation hears it.
    "|right(?= (?:it|me|us|up|this|that|a|an)\\b)"
)
# "Need a 3-line summary of the attached abstract pls": something to be made now.
NEEDED_NOW = re.compile(
    r"^\W*(?:i )?need (?:a|an|the|some|\d+) (?:[\w-]+ ){0,3}(?:summary|draft|list|plan|email|letter"
    r"|version|rewrite|outline|template|message|reply|response|script|table|chart|names|ideas)\b",
    _I,
)
REQUEST = re.compile(
    r"^\W*(?:(?:ok|okay|so|now|also|and|then|right|alright|quick(?:ly)?|just|pls|plz|please|kindly"
    r"|can you|could you|would you|will you|can u|could u|i need you to|i want you to"
    r"|gonnae|can ye|could ye|wid ye|abeg|can help me|help me"
    r"|i'?d like you to|i would like you to|go ahead and|let'?s|maybe|ever|possibly"
    r"|(?:would|could|will) you be so (?:good|kind) as to)\b[\s,]*)*"
    # "Write in British English", "answer briefly": a manner is a standing instruction.
    # "Schedule changed: four tens now": the verb's noun, with its own verb after it.
    rf"(?:{_TASK_VERBS})\b(?! (?:is|are|was|were|has|have|in|with|like|using|as|only|briefly"
    r"|changed|moved|shifted|slipped|updated|got"
    r"|concisely|formally|casually|short|shorter|everything|all)\b)",
    _I,
)
# Requests whose object is only the thing at hand: "jot that down", "save this somewhere".
# A request after a comma: "Here's one from a fund, draft something polite", "heres the crash,
# fix it".
REQUEST_AFTER_COMMA = re.compile(
    r"(?:,\s*|\s+and\s+)(?:pls |please |can you |could you )?"
    r"(?:draft|write|rewrite|fix|summari[sz]e"
    r"|make|turn|translate|check|double[- ]check|review|edit|reply|answer|proofread|tidy|format"
    r"|sort)\s+"
    r"(?:it|this|that|something|me|a|an|the|these|those)\b",
    _I,
)
REQUEST_AT_END = re.compile(other_languages.REQUEST_AT_END, _I)
# What holds for the message at hand only: "for this one pandas is fine", "just this once".
THIS_ONE_ONLY = re.compile(
    r"^\W*(?:(?:ok|okay|so|and|but)\W+)?(?:for this one|just this (?:once|time)|(?:just )?for this"
    r" (?:answer|reply|question|email|message|task|chat))\b",
    _I,
)
# A sentence wholly in quotes is quoted material ("'Thank you for choosing us ...'").
QUOTED = re.compile(r"^\s*[\"'\u201c\u2018].{8,}[\"'\u201d\u2019]\W*$")
# "Need you to remember that for me": keeping the message at hand, not a fact.
REMEMBER_THIS = re.compile(
    r"^\W*(?:\w+ )?(?:(?:i )?need you to |can you |could you |pls |please )?(?:remember|save|keep"
    r"|store) (?:that|this|it)(?: safe)?(?: for me)?(?: pls| please)?\W*$",
    _I,
)
REQUEST_ABOUT_THIS = re.compile(
    r"^\W*(?:pls |please )?(?:jot|note|save|keep|put|write|stick|file|log|copy)\b"
    r"(?: (?:that|this|it|these|those|them)\b)",
    _I,
)

# Lines of pasted material: code, logs, stack traces, configuration, command output, quotes.
_PASTED_LINE = re.compile(
    r"""^\s*(?:
      [\w.\-"']+\s*[:=]\s*\S*\s*$                   # key: value, KEY=value, "key": value
    | .*[{};]\s*$                                   # code ending in a brace or semicolon
    | [}\])]                                        # closing brackets
    | (?:\$|>>>|>|\#|//|--|\#!)\s                   # prompts, quotes and comments
    | at\ [\w$.]+\(                                 # stack frames
    | \[\d{1,2}:\d\d(?::\d\d)?\]\s*\S+:                # a chat log: "[20:14] kira: ..."
    | File\ ".*",\ line\ \d+                       # Python tracebacks
    | Traceback\b|(?:\w+\ )?(?:\w+\.)*\w*(?:Error|Exception)\b:?  # error lines
    | (?i:panic|fatal|error|exception|warning|segfault|err)\b\s*[:\[(].*  # "panic: runtime error"
    | \[.*\]\s*$                                     # "[signal SIGSEGV: segmentation violation]"
    | (?i:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?\s+\d.*  # a row per day: "Mon 8 orders £74.20"
    | [\w.\-"'\ ]{1,24}:\s.*                       # "CPU: AMD Ryzen 7" (in a run of lines)
    | .*\S\ {3,}\S.*                                # columns aligned with runs of blanks
    | \[?(?:ERROR|WARN(?:ING)?|INFO|DEBUG|FATAL|TRACE|CRITICAL)\]?\b
    | \[?\d{4}-\d\d-\d\d[T\s]\d                     # timestamps
    | \d{1,2}:\d\d(?::\d\d)?\s                      # times at the start of a log line
    | \d+(?:\.\d+)?\s?(?:g|kg|ml|l|oz|lb|lbs|cups?|tbsp|tsp)\b  # recipe quantities
    | [-*•]\s+\S.*                                  # bullets inside a pasted block
    | \d+[.)]\s*$                                   # a numbering on its own
    | (?:def|class|import|from|return|SELECT|INSERT|UPDATE|CREATE|FROM|WHERE|kubectl|docker|git|npm
         |pip|curl|sudo|cd|ls)\b.*
    | (?i:select|insert\ into|delete\ from|create\ (?:table|index|view)|where|group\ by|order\ by
         |(?:left\ |inner\ |outer\ )?join|having|union)\s+\S.*  # SQL in any case
    | (?i:from)\s+[\w.]+(?:\s+\w+)?\s*$             # "from orders o"
    | .*=>.*                                        # arrow functions
    | [a-z]\s*=\s*\S.*                              # working: "x = -2 or x = 5"
    | [^,\s][^,]*(?:,[^,\s][^,]*){2,}                # a CSV row: "Client,Contact,Year End"
    | [\w.]+\(.*\)\W*$                              # a call: "setItems(data.filter(...))"
    | [^|\n]*\|[^|\n]*\|.*                          # rows with columns split by bars
    | (?=(?:.*\b[A-Z]{2,}\b){3})(?=.*\d).*          # device output: "ERR 032 ISO FAULT 0.8MOhm"
    | (?=(?:.*\b[A-Z]{2,}\b){2})(?=.*\d\.\d).*       # readings: "GRID V 247.3 FREQ 50.01"
    )""",
    re.VERBOSE,
)
_CODE_FENCE = re.compile(r"```.*?(?:```|\Z)", re.DOTALL)
# "here's the dbt profile section:", "the opening is below": an introduction to a paste.
_INTRODUCTION = re.compile(r":\s*$|\b(?:below|as follows|the following)\W*(?:$|[;,.]\s)", _I)


_AT_HAND = re.compile(r"\b(?:this|these|them|those|below|the following)\b", _I)
_POINTS_AT_PASTE = re.compile(r"^(?:\S+\s+){0,10}(?:this|these|here|below)\b[^.!?]{0,40}$", _I)
# A first line asking for something to be done to the lines under it, or showing them: "check this
# output for me", "tidy these obs into one line", "this is what the boiler display says".
_INTRODUCES_LINES = re.compile(
    r"^\W*(?:(?:pls|please|can you|could you|can u|cud u)\s+)?(?:(?:check|tidy|reword|rewrite|fix"
    r"|format|summari[sz]e|translate|proofread|read|look at|make sense of|clean up|convert|turn"
    r"|shorten|improve|sort|see|tot|add|total|sum|count)\b[^.!?\n]{0,60}\b(?:this|these|it|that"
    r"|them)\b"
    r"|[^.!?\n]{0,60}\b(?:getting|throwing|throws|showing|shows|printing|prints|spitting out|sent"
    r" me|says)\s+(?:me\s+)?this\b"
    r"|(?:this is|here'?s|here is|these are)\b[^!?\n]{0,60}$)",
    _I,
)


def _blank_between(text: str, lines: list[tuple[int, int, str]], index: int) -> bool:
    """Tell whether a blank line separates line ``index`` from the next one."""
    return "\n\n" in text[lines[index][1] : lines[index + 1][0] + 1]


# One line of SQL or an exception is a paste on its own: "select * from events where n > 10",
# "NullReferenceException: Object reference not set to an instance of an object".
_ALONE = re.compile(
    r"^\s*(?:[\w.]+(?:Error|Exception)|Traceback|panic|FATAL|ERROR)\b:?\s|^\s*(?:"
    # A forwarded letter or text: "Dear Daniel, your appointment has been moved".
    r"(?i:dear) [A-Z][\w'-]+,\s+(?i:your|this is|we|thank you)\b|"
    r"(?i:select\s.+\sfrom\s+\S|insert\s+into\s+[\w.]+\s*[(v]|update\s+[\w.]+\s+set\s"
    r"|delete\s+from\s+[\w.]+\s))"
    # An R assignment: "fit <- lmer(y ~ treatment + (1|subject), data = df)".
    r"|^\s*[\w.]+\s*<-\s*[\w.]+\(",
)


# A bullet of words, as people list facts about themselves: "- Eng lead: Marcus.", "- I'm the PM".
# Numbered lines are more often pasted (citations, steps, output), so only marks count.
_BULLET_LINE = re.compile(r"^\s*[-*•]\s+\S")
_PROSE_BULLET = re.compile(r"^\s*[-*•]\s+[A-Za-z\"'(][^{}=<>$`|\\]*[^;{]\s*$")


def _prose_list(lines: list[tuple[int, int, str]]) -> bool:
    """Tell whether ``lines`` are a bulleted list of prose rather than pasted material.

    Every line is a bullet and at least two in three are words ("- 6 engineers on the squad" may
    sit among them); a list of quantities ("- 500 g flour") is not.
    """
    if not lines or not all(_BULLET_LINE.match(line) for _, _, line in lines):
        return False
    prose = sum(1 for _, _, line in lines if _PROSE_BULLET.match(line))
    return 3 * prose >= 2 * len(lines)


def pasted_spans(text: str) -> list[tuple[int, int]]:
    """Return the spans of ``text`` that are pasted material, introductions to them included.

    A pasted block is a fenced block, or the lines that follow a line ending in ":" up to a blank
    line, or a run of two or more lines that each look like code, logs or configuration.
    """
    spans = [m.span() for m in _CODE_FENCE.finditer(text)]
    lines = [(m.start(), m.end(), m.group()) for m in re.finditer(r"[^\n]*", text) if m.group()]
    index = 0
    while index < len(lines):
        start, _, line = lines[index]
        # "can u tighten up these figma notes": a task asked for the lines under it, which are
        # its material even when they read as a list of prose.
        # So is a request line without its full stop ("can u check my grammar") above others.
        unfinished = not line.rstrip().endswith((".", "!", "?"))
        asks = index == 0 and bool(REQUEST.match(line) and (unfinished or _AT_HAND.search(line)))
        introduces = asks or (index == 0 and _INTRODUCES_LINES.search(line) is not None)
        if (introduces or _INTRODUCTION.search(line)) and index + 1 < len(lines):
            block_end = index + 1
            # After "below" the paste runs to the end; after a colon, or a first line that
            # points at what follows, to the next blank line.
            below = not (introduces or line.rstrip().endswith(":"))
            while block_end + 1 < len(lines) and (
                below or not _blank_between(text, lines, block_end)
            ):
                block_end += 1
            if not asks and _prose_list(lines[index + 1 : block_end + 1]):
                index += 1  # "Context for future chats:" then a list of facts: read each
                continue
            spans.append((start, lines[block_end][1]))
            index = block_end + 1
            continue
        run = index
        while run < len(lines) and _PASTED_LINE.match(lines[run][2]):
            run += 1
        if _prose_list(lines[index:run]):
            index = run
            continue
        if run - index >= 2 or _ALONE.match(line):
            run = max(run, index + 1)
            first = start
            # "getting this when i ping the server" introduces the run that follows it.
            if index and _POINTS_AT_PASTE.search(lines[index - 1][2]):
                first = lines[index - 1][0]
            spans.append((first, lines[run - 1][1]))
            index = run
            continue
        index += 1
    return spans


# A statement's own verb after its subject: "she only plays stardew", "i'm at Leeds doing psych".
STATES = re.compile(
    r"^\W*(?:(?:like i said|also|so|ok)\W+)?(?:i|i'?m|im|we|we'?re|she|he|they|my \w+|our \w+)"
    r"\s+(?:\w+\s+)?(?:am|is|are|at|play|plays|work|works|live|lives|use|uses|study|studies|do|does"
    r"|have|has|keep|keeps|go|goes|prefer|prefers|love|loves|hate|hates|stream|collect|run|runs)\b"
    r"|^\W*(?:sold|dropped|switched|moved|quit|bought|started|stopped)\b",
    _I,
)

# Something the user holds true of themselves or their world, which a reaction may carry.
DURABLE_ANCHOR = re.compile(
    r"\b(?:i|we)(?:'m|m| am|'re| are)? (?:\w+ )?(?:use|prefer|like|love|hate|have|work|live|own|run"
    r"|teach|study|drive|eat|drink|play|speak|keep|write|always|never|usually|draw|paint|sing|cook"
    r"|bake|knit|sew|code|design|build|sell|stream|train|coach)\b"
    r"|\b(?:i'?m|i am|we'?re|we are) (?:a|an|the)\b"
    r"|\b(?:my|our) [\w'-]+(?: [\w'-]+)? (?:is|are|r)\b"
    # What has held for years: "I'm vegan since 2016 🌱", "been a night owl for ten years lol".
    r"|\bsince (?:19|20)\d\d\b|\bfor (?:\d+|a few|many|several|a couple of|two|three|four|five"
    r"|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty) years\b",
    _I,
)

# A greeting or thanks run into the statement without punctuation, as voice-to-text writes it:
# "morning mate i usually start at 7", "cheers for that my accountant is ...".
BARE_OPENER = re.compile(
    r"^\W*(?:hey there|hey|hi|hello|hiya|morning|good morning|evening|cheers for that|thanks"
    r"|thank you|thx)(?:\s+(?:mate|man|dude|all|guys|there|again|so much))?\s+(?:so\s+)?"
    r"(?=(?:i|i'm|im|my|we|we're|our)\b)",
    _I,
)
# An apology before the statement: "Sorry to repeat myself, but step by step works best for me."
APOLOGY = re.compile(
    r"^\W*(?:sorry|apologies|forgive me)(?: (?:to|if|for) [^,]{1,40})?,\s*(?:but\s+)?(?=\S)"
    # "don't laugh but I'm back on Canon": a plea before the statement.
    r"|^\W*(?:don'?t|do not|dont) (?:laugh|judge(?: me)?)\W*(?:but\s+)?(?=\S)",
    _I,
)
# A short frame before a colon: "Some context for future chats:", "Quick one before standup:",
# "Again:", "Reminder:". It has no verb of its own and no value (a value would be "pw: x").
LEAD_IN = re.compile(
    r"^(?![^:]*\b(?:lessons?|learn(?:ed|t)?|rule|tip|takeaway|til|note to self|i|i'?m|we|my|our)\b)"
    r"(?!.*\d)"
    # One or two words before a colon name a topic ("Answers: bullets only"), so they stay.
    r"(?:(?:[A-Za-z'-]+ ){2,5}[A-Za-z'-]+|again|reminder|note|update|ps|fyi|also):\s+(?=\S)"
    r"(?!.*\b(?:is|are|was|am)\b[^:]*:)",
    _I,
)
_FIRST_WORDS_THAT_STATE = frozenset(
    [
        "hate",
        "hates",
        "love",
        "loves",
        "like",
        "likes",
        "prefer",
        "prefers",
        "use",
        "uses",
        "no",
        "never",
        "always",
        "only",
        "not",
        # "I'm sixty.", "I'm vegan.": a subject and its verb state.
        "i'm",
        "i\u2019m",
        "im",
        "we're",
    ]
)


_FIRST_PERSON_BE = frozenset(["i'm", "i\u2019m", "im", "we're"])
_HERE_OR_GONE = frozenset("back here done off in out ready up home awake alive".split())  # noqa: SIM905


def is_exclamation(content: str) -> bool:
    """Tell whether ``content`` is one or two words of exclamation ("Moin!", "Yes chef.").

    Terse statements of the same length keep a verb, a number or a name ("Hate foams.", "pg15.",
    "no orm.", "Notion.").
    """
    words = content.strip(" .!~").replace(",", " ").split()
    if not words or len(words) > 2 or any(c.isdigit() for c in content):
        return False
    if content.rstrip().endswith("!"):
        return True
    first = words[0].lower()
    if first in _FIRST_PERSON_BE and words[-1].lower() in _HERE_OR_GONE:
        return True  # "I'm back.", "im off"
    named = any(w[:1].isupper() for w in words[1:])
    return first not in _FIRST_WORDS_THAT_STATE and not named


# What ties a statement to the user's world: a first or third person, an instruction, a habit.
_ANCHOR = re.compile(
    r"\b(?:i|i'm|im|i've|ive|i'd|i'll|me|my|mine|myself|we|we're|were|our|ours|us|she|he|they"
    r"|her|his|their|him|them|should|must|always|never|every|each|usually|pls|please|plz|no longer"
    r"|anymore|not|now|fav|favou?rite|main|at (?:work|home|school|the office)|in (?:the )?future"
    r"|from now on|going forward|whenever|by default"
    # "I" and "my" in Indonesian, Malay and Swahili: "Saya selalu memakai ...", "akaunti zangu".
    r"|saya|aku|kami|kita|mimi|yangu|wangu|zangu|langu|changu|vyangu)\b|^\W*(?:actually"
    r"|no|nope|don'?t|do not|hate|love|like|prefer|use|avoid|keep"
    r"|call|switched|moved|started|stopped|quit|bought|sold|hired|signed|pivoted|ditched|binned"
    r"|swapped|dropped|joined)\b",
    _I,
)
# Something concrete: a number, a name, a day or month, a domain or a dotted name.
_CONCRETE = re.compile(
    r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty"
    r"|fifty|sixty|hundred|dozen|half)\b"
    r"|\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)days?|mon|tues?|wed|thu(?:rs)?|fri|sat|sun)\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug"
    r"|sep|sept|oct|nov|dec)[a-z]*\b|\w\.\w"
    r"|(?-i:^(?!(?:That|It|What|There|Here|Who|He|She|Let|This|Where|How)'s)[A-Z][a-z]+'s\b)"
    r"|(?<=\S )(?-i:[A-Z][\w-]*[A-Za-z])"
    # A name opening the sentence, known by the verb after it ("Ella has been vegetarian").
    r"|^(?-i:[A-Z][a-z]+) (?:is|has|was|does|lives|works|loves|hates|likes|goes|runs|plays|opens"
    r"|handles|takes|studies|teaches|helps|gets|makes|drives|uses|prefers|started|moved|left|joined"
    r"|turned|eats|drinks|needs|wants|comes|knows)\b",
    _I,
)


# A change of the user's world is about it: "Blackleg shots moved to fall".
_CHANGED = re.compile(r"\b(?:moved|changed|switched|migrated|transferr?(?:ed)?)\b", _I)

# "as always", "as usual": a figure of speech, not a habit.
_AS_EVER = re.compile(r"\bas (?:always|usual|ever)\b", _I)


def is_anchorless(content: str, prose: bool) -> bool:
    """Tell whether ``content`` says nothing about the user's world ("slow is fast").

    A durable statement has an anchor (a person, an instruction, a habit, a correction) or names
    something concrete (a number, a name, a day); a saying or a joke has neither. ``prose`` tells
    whether the message is written with capitals: lowercase texting drops its pronouns, so there a
    missing anchor says nothing.
    """
    if not prose:
        return False  # texting drops pronouns ("ci runs on github actions"): no evidence either way
    content = _AS_EVER.sub("", content)
    # A statement that names a credential ("the alarm code is the same for both panels") is about
    # the user's own setup, never a saying.
    return not (
        _ANCHOR.search(content)
        or _CONCRETE.search(content)
        or CUE.search(content)
        or _CHANGED.search(content)
    )

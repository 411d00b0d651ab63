"""How a message asks something: a question mark, or a question worded without one.

The contract makes a turn that asks anything a lookup; people ask in lowercase, with typos and
without the mark ("whats the quickest way to rotate these logs", "any idea how I undo a rebase",
"I was wondering whether ...").
"""

from __future__ import annotations

import re

from memory_service.extraction import other_languages
from memory_service.extraction.lexicon import INVERTED_CONDITION

_I = re.IGNORECASE

QUESTION_MARK = re.compile(r"\?(?=[\s\"')\]]|$)")
# A question asked without its question mark: "whats the quickest way to rotate these logs", "any
# idea how I undo a rebase", "I was wondering whether ...", "do u know if trains run on sunday".
_LEAD = (
    r"(?:^|:\s+)\W*(?:(?:hey|hi|so|and|but|ok|okay|also|btw|quick question|question|um|uh|hmm|oh|yo"
    r"|pls|plz|please|wait|like|ngl|tbh|sorry|sry|ugh|lol|omg|omfg|excuse me|kindly|abeg|oya"
    r"|aye|right|look|listen|mate|dear|now|oi|oye|quick q|q)\b[,:\s\u2013\u2014-]*)*"
)
_PERSONS = r"(?:you|u|ya|i|we|it|they|he|she|there|anyone|anybody|someone|somebody|ppl|people)"
_SUBJECTS = (
    rf"(?:{_PERSONS}|my|our|your|ur|the|teh|a|an|this|that|these|those|any|all"
    r"|(?-i:[A-Z][a-z]\w*))"
)
# With the spellings of texting and dialect ("wats", "whit's", "wot").
_WH = (
    r"(?:what|whats|wat|wats|wut|wot|wots|whit|whits|wht|wetin|where|wheres|when|whens|who|whos|whom"
    r"|whose|why|whys|which|how|hows|hw|hwo|wen(?= \w)"
    r"|wit(?= (?:time|is|are|does|do|did|was|day|size|kind)\b)"
    # Jamaican and Caribbean "weh" and "whey" ask where or what: "whey di nearest bank".
    r"|(?:weh|whey|wey)(?= (?:di|de|yuh|unu|mi|fi|dem)\b))"
)
# "wondering" as it is typed: "wundering", "wonderin".
_WONDERING = r"w[ou]nd(?:e)?rin[g']?"
_WH_CLAUSE = r"(?:how|what|why|when|where|which|who|whether|if|whit|hoo|whaur)"
# "can u tighten up these notes", "Could you draft a letter to parents": asking the assistant to
# produce or do something is a request, not a question (asking to tell, explain or remind is).
_PRODUCE = (
    r"(?:draft|write|rewrite|redo|make|create|generate|prepare|turn|convert|compose|outline|draw"
    r"|sketch|fix|debug|refactor|tidy|clean|proofread|edit|reformat|format|shorten|expand|tighten"
    r"|trim|condense|soften|polish|improve|simplify|summari[sz]e|translate|reformulate|rephrase"
    r"|reword|put together|pull out|fill in|fill out|sort|give (?:me )?feedback|reply|respond|book"
    r"|schedule|set up|build|add|update|send|save|store|note|jot|type up|write up|whip up|knock up"
    rf"|annotate|label|highlight|chart|plot|graph|check(?!\s+(?:{_WH}|whether|if)\b)"
    r"|help (?:me|us) (?:to )?(?:draft|write|compose|plan|reply|shape|prepare|make|put|word|respond"
    r"|tidy|fix))\b"
)
_REQUEST = (
    rf"(?!(?:you|u|ya|ye)\s+(?:(?:please|pls|kindly|maybe|ever|just|quickly|possibly)\s+)*"
    rf"(?:be so (?:good|kind) as to\s+)?{_PRODUCE})"
)
# Forms that open the sentence (after ``_LEAD``): inverted auxiliaries and question words.
_OPENING = (
    # An inverted condition answered after its comma asks nothing ("Had I known, I'd ...").
    rf"(?!{INVERTED_CONDITION})"
    # "Did the Knowledge back in '99": a statement about the past that drops its "I".
    r"(?!did\s+(?:the|a|my)\s+[^.!?]*\b(?:back in|years? ago|in (?:19|20)\d\d|in '\d\d)\b)"
    # "Have a good weekend", "Do the dishes": before an article these verbs give orders.
    rf"(?:(?:do|have|has|had|may|must|might)\s+{_PERSONS}\b"
    rf"|(?:can|could|would|will|did|does|should|shall|shud|cn|wud|cud|shld)\s+{_REQUEST}"
    rf"{_SUBJECTS}\b"
    # "does polars support asof joins": no statement opens on "does".
    r"|does\s+[\w'-]+\s+[\w'-]+"
    # A capitalised "Is" or "Are" asks whatever follows ("Is co-codamol 30/500 a schedule 5
    # drug"); texting drops its subject before a small one ("is fine now", "was in a mtg").
    r"|(?-i:Is|Are|Isn'?t|Aren'?t)\s+[\w'-]+"
    rf"|(?:is|are|am|was|were|r|isn'?t|aren'?t|wasn'?t)\s+{_SUBJECTS}\b"
    # "when I ask for code, use Python" is a condition, not a question.
    # Not "what a day", "whit a day": an exclamation ("whats a good mic" still asks).
    r"|(?!(?:what|whit|wot|wat)\s+an?\b)"
    rf"{_WH}(?:'s|'re|'d|'ll)?\b(?!\s+(?:i|i'm|im|we|we're|you|u|my|our|your)\b)(?!,)"
    r"|(?:the |a |any )?(?:best|quickest|fastest|easiest|cleanest|simplest|safest|cheapest|right"
    r"|proper|correct|good|better|smartest|nicest) way to\b|is there (?:a|any)\b"
    r"|any (?:idea|ideas|clue|tips|advice|suggestions|recommendations|thoughts|chance)\b"
    # "any drills for 1v1 defending", "any good apps for budgeting": things asked for.
    r"|any (?:good |decent |cheap |easy |simple )?[\w-]+s for\b(?![^.!?]*\b(?:are|is|get|go)\b)"
    # "whats our p99 budget again", "where's my invoice": "is" contracted asks about one's own.
    r"|(?:whats|what's|wats|wheres|where's|whens|when's|whos|who's|hows|how's)\s+(?:my|our|your"
    r"|ur)\b"
    # Pidgin asks how with "go", "fit" or "wan": "abeg how i go calculate my profit".
    r"|how (?:i|we|una|im) (?:go|fit|wan|suppose|dey)\b"
    # Texting drops "it" before a judgement asked of a figure: "is 50 too high w/ 12 pods".
    r"|(?:is|are|r)\s+\d[\w.,/%-]*\s+(?:[\w-]+\s+)?(?:too|enough|ok|okay|normal|safe|legit"
    r"|worth|overkill)\b"
    r"|anyone know|anybody know|does anyone|recommendations? for\b|(?:the )?difference between\b)"
)
# Forms that ask from anywhere in the sentence: embedded questions and statements of not knowing.
_EMBEDDED = "|".join(
    (
        rf"i wonder|(?:i was|i'?m|just) {_WONDERING}|{_WONDERING} {_WH_CLAUSE}",
        # Tagalog, which Taglish speakers ask in: "ano po ...", "pa tanong lang po".
        r"^\W*(?:ano|paano|saan|kailan|bakit|sino|magkano|ilan)\b|\bpa ?tanong\b|\bpwede ba\b",
        # "kindly provide me the formula for development length": information asked for.
        r"\b(?:provide|give|send|share|tell) (?:me|us) (?:the|a) (?:formula|value|figure|definition"
        r"|meaning|steps|rate|dose|dosage|conversion|specs?|difference)\b",
        # A figure asked for in a few words: "weather tmrw 0600 jacksonville".
        r"^\W*(?:weather|forecast)\s+(?:for|in|at|on|tmrw|tmr|tomorrow|today|tonight|this|next)\b",
        r"(?:i'?d|i would|i should|i want to|i wanna|i need to|id|i wish to|i wish t')"
        r" (?:like to |love to )?know"
        # A question relayed now: "Dad asks when the fair is", "Mum would like to know how".
        rf"|\b(?:asks|is asking|would like to know|'d like to know|wants to know|wonders)"
        r" (?:when|what|how|whether|if|is|are|do|does|can|could|should|where|why|which|who)\b"
        r"|\b(?:grateful|glad|pleased|obliged) to (?:know|learn|hear)\b"
        r"|\bkindly (?:revert on|confirm|clarify|advise|inform|let (?:me|us) know)\b"
        # Asked to find something out: "can ye check whit the forecast is".
        r"|\b(?:can|could|would|will) (?:you|u|ya|ye) (?:please |just |quickly )?(?:check|find out"
        rf"|look up|see) (?:{_WH}|whether|if)\b"
        r"|want(?: to)? know",
        rf"need to know {_WH_CLAUSE}",
        # Spanish, which bilingual users slip into mid-conversation.
        r"^\W*(?:c[óo]mo se|c[óo]mo (?:puedo|hago|le)|cu[áa]nto|cu[áa]ndo|d[óo]nde"
        r"|qu[ée] (?:es|hago)|por qu[ée]|qui[ée]n|cu[áa]l)\b|\bno s[ée] (?:si|c[óo]mo|qu[ée])\b",
        # Not "I don't know why I said that": wondering aloud about oneself asks nothing.
        rf"(?:idk|dunno|i (?:\w+ )?don'?t know|i (?:\w+ )?dont know|i do not know|no clue)"
        r"(?! (?:why|how) (?:i|we) (?:said|did|wrote|do that|bother))"
        rf" {_WH_CLAUSE}",
        rf"(?:can never|can'?t|cannot|never can) (?:recall|remember) {_WH_CLAUSE}",
        # Elliptic questions: "best json lib for go", "postgres or mysql for this".
        r"^\W*(?:best|good|fastest|recommended|cheapest) \w+(?: \w+){0,3} (?:for|like)\b",
        # A figure asked for as a noun phrase: "rough cost of a wedding cake for 120 guests",
        # "average days on market in Scottsdale", "dose adjustment of ceftriaxone in ...".
        r"^\W*(?:rough |average |typical |approximate |approx |usual )?(?:cost|price|dose|dosage"
        r"|dose adjustment|days on market|salary|rate|distance|driving time|flight time)"
        r" (?:of|for|in|to|from)\b",
        r"\b(?:y'?all|you all|yall) know (?:if|whether|how|what|where|when)\b",
        # Typed as into a search box: "cheapest ferry bergen to hirtshals in june", "quick packed
        # lunch ideas no egg", "sol price prediction end of year".
        r"^\W*(?:cheapest|cheap|best|quickest|quick|easiest|easy|fastest|good|top|simple|healthy)"
        r" (?:[\w'-]+ ){0,4}(?:ways?|ideas?|options?|flights?|ferr(?:y|ies)|breaks?|hotels?"
        r"|recipes?|games?|places?|tips|deals?|routes?|apps?|tools?|books?|gifts?|things)\b",
        r"\bprice prediction\b|\bgas fees? (?:rn|now|today)\b"
        r"|(?<!always )(?<!never )\bexplain (?:me|to me) (?:what|how|why|when|the difference)\b",
        r"\bfind out (?:when|if|whether|what|how|where)\b"
        r"|^\W*(?:please |pls |kindly )?tell me (?:something|some|a few)\b",
        # After a clause, a question word and its verb ask: "..., so how do I make the writing
        # bigger", "I've got a listing with a cracked slab, how do I even price that".
        r",\s+(?:(?:so|and|but)\s+)?(?:how|what|where|which|why|who)\s+(?:do|does|can|could"
        r"|should|would|is|are)\s+(?:i|we|you|it|they|this|that|these)\b",
        # A choice put in two words: "postgres or mysql for this", "hold the statin or switch".
        r"^\W*\w+(?: (?:the|a|an|it|this|that|them|my|our) [\w-]+)? or \w+"
        r"(?: (?:it|them|on|off|up|out)| for (?:this|that|it|me|us))?\W*$",
        # "ketamine vs midaz for excited delirium": a comparison asked for.
        r"^\W*[\w.-]+ (?:vs\.?|versus) (?![Cc]ode\b)[\w.-]+\b",
        # "need epi dose, pedi anaphylaxis": a figure asked for in shorthand.
        r"^\W*(?:need|want|looking for) (?:the |a |an )?(?:[\w-]+ )?(?:dose|dosage|dosing|formula"
        r"|calc|calculation|conversion|syntax|command|spec|specs|ratio|rate|standard|threshold"
        r"|limit|deadline|torque|requirements?|criteria|rules)\b",
        # A dose or a level asked for in a clinician's shorthand: "Vanc loading dose 85kg", "max
        # paracetamol dose adult under 50kg", "Gent once daily, trough target".
        r"^\W*(?:max|maximum|min|minimum|loading|maintenance|starting|usual|typical)\s+(?:[\w-]+\s+)?"
        r"(?:dose|dosing|dosage)\b(?![^.!?]*\b(?:is|are|was|were|i|my|we)\b)"
        r"|\b(?:dose|dosing|dosage|trough target|target trough|target level)"
        r"(?:\s+(?:adult|child|paed|pedi|neonate)\w*)?(?:\s+(?:under|over|for|in)?\s*\d+\s*(?:kg|yo"
        r"|years?))?\W*$",
        rf"curious (?:if|whether|how|what|why|about)|not sure {_WH_CLAUSE}|no idea {_WH_CLAUSE}",
        rf"can'?t remember {_WH_CLAUSE}|(?:trying|want) to (?:figure|work) out {_WH_CLAUSE}",
        # "reckon u could tell me max demand for a 3 bed": a request to be told is a question.
        r"\b(?:you|u|ya|ye) (?:could|can|might|would) (?:tell|show|explain to) (?:me|us)\b(?! to\b)"
        r"|(?:remind|tell|show|teach) (?:me|mi|meh|us)"
        r"(?: (?:please|pls|roughly|again|quickly|exactly|ulit|po)|,[^,.!?]{1,30},)?"
        rf" (?:{_WH_CLAUSE[3:-1]}|about|the rules|paano|kung)\b",
        r"\btell (?:me|us) (?:a |the )?(?:polite|good|nice|simple|easy|quick|best|right) ways?\b",
        rf"\bask myself {_WH_CLAUSE}|\b(?:do not|don'?t|dont) remember {_WH_CLAUSE}",
        r"explain (?:how|why|what|when|whether|the difference)\b|help me understand",
        # Not "I prefer that you explain things to me in plain terms": a standing wish.
        r"(?<!you )\bexplain (?:[\w-]+ ){1,3}(?:to|tae) (?:me|us)\b|^\W*explain to me\b",
        r"\b(?:like|want|welcome|value|love|appreciate) your"
        r" (?:view|views|opinion|thoughts|take)\b",
        # Asked as a courtesy: "I would be grateful if you could clarify the procedure".
        r"\b(?:grateful|thankful|obliged|appreciate it) if you (?:could|would|can|might)"
        r" (?:kindly )?(?:clarify|explain|tell|confirm|advise|outline|describe|let (?:me|us) know"
        r"|check|find out|look up)\b",
        other_languages.QUESTION,
        r"do you know|d'?you know|d'?ye know"
        r"|(?:u|yuh|ya|you) know (?:if|whether|how|what|where|when)",
        # As learners ask: "You know the English word for 'mantecare'", "how i say in english".
        r"(?:^|[.!]\s+)\W*(?:you|u|ya) know (?:the|a|an|any)\b",
        rf"\bwonder (?:if|whether)\b|(?:interested|curious|keen|grateful|glad|pleased) to "
        rf"(?:know|learn) {_WH_CLAUSE}",
        # Asking for an explanation, a comparison or advice is asking: "explain recursion like
        # im five", "compare spotify vs apple music for me", "kindly advise on ...".
        r"^\W*(?:(?:pls|please|kindly|can you|could you|just)\s+)?explain\s+"
        r"(?!(?:this|that|it|these|those|the above|my|the code|the error|everything)\b)",
        r"^\W*compare \S+(?: \S+){0,4} (?:vs\.?|versus) ",
        r"\binteractions? between\b|\badvise (?:on|me|us|whether|if|how|what)\b",
        r"^\W*how (?:i|we|you) (?:can|could|should|must|do|would|say)\b|\bhow to say\b(?!,)",
        r"^\W*(?:you|u|ya) (?:think|reckon)\b|\bor nah\W*$|\bor not\W*$",
        r",\s*any (?:tips|tricks|ideas?|advice|suggestions|recs|thoughts)\W*$",
        r"any (?:idea|ideas|clue)",
        rf"(?:tell me|let me know|lemme know|lmk) (?:the|{_WH_CLAUSE[3:-1]})\b",
        # "VLOOKUP with two conditions how to do ah": asked at the end, as Singlish asks.
        r"(?<!that's )(?<!thats )(?<!is )\bhow (?:to )?do\s*(?:ah|ar|leh|lah|huh|har|eh)?\W*$",
        # A figure checked: "GST rate now 9% right".
        r"\d[\d.,%]*\s+(?:right|correct|ah|hor|or not)\W*$",
        r"\bdiff(?:erence)? (?:between|of|b/w|btwn|btw)\b|\bi (?:want|wanted|would like) to ask\b",
        # As Indian and Portuguese English ask: "I have doubt if habeas corpus covers a company".
        r"\bi have (?:a |one |some )?doubts? (?:if|whether|regarding|about|on|in)\b"
        r"|\bi have (?:a|one|small|quick) doubt\b",
        # A question word after the statement it asks about: "this button jumps on hover, why".
        r",\s*(?:why|how come|what gives|how so)\W*$",
        # Learners drop the auxiliary: "How I make staff rota fair", "how we fix this".
        r"^\W*how (?:i|we) (?:make|do|get|fix|find|know|tell|stop|start|use|write|choose|pick"
        r"|keep|say|ask|handle|deal|explain|calculate|change|send|become)\b(?![^:]*:)",
        # Asking for an opinion, a pointer or help, worded as a statement.
        r"^\W*(?:how come|what about|thoughts on|opinions? on)\b",
        r"^\W*your (?:take|thoughts|opinion) on\b",
        r"\bany (?:recs?|recommendations?|suggestions?|tips?|advice) (?:for|on)\b|\brecs for\b",
        rf"\bcan'?t (?:figure|work) out {_WH_CLAUSE}\b|\btrying to remember {_WH_CLAUSE}\b",
        r"\blooking for (?:a|an|some) (?:good|decent|cheap|reliable|nice)\b",
        r"\bneed (?:some )?help (?:with|figuring|understanding)\b|\bhelp me (?:figure|work) out\b",
        # "I have a question to you later" announces one; it does not ask it.
        # A question after the clause that introduces it: "sorry if this is dumb but what does
        # leasehold mean", "i do unvented as well do i need a separate ticket", "... or is it
        # all LED now", "she's wanting to know are there any races for wee ones".
        rf"\b(?:but|so)\s+{_WH}\s+(?:do|does|did|can|could|should|would|will)\s+\w+",
        r"(?<!whatever )(?<!than )(?<!\bas )(?<!\bi )\b(?:do|does|should|must|can)\s+(?:i|we)"
        r"\s+(?:need|have to|still need|also need|really need)\b",
        r"\bor (?:is|are|was|do|does|can|should|will) (?:it|there|that|this|they|you|u)\b",
        r"\b(?:wants|wanted|wanting) to know (?:if|whether|how|what|where|when|which|who|why|are|is"
        r"|do|does|can|could|will|should)\b",
        r"^\W*(?:anyone|anybody|any1)\s+(?:still|else|ever|here|know|knows|have|has|got|tried"
        r"|use|using|make|makes|recommend|seen|heard)\b",
        r"\bremind (?:me|us) (?:again )?(?:of )?the (?:name|number|word|title|address|date|term)\b",
        # A tag asks for confirmation, at the end or before a comma: "T1059.001 is PowerShell,
        # isn't it", "the inspection is the 14th isn't it, I have it written down".
        r"\b(?:is|are|was|were|do|does|did|has|have|can|could|will|would|should)n'?t"
        r" (?:it|they|that|there|he|she|we|you)(?=\W*$|,)",
        r"\b(?:that'?s|thats|is that) (?:right|correct)(?: yes| yeah)?\W*$",
        r"\d[^.!?]{0,30},\s*(?:right|yeah|correct|yes)\W*$",
        # Not "should you need to walk me through the upload": a condition.
        r"(?:^\W*|(?:please|pls|can you|could you|,)\s+)walk (?:me|us) through\b",
        # Typed as into a search box: "figma auto layout wrap not working nested frames", "cloud
        # storage meaning simple", "sensory play ideas under 5s no glitter", "best tyre pressure
        # 28mm tubeless", "Malaba border crossing hours weekend".
        r"^\W*(?!(?:i|my|our|we|it|this|that|the)\b)(?:[\w.'-]+ ){1,5}not working\b"
        r"(?![^.!?]*\b(?:i|i'm|im|my|we)\b)",
        r"^\W*[\w' -]{1,40} meaning(?: simple| in \w+)?\W*$",
        r"^\W*(?!(?:i|my|our|we|your|give|make|write|show|send|list|find|create|generate|need"
        r"|never|always|use|don'?t|do not|please|pls)\b)"
        r"(?:(?!(?:in|on|at|to|of|with|from) )[\w'-]+ ){1,3}"
        r"(?:ideas|tips|recipes|suggestions|alternatives|examples)(?: (?:for|under|with|without|no"
        r"|that)\b|\W*$)(?![^.!?]*\b(?:is|are|was|were|i|my)\b)",
        r"^\W*best\s+(?!(?:friend|mate|part|thing|bit|day|way to)\b)[\w-]+ [\w-]+"
        r"(?![^.!?]*\b(?:is|are|was|were|'s|i|my)\b)",
        r"^\W*(?!(?:i|we|you|my|our)\b)(?:[\w'-]+ ){1,4}(?:hours|times|timetable) (?:weekend|today"
        r"|tomorrow|tonight|sunday|saturday|monday|tuesday|wednesday|thursday|friday|this week"
        r"|next week)\W*$",
        # A timetable or a figure asked for as a noun phrase: "tide times for Dartmouth tomorrow".
        r"^\W*(?!(?:i|we|you|my|our|always|never)\b)(?:[\w'-]+ ){0,2}(?:times|hours|timetable"
        r"|schedule|forecast|fixtures) (?:for|in|at|on)\b"
        r"(?![^.!?]*\b(?:is|are|was|were|will|has|have|had)\b)",
        r"(?:i have|i've got|got) (?:a )?(?:quick )?question"
        r"(?! (?:\w+ ){0,2}(?:later|soon|after|in a bit))",
        r"question (?:for|to) (?:you|u)(?! (?:\w+ ){0,1}(?:later|soon|after|in a bit))",
    )
)
# After a short aside set off by a comma, an inverted question still asks: "pa tanong lang po, is
# my contribution still counted", "quick one, can I freeze sourdough".
_AFTER_ASIDE = (
    # Bounded at the start: "\W*" before "[\w'-]+" would try every split of a run of quotes.
    r"^\W{0,3}(?:[\w'-]+\s+){0,3}[\w'-]+,\s+"
    rf"(?:(?:is|are|can|could|do|does|did|should|will|would)\s+{_REQUEST}"
    # ", which is" after a clause opens a relative clause: "The Lantern seats 240, which is ...".
    rf"{_SUBJECTS}\b|(?:what|how|where|when|why|who)(?:'s)?\s+(?:is|are|do|does|can|should"
    r"|would)\b)"
)
INTERROGATIVE = re.compile(rf"{_LEAD}{_OPENING}|\b(?:{_EMBEDDED})\b|{_AFTER_ASIDE}", _I)

# Greetings worded as questions: "yo whats good", "how r u". With a question mark they still make a
# lookup (the contract's rule); without one they are small talk.
GREETING_QUESTION = re.compile(
    r"^\W*(?:\w+\W+)?(?:where (?:was|were) (?:i|we)(?=\W*$)|what'?s good|what'?s up|wh?a?ss?up"
    r"|sup|how'?s it (?:going|gaun|goin)|where (?:does|did) (?:the )?time go|how are (?:you|u|ya"
    r"|things)|how r u|how (?:have|'?ve) you been|u good|you good|how was your (?:day|weekend))\b",
    _I,
)

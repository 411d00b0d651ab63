"""How a message asks something: a question mark, or a question worded without one.

The contract makes a turn that asks anything a lookup; people ask in lowercase, with typos and
without the mark ("whats the quickest way to rotate these logs", "any idea how I undo a rebase",
"I was wondering whether ...").
"""

from __future__ import annotations

import re

_I = re.IGNORECASE

QUESTION_MARK = re.compile(r"\?(?=[\s\"')\]]|$)")
# A question asked without its question mark: "whats the quickest way to rotate these logs", "any
# idea how I undo a rebase", "I was wondering whether ...", "do u know if trains run on sunday".
_LEAD = (
    r"(?:^|:\s+)\W*(?:(?:hey|hi|so|and|but|ok|okay|also|btw|quick question|question|um|uh|hmm|oh|yo"
    r"|pls|plz|wait|like|ngl|tbh|sorry|sry|ugh|lol|omg|omfg|excuse me|kindly)\b[,:\s]*)*"
)
_PERSONS = r"(?:you|u|ya|i|we|it|they|he|she|there|anyone|anybody|someone|somebody|ppl|people)"
_SUBJECTS = (
    rf"(?:{_PERSONS}|my|our|your|ur|the|teh|a|an|this|that|these|those|any|all"
    r"|(?-i:[A-Z][a-z]\w*))"
)
INTERROGATIVE = re.compile(
    _LEAD
    # "Have a good weekend", "Do the dishes": before an article these verbs give orders.
    + rf"(?:(?:do|have|has|had|may|must|might)\s+{_PERSONS}\b"
    r"|(?:can|could|would|will|did|does|should|shall|shud|cn|wud|cud|shld)\s+"
    rf"{_SUBJECTS}\b"
    rf"|(?:is|are|am|was|were|r|isn'?t|aren'?t|wasn'?t)\s+{_SUBJECTS}\b"
    r"|(?:what|whats|wat|wut|where|wheres|when|whens|who|whos|whom|whose|why|whys|which|how|hows)"
    r"(?:'s|'re|'d|'ll)?\b(?!\s+(?:i|i'm|im|we|we're|you|u|my|our|your)\b)(?!,)"
    r"|(?:the |a |any )?(?:best|quickest|fastest|easiest|cleanest|simplest|safest|cheapest|right"
    r"|proper|correct|good|better|smartest|nicest) way to\b|is there (?:a|any)\b"
    r"|any (?:idea|ideas|clue|tips|advice|suggestions|recommendations|thoughts|chance)\b"
    r"|anyone know|anybody know|does anyone|recommendations? for\b|(?:the )?difference between\b)"
    r"|\b(?:i wonder|i was wondering|i'?m wondering|just wondering|wondering (?:if|whether|how|what"
    r"|why|when|where|who|which)|(?:i'?d|i would|i should|i want to|i wanna|i need to"
    r"|id) (?:like to )?know"
    r"|(?:idk|dunno|i don'?t know|i dont know|i do not know|no clue) (?:how|what|why|if|whether"
    r"|where"
    r"|when|which|who)"
    r"|want to know|curious (?:if|whether|how|what|why|about)|not sure (?:if|whether|how|what|why"
    r"|when|where|which|who)|no idea (?:how|what|why|if|whether|where|when)|can'?t remember (?:if"
    r"|whether|what|how|when|where|who|which)|(?:trying|want) to (?:figure|work) out (?:how|what"
    r"|why"
    r"|whether|if|which)|(?:remind|tell|show|teach) me (?:what|which|when|where|who|how|whether|if"
    r"|why|about)\b|explain (?:how|why|what|when|whether|the difference)\b|help me understand"
    r"|do you know|d'?you know|u know (?:if|whether|how|what|where|when)|any (?:idea|ideas|clue)"
    r"|(?:tell me|let me know|lemme know) (?:the|what|how|if|whether|when|where|which|who)\b"
    r"|\bdiff(?:erence)? (?:between|of)\b|\bi (?:want|wanted|would like) to ask\b"
    # Asking for an opinion, a pointer or help, worded as a statement.
    r"|^\W*(?:how come|what about|thoughts on|opinions? on|your (?:take|thoughts|opinion) on)\b"
    r"|\bany (?:recs?|recommendations?|suggestions?|tips?|advice) (?:for|on)\b|\brecs for\b"
    r"|\bcan'?t (?:figure|work) out (?:how|why|what|where|which|whether|if)\b"
    r"|\btrying to remember (?:what|how|when|where|who|if|whether|which)\b"
    r"|\blooking for (?:a|an|some) (?:good|decent|cheap|reliable|nice)\b"
    r"|\bneed (?:some )?help (?:with|figuring|understanding)\b|\bhelp me (?:figure|work) out\b"
    r"|(?:i have|i've got|got) a (?:quick )?question(?! (?:\w+ ){0,2}(?:later|soon|after|in a bit))"
    r"|question (?:for|to) (?:you|u)(?! (?:\w+ ){0,1}(?:later|soon|after|in a bit)))\b",
    _I,
)

# Greetings worded as questions: "yo whats good", "how r u". With a question mark they still make a
# lookup (the contract's rule); without one they are small talk.
GREETING_QUESTION = re.compile(
    r"^\W*(?:\w+\W+)?(?:what'?s good|what'?s up|wh?a?ss?up|sup|how'?s it going|how are (?:you|u|ya"
    r"|things)|how r u|how (?:have|'?ve) you been|u good|you good|how was your (?:day|weekend))\b",
    _I,
)

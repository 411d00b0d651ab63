"""Cue words in the languages users slip into mid-conversation: French, Portuguese, Hindi in Latin
script (Spanish and Tagalog sit beside the English cues they mirror).

Each pattern is read by the same check as its English twin (``questions``, ``chatter``,
``lexicon``); a statement in another language with none of these cues is read as English is.
"""

from __future__ import annotations

_WORD_END = r"(?![\w'])"

# Asking: "c'est quoi la limite", "como eu configuro", "vc sabe se", "kaise likhte hain".
QUESTION = (
    r"(?:^|\b)(?:c'est quoi|qu'est-ce qu|est-ce qu|comment (?:je|on|faire|[çc]a|tu)|pourquoi"
    r"|combien|sais-tu|tu sais si|savez-vous"
    r"|como (?:eu \w+o|fa[çc]o|se|que|voc[êe])|vc sabe|voc[êe] sabe|sabe se|qual (?:[ée]|o|a)"
    r"|quanto|onde (?:fica|[ée])|o que [ée]"
    r"|kaise|kyun|kahan|kitna|kitne|kaun|bata do|batao|kya(?: \w+){0,3} (?:hai|hota|karu|karein)"
    # Swahili: "niambie" (tell me), "sijui" (I don't know), "vipi" (how), "nataka kujua" (I want
    # to know), "je," opening a question, "sivyo" (isn't it) closing one.
    r"|niambie|sijui|vipi|nataka kujua|^\W*je(?=,)|,?\s*sivyo(?=\W*$)"
    # Portuguese tags: "..., né", "..., certo"; Welsh question words opening a message.
    r"|,\s*(?:n[ée]|certo|n[ãa]o [ée])(?=\W*$)|^\W*(?:sut|beth|pam|ble|pryd|faint)(?=\s)"
    # Tagalog and Hindi asked mid-sentence: "pano ba", "ano kaya", "pwede ko bang malaman", "kung
    # may", "bata jo", "pata hai kya", "explain kar de", "yaad dila de".
    r"|pano|ano (?:kaya|ba|po)|pwede (?:ko )?bang?|kung (?:may|meron|ano|paano|saan|ilang)"
    r"|bata(?: do| de| dena| na| jo)?(?=\W*$|\s+jo\b)|pata hai kya|explain kar(?: do| de| dena)"
    r"|yaad dila(?: do| de)?"
    # Swahili: "unajua kama" (do you know if), "nisaidie kujua" (help me know), "nielezee" (explain
    # to me), "naomba kujua" (I ask to know).
    r"|unajua kama|unajua (?:nini|wapi|lini|vipi)|nisaidie kujua|nielezee|naomba kujua)" + _WORD_END
)
# Asking for something to be made now: "me faz uma bio", "fais-moi un résumé", "likh do".
REQUEST = (
    r"me faz|faz (?:um|uma)|escreve|fais-moi|fais moi|[ée]cris|traduis|peux-tu|pouvez-vous"
    r"|likh do|likh de|bana do|bana de|bhej do|pakigawa|paki|i-summarize|gawan mo"
    # Tagalog asks for a task with "pa-" on an English verb: "pa-draft naman po ng message".
    r"|pa-(?:draft|write|check|edit|send|translate|summarize|fix|gawa|ayos|review|format)"
)
# Hindi puts the request's verb last: "ek agenda bana de", "mail likh do".
REQUEST_AT_END = r"\b(?:bana|likh|bhej|kar|dikha) (?:de|do|dena)\W*$"
# The moment: "chu bloqué", "à soir", "to morrendo de sono", "abhi", "ja raha".
MOMENT = (
    r"\b(?:chu|je suis) (?:bloqu[ée]|coinc[ée]|fatigu[ée]|crev[ée]|au|dans)\b|\b[àa] soir\b"
    r"|\bce soir\b|\bicitte\b|\bdepuis (?:une|deux|\d+) heures?\b"
    r"|\bt[ôo] (?:morrendo|cansad[oa]|no|na)\b|\bamanh[ãa]\b"
    r"|\babhi\b|\baaj\b|\bja (?:raha|rahi)\b|\bmein hoon\b"
    # Swahili: "leo" (today) before a time of day, "sasa hivi" (right now), "niko" (I am at).
    r"|\bleo (?:asubuhi|jioni|usiku|mchana)\b|\bsasa hivi\b|\bniko\b"
)
# Maybes and conditions: "si j'avais su", "se eu chegar", "talvez".
MAYBE = (
    r"^\W*(?:si j'|si je|se eu|se a gente|talvez|agar|in[şs]allah|inshallah|mungu akipenda)\b"
    # Swahili's conditional "-ki-": "Nikipata loan, nitanunua ..." (if I get a loan, I'll buy).
    r"|^\W*(?:niki|tuki|ukiwa|kama nita)\w*"
    r"|\bj'serais\b|\bje serais\b"
)
# Thanks in the languages users slip into, for the English thanks checks to read as theirs.
THANKS = r"谢谢|多谢|asante|shukran|arigato|obrigad[oa]|gracias|merci|danke"
# Thanks, goodbyes and exclamations: "merci mon chum", "valeu demais", "chalo bye".
SMALL_TALK = (
    r"\b(?:merci|valeu|tmj|chalo|à la prochaine|a la prochaine|dhanyavaad|shukriya|obrigad[oa]"
    r"|kwaheri|asante|çok sağol|teşekkürler|danke schön|grazie"
    # Welsh, Polish and Tagalog thanks and oaths: "diolch", "dziękuję", "kurde", "grabe".
    r"|diolch|duw|dzi[ęe]kuj[ęe]|kurde|kurcz[ęe]|grabe|hay naku|ay naku)" + _WORD_END
)
# A change: "agora meu main é CS2", "je fais Moncton-Halifax maintenant", "fini le Tim".
CHANGE = (
    r"agora|asteure|astheure|maintenant|fini (?:le|la|les)|plus de|mudei|troquei|larguei|me mudei"
    r"|l[âa]ch[ée]|d[ée]sormais|ab se|ab \w+ ko"
    # Tagalog "balik" (back to), "lipat" (moved); Patois "retire" for a thing given up.
    r"|balik|lumipat|lipat na|retire"
)
# Saying nothing in particular: "sei lá", "umas coisas aí".
VAGUE = r"\bsei l[áa]\b|\bumas coisas\b|\bdes trucs\b|\bkuch bhi\b"

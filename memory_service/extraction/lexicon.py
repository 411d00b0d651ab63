"""General English word lists and patterns that the rules extractor reads statements with."""

from __future__ import annotations

import re

from memory_service.extraction import other_languages

_I = re.IGNORECASE


def word_set(words: str) -> frozenset[str]:
    """Return the blank-separated words of ``words`` as a set."""
    return frozenset(words.split())


WORD = re.compile(r"[a-z0-9]+(?:['\u2019][a-z]+)?", _I)

FIRST_PERSON = word_set("i i'm i've i'd i'll me my mine myself we we're we've we'd our ours us")
# Greetings, thanks, interjections and acknowledgements that open or make up chit-chat.
_OPENERS = """
good morning|good afternoon|good evening|good night|good news|big news|thank you|thanks a lot|
all right|hi+|hey+|yo+|omg|omfg|
no worries|no problem|fair enough|got it|makes sense|sounds good|sounds great|love it|good job|
well done|nice one|my bad|oh well|see you|see ya|hey there|hi there|
hi|hello|hey|hiya|howdy|yo|greetings|morning|evening|thanks|thx|ty|ta|cheers|ok|okay|k|kk|cool|nice|
great|awesome|perfect|brilliant|wow|whoa|oh|ooh|aww|aw|ah|ahh|ha|haha|hahaha|hah|heh|hehe|lol|lmao|
rofl|hmm|hm|um|uh|er|ugh|argh|meh|whew|phew|yay|woohoo|woo|yep|yes|yeah|yup|sure|alright|sweet|
wonderful|excellent|amazing|lovely|fantastic|superb|neat|gotcha|indeed|true|interesting|fancy|sorry|
oops|bye|goodbye|congrats|np|nah|nope|honestly|idk|dunno|aye|gday|g'day|howzit|hola|ciao|salut|oi|
kia ora|namaste|wassup|hey mate|g'day mate|gday mate|aye hello|righto|right-o|i mean|
nossa|blimey|crikey|gosh|golly|jeez|geez|my dear|dear|darling|hun|hon
"""
_OPENER_ALTERNATION = "|".join(
    [
        *(p.strip() for p in _OPENERS.replace("\n", "").split("|") if p.strip()),
        other_languages.THANKS,
    ]
)
# An opener is set off by punctuation ("Great, ..."), so "Great Britain" or "True crime" is not one.
OPENER = re.compile(
    rf"^(?:(?:{_OPENER_ALTERNATION})\b[\s,!.~]*)*(?:{_OPENER_ALTERNATION})\b\s*"
    r"(?:[,!.~;:\-]+\s*|[\U0001F300-\U0001FAFF\u2600-\u27BF\ufe0f]+\s*|$)",
    _I,
)

SOCIAL_WORDS = word_set(
    _OPENERS.replace("|", " ")
    + """
    that this it its it's that's is was so very really too much lot lots a the one you your you're
    again there all now just me to for on of and then well go let's lets looks look helped worked
    works day night weekend week everyone guys folks friend buddy mate pal back as ever bit quite
    pretty super worries problem appreciated no hope doing going right help today time everything
    earlier work job chat talk soon care later i i'm appreciate rock take exactly needed depends
    dear darling
    whatever agree see know understand understood noted helpful useful glad happy excited
    anytime definitely absolutely totally course what wanted fine idea clue sure maybe guess
    """
)

# Set social formulas that are small talk whatever follows them.
SMALL_TALK_FORMULA = re.compile(
    r"^(?:(?:i )?hope (?:you|your|all|everyone)|have an? (?:good|great|nice|lovely|fun)\b|see you\b"
    r"|nice to (?:meet|see|hear)|long time no see|sorry (?:for|about) (?:the |my )?"
    r"(?:late|delay|slow|wait|typo|confusion)|just checking in|you'?re (?:the best|a star|amazing|"
    r"awesome|great|a lifesaver|welcome)|sounds (?:good|great|fine|perfect)|much appreciated"
    r"|(?:that'?s|that is|this is|it'?s) (?:so |really |very )?(?:hilarious|funny|great|awesome|"
    r"amazing|cool|neat|brilliant|perfect|wonderful|interesting|fair|true|helpful|nice|lovely|"
    r"fantastic|good to know)\b"
    r"|(?:lovely|nice|beautiful|gorgeous|terrible|awful|horrible|crazy) weather"
    r"|happy (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend|holidays|new year)"
    r"|how (?:are|is) (?:you|it going|things)|let me (?:think|see|check|try|look)\b"
    r"|never ?mind\b|forget (?:it|that)\b|no matter\b"
    # Keeping a secret between friends, and remarks others make about the user.
    r"|(?:and |but |pls |please )?(?:don'?t|dont|do not) tell (?:anyone|anybody|nobody|no one"
    r"|a soul)\b|(?:my |the |our )?[\w']+ (?:says|said|reckons|thinks) (?:i|i'm|im|i am|me|he|she"
    r"|they)\b|enough about me|i'?ll leave you (?:be|to it|alone)|the kettle'?s calling"
    r"|she'?ll be right|you'?ll never guess|wine o'?clock|fair point|you win(?: this)?\b"
    r"|that'?s what i'?m talking about|(?:bueno,? |ya )?me voy\b|me tengo que ir"
    r"|(?:right,? )?that'?s me (?:away|off)\b|(?:you|ye)'?ve got me there"
    r"|bless (?:his|her|their|your) heart|butter my biscuit|don'?t get me started"
    r"|(?:right,? )?i'?ll love (?:you|ye|ya) and leave (?:you|ye|ya)\b"
    r"|(?:you'?ve |you )?(?:saved|save|made|make) my (?:life|day|week|bacon)\b"
    r"|i'?m done (?:venting|ranting|moaning|complaining)\b|rant over\b|end of rant\b"
    r"|fair play(?: (?:to|tae) (?:you|ye|ya))?\W*$"
    r"|(?:my |the |our )?[\w']+ (?:says|said) (?:you'?re|god bless|hi|hello|thanks|thank you)\b"
    r"|you (?:really |sure |certainly |don'?t half )?know your (?:stuff|onions)\b"
    r"|(?:sorry,? )?i'?ve (?:rambled|gone) on (?:again|a bit|a lot)\b|back again\b"
    r"|i'?m (?:so )?(?:stealing|borrowing|nicking|pinching) (?:it|that|this)\b"
    r"|(?:eres|sos) (?:la|el) mejor|todo bien|pray for me|wish me luck"
    r"|don'?t judge(?: me)?\b(?!,? but\b)"
    r"|(?:i'?m|i am) (?:very |so |really |terribly |awfully |truly )?sorry(?: to trouble you"
    r"| for (?:the trouble|bothering you|that))?\W*$|i am grateful\W*$"
    # Reminiscence: "When I was a boy we had to walk three miles to chapel".
    r"|(?:back )?when i was (?:a |an |young|little|small|at school)|god is good"
    r"|let me go and \w+|(?:right,? )?i'?m off\W*$|(?:alright,? )?gotta run\b|laters\W*$"
    r"|.*\bi'?m off\W*$|i trust you are well|(?:i )?hope you(?: are|'re) (?:well|keeping well)"
    # A letter's sign-off: "Love, June", "Cheers, Dave".
    r"|(?:love|lots of love|all my love|best|best wishes|kind regards|regards|cheers|yours"
    r"|yours truly|hugs|xo+),?\s+(?:[\w'.-]+\s*){1,3}\W*$)",
    _I,
)

THANKS_CLOSER = re.compile(
    r",?\s*(?:(?:muchas |many )?(?:thanks|thank you|thx|cheers|gracias|merci|danke|obrigad[oa]"
    r"|ta)(?: (?:heaps|a heap|a million|a bunch|a ton|so much|muchly|mate|again|kindly|bud|man))?)"
    r"\W*$",
    _I,
)

# A condition inverted, with its consequence after the comma: "Should I be promoted, I would
# move the family", "Had we known, we'd have left", "Were the shop to close, we would move".
INVERTED_CONDITION = (
    r"(?:should|were|had)\s+(?:(?:the|my|our|your|his|her|their|a|an)\s+)?[\w'-]+\b[^,?]*,\s*"
    r"(?:i|we|they|he|she|you|it)(?:\s+(?:would|will|shall|might|may)\b|'d\b|'ll\b)"
)
# Conditionals and possibilities, said before or instead of a fact.
HYPOTHETICAL_START = re.compile(
    rf"{other_languages.MAYBE}|"
    r"^(?:if|suppose|supposing|imagine|assuming|hypothetically|what if|in an ideal world|"
    r"maybe|mayb|mibbe|mebbe|"
    # "if" and "maybe" in the languages users slip into.
    r"kung|baka|siguro|quiz[áa]s|tal vez|vielleicht|peut-[êe]tre|talvez|forse|"
    r"perhaps|someday|some day|one day(?! (?:a|per|each|every)\b)|if only|let'?s say|in theory|"
    r"say (?:i|we|you|they|he|she)\b)\b"
    rf"|^{INVERTED_CONDITION}",
    _I,
)
HYPOTHETICAL_ANY = re.compile(
    r"\b(?:(?:i|we|they|he|she)(?: \w+)? (?:might|may|could)"
    # Not "as I may have said before": a remark on the conversation.
    r" (?!not\b|never\b|have (?:said|mentioned|told|written))\w+"
    r"|i wish|(?:i'?m|i am) (?:thinking (?:about|of)|considering|contemplating))\b"
    r"|^\W*(?:(?:i'?m|i am|im|we'?re|we are|been|i'?ve been)\s+)?"
    r"(?:thinkin[g']? (?:about|of|abt|bout)"
    r"|considering"
    r"|planning (?:to|on)|hoping to|tempted to)\b|\b(?:might|may) (?:go|do|try|switch|move|start"
    r"|get|take|buy|apply|learn|open|launch|quit)\b|\beventually\b|\bat some point\b"
    r"|\b(?:i'?ll|i will|we'?ll|we will|gonna|going to) probably\b|\bprobably (?:will|gonna)\b"
    # A plan not yet real: "I'm going to have a biscuit", "we're gonna repaint the hall".
    r"|\b(?:i'?m|im|i am|am|we'?re|we are) (?:going to|gonna|gonnae)\b"
    # The same in Spanish, as bilingual users slip into it: "si me dan el raise", "estoy pensando".
    r"|^\W*si (?:me|te|le|nos|tengo|puedo|gano|consigo)\b|\bestoy pensando en\b"
    # Not "Could you help me ...": a request.
    r"|^\W*(?:might|may|could) (?!not\b|you\b|u\b|ya\b)\w+"
    r"|^\W*(?:\S+\s+){0,3}(?:maybe|perhaps|prob|probably)(?:\s+\S+){0,2}\W*$|\bmaybe\W*$"
    r"|^\W*(?:mayb|maybee|mebbe|mebbe|prolly)\b"
    r"|\b(?:half a mind|a good mind|a mind) to\b"
    r"|\b(?:i was|was) thinking (?:maybe|of|about)\b"
    r"|\b(?:would|'d|will|'ll|might|could|going to|want to|hope to|plan to)\b.*"
    r"\b(?:someday|some day|one day(?! (?:a|per|each|every)\b)|eventually|at some point)\b"
    r"|^(?:it )?would (?:be|love|like)\b",
    _I,
)
CONDITIONAL = re.compile(
    r"(?<!even )(?<!as )\b(?:if|unless)\b(?! (?:possible|needed|necessary|any|so|not)\b)", _I
)
MODAL = re.compile(r"\b(?:would|might|could|maybe|perhaps|probably)\b|\w'd\b", _I)
# A wish against the facts: "if i won the lottery i'd buy a jazzmaster and never teach again".
COUNTERFACTUAL = re.compile(
    r"\bif (?:only )?(?:i|we) (?:won|had|were|was|got|could|ever)\b.*\b(?:i'?d|we'?d|would)\b", _I
)

# A state or activity of the moment rather than something that stays true.
TRANSIENT = re.compile(
    rf"{other_languages.MOMENT}"
    r"|\bpissin[g']? down\b|\bfor the next (?:hour|few|couple|\d+)\b|\btyping this (?:from|on|in)\b"
    # Where and how the message is typed, as texting leaves out "I'm": "on break, eating cold
    # pizza", "at a rest stop ... gonna grab some sleep", "sorry typing w one hand".
    r"|^\W*(?:on (?:my |a )?break|at a (?:rest stop|red light|service station|petrol station))\b"
    r"|\bgonna (?:grab|get|crash|sleep|head|go|hit the)\b"
    r"(?! (?:to|into|for) (?:the )?(?:gym|class))"
    r"|\btyping (?:w|with|one|on)\b(?: (?:one|1))?(?: hand)?"
    # A battery running out, a mood of the moment: "my laptop is at 3%", "I'm wrecked today",
    # "I am on the verge of tears".
    r"|\b(?:phone|laptop|battery|tablet|ipad)(?:'s| is)? (?:on|at) \d{1,2}%"
    r"|\b(?:i'?m|i am) (?:\w+ ){0,2}(?:wrecked|shattered|knackered|drained|fried|spent"
    r"|on the verge of tears|in tears|done in)\b"
    r"|\b(?:i'?m|i am|we'?re|we are) (?:now |currently )?on (?:my |a )?break\b"
    r"|\bhands are (?:cold|freezing|shaking)\b"
    r"|\b(?:today|tonight|right now|at the moment|at the minute|just now|for now|for the moment|"
    r"this (?:morning|afternoon|evening|week|weekend|month|quarter)|tomorrow|yesterday|back in a "
    r"(?:bit|sec|second|minute|moment)|brb)\b"
    r"|\b(?:i'?m|i am|im) (?:feeling |so |really |a bit |very |pretty |kind of |quite )*(?:tired"
    r"|exhausted|"
    r"sleepy|hungry|thirsty|sick|ill|unwell|bored|stressed|jet-?lagged|hungover|upset|annoyed|"
    r"frustrated|confused|nervous|worried|anxious|overwhelmed|relieved|"
    r"under the weather|running late|in a (?:rush|hurry))\b"
    r"|\b(?:i'?m|i am|im) (?:currently |presently |now |just )?(?:cooking|eating|waiting"
    # Driving a car of one's own is not of the moment: "I'm driving my mom's 2016 RAV4 now".
    r"|driving(?! (?:a|an|my|our|the|his|her|their)(?: [\w-]+'s)? (?:(?:19|20)\d\d|used|new"
    r"|second-?hand|company|leased?)\b)"
    r"|sitting|walking|heading|commuting"
    # "I'm stood in the lambing shed", "I'm off to stuff 140 favour bags"; not "I'm sat on the
    # board" or "I'm off to university in September".
    r"|(?:stood|sat)(?! on (?:the |a )?(?:board|committee|council|panel|bench))"
    r"|off to (?:bed|\w+ (?:the|some|my|a|an|\d+)\b)|"
    r"boarding|stuck|having (?:lunch|dinner|breakfast|a break))\b"
    r"|\bi'?m (?:at|in) (?:the|a) (?:airport|station|meeting|hotel|cafe|café|coffee shop|gym|"
    r"doctor'?s?|dentist|hospital|queue|lobby)\b"
    r"|(?:^|\b(?:i|we) (?:only )?)just (?:got|came|finished|arrived|woke|left|had|ate|returned)\b"
    r"|\b(?:i'?m|we'?re) (?:currently )?(?:on (?:vacation|holiday|leave|a break|a trip|sick leave)"
    r"|off sick|away)\b|\buntil (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
    r"tomorrow|next week|the end of the (?:day|week))\b"
    r"|\bcurrently (?:in|at|on|away)\b|\bfor (?:a|the) (?:conference|trip|business trip|"
    r"work trip|holiday|vacation|wedding)\b"
    r"(?! (?:flat|home|house|cottage|let|rental|apartment|season))"
    r"|\b(?:won'?t|doesn'?t|does not|isn'?t|is not) (?:compile|build|load|boot|connect)\b"
    r"|\b(?:won'?t|isn'?t|is not) (?:start|work|run)(?:ing)?\b"
    r"|\b(?:is|are|keeps?) (?:failing|crashing|down)\b"
    r"|\bjust (?:broke|crashed|failed)\b|\bit'?s \d{1,2}(?::\d\d)? ?(?:am|pm)\b"
    # A journey held up or a phone running flat: "the train's delayed again", "phone's on 3%".
    r"|\b(?:train|flight|bus|plane|tram|ferry|coach|taxi|uber|delivery|parcel)(?:'s| is| was"
    r"| got| has been)? (?:delayed|cancell?ed|running late)\b(?! (?:every|on|most))"
    r"|\b(?:phone|laptop)(?:'s| is)? on \d{1,2} ?%|\b(?:phone|battery|laptop)(?:'s| is) dying\b"
    r"|\bi can'?t (?:sleep|focus|concentrate|think straight)\b"
    r"|^\W*(?:\w+,\s*)?(?:rough|tough|hectic|busy|crazy|stressful|bad|awful|long) "
    r"(?:morning|day|night|week|afternoon|shift)\b"
    r"|\b(?:rn|atm|omw|on my way|running (?:late|behind)|back-to-back|b2b|all day)\b"
    r"|\b(?:in|on) (?:a|the|my|me) (?:cab|taxi|uber|train|bus|plane|flight|meeting|mtg|call|lobby"
    r"|queue|line|break|lunch break)\b|\bstuck (?:in|at|on)\b|\btyping on (?:my |a )?phone\b"
    r"|\b(?:sorry|sry|apologies) (?:for|about) (?:the )?(?:short|late|slow|brief|typos?|delay)"
    r"|\b(?:was|been) in (?:a |the )?(?:meeting|mtg|call)\b|\bexcuse the\b|\b(?:is|'s|are) down\b"
    r"|\b(?:about to|gonna|going to) (?:head|go|leave|sleep|eat|start|jump|hop)\b"
    r"|^\W*(?:at|in) (?:the|a) (?:airport|station|office|gym|hospital|doctor'?s|dentist|cafe|pub)\b"
    r"|^\W*(?:so+ |really |super )?(?:tired|exhausted|sleepy|hungry|starving|wiped|knackered|fried"
    r"|soaked|freezing|bored|sick|stuffed|shattered)\b|^\W*on my phone\b"
    r"|\b(?:i'?m|im|am|typing|writing|composing|replying|texting|this|it) on my phone\b"
    r"|\bjust (?:come|got|gotten) off (?:a|the|my)\b"
    r"|\bjust (?:finished|got back"
    r"|came back|woke up|arrived|walked in|sat down)\b|^\W*(?:sitting|standing|waiting|lying"
    r"|walking|driving|heading|queueing|queuing|commuting)\b|\b(?:in|on) (?:the )?(?:train|bus"
    r"|plane|tram|subway|metro|s-bahn|u-bahn|taxi|cab)\b|\b(?:is|'s) jammed\b|\blast night\b"
    r"|\bmid-(?:incident|meeting|call|shift|flight)\b|\brunning on (?:fumes|empty|no sleep)\b"
    r"|^\W*typing (?:with|from|on|in)\b|\b(?:hours? of sleep|barely slept|no sleep"
    r"|didn'?t sleep)\b"
    r"|\b(?:hrs|hours) sleep\b|\bovernight\b|\bas (?:i type|we speak)\b|\bthis wk\b"
    r"|\bjust (?:\w+ed|threw|got|had|came|went|saw|told|ate|sent|made|took|broke|left|ran|fell"
    r"|woke)\b"
    r"|\b(?:is|'s|are) (?:out|dead)\b|\bon the day\b"
    r"|\bsince \d{1,2}(?: ?(?:am|pm|o'?clock))?(?![\d:.])\b(?! ?(?:years?|yrs?|months?|weeks?))"
    r"|\b(?:power|internet|wi-?fi|electricity|water|heating)(?:'s|s| is| has)?(?: been)?"
    r" (?:off|out|down)\b|\bthe noo\b|\b(?:is|are|was|'s) (?:running )?late\b"
    r"|\b(?:bit|a bit|rather|so|absolutely|totally)"
    r" (?:frazzled|shattered|knackered|wiped|exhausted)"
    r"|\b(?:heavy|long|rough|busy|hectic|mad|crazy|exhausting|tiring|draining|brutal|gruelling"
    r"|grueling) (?:morning|day|night|week|shift|afternoon)\b"
    r"|\b(?:in a sec|in a minute|in a bit|later today)\b|^\W*writing (?:this|from)\b"
    r"|^\W*(?:sat|sitting|stuck|waiting|standing|hear at|here at) (?:in|at|on|outside|behind|by)\b"
    r"|\bi'?m (?:getting|grabbing|making|off to) (?:a|some|the)\b"
    r"|\bnext (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|week)\b"
    r"|\bsince (?:midnight|this morning|morning|lunch|last night|dawn)\b"
    # "been inspecting since seven": an hour of today, not an age or a year.
    r"|\bbeen \w+ing since (?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b"
    r"(?! (?:years?|yrs?|months?|weeks?))"
    r"|\b(?:i'?ll|i will) be (?:away|off|out)\b|\bout of (?:the )?office\b"
    r"|\b(?:going|off|heading) to (?:bed|sleep)\b|\bback in (?:\d{1,2}|five|ten|two|a few)\b"
    r"|\bon hold (?:with|for)\b|\b(?:in|on) (?:a|the|my) \w+ (?:meeting|call|mtg)\b"
    r"|\bwriting (?:this |to you )?from\b"
    r"|\b(?:i'?m|i am) (?:currently |absolutely |completely )?(?:buried|swamped|snowed under"
    r"|drowning"
    r"|knackered|shattered|wiped|frazzled)\b"
    r"|\bin \d+ (?:hours?|hrs|minutes?|mins)\b|\b\d+ (?:hours?|hrs|minutes?|mins) into\b"
    r"|^\W*just (?:back|home|in|out|off|up)\b"
    r"|^\W*(?:in|at|on) (?:a|an|the) \w+ (?:in|at|on|with|outside|near)\b"
    r"|\bwaiting (?:on|for)\b|\bout there\W*$"
    r"|\b(?:crashed|crashing|froze|freezing|hung|died|broke|fail|failed|failing) (?:again|on me)\b"
    r"|\bi'?m (?:soaked|drenched|freezing|boiling|roasting|starving|stuffed)\b"
    r"|^\W*(?:presently|at present)\b|\btake light\b"
    # Scots: "the morra" is tomorrow; "baltic" is freezing.
    r"|\bthe morra\b|\bbaltic\b|\bbricking it\b"
    r"|\bbrain(?:'s| is) (?:fried|mush|dead|gone|toast)\b|\bstuck inside\b|\bi'?m dying\b"
    r"|\b(?:im|i'?m) (?:so |absolutely )?wrecked\b|\b(?:it'?s )?(?:raining|pouring|snowing)\b"
    r"|\bcoffee (?:number )?(?:two|three|four|five|\d)\b|\bjust (?:returning|returned|back) from\b"
    r"|\bbucketin[g']? down\b|\bchuckin[g']? it down\b|\bgotta be quick\b"
    r"|\bin (?:five|ten|fifteen|twenty|thirty) (?:minutes|mins)\b"
    r"|\b(?:network|signal|reception|connection) is (?:bad|poor|terrible|awful|patchy)\b"
    r"|\b(?:i'?m|i am) (?:very |so |really |super |crazy |extremely )?busy\b"
    r"|\b(?:fog|rain|snow|wind|sun|weather)(?:'s| is) (?:\w+ )?(?:lovely|thick|heavy|awful|grim"
    r"|glorious|gorgeous|terrible|mad|wild|brutal|biblical|out|bad|foul|rough|wet|horrible"
    r"|miserable)\b"
    # The shop's or the ward's moment: "Queue out the door.", "40 TTOs pending."
    r"|\bqueue(?:'s| is| was)? out the door\b"
    r"|^\W*\d+\s+[\w-]+\s+(?:pending|waiting|outstanding)\W*$"
    # Now and today in the languages users slip into.
    r"|\b(?:hoy|ahorita|ahora mismo|hoje|aujourd'hui|heute|oggi|vandaag)\b"
    r"|\ben el (?:bus|metro|tren|carro|coche|uber|tr[aá]fico)\b",
    _I,
)

# A change that lasts: "no longer at the insurance company, since this month I work for ...".
CHANGE = re.compile(
    r"\b(?:no longer|any ?more|switched|moved to|these days|nowadays"
    r"|(?:went|gone|down|up) to \S*\d"
    # A change said with its verb, even with a date beside it: "we moved from Jira to Linear this
    # week", "upgraded the project to Unity 6 last night", "Bev's down to just Thursdays now".
    r"|moved (?:from|me|us|him|her|them|it)|migrated|upgraded|downgraded|(?:been )?changed to"
    r"|have been changed|(?:is|'s|are|'re) down to|got rid of|transferr?(?:ed)?|swapped|ditched"
    r"|quit|retired|replaced|pivoted|binned"
    # A start that lasts, a return, a new figure: "just started at the academy", "back on Canon",
    # "Full-day is $3,800 now".
    r"|(?:just )?(?:started|joined|enrolled) (?:at|with|as|in)"
    r"|back (?:to|on) (?!(?:it|work|the grind|square one|normal|bed|sleep|track|back)\b)"
    r"|(?:is|are|'s)\s+\S*\d\S*\s+now"
    # A change that holds from a period on: "as of this month", "from next term", "starting in
    # May" (a day is too short to tell: "from tomorrow I'm off sick" is of the moment).
    r"|(?:as of|starting(?: in)?|effective|from) (?:(?:this|next) (?:week|month|term|semester"
    r"|year|quarter|season|sprint|contract|school year)|january|february|march|april|may|june"
    r"|july|august|september|october|november|december)"
    r")\b",
    _I,
)

# A rule that stands beyond the moment ("always", "from now on"); broader words such as "every" or
# "everything" also turn up in states of the moment ("took everything out of me").
STANDING_RULE = re.compile(
    r"\b(?:always|never|from now on|going forward|in (?:the )?future|from here on|whenever"
    r"|by default|each time|every time|standing rule|house rule|ground rule|as a rule"
    r"|without exception|no exceptions)\b"
    # A condition a rule holds under: "the helpdesk only resets a password after a call".
    r"|\bonly\b[^.,;!?]{0,40}\b(?:after|once|until|unless)\b"
    r"|^\W*(?:pls |please )?(?:don'?t|dont|do not|stop|no more)\b",
    _I,
)

# A request about the message at hand ("summarise this") rather than a standing instruction.
DEICTIC = re.compile(r"\b(?:this|that|these|those|it|here|the following|above|below)\b", _I)
# Verbs of one-off tasks: "Write a haiku", "Give me three ideas" ask for something once.
TASK_REQUEST = re.compile(
    r"^(?:please\s+)?(?:write|give|make|create|draft|generate|translate|summari[sz]e|explain|list|"
    r"show|tell|find|fix|plan|suggest|recommend|compare|review|rewrite|edit|send|book|help)"
    r"(?: (?:me|us))? (?:a|an|some|\d+|two|three|four|five|ten|a few|a couple of)\b"
    r"|^(?:please\s+)?remind me to\b",
    _I,
)
STANDING = re.compile(
    r"\b(?:always|never|from now on|going forward|in (?:the )?future|from here on|every|everything|"
    r"anything|all my|whenever|by default|each time|standing rule|house rule|ground rule"
    r"|as a rule)\b",
    _I,
)

# Words that carry no content of their own: with only these a statement says nothing to keep.
EMPTY_WORDS = word_set(
    """
    i i'm i've i'd me my we we're our us you your it it's its this that that's these those they
    them he she his her a an the and or but so of to in on at for with about as by from into onto
    is are was were be been being am 'm do does did have has had get got go going like likes love
    prefer enjoy want need mean meant say said think guess know feel kind sort sorts kinds of stuff
    thing things something anything everything nothing whatever usual others other some few all lot
    lots bit much many more most same different better worse best good bad fine okay ok really
    lately recently stuff's feeling feelings whole place meh bunch kinda sorta matters somewhat tbh
    ngl doing been over around like this that know you shall say these days things' all over always
    suppose interests interest several various numerous idk im dunno
    very just quite pretty kinda sorta well there here what which one ones way ways than not no sure
    certain idea clue maybe guess i'll we'll you'll it'll will would can could try see look check
    """
)

# Words that stand in for content: with them and little else a statement is too vague.
# Vagueness in another language says nothing whatever else surrounds it ("sei lá, umas coisas").
VAGUE_ELSEWHERE = re.compile(other_languages.VAGUE, _I)
VAGUE = re.compile(
    r"\b(?:various|several|many|numerous|a few|some) (?:interests|things|projects|subjects|bits"
    r"|gadgets|matters|topics|areas|hobbies)\b|\ba fair bit of\b"
    r"|\b(?:stuff|things?|whatever|so-so|this and that|like this and like that|a whole thing"
    r"|somewhat|meh|all over the place|the usual|a bunch|some feelings?|feelings|here and there"
    r"|a few (?:interests|things|bits)|various things|sort of|kind of|kinda|sorta|so so"
    r"|bits and pieces"
    r"|a bit of everything|bits and bobs|odds and ends|stuf|thingz"
    r"|mixed bag|depends)\b",
    _I,
)

# Kinds. Correction markers are dropped before the kind is read.
CORRECTION_PREFIX = re.compile(
    r"^(?:(?:actually|no|nope|correction|wait|update|scratch that|to be clear)\b[\s,:;\-]*"
    r"(?:it'?s\b|it is\b)?[\s,]*|please\b[\s,]*)+",
    _I,
)
LESSON = re.compile(
    r"^(?:lessons? learn(?:ed|t)|lesson|note to self|takeaway|til|rule of thumb)\b\s*[:,\-]"
    r"|\b(?:i|we) (?:have |'ve )?learn(?:ed|t) (?:that|the hard way|to)\b",
    _I,
)
IMPERATIVE_VERBS = word_set(
    """
    use keep write format give answer reply respond call address avoid stop include add put send
    show tell remind make let be skip try explain list mention refer spell sign cite schedule book
    run check assume treat default convert round translate summarise summarize start end ask wrap
    limit leave label sort document comment capitalise capitalize quote link follow stick speak
    remind
    talk greet never always don't dont do please prioritise prioritize double-check omit
    """
)
NOT_IMPERATIVE_AFTER = word_set("is are was were has have had 's")
INSTRUCTION = re.compile(
    r"^(?:from now on|going forward|in (?:the )?future|from here on|call me|remember to)\b"
    r"|\b(?:i want|i'?d like|i would like) you to\b|\bwe (?:always|never) \w+"
    r"|^(?!i\b)[a-z][\w\s'-]{0,40}? (?:should|must|shouldn'?t|mustn'?t)\b",
    _I,
)
PREFERENCE = re.compile(
    r"\bi (?:really |much |also |still |no longer |don'?t |do not |absolutely |generally )?"
    r"(?:prefer|like|love|enjoy|hate|dislike|adore|detest)\b|\bi'?d rather\b|\bmy favou?rite\b"
    r"|\bsuits? me\b|\bi'?m (?:a (?:big |huge )?|not a )fan of\b",
    _I,
)
# A habitual choice ("I always book an aisle seat", "I fly with KLM when I can").
CHOICE = re.compile(
    r"\b(?:when|whenever|where|if) (?:i can|possible)\b"
    r"|\bi (?:always|only) (?:use|book|take|choose|pick|order|get|buy|go with|stick (?:with|to)"
    r"|fly|drink|eat|read|wear)\b",
    _I,
)
_WEEKDAYS = "mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays|weekends|weekdays"
PATTERN = re.compile(
    r"\b(?:usually|normally|typically|generally|often|rarely|seldom|tend to|daily|weekly|monthly"
    r"|every (?:day|morning|evening|night|week|weekend|month|year|monday|tuesday|wednesday|thursday"
    r"|friday|saturday|sunday)|each (?:day|week|morning|evening)"
    r"|(?:once|twice|\d+ times|(?:two|three|four|five|six|seven) times) (?:a|per) "
    rf"(?:day|week|month|year)|on (?:{_WEEKDAYS})|in the (?:mornings?|afternoons?|evenings?)"
    r"|at night"
    r"|(?:before|after) work|first thing|night owl|early bird|(?:morning|evening) person"
    r"|morning runner|always\b.*\b(?:before|after))\b",
    _I,
)
# Clauses that make what follows them conditional or habitual rather than of the moment.
SUBORDINATE = re.compile(r"\b(?:when|whenever|if|unless|while|because|cuz|or)\b", _I)
# A leading condition before the main clause ("When I ask for code, use Python").
CONDITION_CLAUSE = re.compile(r"^(?:if|unless|when|whenever)\b[^,]*,\s*", _I)
FIRST_PERSON_START = re.compile(r"^(?:when [^,]+,\s*)?i(?:'m|'ve)?\b", _I)

# Fillers that close a statement without being part of it ("i hate math so much lol").
DISCOURSE_SUFFIX = re.compile(
    r"(?:[\s,]+(?:lol+|haha+|lmao|tbh|ngl|btw|fr|xd|honestly|let'?s go+|tho|though"
    # A dare or a shrug after the statement: "Irn-Bru is the best, fight me".
    r"|fight me|sue me|come at me|don'?t judge(?: me)?|no judg(?:e)?ment|just saying"
    r"|(?:don'?t|dont|dinnae|do not) let me forget"
    r"|[\U0001F300-\U0001FAFF\u2600-\u27BF\ufe0f]+))+\W*$",
    _I,
)
# Fillers left out of a kept statement ("By the way, I live in Lisbon." keeps "I live in Lisbon.");
# the others of DISCOURSE_PREFIX ("honestly", "lowkey") colour the statement and stay in it.
LEFT_OUT_PREFIX = re.compile(
    r"^(?:(?:by the way|btw|also|plus|and|oh and|anyway|anyways|so|well|ok|okay|oh|fyi|just fyi"
    r"|for the record|just so you know|reminder|lol|hey|ngl|tbh|(?:now )?listen(?=,)|look(?=,))\b"
    r"\s*[,:\-]?\s+)+",
    _I,
)
# Fillers that open a statement without being part of it ("By the way, I live in Lisbon.").
DISCOURSE_PREFIX = re.compile(
    r"^(?:(?:by the way|btw|also|plus|and|oh and|anyway|anyways|so|well|ok|okay|alright|oh|ngl|tbh"
    r"|honestly|lowkey|so yeah|yeah so|"
    r"just fyi|fyi|"
    r"for the record|for context|just so you know|incidentally|side note|one more thing|"
    r"quick note|heads up|just a heads up|reminder|(?:now )?listen(?=,)|look(?=,))\b"
    r"\s*[,:\-]?\s+)+",
    _I,
)

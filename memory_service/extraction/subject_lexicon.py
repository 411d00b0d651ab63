"""Common subjects of statements about a user and their work, each with the words that name it.

Order matters: the first subject whose pattern matches wins, so narrow subjects ("integration
tests", "deploy freeze") come before the broad ones they would otherwise fall into ("test
framework", "deploy day"). Patterns are searched in lowercased text.
"""

from __future__ import annotations

NATURAL_LANGUAGES = (
    "english|spanish|portuguese|french|german|italian|dutch|japanese|chinese|mandarin|cantonese|"
    "korean|arabic|russian|hindi|polish|swedish|norwegian|danish|finnish|greek|turkish|hebrew|"
    "catalan|ukrainian|czech|vietnamese|thai|indonesian"
)
PROGRAMMING_LANGUAGES = (
    r"python|java|kotlin|rust|golang|go|ruby|c\+\+|c#|scala|swift|php|elixir|erlang|haskell|"
    r"typescript|javascript|perl|clojure|ocaml|dart|lua|julia|zig|r|gdscript|matlab|fortran|cobol"
    r"|vba|solidity|f#"
)
FAMILY_MEMBERS = (
    "son|daughter|wife|husband|partner|spouse|girlfriend|boyfriend|fiancée|fiancee|fiancé|fiance|"
    "mother|mum|mom|father|dad|brother|sister|kids|children|child|baby|grandmother|grandfather|"
    "grandma|grandpa|parents|aunt|uncle|cousin|niece|nephew"
)
_PARTNERS = "wife|husband|partner|spouse|girlfriend|boyfriend|fiancée|fiancee|fiancé|fiance"

# Family words that share one subject, so "my wife" and "my partner" are the same person.
FAMILY_SUBJECTS = {
    **dict.fromkeys(_PARTNERS.split("|"), "partner"),
    **dict.fromkeys(("mother", "mum", "mom"), "mother"),
    **dict.fromkeys(("father", "dad"), "father"),
    **dict.fromkeys(("kids", "children", "child"), "children"),
    **dict.fromkeys(("grandmother", "grandma"), "grandmother"),
    **dict.fromkeys(("grandfather", "grandpa"), "grandfather"),
}

# Subjects that compose with a family member: "my son is allergic to cats" is "son allergy".
PERSONAL_TOPICS = {"allergy", "diet", "birthday", "health condition"}

SUBJECTS: tuple[tuple[str, str], ...] = (
    ("name", r"\bcall me\b|\bmy name is\b|\bi go by\b|\baddress me as\b|\bmy name'?s\b"),
    ("integration tests", r"\bintegration tests?\b|\bend-to-end tests?\b|\be2e tests?\b"),
    ("migrations", r"\bmigrations?\b"),
    ("bug fixing", r"\bfix(?:ing|es)? (?:a |the )?bugs?\b|\bbug ?fix"),
    ("code review", r"\bcode reviews?\b|\bpull requests?\b|\bprs\b|\breview(?:ing)? code\b"),
    ("commit message style", r"\bcommit messages?\b"),
    (
        "git workflow",
        r"\bforce[- ]push|\brebas(?:e|ing)\b|\bsquash|\bgit ?flow\b|\btrunk-based\b"
        r"|\bmerge commits?\b|\bfeature branch",
    ),
    ("linting", r"\blint(?:er|ers|ing)?\b|\beslint\b|\bflake8\b|\bruff\b|\bpylint\b"),
    ("code formatter", r"\bformatter\b|\bprettier\b|\bblack formatter\b|\bgofmt\b"),
    (
        "test framework",
        r"\bpytest\b|\bunittest\b|\bjest\b|\bmocha\b|\brspec\b|\bjunit\b|\bvitest\b"
        r"|\btest(?:ing)? framework\b",
    ),
    ("code comments", r"\bcode comments?\b|\bcomments in (?:the |my )?code\b|\bdocstrings?\b"),
    ("type checking", r"\btype hints?\b|\bmypy\b|\btype check"),
    ("npm scope", r"@\w+ scope\b|\bnpm scope\b|\bpublish(?:es|ing)? packages\b"),
    (
        "package manager",
        r"\bpoetry\b|\bpipenv\b|\bpip\b|\buv\b|\bconda\b|\byarn\b|\bpnpm\b|\bpackage manager\b"
        r"|\bdependencies\b",
    ),
    ("local development", r"\blocal (?:development|dev)\b|\bdocker compose\b|\bdevcontainers?\b"),
    ("ci", r"\bci\b|\bgithub actions\b|\bjenkins\b|\bcircleci\b|\bcontinuous integration\b"),
    (
        "code hosting",
        r"\b(?:hosted|lives?|host|are) on (?:github|gitlab|bitbucket)\b"
        r"|\brepos?\b.*\b(?:github|gitlab|bitbucket)\b",
    ),
    (
        "team size",
        r"\b(?:team|startup|company) (?:of|is|has) \w+ (?:people|engineers|developers|members)\b",
    ),
    (
        "health condition",
        r"\bdiabet\w*|\basthma\w*|\bc(?:o)?eliac\b|\bmigraines?\b|\badhd\b|\bdyslexi\w*"
        r"|\bcolou?r-?blind\b|\bepilep\w*",
    ),
    ("handedness", r"\b(?:left|right)-handed\b"),
    ("on-call", r"\bon-?call\b|\bpager ?duty\b"),
    (
        "infrastructure",
        r"\bkubernetes\b|\bk8s\b|\bterraform\b|\bansible\b|\bhelm\b|\binfrastructure\b",
    ),
    (
        "web framework",
        r"\bdjango\b|\bflask\b|\bfastapi\b|\brails\b|\blaravel\b|\bspring boot\b|\bnext\.?js\b"
        r"|\bexpress\.?js\b",
    ),
    ("secrets storage", r"\bvault\b|\bsecrets? manager\b|\bkeychain\b"),
    ("frontend stack", r"\bfront-?end\b"),
    ("employer", r"\bwork(?:s|ing)? (?:at|for)\b|\bemployer\b|\bemployed (?:at|by)\b|\bjoined\b"),
    (
        "role",
        r"\bmy (?:role|job title|job)\b|\bwork as an?\b|\bi'?m an? (?:\w+ ){0,2}(?:engineer|"
        r"developer|designer|manager|analyst|scientist|consultant|architect|teacher|nurse|writer|"
        r"researcher|student|freelancer)\b",
    ),
    # What a recruiter or a freelancer specialises in, whatever field it names.
    ("niche", r"\bniche\b"),
    ("caseload", r"\bcase ?loads?\b|\bopen cases\b"),
    ("sponsor", r"\bsponsors?\b|\bsponsored by\b|\bsponsorships?\b"),
    ("backend stack", r"\bback-?end\b"),
    (
        "editor",
        r"\bvs ?code\b|\bvisual studio\b|\bneo?vim\b|\bvim\b|\bemacs\b|\bsublime\b|\bintellij\b"
        r"|\bpycharm\b|\bwebstorm\b|\beditor\b|\bide\b|\bzed\b|\bnano\b|\bhelix\b|\bcursor\b",
    ),
    ("shell", r"\bzsh\b|\bbash\b|\bfish shell\b|\bshell\b|\bpowershell\b|\bnushell\b"),
    ("terminal", r"\bterminal\b|\biterm2?\b|\balacritty\b|\bkitty\b|\bwezterm\b|\bghostty\b"),
    (
        "operating system",
        r"\bmacos\b|\bmac ?os\b|\blinux\b|\bubuntu\b|\bfedora\b|\bdebian\b|\barch\b|\bwindows\b"
        r"|\bon a mac\b|\boperating system\b",
    ),
    (
        "cloud provider",
        r"\baws\b|\bamazon web services\b|\bgcp\b|\bgoogle cloud\b|\bazure\b|\bdigitalocean\b"
        r"|\bheroku\b|\bhetzner\b|\bcloud provider\b|\bon-prem",
    ),
    (
        "database",
        r"\bmysql\b|\bpostgres(?:ql)?\b|\bsqlite\b|\bmongo(?:db)?\b|\bmariadb\b|\bdynamodb\b"
        r"|\bdatabase\b",
    ),
    ("scripting language", r"\bscripts?\b|\bscripting\b"),
    (
        "response language",
        rf"\b(?:answer|repl(?:y|ies)|respond|responses?|write to me|talk to me|speak to me)\w* in "
        rf"(?:{NATURAL_LANGUAGES})\b",
    ),
    ("language learning", rf"\blearning (?:{NATURAL_LANGUAGES})\b|\blanguage learning\b"),
    ("spoken languages", r"\bi speak\b|\bnative (?:language|speaker)\b|\bfluent in\b"),
    (
        "code style",
        r"\bsemicolons?\b|\bnaming conventions?\b|\b(?:camel|snake|pascal|kebab)[ _-]?case\b"
        r"|\bstyle guide\b|\bline length\b|\b(?:single|double) quotes\b|\btrailing commas?\b",
    ),
    (
        "programming language",
        rf"\bprogramming language\b|\blanguage at work\b|\bcode in (?:{PROGRAMMING_LANGUAGES})\b"
        rf"|\bmy (?:main|primary) language\b"
        # "I write everything in GDScript", "ported the combat code to C#", "the project's C# now"
        # ("C#," ends on no word boundary).
        rf"|\b(?:code|write|program|develop|build)s?\s+(?:\w+\s+){{0,3}}in"
        rf" (?:{PROGRAMMING_LANGUAGES})(?![\w+#])"
        rf"|\b(?:ported|moved|switched|migrated|rewrote|rewriting)\b[^.]{{0,40}}\bto"
        rf" (?:{PROGRAMMING_LANGUAGES})(?![\w+#])"
        rf"|\b(?:project|codebase|code ?base|repo|backend|frontend)(?:'s| is)"
        rf" (?:all |now |mostly )?(?:{PROGRAMMING_LANGUAGES})(?![\w+#])",
    ),
    (
        "timezone",
        r"\btime ?zone\b|\b(?:utc|gmt|cet|cest|pst|pdt|est|edt|bst|ist|aest)\b"
        r"|\b(?:central|eastern|pacific|mountain|european|atlantic|greenwich)\b[\w ]{0,20}\btime\b",
    ),
    (
        "family visits",
        r"\bvisit(?:s|ing)? (?:my |our )?(?:parents|family|mum|mom|dad|grandparents|in-laws)\b",
    ),
    (
        "working hours",
        r"\bworking hours\b|\b(?:work(?:ing)?|online|available) (?:from|between) \d"
        r"|\boffice hours\b|\b(?:start|finish) work\b",
    ),
    ("deploy freeze", r"\b(?:never|don'?t|do not|no) deploy|\b(?:deploy(?:ment)?|code) freeze\b"),
    (
        "deploy day",
        r"\b(?:deploy|ship)\w*\b.*\b(?:mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|weekdays?"
        r"|days?)\b"
        r"|\bdeploy day\b",
    ),
    ("release time", r"\breleases?\b"),
    # Hours and shifts: "I work four tens, Monday through Thursday", "moved to mid shift".
    (
        "work schedule",
        r"\bfour tens\b|\b(?:night|day|mid|early|late|evening|morning|weekend|split) ?shifts?\b"
        r"|\bshift pattern\b|\brota\b|\broster\b|\b(?:work )?schedule (?:changed|is now)\b"
        r"|\b(?:i|we) work (?:days|nights|weekends|four|three|\d)",
    ),
    # What the user charges: "my full-day package is $3,200", "raising my day rate".
    (
        "pricing",
        r"\b(?:full|half)[- ]day\b.*[$£€¥₹]|\b(?:day|hourly) rate\b|\bi charge\b|\bmy (?:rates?"
        r"|prices)\b|\bprice list\b",
    ),
    ("standup time", r"\bstand-?ups?\b|\bdaily scrum\b"),
    ("sprint length", r"\bsprints?\b"),
    ("meeting times", r"\bmeetings?\b|\bcalls? (?:before|after)\b"),
    ("date format", r"\bdates?\b.*\bformat|\bformat\w* dates\b|\byyyy\b|\biso 8601\b"),
    (
        "units",
        # Not a measure given with its figure: "a Civic with 190k miles", "lost 10 pounds".
        r"\bmetric\b|\bimperial\b|(?<![\dk] )(?:\bkilomet|\bkilogram|\bmiles\b|\bpounds\b)"
        r"|\bcelsius\b|\bfahrenheit\b|\bunits\b",
    ),
    ("time format", r"\b24-hour\b|\b12-hour\b|\bam/pm\b"),
    ("spelling", r"\bspelling\b|\b(?:british|american|uk|us) english\b"),
    ("oxford comma", r"\b(?:oxford|serial) comma\b"),
    ("emojis", r"\bemojis?\b"),
    (
        "response length",
        r"\b(?:answers?|responses?|replies|explanations?)\b.*\b(?:short|brief|concise|detailed|long|"
        r"length)\b|\bkeep it (?:short|brief)\b|\bbe (?:brief|concise)\b|\b(?:short|brief|concise|"
        r"detailed|long) (?:answers?|responses?|replies|explanations?)\b",
    ),
    ("response format", r"\bbullet points?\b|\bheadings?\b|\btables?\b"),
    ("tone", r"\btone\b|\bformal\b|\bcasual\b"),
    ("narrative voice", r"\b(?:first|third|second) person\b|\b(?:present|past) tense\b|\bnarrat"),
    (
        "writing schedule",
        r"\bwrit\w*\b.*\b(?:night owl|early bird|after \d|before \d|at night|in the mornings?)"
        r"|\b(?:night owl|early bird)\b.*\bwrit",
    ),
    ("email sign-off", r"\bsign (?:off|emails?)\b|\bsign-?off\b|\bemail signature\b"),
    (
        "writing style",
        r"\bsentences\b|\bplain (?:words|language|english)\b|\bjargon\b|\b(?:passive|active) voice"
        r"|\bwriting style\b",
    ),
    ("note format", r"\bnotes? (?:in|as) (?:markdown|plain text|org)\b|\bmarkdown notes\b"),
    (
        "note-taking app",
        r"\bobsidian\b|\bnotion\b|\bevernote\b|\bonenote\b|\blogseq\b|\bapple notes\b|\bmy notes\b"
        r"|\bnote-taking\b",
    ),
    (
        "password manager",
        r"\b1password\b|\bbitwarden\b|\blastpass\b|\bkeepass\w*\b|\bpassword manager\b",
    ),
    ("ssh key type", r"\bssh keys?\b|\bed25519\b"),
    (
        "communication channel",
        r"\bslack\b|\be-?mails?\b|\bmicrosoft teams\b|\bdiscord\b|\bwhatsapp\b|\btelegram\b"
        r"|\btext messages?\b",
    ),
    ("lactose intolerance", r"\blactose\b"),
    ("allergy", r"\ballerg\w*"),
    ("diet", r"\bvegetarian\b|\bvegan\b|\bpescatarian\b|\bketo\b|\bpaleo\b|\bgluten\b|\bdiet\b"),
    ("spicy food", r"\bspic(?:y|e)\b|\bhot sauce\b|\bchill?i"),
    (
        "coffee",
        r"\bcoffee\b|\bespressos?\b|\blattes?\b|\bcappuccinos?\b|\bflat whites?\b"
        r"|\blong blacks?\b|\bamericanos?\b|\bdecaf\b|\bmacchiatos?\b|\bcortados?\b"
        r"|\bcold brew\b|\bmochas?\b",
    ),
    ("tea", r"\btea\b"),
    ("cuisine", r"\b(?:thai|italian|indian|mexican|japanese|chinese|french) (?:food|cuisine)\b"),
    ("strength training", r"\bstrength training\b|\bweight ?lifting\b|\blift(?:ing)? weights\b"),
    (
        "exercise",
        r"\bi (?:\w+ )?run\b|\brunn(?:ing|er)\b|\bjog|\bgym\b|\bworkouts?\b|\bexercise\b|\bswim"
        r"|\bcycling\b|\byoga\b|\bpilates\b",
    ),
    ("sleep", r"\bsleep\b|\bbedtime\b|\bwake up\b|\bgo to bed\b|\bgo to sleep\b"),
    (
        "city",
        r"\b(?:i|we|i'm|we're|me and [\w-]+|[\w-]+ and i) (?:now |currently |still )?li(?:ve|ving)"
        r" in\b"
        r"|\b(?:i|we) (?:\w+ )?moved (?:out |over |back |down |up )?to\b"
        r"|\b(?:i'?m|we'?re) based in\b|\b(?:i|we) (?:now |currently |still )?resid(?:e|ing) in\b"
        r"|\bmy (?:home ?town|city)\b"
        r"|^\W*(?:now )?(?:i |we )?(?:have |'ve )?(?:just )?(?:moved|relocated|shifted) to\b"
        # Terse and bilingual: "live in oslo.", "based out of Pune", "vivo en Houston".
        r"|^\W*(?:i |we )?(?:now |still )?li(?:ve|ving) (?:in|near|outside)\b|\bbased out of\b"
        r"|\bvivo en\b|\bj'habite\b|\bmoro em\b",
    ),
    ("seat preference", r"\baisle\b|\bwindow seats?\b|\bseats?\b"),
    ("airline", r"\bairlines?\b|\bfly with\b|\bfrequent flyer\b|\bklm\b|\blufthansa\b"),
    (
        "travel booking",
        r"\bbook(?:ed|ing)? (?:through|via|with)\b|\btravel (?:portal|agent)\b",
    ),
    ("travel mode", r"\btrains?\b.*\bplanes?\b|\bplanes?\b.*\btrains?\b|\bby (?:train|plane)\b"),
    ("hotel location", r"\bhotels?\b.*\b(?:close|near|next to|centre|center|walking distance)\b"),
    ("hotels", r"\bhotels?\b"),
    ("luggage", r"\bluggage\b|\bcarry-on\b|\bsuitcase\b|\bchecked bags?\b"),
    (
        "reading format",
        r"\bkindle\b|\be-?readers?\b|\be-?books?\b|\bpaper books?\b|\baudiobooks?\b"
        r"|\bpaperbacks?\b|\bhardcovers?\b",
    ),
    (
        "desk setup",
        r"\bstanding desk\b|\bkeyboard\b|\bmonitors?\b|\bdesk setup\b|\bmouse\b|\bdesk\b",
    ),
    ("car", r"\bdrive an? \b|\bdriving (?:an?|my|our)(?: [\w-]+'s)? |\bmy car\b|\bcar\b"),
    ("pair programming", r"\bpair programming\b|\bpairing\b|\bmob programming\b"),
    ("theme", r"\b(?:dark|light) (?:mode|theme)\b|\btheme\b"),
    ("font", r"\bfonts?\b|\btypeface\b"),
    ("indentation", r"\bindent\w*|\btabs\b|\bspaces\b"),
    ("music", r"\bmusic\b|\bplaylists?\b|\bspotify\b|\blisten to\b"),
    ("browser", r"\bchrome\b|\bfirefox\b|\bsafari\b|\bbrowser\b"),
    ("phone", r"\biphone\b|\bandroid\b|\b(?:my|mi) phone\b|\bsamsung galaxy\b|\bgoogle pixel\b"),
    (
        "commute",
        r"\bcommute\b|\b(?:bike|cycle|walk|drive|ride|take (?:the |a )?(?:bus|train|tube|subway"
        r"|metro|tram|ferry)(?: \w+)?) to (?:work|campus|school|uni|college|(?:the )?office)\b",
    ),
    (
        "work location",
        r"\bwork(?:ing)? from\b|\bremote(?:ly)?\b|\bhybrid\b|\boffice days\b|\bin the office\b",
    ),
    # Before the birthday: "I'm 82 now, had my birthday on Tuesday" gives an age.
    ("age", r"\b\d+ years old\b|\bmy age\b|^(?:i'?m|im|i am) \d+\b"),
    ("birthday", r"\bbirthday\b|\bborn on\b"),
    (
        "instrument",
        r"\bguitar\b|\bpiano\b|\bdrums\b|\bviolin\b|\bcello\b|\bsaxophone\b|\bukulele\b",
    ),
    (
        "hobby",
        r"\bhobb(?:y|ies)\b|\bknit\w*|\bchess\b|\bphotography\b|\bgardening\b|\bpainting\b"
        r"|\bvideo games\b|\bgaming\b|\bboard games\b",
    ),
    (
        "education",
        r"\bphd\b|\bdegree\b|\bmaster'?s\b|\bbachelor'?s\b|\bgraduated\b|\buniversity\b"
        r"|\bmy major\b|\bmajor(?:ing)? in\b",
    ),
    ("pet", r"\bdogs?\b|\bcats?\b|\bpupp(?:y|ies)\b|\bkittens?\b|\bpets?\b|\bparrot\b|\bhamster"),
    ("sport", r"\bfootball\b|\bsoccer\b|\btennis\b|\bbasketball\b|\bclimbing\b|\bhiking\b"),
)

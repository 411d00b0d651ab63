"""Requests of the moment, chatter, vagueness and unmarked questions are not filed as facts."""

from __future__ import annotations

import pytest

from memory_service.extraction.candidates import (
    HYPOTHETICAL,
    QUESTION,
    SMALL_TALK,
    TOO_VAGUE,
    TRANSIENT,
)
from memory_service.extraction.rules import extract


@pytest.mark.parametrize(
    "message",
    [
        "Draft the migration with it, please.",
        "jot that somewhere for me",
        "make the CI config pls",
        "rewrite that email, less formal",
        "Here's one from a fund in Denver, draft something polite that says we're full.",
    ],
)
def test_a_request_about_the_message_at_hand_is_transient(message):
    extraction = extract(message)
    assert extraction.candidates == []
    assert [r.reason for r in extraction.rejected] == [TRANSIENT]


@pytest.mark.parametrize(
    "message",
    [
        "Always draft migrations with a rollback step.",
        "From now on, make the CI config use Python 3.12.",
        "Whenever I paste an error, explain the likely cause first.",
        "In future, write user stories in the usual format.",
        "By default, answer in British English.",
    ],
)
def test_a_standing_instruction_is_kept(message):
    assert [c.content for c in extract(message).candidates] == [message]


@pytest.mark.parametrize(
    ("message", "reason"),
    [
        ("lol the dog just sat on my laptop", SMALL_TALK),
        ("long day, the queue was out the door", TRANSIENT),
        ("on my phone till the power's back", TRANSIENT),
        ("gimme a sec", SMALL_TALK),
        ("no wait, forget that", SMALL_TALK),
        ("work is work", SMALL_TALK),
        ("Writers write.", SMALL_TALK),
        ("thanks love, you're a star", SMALL_TALK),
        ("as my mother used to say, a rolling stone gathers no moss.", SMALL_TALK),
        ("Moin!", SMALL_TALK),
        ("I've been doing some stuff with models lately.", TOO_VAGUE),
        ("kkkkkk that video", SMALL_TALK),
        ("jajaja no way", SMALL_TALK),
        ("sweet as thanks heaps", SMALL_TALK),
        ("ach, it is whit it is", SMALL_TALK),
        ("that is precisely what I needed.", SMALL_TALK),
        ("chuck together a packing list for the weekend", TRANSIENT),
        ("chart this as bars for the board meeting", TRANSIENT),
        ("gonnae gie us a template for a reference letter", TRANSIENT),
        ("right it for me as an email to the landlord", TRANSIENT),
        ("select name, total from invoices where total > 100", TRANSIENT),
        ("the boiler's been out since 6", TRANSIENT),
        ("The delivery is running late again.", TRANSIENT),
        ("I'll try the new route to work next month maybe", HYPOTHETICAL),
        ("I've half a mind to sell the car.", HYPOTHETICAL),
        ("I'm into bits and bobs.", TOO_VAGUE),
        ("Love, Auntie Pat", SMALL_TALK),
        ("dont tell anyone lol", SMALL_TALK),
        ("My sister says I talk like a sat nav.", SMALL_TALK),
        ("I'm going to have a nap to celebrate.", HYPOTHETICAL),
        ("waiting on the plumber to turn up", TRANSIENT),
        ("estoy cansado hoy", TRANSIENT),
        ("hazme un resumen de esto", TRANSIENT),
        ("Scale this recipe to six people.", TRANSIENT),
        ("my goodness, that is genuinely brilliant.", SMALL_TALK),
        ("Siguro someday I'll open a bakery.", HYPOTHETICAL),
        ("mayb ill learn the drums", HYPOTHETICAL),
        ("NullReferenceException: Object reference not set to an instance of an object", TRANSIENT),
        ("the build failed again, 12 tests red", TRANSIENT),
        ("giv me 3 names for a bakery", TRANSIENT),
        ("abeg help me write a flyer for the shop", TRANSIENT),
        ("Right, I'd better go, the kettle's on.", SMALL_TALK),
        ("catch u later", SMALL_TALK),
        ("wah lau eh", SMALL_TALK),
        ("Ordnung muss sein, as we say.", SMALL_TALK),
        ("Bon ben, merci mon chum!", SMALL_TALK),
        ("tmj mano, valeu demais", SMALL_TALK),
        ("sei lá, gosto de umas coisas aí", TOO_VAGUE),
        ("me faz uma bio curta pro perfil", TRANSIENT),
        ("chu bloqué sur la 20 depuis une heure", TRANSIENT),
        ("cab mein hoon, airport ja raha", TRANSIENT),
        ("se eu passar na prova vou comprar um teclado", HYPOTHETICAL),
        ("if i won the lottery i'd buy a boat and never work again", HYPOTHETICAL),
        ("Need a 3-line summary of this abstract pls.", TRANSIENT),
        ("I am very sorry to trouble you.", SMALL_TALK),
        ("alright gotta run, kids are up", SMALL_TALK),
        ("pissing down out here, absolutely soaked", TRANSIENT),
        ("got my exam the morra", TRANSIENT),
        ("Study hard, play hard, like the old people say.", SMALL_TALK),
        ("When I was a boy we walked everywhere.", SMALL_TALK),
        ("Right, the news is on, I'm off!", SMALL_TALK),
        ("I trust you are well.", SMALL_TALK),
        ("I am contemplating a move to Leeds.", HYPOTHETICAL),
        ("Slow and steady, that is what my father used to say.", SMALL_TALK),
        ("I'm in town, network is bad, back later.", TRANSIENT),
        ("Kwaheri!", SMALL_TALK),
        ("Inshallah next year I start the master.", HYPOTHETICAL),
        ("wine o'clock x", SMALL_TALK),
        ("fair point.", SMALL_TALK),
        ("bueno, me voy, the dishwasher is calling my name.", SMALL_TALK),
        ("raining sideways and ive got the buggy", TRANSIENT),
        ("Anyway, enough about me, the kettle's calling.", SMALL_TALK),
        ("Right, that's me away for my messages.", SMALL_TALK),
        ("butter my biscuit, that worked like a charm!", SMALL_TALK),
        ("Sprint retro ke liye ek agenda bana de.", TRANSIENT),
        ("from tomorrow I'm off sick, the flu got me", TRANSIENT),
        ("the bus is delayed again, typical", TRANSIENT),
        ("laptop's on 4% so quick one", TRANSIENT),
        ("ok forget what I just said", SMALL_TALK),
        ("disregard my last message", SMALL_TALK),
        ("starting this afternoon I'm stuck in meetings", TRANSIENT),
        # Sayings and remarks that ask only for agreement.
        ("Na ja, Friday is Friday.", SMALL_TALK),
        ("toddlers r toddlers", SMALL_TALK),
        ("Sea's the sea.", SMALL_TALK),
        # Thanks, and a fix confirmed; the weather of the moment.
        ("thank u my friend, God bless", SMALL_TALK),
        ("I am much obliged to you.", SMALL_TALK),
        ("yes that fixed it, thank you!!", SMALL_TALK),
        ("eish this heat", SMALL_TALK),
        # Where and how the message is typed.
        ("on break, eating a sandwich in the van", TRANSIENT),
        ("sorry typing with one hand, baby asleep on me", TRANSIENT),
        ("please wait a moment", SMALL_TALK),
        # What holds for the message at hand only.
        ("for this one plain SQL is fine", TRANSIENT),
        # A question someone else asked, reported; apologies, leaving, a fix that worked.
        ("My landlord asked me whether we still keep the bikes in the hall.", SMALL_TALK),
        ("Sorry, eh, my bad.", SMALL_TALK),
        ("I'll let you go now.", SMALL_TALK),
        ("oh wow it worked!!", SMALL_TALK),
        # A battery running out, a mood of the moment, a break.
        ("my tablet is at 4% so I'll be quick", TRANSIENT),
        ("I'm absolutely wrecked after the night shift", TRANSIENT),
        ("I am on break now, ten minutes only.", TRANSIENT),
        ("I am presently sitting in the clinic car park.", TRANSIENT),
        ("Gloves on and freezing, been pruning since six.", TRANSIENT),
        # Verdicts, sayings and farewells, however hedged.
        ("that was nearly helpful", SMALL_TALK),
        ("pmsl you're hilarious", SMALL_TALK),
        ("Honestly the best part of my day.", SMALL_TALK),
        ("Right, I'll love ya and leave ya.", SMALL_TALK),
        ("nah wait, ignore that", SMALL_TALK),
        ("Im back", SMALL_TALK),
        ("I have an interest in numerous topics.", TOO_VAGUE),
        ("Cheers, you made my week!", SMALL_TALK),
        ("Crikey, you really know your onions.", SMALL_TALK),
        ("sorry, I've gone on a bit again.", SMALL_TALK),
        ("Friday is Friday.", SMALL_TALK),
        ("Trade is so so.", TOO_VAGUE),
        ("Grim and gruelling shift, two ambulances back to back.", TRANSIENT),
        ("Queue out the door again.", TRANSIENT),
        ("12 scripts pending.", TRANSIENT),
        ("Weather is foul.", TRANSIENT),
        ("Mum laughed at that.", SMALL_TALK),
        ("ach well, cannae complain", SMALL_TALK),
        ("aye, nae bother", SMALL_TALK),
        ("fair play tae ye", SMALL_TALK),
        ("I'm done ranting.", SMALL_TALK),
        ("things are slow at the yard, ken how it is", SMALL_TALK),
        ("What a week!", SMALL_TALK),
        ("Goodness, where did the time go.", SMALL_TALK),
        ("[09:02] sam: brb\n[09:03] jo: ok", TRANSIENT),
        ("model <- glm(y ~ x, data = d)", TRANSIENT),
        ("Nikipata kazi, nitahamia Mombasa.", HYPOTHETICAL),
        ("Praise the Lord, it's Friday!", SMALL_TALK),
        ("thank ya kindly ma'am", SMALL_TALK),
        ("Diolch o galon", SMALL_TALK),
        ("kurczę, another customer cancelled last minute", SMALL_TALK),
        ("I'm sat in the dentist's waiting room.", TRANSIENT),
        ("right, I'm off to walk the dog", TRANSIENT),
    ],
)
def test_chatter_is_not_filed(message, reason):
    extraction = extract(message)
    assert extraction.candidates == []
    assert [r.reason for r in extraction.rejected] == [reason]


@pytest.mark.parametrize(
    "message",
    [
        "I do ear training on the bus every morning.",
        "I am no longer at the insurance company, since this month I work for a startup.",
        "ci runs on github actions.",
        "Ella has been vegetarian since last summer.",
        "Hate foams.",
        "I have lived in Porto since 12 years.",
        "Update on the garden: the roses are in the north bed now.",
        "I keep my lecture notes on my phone.",
        "Weather answers should always be for round here.",
        "larguei o Valorant, agora meu main é CS2",
        "type hints everywhere pls, like I said",
        "I walk by the river most evenings; it helps me set down the day.",
        "Bess is a collie, not a spaniel. I don't know why I said that.",
        "Oh my goodness, what a morning. I run the school kitchen.",
        "sry was in a mtg. our fiscal yr starts in april",
        "Please always explain me the medical words in simple English.",
        "I keep the rest in KeePassXC on my work laptop.",
        # A change that holds from a period on.
        "As of this month, I work for the Red Cross.",
        "The 8:15 train is always delayed on Mondays.",
        "Pilates is Wednesdays now, the Thursday class got cancelled.",
        "From this month our veg comes from Hartley Farm, the old grocer closed.",
        "As of this week, I have joined the planning team at the council",
        "Pivoted the shop to vintage bikes this quarter.",
        "Every Sunday I fish with the man next door.",
        "I'm sixty.",
        "The vet is Vet Morgan on Mill Street.",
        "don't judge but I'm back on film cameras now",
        "A portrait session is £450 now.",
        "House rule: when I paste a diff, review the tests first.",
        "Short answers suit me best, as I may have said.",
        "We lock the tills in the safe overnight, without exception.",
        "my prices r $20 a sketch ✨",
        "i paint in gouache mostly lol",
        "Grandad asks that you keep the answers short for him.",
        "been teetotal since 2019 🙌",
        "i'm left-handed, have been for forty years lol",
        "I'm sat on the parish council these days.",
        "My eldest is off to university in September.",
    ],
)
def test_a_durable_statement_with_a_moment_word_or_no_pronoun_is_kept(message):
    assert extract(message).candidates


@pytest.mark.parametrize(
    "message",
    [
        "whats the quickest way to rotate these logs",
        "any idea how I undo a rebase",
        "I was wondering whether Postgres 16 supports that",
        "tell me how to set up a cron job",
        "wait whats the formula for the area of a trapezoid",
        "idk how to ask a girl to homecoming without it being weird help",
        "I should like to know how one changes the font size on an iPad.",
        "do u know if trains run on sunday",
        "I have a question to you: how can I make the Gradle build cache shared",
        "whit's the best sealant fur a shower tray",
        "wats the going rate for a bathroom refit",
        "I'd love to know whether sourdough keeps better in the fridge",
        "ibuprofen vs paracetamol for a sprained ankle, current advice",
        "diff b/w a roth and a traditional ira",
        "need amoxicillin dose for a 14kg child",
        "pa tanong lang po, is my pension still paid if I work abroad",
        "ano po ang best gift for my tita",
        "i was wundering if i need a lawyer for this",
        "hw do i reset the router without the app",
        "abeg wetin be the best way to save for rent",
        "tell mi how fi cook ackee",
        "I should be interested to know whether the lease can be assigned",
        "Kindly provide me the formula for the bending moment of a cantilever.",
        "weather tmrw morning in leeds",
        "c'est quoi la meilleure route pour Québec",
        "vc sabe se o jogo é amanhã",
        "como eu configuro o roteador",
        "investor update kaise likhte hain",
        "SAFE aur CCD mein kya difference hai",
        "wit time does the match start",
        "explain compound interest to me like im five",
        "Whether to publish now is something I should like your view on.",
        "Right you are. Now, what's the best feed for tomatoes",
        "explain inflation like im five",
        "compare netflix vs disney plus for me",
        "Is ibuprofen 400 safe with warfarin",
        "Niambie, what is the best feed for layers",
        "Aki sijui how to apply for the bursary",
        "how I can tell a client politely that we are closed",
        "You think 60 hours a week is too much",
        "is python worth it for this or nah",
        "the twins wont nap, any tricks",
        "Kindly advise on the best way to store a kilt",
        "I would be grateful to know whether the lease transfers",
        "cheapest ferry newcastle to amsterdam in june",
        "quick packed lunch ideas no nuts",
        "btc price prediction end of year",
        "You can explain me what is heat pump",
        "tell me something easy for kids to cook",
        "tell me please how long dough keeps in the fridge",
        "tell us what time the tunnel shuts tonight",
        "I ask myself whether the salt can go in later.",
        "I do not remember how many days the seeds need.",
        "My starter smells odd since two days, what does this mean",
        "oi, what's the pass rate these days",
        "pano ba mag-send ng pera sa GCash",
        "sprint velocity ka sahi formula bata",
        "ek baar CAP theorem explain kar de",
        "Remind me, if you can, what the deadline for the grant is.",
        "pivot table with two filters how to do ah",
        "VAT rate still 20% right",
        "lmk if the blue logo looks better than the green one",
        "the review is on the 14th isn't it, it's in my diary somewhere",
        "walk me through renewing a passport",
        "bike shop opening hours sunday",
        "you know the English word for 'mantecare'",
        "I should be grateful if you would explain the appeal process",
        "would appreciate your view on whether to fix the rate",
        "I wish to know the plural of 'cactus'",
        "d'ye know when the ferry stops for winter",
        "weh di closest pharmacy",
        "quick q - hows best to descale a kettle",
        "the tap drips after I shut it off, why",
        "I have a doubt whether a trust can own a car",
        "How we fix the rota so nobody does two Sundays",
        "Mum asks when the library shuts on Saturdays",
        "Gran would like to know how long to boil an egg",
        "Kindly confirm the filing deadline for the return",
        "I would be grateful to know the opening hours of the archive",
        "can ye check whit time the ferry leaves",
        "oye how much is a permit renewal",
        "need the torque spec for the wheel nuts",
        "maintenance fluid dose child 20kg",
        "Unajua kama duka linafunguliwa Jumapili",
        "whats a good name for a sourdough starter",
        "wheres our staging bucket again",
        "is 8 hours too long for a slow cook brisket",
        "any apps for tracking baby feeds that work offline",
        "wen next halving",
        "think u could tell me the setback for a garden wall",
        "how we go share the profit with my brother",
        "Paracetamol with warfarin. Stop the warfarin or carry on",
    ],
)
def test_a_question_without_a_mark_makes_the_turn_a_lookup(message):
    extraction = extract(f"I use Vim. {message}")
    assert extraction.lookup
    assert extraction.candidates == []
    assert {r.reason for r in extraction.rejected} == {QUESTION}


@pytest.mark.parametrize(
    "message",
    [
        "Have a good weekend!",
        "When you give feedback, tell me what isn't working first.",
        "yo whats good lol.",
        "Don't use emojis in anything you write for me.",
        "Ditched VS Code for Helix last year.",
        "Should the bakery close, we would lose our Saturday routine.",
        "Had I known, I'd have taken the earlier train.",
        "can u polish up this cover letter for me",
        "Could you draft a short note to the landlord about the boiler.",
        "Would you be so kind as to proofread the minutes for me.",
        "Did the Camino back in 2015, walked it all.",
        "Any guests for the christening are welcome at the house.",
        "is fine now",
        "is fine too",
    ],
)
def test_an_order_a_condition_or_a_greeting_is_not_a_lookup(message):
    assert not extract(message).lookup


def test_pasted_material_is_one_transient_rejection_and_the_sentence_around_it_is_read():
    message = (
        "We run everything on Kubernetes.\n"
        "here's the crash:\n"
        "Traceback (most recent call last):\n"
        '  File "app.py", line 3, in <module>\n'
        "KeyError: 'user'"
    )
    extraction = extract(message)
    assert [c.content for c in extraction.candidates] == ["We run everything on Kubernetes."]
    assert [r.reason for r in extraction.rejected] == [TRANSIENT]


@pytest.mark.parametrize(
    "message",
    [
        "Ha, the tomato plants are basically running the household now.",
        "haha. the printer is haunted, I swear",
        "lol, classic Monday energy from the whole office",
        "Hah! The cat stole the last prawn again.",
        "hehe, the intern named the server Gandalf",
    ],
)
def test_what_follows_laughter_reacts_and_is_not_filed(message):
    extraction = extract(message)
    assert extraction.candidates == []
    assert {r.reason for r in extraction.rejected} == {SMALL_TALK}


@pytest.mark.parametrize(
    ("message", "kept"),
    [
        ("Ha, fair enough. I'm allergic to shellfish, by the way.", "allergic to shellfish"),
        ("haha I always use tabs, never spaces", "always use tabs"),
        ("lol I moved to Leeds last month", "moved to Leeds"),
        ("Ha, I prefer my coffee black anyway.", "prefer my coffee black"),
    ],
)
def test_a_durable_statement_after_laughter_is_kept(message, kept):
    assert [c.content for c in extract(message).candidates if kept in c.content]


@pytest.mark.parametrize(
    "message",
    [
        "check this for me\nRun 1 - 40\nRun 2 - 45",
        "tot these up pls\nfuel 62.10\ntolls 8.40",
        "this is what the thermostat says\nE4 sensor fault\nroom 14C",
        "godot keeps throwing this, help\nE 0:00:01 main.gd:12 @ _ready(): null instance",
    ],
)
def test_lines_under_a_first_line_that_points_at_them_are_pasted(message):
    extraction = extract(message)
    assert extraction.candidates == []
    assert [r.reason for r in extraction.rejected] == [TRANSIENT]


@pytest.mark.parametrize(
    "message",
    [
        "Scratch that, it's the Tuesday class I teach.",
        "Gave up on lager, it's Great Northern I drink now.",
    ],
)
def test_a_correction_or_a_name_after_a_reaction_word_is_kept(message):
    assert [c.content for c in extract(message).candidates] == [message]


@pytest.mark.parametrize(
    "message",
    [
        "can u tighten these notes for the client\n- logo: bigger\n- tagline: warmer",
        "can u check my spelling\nI recieved the parcle on Munday and it was broken.",
    ],
)
def test_the_lines_under_a_request_are_its_material_and_not_learned(message):
    extraction = extract(message)
    assert not extraction.lookup
    assert extraction.candidates == []


def test_a_request_for_information_worded_politely_is_still_a_lookup():
    assert extract("Could you tell me when the tip opens on Sundays.").lookup
    assert extract("can you remind me what I charge for a half day").lookup


def test_where_was_i_is_small_talk_and_what_follows_is_learned():
    extraction = extract("Right, where was I. My sister's birthday is the 3rd of May.")
    assert not extraction.lookup
    assert [c.content for c in extraction.candidates] == ["My sister's birthday is the 3rd of May."]

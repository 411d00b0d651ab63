"""The deterministic extractor: keep durable statements, reject the rest with a reason.

It never logs: messages may hold secrets and personal details.
"""

from __future__ import annotations

import re

from memory_service.extraction import chatter, lexicon, questions
from memory_service.extraction.candidates import (
    FACT,
    HYPOTHETICAL,
    INSTRUCTION,
    LESSON,
    PATTERN,
    PREFERENCE,
    QUESTION,
    SECRET,
    SMALL_TALK,
    TOO_LONG,
    TOO_VAGUE,
    TRANSIENT,
    Candidate,
    Extraction,
    Rejection,
)
from memory_service.extraction.secrets import find_secrets, redacted
from memory_service.extraction.segment import Span, clauses, sentences
from memory_service.extraction.subjects import subject_of

MAX_CANDIDATE_LENGTH = 300
# A message written with capitals somewhere at a sentence start is prose, not lowercase texting.
_CAPITALISED = re.compile(r"(?:^|[.!?]\s+)[A-Z]|\bI\b")

# Subjects that are matters of taste: a plain statement about them is a preference.
TASTE_SUBJECTS = frozenset(
    (
        "coffee",
        "tea",
        "theme",
        "seat preference",
        "narrative voice",
        "note format",
        "writing style",
        "spicy food",
        "cuisine",
        "travel mode",
        "hotel location",
        "hotels",
        "luggage",
        "reading format",
        "units",
        "indentation",
        "oxford comma",
        "font",
        "music",
        "tone",
        "response format",
    )
)


def _words(text: str) -> list[str]:
    """Return the lowercase words of ``text``."""
    return lexicon.WORD.findall(text.lower().replace("\u2019", "'"))


def _only(words: list[str], vocabulary: frozenset[str]) -> bool:
    """Tell whether every word, or its stem before "'s", belongs to ``vocabulary``."""
    return all(w in vocabulary or w.removesuffix("'s") in vocabulary for w in words)


def _is_small_talk(text: str) -> bool:
    """Tell whether ``text`` is only a social formula, greeting, thanks or interjection."""
    words = _words(text)
    if not words or _only(words, lexicon.SOCIAL_WORDS) or lexicon.SMALL_TALK_FORMULA.match(text):
        return True
    # "Anyway, enough about me": a formula after a filler is still one.
    prefix = lexicon.DISCOURSE_PREFIX.match(text) or lexicon.OPENER.match(text)
    if prefix and lexicon.SMALL_TALK_FORMULA.match(text[prefix.end() :]):
        return True
    closer = lexicon.THANKS_CLOSER.search(text)
    return closer is not None and closer.start() > 0 and _is_chit_chat(text[: closer.start()])


def _is_hypothetical(text: str) -> bool:
    """Tell whether ``text`` states a conditional or a possibility rather than a fact."""
    if lexicon.HYPOTHETICAL_ANY.search(text) or (
        lexicon.CONDITIONAL.search(text) and lexicon.MODAL.search(text)
    ):
        return True
    if not lexicon.HYPOTHETICAL_START.match(text):
        return False
    # "If I ask for code, use Python" is a standing instruction with a condition, not a maybe.
    main = lexicon.CONDITION_CLAUSE.sub("", text)
    return main == text or not _is_imperative(main)


def _is_chit_chat(rest: str) -> bool:
    """Tell whether what follows a greeting or interjection is a short remark, not a statement."""
    words = _words(rest)
    if _only(words, lexicon.SOCIAL_WORDS) or lexicon.SMALL_TALK_FORMULA.match(rest):
        return True
    return (
        len(words) <= 4
        and not any(w in lexicon.FIRST_PERSON or w.isdigit() for w in words)
        and words[0] not in lexicon.IMPERATIVE_VERBS
        and not lexicon.CORRECTION_PREFIX.match(rest)
    )


def _is_vague(text: str) -> bool:
    """Tell whether ``text`` says nothing in particular.

    Either it has no content word at all, or it leans on a vague word ("stuff", "whatever", "this
    and that") with at most one content word beside it ("doing some stuff with models lately").
    """
    if lexicon.VAGUE_ELSEWHERE.search(text):
        return True
    words = _words(text)
    content = [
        w
        for w in words
        if w not in lexicon.EMPTY_WORDS and w.removesuffix("'s") not in lexicon.EMPTY_WORDS
    ]
    if not content:
        return True
    capitalised = [w for w in text.split()[1:] if w[:1].isupper() and not w.startswith("I'")]
    named = any(c.isdigit() for c in text) or any(w != "I" for w in capitalised)
    return len(content) <= 2 and not named and bool(lexicon.VAGUE.search(text))


def _is_imperative(body: str) -> bool:
    """Tell whether ``body`` opens with a verb in the imperative ("Use ...", "Never use ...")."""
    words = _words(body)
    if not words or words[0] not in lexicon.IMPERATIVE_VERBS:
        return False
    return len(words) == 1 or words[1] not in lexicon.NOT_IMPERATIVE_AFTER


def _kind(content: str, subject: str | None) -> str:
    """Return the kind of a durable statement."""
    body = lexicon.CORRECTION_PREFIX.sub("", content)
    if lexicon.LESSON.search(body):
        return LESSON
    main = lexicon.CONDITION_CLAUSE.sub("", body)
    if _is_imperative(main) or lexicon.INSTRUCTION.search(body):
        return INSTRUCTION
    if lexicon.PREFERENCE.search(body):
        return PREFERENCE
    if lexicon.PATTERN.search(body) and lexicon.FIRST_PERSON_START.match(body):
        return PATTERN
    if lexicon.CHOICE.search(body) or subject in TASTE_SUBJECTS:
        return PREFERENCE
    return FACT


def _is_request_of_the_moment(content: str) -> bool:
    """Tell whether ``content`` asks for something now ("Draft the rota", "jot that down")."""
    body = lexicon.CORRECTION_PREFIX.sub("", content)
    if lexicon.STANDING.search(body):
        return False
    if chatter.REQUEST_ABOUT_THIS.match(body) or chatter.REQUEST.match(body):
        return True
    if chatter.THIS_ONE_ONLY.match(body):
        return True
    if chatter.NEEDED_NOW.match(body) or chatter.REQUEST_AT_END.search(body):
        return True
    if (
        chatter.REQUEST_AFTER_COMMA.search(body)
        or chatter.QUOTED.match(body)
        or chatter.REMEMBER_THIS.match(body)
    ):
        return True
    if not _is_imperative(body):
        return False
    return bool(lexicon.DEICTIC.search(body) or lexicon.TASK_REQUEST.match(body))


def _is_of_the_moment(content: str) -> bool:
    """Tell whether ``content`` holds only for now ("stuck in traffic", "tired today").

    A habit or a standing rule is not of the moment even when it names one ("I do ear training on
    the bus every morning"), and neither is a cue inside a "when" or "if" clause ("my backup when
    I'm on leave").
    """
    moment = lexicon.TRANSIENT.search(content)
    if moment is None or lexicon.PATTERN.search(content) or lexicon.STANDING_RULE.search(content):
        return False
    if lexicon.LESSON.search(content):
        return False  # "I learned the hard way that SMS codes don't arrive on a plane"
    if lexicon.PREFERENCE.search(content) or lexicon.CHANGE.search(content):
        return False
    return not lexicon.SUBORDINATE.search(content[: moment.start()])


def _is_reaction(content: str) -> bool:
    """Tell whether ``content`` reacts (laughter, a verdict, a saying) without stating anything."""
    if chatter.SAYING.match(content) or chatter.VERDICT.match(content):
        return not lexicon.FIRST_PERSON_START.match(content)
    if not chatter.REACTION.search(content):
        return False
    # "lesson learned: NEVER buy resale tickets 😭", "i stream every new MV on loop lmao": the
    # laughter or the emoji decorates a statement that stands.
    return not _stands(chatter.REACTION.sub("", content))


def _stands(content: str) -> bool:
    """Tell whether ``content`` states something durable beside a reaction around it."""
    return bool(
        chatter.DURABLE_ANCHOR.search(content)
        or lexicon.STANDING_RULE.search(content)
        or lexicon.LESSON.search(content)
        or lexicon.CHANGE.search(content)
        or chatter.STATES.search(content)
    )


def _laughed_at(text: str, start: int) -> bool:
    """Tell whether only laughter comes before ``start``: what a message opens with after
    "Ha," or "lol." reacts to the conversation ("Ha, the old ones are the best ones")."""
    return chatter.LAUGHTER_ONLY.fullmatch(text, 0, start) is not None


def _read(text: str, span: Span, out: Extraction, *, prose: bool) -> None:
    """File the statement at ``span`` of ``text`` as a candidate or a rejection.

    ``prose`` tells whether the message is written with capitals (read once per message).
    """
    start, end = span
    content = text[start:end]
    if (
        _is_small_talk(content)
        or chatter.MANAGEMENT.match(content)
        or chatter.is_exclamation(content)
        or questions.GREETING_QUESTION.match(content)
    ):
        out.rejected.append(Rejection(content, SMALL_TALK))
        return
    lead_in = (
        chatter.LEAD_IN.match(content)
        or chatter.BARE_OPENER.match(content)
        or chatter.APOLOGY.match(content)
    )
    if lead_in and not lexicon.LESSON.match(content):
        # "Some context for future chats: I live in Austin": the lead-in frames, the rest states.
        out.rejected.append(Rejection(content[: lead_in.end()].rstrip(), SMALL_TALK))
        _read(text, (start + lead_in.end(), end), out, prose=prose)
        return
    # DISCOURSE_PREFIX is anchored: one match gives what every check below reads.
    prefix = lexicon.DISCOURSE_PREFIX.match(content)
    body = content[prefix.end() :] if prefix else content
    if lexicon.COUNTERFACTUAL.search(body) or (
        _is_hypothetical(body)
        # "I would be grateful if you would always ...", "If I have learned anything, it is ..."
        and not (lexicon.STANDING_RULE.search(content) or lexicon.LESSON.search(content))
    ):
        out.rejected.append(Rejection(content, HYPOTHETICAL))
        return
    if _is_of_the_moment(content):
        out.rejected.append(Rejection(content, TRANSIENT))
        return
    opener = lexicon.OPENER.match(content)
    if opener:
        rest = content[opener.end() :]
        if _is_chit_chat(rest) or _is_vague(rest):
            out.rejected.append(Rejection(content, SMALL_TALK))
            return
        # "Thanks, I live in Lisbon": the thanks is small talk, the rest a statement of its own.
        out.rejected.append(Rejection(content[: opener.end()].rstrip(" ,!.~"), SMALL_TALK))
        _read(text, (start + opener.end(), end), out, prose=prose)
        return
    if _is_reaction(body) or (_laughed_at(text, start) and not _stands(body)):
        out.rejected.append(Rejection(content, SMALL_TALK))
        return
    if _is_vague(body) and not (lexicon.STANDING_RULE.search(body) and len(_words(body)) >= 3):
        out.rejected.append(Rejection(content, TOO_VAGUE))
        return
    if _is_request_of_the_moment(content):
        out.rejected.append(Rejection(content, TRANSIENT))
        return
    # The checks read the body without any filler; the kept statement drops only the empty ones.
    left_out = lexicon.LEFT_OUT_PREFIX.match(content)
    kept = content[left_out.end() :] if left_out else content
    content = lexicon.DISCOURSE_SUFFIX.sub("", kept) or kept
    if chatter.is_anchorless(content, prose=prose):
        out.rejected.append(Rejection(content, SMALL_TALK))
        return
    subject = subject_of(content)
    out.candidates.append(Candidate(content, _kind(content, subject), subject))


def _is_lookup(text: str, spans: list[Span], secrets: list[Span]) -> bool:
    """Tell whether the message asks something: a question mark outside a secret, or a question.

    A condition opening an instruction ("When you give feedback, tell me what isn't working") is
    not a question.
    """
    for match in questions.QUESTION_MARK.finditer(text):
        # A mark right after a secret may end it ("jsmith / Saffron_1971?").
        if not any(start <= match.start() <= end for start, end in secrets):
            return True
    return any(
        questions.INTERROGATIVE.search(text[start:end])
        and not lexicon.CONDITION_CLAUSE.match(text[start:end])
        and not questions.GREETING_QUESTION.match(text[start:end])
        for start, end in spans
    )


def extract(user_message: str) -> Extraction:
    """Split ``user_message`` into statements and keep the durable ones."""
    text = user_message or ""
    secrets = find_secrets(text)
    spans = sentences(text, secrets)
    if _is_lookup(text, spans, secrets):
        rejected = [Rejection(redacted(text, span, secrets), QUESTION) for span in spans]
        return Extraction(rejected=rejected, lookup=True)
    out = Extraction()
    prose = bool(_CAPITALISED.search(text))
    pasted = chatter.pasted_spans(text)
    for block in pasted:
        shown = redacted(text, block, secrets)
        reason = SECRET if shown != text[block[0] : block[1]] else TRANSIENT
        out.rejected.append(Rejection(shown, reason))
    for span in spans:
        if any(start <= span[0] < end for start, end in pasted):
            continue
        if span[1] - span[0] > MAX_CANDIDATE_LENGTH:
            shown = redacted(text, span, secrets)
            reason = SECRET if shown != text[span[0] : span[1]] else TOO_LONG
            out.rejected.append(Rejection(shown, reason))
            continue
        for clause in clauses(text, span, secrets):
            shown = redacted(text, clause, secrets)
            if shown != text[clause[0] : clause[1]]:
                out.rejected.append(Rejection(shown, SECRET))
            else:
                _read(text, clause, out, prose=prose)
    return out

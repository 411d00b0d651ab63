"""POST /v1/turns: a statement giving a held subject another value opens a tension, however it is
phrased; a restatement or an addition does not."""

from __future__ import annotations

import pytest

from memory_service.memories.models import Memory
from memory_service.tensions.models import Tension
from tests.memory.memories.test_turns_api import turn

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("held", "changed"),
    [
        ("My favourite language is Rust.", "My favourite language is Go these days."),
        ("I prefer dark mode in every editor.", "Actually I prefer light mode now."),
        ("We deploy on Tuesdays.", "deploys moved to thursdays"),
        ("Sous chef is Dani, allergic to shellfish.", "Kofi's my sous chef these days, Dani left."),
        ("I drink my coffee black.", "I no longer drink coffee black, oat milk is my thing."),
        ("My team lead is Ros.", "Ros has left; Marcus is my team lead."),
        ("My advisor is Professor Lim.", "My new advisor is Professor Choi."),
        ("We keep the accounts in Sage.", "We migrated the accounts from Sage to Xero."),
        ("I have an allotment on Mill Lane.", "I gave up the allotment on Mill Lane."),
        ("The van is a white Transit.", "the van's a blue Vivaro noo, selt the Transit"),
        ("I use Opay for payments.", "I no dey use Opay again, I don switch to Moniepoint."),
        ("I drive a 2019 F-250.", "I traded the F-250 for a Ram last month."),
        ("meu main é Valorant.", "larguei o Valorant, agora meu main é CS2"),
        ("Je fais le run Montréal-Moncton.", "Je fais Moncton-Halifax maintenant."),
        ("I work for Oxfam.", "As of this month, I work for the Red Cross."),
        ("I drink my coffee black.", "I've switched to lattes with oat milk."),
        ("I reside in York.", "We moved to Hull last month."),
        ("I study history at Durham University.", "I changed my major to economics."),
        ("Standup 10:30 pe hota hai.", "Standup ab 9:45 pe hai, US overlap ke liye."),
        (
            "The Hale trial is listed for 3 June.",
            "The Hale trial has been relisted for 16 September.",
        ),
        ("My day rate is $450.", "Raised my day rate to $520 from January."),
        (
            "I work four tens, Monday to Thursday.",
            "Schedule changed: four tens, Wednesday to Saturday.",
        ),
        ("My niche is fintech founders.", "Pivoted my niche to climate startups this year."),
        ("Mi phone a one Samsung Galaxy S21.", "Mi get a Pixel 8 now, so di Samsung retire."),
        ("My caseload is 118 files.", "Caseload is up to 134 now."),
        ("I edit everything in Sublime Text.", "gave helix a go, back in sublime text"),
        ("I live in Cardiff.", "Me and Huw live in Swansea these days."),
    ],
)
def test_a_changed_value_opens_a_tension_and_lands_on_the_held_subject(api, org, held, changed):
    older = turn(api, held)["memories"][0]
    body = turn(api, changed)
    assert body["counts"]["tensions"] == 1
    tension = Tension.objects.for_org(org).get()
    assert tension.older_id == older["id"]
    newer = Memory.objects.get(pk=tension.newer_id)
    assert newer.subject == Memory.objects.get(pk=older["id"]).subject


@pytest.mark.parametrize(
    ("held", "again"),
    [
        ("I use Vim for everything.", "I use Vim for everything."),
        ("Biscuit is my dog.", "Biscuit is my dog, a beagle."),
        ("I run three times a week.", "I also swim on Sundays."),
    ],
)
def test_a_restatement_or_an_addition_opens_no_tension(api, org, held, again):
    turn(api, held)
    assert turn(api, again)["counts"]["tensions"] == 0
    assert not Tension.objects.for_org(org).exists()


def test_a_correction_finds_what_it_corrects_filed_earlier_in_the_same_batch(api, org):
    # A batch files its statements in their order; a subject-less correction finds what it
    # corrects through the recall index, so what the batch filed before it must be indexed by then.
    held = "My allotment is plot 14."
    body = {"memories": [{"content": held}, {"content": "No, it's plot 17 now."}]}
    answer = api.post("/api/v1/memories", body, format="json").json()
    assert answer["counts"]["tensions"] == 1
    tension = Tension.objects.for_org(org).get()
    assert Memory.objects.get(pk=tension.older_id).content == held


def test_a_figure_shared_with_an_unrelated_memory_is_not_what_a_change_refers_to(api, org):
    turn(api, "We have three cats, Mochi is 4 and Bean is 2.")
    body = turn(api, "My caseload is up to 212 now because three colleagues left.")
    assert body["counts"]["tensions"] == 0
    # The change keeps its own subject, so the next figure on it is compared with it.
    assert turn(api, "Caseload update: 230.")["counts"]["tensions"] == 1

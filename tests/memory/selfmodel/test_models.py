"""The reliability formula; the database's weak filter and order held against exact fractions."""

from __future__ import annotations

from fractions import Fraction

import pytest

from memory_service.selfmodel.models import Domain, domain_key, name_fields, reliability
from tests.memory.selfmodel.factories import DomainFactory

pytestmark = pytest.mark.django_db


def test_the_prior_is_two_samples_at_0_8():
    assert reliability(0, 0) == Fraction(4, 5)
    assert reliability(0, 1) == Fraction(8, 15)  # 0.533
    assert reliability(1, 0) == Fraction(13, 15)  # 0.867


def test_the_weak_filter_and_the_order_agree_with_exact_fractions(org):
    for successes in range(12):
        for failures in range(12):
            DomainFactory(organisation=org, name=f"{successes}-{failures}", **{
                "successes": successes, "failures": failures,
            })  # fmt: skip
    domains = list(Domain.objects.for_org(org))
    expected_weak = sorted(
        (d for d in domains if reliability(d.successes, d.failures) < Fraction(3, 5)),
        key=lambda d: (reliability(d.successes, d.failures), d.key),
    )
    found = list(Domain.objects.for_org(org).weak().weakest_first())
    assert [d.key for d in found] == [d.key for d in expected_weak]
    assert all(d.weak for d in found)
    assert sum(d.weak for d in domains) == len(found)


def test_one_domain_key_for_every_spelling():
    assert domain_key("Deploys") == domain_key(" deploys ") == domain_key("DEPLOYS")
    assert domain_key("Code  Review") == "code review"
    assert domain_key("Straße") == domain_key("STRASSE")


def test_the_anchor_is_one_of_the_names_terms():
    fields = name_fields("Database migrations")
    assert fields["terms"] == "databas migrat"
    assert fields["anchor"] in fields["terms"].split()
    assert name_fields("The")["anchor"] == ""

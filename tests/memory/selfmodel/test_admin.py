"""The self-model in the Django admin: reliability, samples and the weak flag; search; notes."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from tests.memory.selfmodel.factories import DomainFactory, NoteFactory

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/selfmodel/domain/"


@pytest.fixture
def staff_client(client):
    client.force_login(User.objects.create_superuser("root", "root@example.com", "pw"))
    return client


def test_the_list_shows_reliability_samples_and_the_weak_flag(staff_client, org):
    DomainFactory(organisation=org, name="deploys", failures=1)
    page = staff_client.get(CHANGELIST).content.decode()
    assert "deploys" in page and "0.533" in page
    assert 'alt="True"' in page  # the weak flag


@pytest.mark.parametrize(("query", "shown"), [("weak=yes", "flaky"), ("weak=no", "steady")])
def test_the_list_filters_by_weak(staff_client, org, query, shown):
    DomainFactory(organisation=org, name="flaky", failures=3)
    DomainFactory(organisation=org, name="steady", successes=3)
    page = staff_client.get(f"{CHANGELIST}?{query}").content.decode()
    for name in ("flaky", "steady"):
        assert (f">{name}<" in page) == (name == shown)


def test_the_list_searches_by_name(staff_client, org):
    DomainFactory(organisation=org, name="deploys")
    DomainFactory(organisation=org, name="billing")
    page = staff_client.get(f"{CHANGELIST}?q=deplo").content.decode()
    assert ">deploys<" in page and ">billing<" not in page


def test_the_list_sorts_by_reliability(staff_client, org):
    DomainFactory(organisation=org, name="steady", successes=3)
    DomainFactory(organisation=org, name="flaky", failures=3)
    page = staff_client.get(f"{CHANGELIST}?o=3").content.decode()
    assert page.index(">flaky<") < page.index(">steady<")


def test_a_domain_shows_its_patterns_and_strategies(staff_client, org):
    domain = DomainFactory(organisation=org, name="deploys", failures=1)
    NoteFactory(domain=domain, text="forgot the migration")
    NoteFactory(domain=domain, kind="strategy", text="run the checks first")
    page = staff_client.get(f"{CHANGELIST}{domain.pk}/change/").content.decode()
    assert "forgot the migration" in page and "run the checks first" in page


def test_domains_are_not_added_by_hand(staff_client):
    assert staff_client.get(f"{CHANGELIST}add/").status_code == 403

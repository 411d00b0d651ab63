from __future__ import annotations

import factory

from memory_service.selfmodel.models import FAILURE_PATTERN, Domain, Note, name_fields, note_key
from tests.memory.factories import OrganisationFactory


class DomainFactory(factory.django.DjangoModelFactory):
    """A domain stored as an outcome would store it; set ``successes`` and ``failures``."""

    class Meta:
        model = Domain

    organisation = factory.SubFactory(OrganisationFactory)
    name = factory.Sequence(lambda n: f"area {n}")
    key = factory.LazyAttribute(lambda o: name_fields(o.name)["key"])
    terms = factory.LazyAttribute(lambda o: name_fields(o.name)["terms"])
    anchor = factory.LazyAttribute(lambda o: name_fields(o.name)["anchor"])


class NoteFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Note

    domain = factory.SubFactory(DomainFactory)
    kind = FAILURE_PATTERN
    text = factory.Sequence(lambda n: f"went wrong in way {n}")
    key = factory.LazyAttribute(lambda o: note_key(o.text))

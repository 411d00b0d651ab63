from __future__ import annotations

import factory

from memory_service.tensions.models import Tension
from tests.memory.factories import MemoryFactory, OrganisationFactory


class TensionFactory(factory.django.DjangoModelFactory):
    """An open tension between two fresh memories of its organisation."""

    class Meta:
        model = Tension

    organisation = factory.SubFactory(OrganisationFactory)
    older = factory.SubFactory(MemoryFactory, organisation=factory.SelfAttribute("..organisation"))
    newer = factory.SubFactory(MemoryFactory, organisation=factory.SelfAttribute("..organisation"))
    description = factory.LazyAttribute(lambda o: f"“{o.newer.content}” contradicts the older.")

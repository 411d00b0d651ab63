from __future__ import annotations

from typing import cast

import factory
from django.contrib.auth.models import User

from memory_service.accounts.models import ApiKey, Membership, Organisation
from memory_service.accounts.scopes import DEFAULT_SCOPES
from memory_service.memories.models import Memory
from memory_service.memories.normalise import fingerprint
from shared import keys


class OrganisationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Organisation

    name = factory.Sequence(lambda n: f"org-{n}")


class ApiKeyFactory(factory.django.DjangoModelFactory):
    """A stored key; the plain secret is left on the instance as ``secret`` for the test to use."""

    class Meta:
        model = ApiKey

    organisation = factory.SubFactory(OrganisationFactory)
    name = factory.Sequence(lambda n: f"key-{n}")
    scopes = factory.LazyFunction(lambda: list(DEFAULT_SCOPES))
    secret = factory.LazyFunction(lambda: keys.generate("mk_"))
    prefix = factory.LazyAttribute(lambda o: keys.display_prefix(o.secret))
    secret_hash = factory.LazyAttribute(lambda o: keys.secret_hash(o.secret, _pepper()))

    @classmethod
    def _create(cls, model_class: type[ApiKey], *args, secret: str, **kwargs) -> ApiKey:
        key = super()._create(model_class, *args, **kwargs)
        key.secret = secret
        return key


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User

    username = factory.Sequence(lambda n: f"user-{n}")


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    user = factory.SubFactory(UserFactory)
    organisation = factory.SubFactory(OrganisationFactory)


def _pepper() -> str:
    from django.conf import settings

    return settings.API_KEY_PEPPER


class MemoryFactory(factory.django.DjangoModelFactory):
    """A held memory, indexed for recall as the services leave it (``indexed=False`` skips)."""

    class Meta:
        model = Memory
        skip_postgeneration_save = True

    organisation = factory.SubFactory(OrganisationFactory)
    content = factory.Sequence(lambda n: f"The user keeps notebook number {n} on the desk.")
    fingerprint = factory.LazyAttribute(lambda o: fingerprint(o.content))
    kind = "fact"

    @factory.post_generation
    def indexed(self, create: bool, extracted: bool | None, **kwargs) -> None:
        if create and extracted is not False:
            from memory_service.recall.index import index_entries

            memory = cast(Memory, self)  # factory_boy passes the instance it made
            index_entries([memory.recall_entry()])

from __future__ import annotations

import factory

from shared import keys
from storage_service.accounts.models import ApiKey, Organisation
from storage_service.accounts.permissions import ADMIN


class OrganisationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Organisation

    name = factory.Sequence(lambda n: f"org-{n}")
    plan = Organisation.Plan.FREE


class ApiKeyFactory(factory.django.DjangoModelFactory):
    """A stored key; the plain secret is left on the instance as ``secret`` for the test to use."""

    class Meta:
        model = ApiKey

    organisation = factory.SubFactory(OrganisationFactory)
    name = factory.Sequence(lambda n: f"key-{n}")
    permissions = factory.LazyFunction(lambda: [ADMIN])
    secret = factory.LazyFunction(lambda: keys.generate("ak_"))
    prefix = factory.LazyAttribute(lambda o: keys.display_prefix(o.secret))
    secret_hash = factory.LazyAttribute(lambda o: keys.secret_hash(o.secret, _pepper()))

    @classmethod
    def _create(cls, model_class: type[ApiKey], *args, secret: str, **kwargs) -> ApiKey:
        key = super()._create(model_class, *args, **kwargs)
        key.secret = secret
        return key


def _pepper() -> str:
    from django.conf import settings

    return settings.API_KEY_PEPPER

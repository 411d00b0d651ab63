"""Test settings: the service's own settings with a throwaway secret."""

import os

os.environ.setdefault("SECRET_KEY", "storage-tests-only")

from storage_service.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

"""Test settings: the service's own settings with a throwaway secret and the documented defaults."""

import os

os.environ.setdefault("SECRET_KEY", "memory-tests-only")
# The suite tests the documented defaults, whatever the developer's shell exports.
for _name in [name for name in os.environ if name.startswith("MEMORY_")]:
    del os.environ[_name]

from memory_service.settings import *  # noqa: E402, F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# One test database per pytest process, so that parallel runs on one machine never collide.
_test_name = DATABASES["default"]["TEST"]["NAME"]  # noqa: F405
DATABASES["default"]["TEST"]["NAME"] = (  # noqa: F405
    _test_name.replace(".sqlite3", f"_{os.getpid()}.sqlite3")
    if _test_name.endswith(".sqlite3")
    else f"{_test_name}_{os.getpid()}"
)

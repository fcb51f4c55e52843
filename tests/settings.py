"""The test run's settings: the app's own (``config.settings``), with a fast password hash.

Django's default hasher (PBKDF2, a million rounds) takes about a second of CPU here for
every user a test creates and every login it makes, and the suite makes thousands; Django's
testing guide recommends a fast hasher for tests. Django's own hashers stay listed after
it, so a server the suite starts (``tests/system``) still checks a password it hashed itself.
"""

from django.conf import global_settings

from config.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher",
                    *global_settings.PASSWORD_HASHERS]

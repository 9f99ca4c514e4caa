"""The browser suite's server: sejmi.settings as shipped, with a fast password hasher.

Every test registers players and logs browsers in; the production hasher costs about half a
second of this 2-core machine per password, which would be most of the suite's time.
"""

from sejmi.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

"""Settings for the request watchdog's test: production's, with a URL that never answers in
time (``/test/stuck``, sleeping ``STUCK_SECONDS``) added to the API's URLs."""

from __future__ import annotations

from chickenfoot.settings import *  # noqa: F403

ROOT_URLCONF = "tests.foundation.stuck_urls"

"""The engine tests' shared position helpers assert too: rewrite their asserts like a test's."""

from __future__ import annotations

import pytest

pytest.register_assert_rewrite("tests.engine.cf_positions", "tests.engine.mt_positions")

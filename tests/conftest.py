"""Hypothesis profiles for the test suite.

- ``ci`` (the default): 100 examples per test, scaled down per test with
  ``strategies.examples(n)`` so the property tests stay fast.
- ``thorough``: ten times as many examples, for a long local run::

      HYPOTHESIS_PROFILE=thorough python -m pytest tests

Tests that play whole games set ``deadline=None`` themselves; the profiles set
it too, because one game can take longer than Hypothesis' default 200 ms.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    max_examples=100,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough",
    max_examples=1000,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

"""Shared by every test: hypothesis runs without a per-example deadline (timing is not what
the property tests check, and a busy machine must not fail them)."""

from hypothesis import HealthCheck, settings

settings.register_profile("overseer", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("overseer")

"""Fixtures shared by the example tests (`cowboy test examples`)."""
from cowboy_test import fixture


@fixture
def token(deploy, alice):
    """A token with 1,000,000 units, all held by alice."""
    return deploy("token.py", "Cowboy Token", "CBT", 1_000_000, sender=alice)

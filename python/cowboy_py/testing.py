"""pytest fixtures for actor projects (`cowboy test` loads them; or add
``pytest_plugins = ["cowboy_py.testing"]`` to a conftest.py). Tests run in CPython; the
actors they deploy run in the real PVM on the node at ``$COWBOY_RPC`` — `cowboy test`
starts a fresh devnet for each run.

Fixtures:

- ``cowboy`` — a :class:`~cowboy_py.Client` for the node;
- ``accounts`` — the devnet's prefunded development keys (``accounts[0]`` deploys by default);
- ``chain`` — the chain: ``height``, ``advance(n)`` (wait for n more blocks), ``balance(addr)``;
- ``deploy`` — ``deploy("actor.py", *init_args, sender=None, value=0)`` deploys an actor
  (a path relative to the project, or source text) and returns an :class:`Actor`.
"""
from __future__ import annotations

import os
import pathlib
import time
from typing import Any, Optional, Union

import pytest

from .client import ActorCallError, Client, Receipt, dev_account, encode_topics
from .keys import PrivateKey

__all__ = ["Actor", "Chain", "ActorCallError"]


class Chain:
    def __init__(self, client: Client):
        self.client = client

    @property
    def height(self) -> int:
        return self.client.block_number()

    def advance(self, blocks: int = 1, timeout: float = 30.0) -> int:
        """Waits until `blocks` more blocks exist; returns the new height."""
        target = self.height + blocks
        deadline = time.monotonic() + timeout
        while True:
            h = self.height
            if h >= target:
                return h
            if time.monotonic() > deadline:
                raise TimeoutError(f"the chain did not reach height {target} in {timeout} s (at {h})")
            time.sleep(0.02)

    def balance(self, address: Union[bytes, str]) -> int:
        return self.client.get_balance(address)


class Actor:
    """A deployed actor: simulate (`call`), transact (`send`), read storage, events and timers."""

    def __init__(self, client: Client, address: bytes, sender: PrivateKey, receipt: Receipt):
        self.client = client
        self.address = address
        self.sender = sender
        self.deploy_receipt = receipt

    def __repr__(self) -> str:
        return f"Actor(0x{self.address.hex()})"

    def call(self, handler: str, *args: Any, sender: Optional[bytes] = None, value: int = 0) -> Any:
        """The handler's result, simulated (free; nothing is committed)."""
        return self.client.call(self.address, handler, list(args), sender=sender, value=value)

    def send(self, handler: str, *args: Any, sender: Optional[PrivateKey] = None, value: int = 0) -> Receipt:
        """Calls the handler in a transaction; `.value` of the receipt is the result.
        Raises ActorCallError when the handler fails."""
        return self.client.send(sender or self.sender, self.address, handler, list(args), value=value)

    def storage(self, key: Any, default: Any = None) -> Any:
        v = self.client.get_storage(self.address, key)
        return default if v is None else v

    @property
    def balance(self) -> int:
        return self.client.get_balance(self.address)

    def timers(self) -> list:
        return self.client.get_timers(self.address)

    def events(self, name: Optional[str] = None) -> list:
        """Events of this actor since block 0 (of one name when given)."""
        return self.client.get_logs(self.address, topics=[encode_topics(name)] if name else (), from_block=0)


@pytest.fixture(scope="session")
def cowboy() -> Client:
    url = os.environ.get("COWBOY_RPC", "http://127.0.0.1:8545")
    c = Client(url)
    c.chain_id()  # fails here, with the fix, when no node runs
    return c


@pytest.fixture(scope="session")
def accounts() -> list:
    return [dev_account(i) for i in range(10)]


@pytest.fixture(scope="session")
def chain(cowboy: Client) -> Chain:
    return Chain(cowboy)


@pytest.fixture
def deploy(cowboy: Client, accounts: list, request: pytest.FixtureRequest):
    root = pathlib.Path(str(request.config.rootpath))

    def _deploy(source: str = "actor.py", *args: Any, sender: Optional[PrivateKey] = None, value: int = 0) -> Actor:
        text = source
        if "\n" not in source and source.endswith(".py"):
            path = pathlib.Path(source)
            if not path.is_absolute():
                candidates = [root / path, pathlib.Path(str(request.fspath)).parent.parent / path]
                path = next((p for p in candidates if p.exists()), candidates[0])
            text = path.read_text()
        key = sender or accounts[0]
        d = cowboy.deploy(key, text, args=list(args), value=value)
        return Actor(cowboy, d.address, key, d.receipt)

    return _deploy

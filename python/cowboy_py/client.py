"""A JSON-RPC client for a Cowboy node (docs/rpc.md), on the standard library only
(urllib + json): reads, simulated calls, fee estimates, and signed transactions built,
signed and sent with the same bytes as the TypeScript SDK's WalletClient — chain id,
nonce, limits and fees filled from the node — plus deploy/call helpers that encode
arguments as canonical CBOR and decode results.

    from cowboy_py import Client, dev_account
    c = Client("http://127.0.0.1:8545")
    counter = c.deploy(dev_account(0), open("actor.py").read(), args=[10]).address
    c.send(dev_account(0), counter, "increment", [5]).value   # -> 15
    c.call(counter, "get")                                    # -> 15 (simulated, free)
"""
from __future__ import annotations

import json
import re
import socket
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field, replace
from typing import Any, Iterator, Optional, Sequence, Union

from .cbor import decode_cbor, encode_cbor
from .codec import (
    Call,
    CancelTimer,
    Custom,
    Deploy,
    ExitValidator,
    Publish,
    RegisterValidator,
    ScheduleTimer,
    SubmitEvidence,
    Transaction,
    Transfer,
    UnjailValidator,
    WithdrawStake,
    actor_address,
    canonicalize_source,
    decode_transaction,
    encode_transaction,
    keccak256,
)
from .hd import DEVNET_MNEMONIC, derive_secret_key, mnemonic_to_seed
from .keys import PrivateKey
from .state_keys import account_key, actor_storage_key, decode_account_record
from .state_proof import verify_state_proof
from .ws import WebSocket, WebSocketError

DEFAULT_RPC = "http://127.0.0.1:8545"

BlockTag = Union[str, int]
Address = Union[bytes, str]


class RpcError(Exception):
    """The node answered with a JSON-RPC error. `reason` is the node's code (e.g.
    ``ERR_MEMPOOL_NONCE_TOO_LOW``) when it gave one."""

    def __init__(self, method: str, code: int, message: str, data: Any = None):
        super().__init__(f"{method}: {message} ({code})")
        self.method = method
        self.code = code
        self.data = data
        self.reason = data.get("code") if isinstance(data, dict) and isinstance(data.get("code"), str) else None


class TransportError(Exception):
    """No usable answer: the node is unreachable, timed out or answered something else."""


class ProofMismatchError(TransportError):
    """A proven read whose answer disagrees with its own state proof or with the block
    header (another key, another state root, or a value the proof does not show). `field`
    names the offending part of the answer, e.g. ``cowboy_getStorageAt.value``."""

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field


@dataclass(frozen=True)
class ProvenValue:
    """A state read verified against the state root of block `block_number`: `value` is the
    proven value, None when the key is proven absent."""

    key: bytes
    value: Optional[bytes]
    block_number: int
    state_root: bytes


@dataclass(frozen=True)
class ProvenAccount:
    """An account record proven against a block's state root (`proof` has key, root, block)."""

    balance: int
    nonce: int
    code_hash: bytes
    metadata: bytes
    proof: ProvenValue


class ActorCallError(Exception):
    """A handler failed: `type` is the Python exception type raised in the actor (e.g.
    ``ValueError``), `detail` its message, `receipt` the receipt (for a transaction)."""

    def __init__(self, handler: str, type_: str, detail: str, receipt: Optional["Receipt"] = None):
        super().__init__(f"{handler}: {type_}" + (f": {detail}" if detail else ""))
        self.handler = handler
        self.type = type_
        self.detail = detail
        self.receipt = receipt
        #: the node's reason, e.g. ``ERR_EXEC_HANDLER``, when it gave one
        self.code: Optional[str] = None


def dev_account(index: int = 0) -> PrivateKey:
    """Development account `index` of `cowboy devnet` (public keys: never hold value with them)."""
    return PrivateKey(derive_secret_key(mnemonic_to_seed(DEVNET_MNEMONIC), f"m/44'/60'/0'/0/{index}"))


def _hex(b: bytes) -> str:
    return "0x" + b.hex()


def _q(n: int) -> str:
    if n < 0:
        raise ValueError("quantities are non-negative")
    return hex(n)


def _unhex(s: Any, what: str) -> bytes:
    if not isinstance(s, str) or not s.startswith("0x") or len(s) % 2:
        raise TransportError(f"unexpected RPC response: {what} is not 0x hex: {s!r}")
    return bytes.fromhex(s[2:])


def _int(s: Any, what: str) -> int:
    if not isinstance(s, str) or not s.startswith("0x"):
        raise TransportError(f"unexpected RPC response: {what} is not a hex quantity: {s!r}")
    return int(s, 16)


def _addr(a: Address) -> bytes:
    if isinstance(a, str):
        a = bytes.fromhex(a[2:] if a.startswith("0x") else a)
    if len(a) != 20:
        raise ValueError("an address is 20 bytes")
    return a


def _tag(block: BlockTag) -> str:
    return _q(block) if isinstance(block, int) else block


def encode_args(args: Sequence[Any] = ()) -> bytes:
    """Canonical CBOR of positional handler arguments (an array)."""
    return encode_cbor(list(args))


def default_deploy_salt(nonce: int) -> bytes:
    """keccak256(b"cowboy-deploy" ‖ nonce u64 BE): the TS SDK's default, so addresses agree."""
    return keccak256(b"cowboy-deploy" + nonce.to_bytes(8, "big"))


def encode_topics(*topics: Union[str, bytes]) -> bytes:
    """The topic field the node records for an event with `topics` (each u16 BE length-prefixed;
    `emit("Beat", data)` has the one topic "Beat"): what `get_logs(topics=...)` matches."""
    out = b""
    for t in topics:
        b = t.encode() if isinstance(t, str) else t
        if len(b) > 0xFFFF:
            raise ValueError("a topic is at most 65535 bytes")
        out += len(b).to_bytes(2, "big") + b
    return out


def decode_topics(field: bytes) -> Optional[list]:
    """The topics of a recorded topic field, or None when it is not such a list."""
    out, i = [], 0
    while i < len(field):
        if i + 2 > len(field):
            return None
        n = int.from_bytes(field[i:i + 2], "big")
        if i + 2 + n > len(field):
            return None
        out.append(field[i + 2:i + 2 + n])
        i += 2 + n
    return out or None


@dataclass
class Event:
    emitter: bytes
    topic: bytes
    data: bytes
    raw: dict

    @property
    def value(self) -> Any:
        """The event's data decoded from canonical CBOR."""
        return decode_cbor(self.data) if self.data else None

    @property
    def topics(self) -> Optional[list]:
        """The event's topics (`emit("Beat", data, *more)` → [b"Beat", *more])."""
        return decode_topics(self.topic)

    @property
    def name(self) -> Optional[str]:
        """The first topic as text: the event's name."""
        t = self.topics
        try:
            return t[0].decode() if t else None
        except UnicodeDecodeError:
            return None


@dataclass(repr=False)
class Receipt:
    transaction_hash: bytes
    status: str
    block_number: int
    block_hash: bytes
    cycles_used: int
    cells_used: int
    fee_paid: int
    return_data: bytes
    error: Optional[str]
    events: list
    contract_address: Optional[bytes]
    raw: dict = field(repr=False)

    @property
    def value(self) -> Any:
        """The handler's return value decoded from canonical CBOR (None when empty)."""
        return decode_cbor(self.return_data) if self.return_data else None

    def __repr__(self) -> str:
        extra = f", error={self.error!r}" if self.error else ""
        try:
            shown = f", value={self.value!r}"
        except Exception:  # not canonical CBOR
            shown = f", return_data=0x{self.return_data.hex()}"
        return (f"Receipt(status={self.status!r}{shown}{extra}, block={self.block_number}, "
                f"events={len(self.events)}, fee_paid={self.fee_paid})")

    @staticmethod
    def parse(raw: dict) -> "Receipt":
        return Receipt(
            transaction_hash=_unhex(raw["transactionHash"], "transactionHash"),
            status=raw["status"],
            block_number=_int(raw["blockNumber"], "blockNumber"),
            block_hash=_unhex(raw["blockHash"], "blockHash"),
            cycles_used=_int(raw["cyclesUsed"], "cyclesUsed"),
            cells_used=_int(raw["cellsUsed"], "cellsUsed"),
            fee_paid=_int(raw["feePaid"], "feePaid"),
            return_data=_unhex(raw.get("returnData") or "0x", "returnData"),
            error=raw.get("error"),
            events=[Event(_unhex(e["emitter"], "emitter"), _unhex(e["topic"], "topic"), _unhex(e["data"], "data"), e)
                    for e in raw.get("events", [])],
            contract_address=_unhex(raw["contractAddress"], "contractAddress") if raw.get("contractAddress") else None,
            raw=raw,
        )


_UNITS_PER_CBY = 10**9


def _cby(units: int) -> str:
    whole, frac = divmod(units, _UNITS_PER_CBY)
    f = str(frac).rjust(9, "0").rstrip("0")
    return f"{whole}.{f} CBY" if f else f"{whole} CBY"


def _small(raw: dict, key: str, path: str) -> int:
    v = raw.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or v < 0:
        raise TransportError(f"unexpected RPC response: {path}.{key} is not a non-negative integer: {v!r}")
    return v


def _sized(raw: dict, key: str, size: int, path: str) -> bytes:
    b = _unhex(raw.get(key), f"{path}.{key}")
    if len(b) != size:
        raise TransportError(f"unexpected RPC response: {path}.{key} is {len(b)} bytes, expected {size}")
    return b


@dataclass
class Validator:
    """A validator's record (``cowboy_getValidator``): the operator ``address`` (its own stake),
    48-byte ``bls_key``, ``stake`` in base units, ``status`` ``bonded``/``exiting``, the first
    epoch in the set (``activation_epoch``), ``exit_height`` (0 while bonded), ``jailed_until``
    (exclusive; 0 = not jailed), ``jail_count``, ``slashed`` (base units), ``missed`` votes."""
    address: bytes
    bls_key: bytes
    stake: int
    status: str
    registered_height: int
    activation_epoch: int
    exit_height: int
    jailed_until: int
    jail_count: int
    slashed: int
    missed: int
    raw: dict = field(repr=False)

    @staticmethod
    def parse(raw: Any, path: str = "validator") -> "Validator":
        if not isinstance(raw, dict):
            raise TransportError(f"unexpected RPC response: {path} is not an object: {raw!r}")
        status = raw.get("status")
        if status not in ("bonded", "exiting"):
            raise TransportError(f"unexpected RPC response: {path}.status is {status!r}")
        return Validator(
            address=_sized(raw, "address", 20, path),
            bls_key=_sized(raw, "blsKey", 48, path),
            stake=_int(raw.get("stake"), f"{path}.stake"),
            status=status,
            registered_height=_int(raw.get("registeredHeight"), f"{path}.registeredHeight"),
            activation_epoch=_int(raw.get("activationEpoch"), f"{path}.activationEpoch"),
            exit_height=_int(raw.get("exitHeight"), f"{path}.exitHeight"),
            jailed_until=_int(raw.get("jailedUntil"), f"{path}.jailedUntil"),
            jail_count=_small(raw, "jailCount", path),
            slashed=_int(raw.get("slashed"), f"{path}.slashed"),
            missed=_small(raw, "missed", path),
            raw=raw,
        )


@dataclass
class SetMember:
    """A member of an epoch's set; ``index`` is its consensus index (its position)."""
    index: int
    address: bytes
    bls_key: bytes
    stake: int


@dataclass
class ValidatorSet:
    """An epoch's validator set (``cowboy_getValidators``) in consensus-index order."""
    epoch: int
    validators: list
    total_stake: int
    raw: dict = field(repr=False)

    @staticmethod
    def parse(raw: Any, path: str = "validators") -> "ValidatorSet":
        if not isinstance(raw, dict) or not isinstance(raw.get("validators"), list):
            raise TransportError(f"unexpected RPC response: {path} is not {{epoch, validators: [...]}}: {raw!r}")
        members = []
        for i, m in enumerate(raw["validators"]):
            p = f"{path}.validators[{i}]"
            if not isinstance(m, dict):
                raise TransportError(f"unexpected RPC response: {p} is not an object")
            if _small(m, "index", p) != i:
                raise TransportError(f"unexpected RPC response: {p}.index is {m['index']}, expected {i} (index order)")
            members.append(SetMember(i, _sized(m, "address", 20, p), _sized(m, "blsKey", 48, p),
                                     _int(m.get("stake"), f"{p}.stake")))
        return ValidatorSet(_int(raw.get("epoch"), f"{path}.epoch"), members, sum(m.stake for m in members), raw)


_VALIDATOR_ERROR = re.compile(r"ERR_VALIDATOR_([A-Z_]+):\s*(.*)\Z", re.S)
_FIXES = {
    "BALANCE": "fund the operator account with the stake plus the fee, or stake less",
    "ALREADY_REGISTERED": "this account is already a validator: check it with getValidator / `cowboy validator status`",
    "KEY_IN_USE": "another validator registered this BLS key: generate a fresh one (`cowboy validator keygen`)",
    "BAD_PROOF_OF_POSSESSION":
        "the proof of possession must sign the BLS key for this chain id: recompute it for the node's chain",
    "BAD_KEY": "the BLS public key must be 48 bytes",
    "UNKNOWN_VALIDATOR": "the sender is not a validator: sign with the operator account that registered",
    "NOT_BONDED": "the validator is already exiting; withdraw its stake once unbonded",
    "NOT_EXITING": "exit first (exitValidator), then withdraw after the unbonding period",
    "NOT_JAILED": "the validator is not jailed: nothing to do",
    "BAD_EVIDENCE": "the evidence is not punishable (malformed, too old or already punished)",
    "EVIDENCE_TOO_OLD": "the evidence is not punishable (malformed, too old or already punished)",
    "DUPLICATE_EVIDENCE": "the evidence is not punishable (malformed, too old or already punished)",
}


@dataclass
class ValidatorFailure:
    """What a failed validator transaction's receipt error says (``ERR_VALIDATOR_<code>: …``), with the fix;
    ``values`` holds the numbers it carries (``min_stake``, ``stake``, ``balance``, ``unbonds_at``, ``jailed_until``)."""
    code: str
    err_code: str
    detail: str
    fix: str
    values: dict


def parse_validator_error(text: Optional[str]) -> Optional[ValidatorFailure]:
    """Parses a validator instruction's receipt error; None when ``text`` is not one (same fixes as the TS SDK)."""
    if text is None:
        return None
    m = _VALIDATOR_ERROR.match(text.strip())
    if not m:
        return None
    code, detail = m.group(1), m.group(2)
    values: dict = {}

    def num(pattern: str, *names: str) -> None:
        r = re.search(pattern, detail)
        if r:
            for i, n in enumerate(names):
                values[n] = int(r.group(i + 1))

    if code == "STAKE_TOO_LOW":
        num(r"stake ([0-9]+) is below the minimum ([0-9]+)", "stake", "min_stake")
        fix = (f"stake at least the minimum {_cby(values['min_stake'])} ({values['min_stake']} base units)"
               if "min_stake" in values else "stake at least the chain's minimum")
    elif code == "STILL_UNBONDING":
        num(r"unbonds at height ([0-9]+)", "unbonds_at")
        fix = (f"wait until block {values['unbonds_at']}, then withdraw again" if "unbonds_at" in values
               else "wait for the unbonding period to end, then withdraw again")
    elif code == "STILL_JAILED":
        num(r"jailed until height ([0-9]+)", "jailed_until")
        fix = (f"wait until block {values['jailed_until']}, then unjail again" if "jailed_until" in values
               else "wait for the jail to end, then unjail again")
    else:
        if code == "BALANCE":
            num(r"balance ([0-9]+) < stake ([0-9]+)", "balance", "stake")
        fix = _FIXES.get(code, "see docs/validator.md")
    return ValidatorFailure(code, f"ERR_VALIDATOR_{code}", detail, fix, values)


class ValidatorError(Exception):
    """A validator transaction was included but failed. ``failure`` (a :class:`ValidatorFailure`, or None
    for another kind of failure) says why and how to fix it; ``err_code`` is ``ERR_VALIDATOR_<code>``."""

    def __init__(self, receipt: "Receipt"):
        self.receipt = receipt
        self.failure = parse_validator_error(receipt.error)
        self.err_code = self.failure.err_code if self.failure else "ERR_VALIDATOR_TX_FAILED"
        super().__init__(f"{self.failure.detail} ({self.failure.fix})" if self.failure else
                         f"transaction 0x{receipt.transaction_hash.hex()} failed: {receipt.error or receipt.status}")


@dataclass
class Deployed:
    address: bytes
    receipt: Receipt
    transaction: Transaction


@dataclass
class Simulation:
    """A simulated call (`cowboy_call`)."""
    ok: bool
    return_data: bytes
    error: Optional[dict]
    cycles_used: int
    cells_used: int
    fee: Optional[dict]
    raw: dict = field(repr=False)

    @property
    def value(self) -> Any:
        return decode_cbor(self.return_data) if self.return_data else None


class Subscription:
    """A `cowboy_subscribe` subscription over its own WebSocket: iterate it for the
    notifications' results (`next_result(timeout)` for one), `close()` to end it.

        with client.subscribe("newHeads") as heads:
            for head in heads:
                print(int(head["number"], 16))
    """

    def __init__(self, url: str, topic: str, filter: Optional[dict] = None, timeout: float = 30.0):
        self.topic = topic
        try:
            self._ws = WebSocket(url, timeout)
        except WebSocketError as e:
            raise TransportError(f"{e} (start a node with `npx cowboy devnet`)") from None
        self._pending: list = []
        params = [topic] if filter is None else [topic, filter]
        self._ws.send(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "cowboy_subscribe", "params": params}))
        while True:
            msg = json.loads(self._ws.recv())
            if msg.get("id") == 1:
                if msg.get("error") is not None:
                    err = msg["error"]
                    self._ws.close()
                    raise RpcError("cowboy_subscribe", err.get("code", 0), err.get("message", ""), err.get("data"))
                self.id = msg["result"]
                return
            self._pending.append(msg)

    def next_result(self, timeout: Optional[float] = None) -> Any:
        """The next notification's result; raises TimeoutError when none arrives in time."""
        while True:
            if self._pending:
                msg = self._pending.pop(0)
            else:
                self._ws.settimeout(timeout)
                try:
                    msg = json.loads(self._ws.recv())
                except (socket.timeout, TimeoutError):
                    raise TimeoutError(f"no {self.topic} notification within {timeout} s") from None
                except WebSocketError as e:
                    raise TransportError(str(e)) from None
            params = msg.get("params") or {}
            if msg.get("method") == "cowboy_subscription" and params.get("subscription") == self.id:
                return params.get("result")

    def __iter__(self) -> Iterator[Any]:
        while True:
            yield self.next_result()

    def close(self) -> None:
        self._ws.close()

    def __enter__(self) -> "Subscription":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class Client:
    """One node. Methods raise RpcError (the node said no), TransportError (no answer) or
    ActorCallError (a handler failed)."""

    def __init__(self, url: str = DEFAULT_RPC, timeout: float = 30.0):
        self.url = url
        self.timeout = timeout
        self._next_id = 1
        self._chain_id: Optional[int] = None
        self._nonces: dict = {}

    # ------------------------------------------------------------------ transport

    def request(self, method: str, params: Sequence[Any] = ()) -> Any:
        body = json.dumps({"jsonrpc": "2.0", "id": self._next_id, "method": method, "params": list(params)})
        self._next_id += 1
        req = urllib.request.Request(self.url, data=body.encode(), headers={"content-type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as res:
                text = res.read().decode()
        except urllib.error.HTTPError as e:
            text = e.read().decode()
            if not text:
                raise TransportError(f"HTTP {e.code} from {self.url}") from None
        except (urllib.error.URLError, OSError) as e:
            raise TransportError(
                f"cannot reach {self.url}: {getattr(e, 'reason', e)} "
                "(start a node with `npx cowboy devnet`, or set COWBOY_RPC)") from None
        try:
            answer = json.loads(text)
        except ValueError:
            raise TransportError(f"{self.url} did not answer JSON") from None
        if isinstance(answer, dict) and answer.get("error") is not None:
            err = answer["error"]
            raise RpcError(method, err.get("code", 0), err.get("message", ""), err.get("data"))
        if not isinstance(answer, dict) or "result" not in answer:
            raise TransportError(f"{self.url} answered {method} without a result")
        return answer["result"]

    # ------------------------------------------------------------------ reads

    def chain_id(self) -> int:
        if self._chain_id is None:
            self._chain_id = _int(self.request("cowboy_chainId"), "chainId")
        return self._chain_id

    def block_number(self) -> int:
        return _int(self.request("cowboy_blockNumber"), "blockNumber")

    def status(self) -> dict:
        return self.request("cowboy_status")

    def get_balance(self, address: Address, block: BlockTag = "latest") -> int:
        return _int(self.request("cowboy_getBalance", [_hex(_addr(address)), _tag(block)]), "balance")

    def get_transaction_count(self, address: Address, block: BlockTag = "latest") -> int:
        return _int(self.request("cowboy_getTransactionCount", [_hex(_addr(address)), _tag(block)]), "nonce")

    def get_block(self, block: Union[BlockTag, bytes] = "latest", full: bool = False) -> Optional[dict]:
        if isinstance(block, bytes):
            return self.request("cowboy_getBlockByHash", [_hex(block), full])
        return self.request("cowboy_getBlockByNumber", [_tag(block), full])

    def get_transaction(self, tx_hash: bytes) -> Optional[Transaction]:
        raw = self.request("cowboy_getTransactionByHash", [_hex(tx_hash)])
        return None if raw is None else decode_transaction(_unhex(raw["raw"], "raw"))

    def get_receipt(self, tx_hash: bytes) -> Optional[Receipt]:
        raw = self.request("cowboy_getTransactionReceipt", [_hex(tx_hash)])
        return None if raw is None else Receipt.parse(raw)

    def wait_for_receipt(self, tx_hash: bytes, timeout: float = 60.0, poll: float = 0.25) -> Receipt:
        deadline = time.monotonic() + timeout
        while True:
            r = self.get_receipt(tx_hash)
            if r is not None:
                return r
            if time.monotonic() >= deadline:
                raise TransportError(f"no receipt for {_hex(tx_hash)} after {timeout} s (is the node producing blocks?)")
            time.sleep(poll)

    def fee_history(self, block_count: int, newest: BlockTag = "latest") -> dict:
        return self.request("cowboy_feeHistory", [block_count, _tag(newest)])

    def get_code(self, address: Address, block: BlockTag = "latest") -> Optional[bytes]:
        code = _unhex(self.request("cowboy_getCode", [_hex(_addr(address)), _tag(block)]), "code")
        return code or None

    def get_storage(self, actor: Address, key: Any, block: BlockTag = "latest") -> Any:
        """A storage value decoded from CBOR (None when absent), proven (see `get_storage_at`).
        `key` is a str (encoded as CBOR, like `self.storage["count"]`) or raw bytes."""
        v = self.get_storage_at(actor, key, block)
        return None if v.value is None else decode_cbor(v.value)

    def get_storage_at(self, actor: Address, key: Any, block: BlockTag = "latest") -> ProvenValue:
        """One actor storage cell, proven: its raw (CBOR) bytes, None when absent. The node's
        state proof is verified against the state root of the block's header: a bad proof
        raises StateProofError, an answer that disagrees with its proof or with the header
        ProofMismatchError."""
        k = key if isinstance(key, bytes) else encode_cbor(key)
        state_key = actor_storage_key(_addr(actor), k)
        raw = self.get_storage_proof(actor, k, block)
        return self._verify_proven_read(raw, state_key, "cowboy_getStorageAt")

    def get_storage_proof(self, actor: Address, key: Any, block: BlockTag = "latest") -> dict:
        """The node's raw `cowboy_getStorageAt` answer (value, proof, stateRoot, blockNumber),
        not verified: `get_storage_at` verifies it."""
        k = key if isinstance(key, bytes) else encode_cbor(key)
        return self.request("cowboy_getStorageAt", [_hex(_addr(actor)), _hex(k), _tag(block)])

    def get_proven_account(self, address: Address, block: BlockTag = "latest") -> Optional[ProvenAccount]:
        """The account record (balance, nonce, code hash, metadata) of `address`, proven
        against the block's state root like `get_storage_at`; None when the account does not
        exist."""
        raw = self.request("cowboy_getProof", [_hex(_addr(address)), _tag(block)])
        proven = self._verify_proven_read(raw, account_key(_addr(address)), "cowboy_getProof")
        if proven.value is None:
            return None
        try:
            record = decode_account_record(proven.value)
        except ValueError as e:
            raise ProofMismatchError("cowboy_getProof.value", f"the proven account record is malformed: {e}") from None
        return ProvenAccount(record.balance, record.nonce, record.code_hash, record.metadata, proven)

    def _verify_proven_read(self, raw: Any, key: bytes, method: str) -> ProvenValue:
        if not isinstance(raw, dict) or "proof" not in raw or "blockNumber" not in raw:
            raise TransportError(f"unexpected RPC response: {method} has no proof")
        if raw.get("key") is not None and _unhex(raw["key"], "key") != key:
            raise ProofMismatchError(f"{method}.key", "the node proved a different state key")
        number = _int(raw["blockNumber"], "blockNumber")
        header = self.get_block(number)
        if not isinstance(header, dict):
            raise ProofMismatchError(f"{method}.blockNumber", f"block {number} is unknown")
        root = _unhex(header.get("stateRoot"), "stateRoot")
        if len(root) != 32:
            raise TransportError("unexpected RPC response: a state root is 32 bytes")
        if raw.get("stateRoot") is not None and _unhex(raw["stateRoot"], "stateRoot") != root:
            raise ProofMismatchError(f"{method}.stateRoot", "differs from the block header's state root")
        proven = verify_state_proof(root, key, _unhex(raw["proof"], "proof"))
        claimed = None if raw.get("value") is None else _unhex(raw["value"], "value")
        if claimed != proven:
            raise ProofMismatchError(f"{method}.value", "the claimed value differs from the proven one")
        return ProvenValue(key, proven, number, root)

    def get_logs(self, address: Union[Address, Sequence[Address]], topics: Sequence[Union[str, bytes]] = (),
                 from_block: Optional[BlockTag] = None, to_block: Optional[BlockTag] = None) -> list:
        addrs = [_hex(_addr(a)) for a in address] if isinstance(address, (list, tuple)) else _hex(_addr(address))
        f: dict = {"address": addrs}
        if topics:  # event names (str) or raw topic fields (bytes)
            f["topics"] = [_hex(encode_topics(t) if isinstance(t, str) else t) for t in topics]
        if from_block is not None:
            f["fromBlock"] = _tag(from_block)
        if to_block is not None:
            f["toBlock"] = _tag(to_block)
        return [Event(_unhex(e["emitter"], "emitter"), _unhex(e["topic"], "topic"), _unhex(e["data"], "data"), e)
                for e in self.request("cowboy_getLogs", [f])]

    def get_timers(self, actor: Address) -> list:
        return self.request("cowboy_getTimers", [_hex(_addr(actor))])

    def get_validators(self, epoch: Optional[int] = None) -> ValidatorSet:
        """The validator set of ``epoch`` (default: the next block's epoch) in consensus-index order with the
        members' stakes; empty when the node keeps no set for that epoch."""
        return ValidatorSet.parse(self.request("cowboy_getValidators", [] if epoch is None else [_q(epoch)]),
                                  "cowboy_getValidators")

    def get_validator(self, address: Address) -> Optional[Validator]:
        """A validator's record in the head state, or None if ``address`` is not registered."""
        raw = self.request("cowboy_getValidator", [_hex(_addr(address))])
        return None if raw is None else Validator.parse(raw, "cowboy_getValidator")

    def faucet(self, address: Address, amount: Optional[int] = None) -> bytes:
        params = [_hex(_addr(address))] + ([] if amount is None else [_q(amount)])
        return _unhex(self.request("cowboy_faucet", params), "hash")

    def iter_blocks(self, poll: float = 0.5, timeout: Optional[float] = None) -> Iterator[dict]:
        """Yields each new block as it is produced, by polling (no WebSocket needed)."""
        seen = self.block_number()
        deadline = None if timeout is None else time.monotonic() + timeout
        while deadline is None or time.monotonic() < deadline:
            head = self.block_number()
            while seen < head:
                seen += 1
                block = self.get_block(seen)
                if block is not None:
                    yield block
            time.sleep(poll)

    def subscribe(self, topic: str, filter: Optional[dict] = None) -> Subscription:
        """A WebSocket subscription to `newHeads`, `events` (filter: {"address": "0x…", "topics": [...]})
        or `pendingTransactions`, on the node's WebSocket (same host and port as `url`)."""
        return Subscription(self.url.replace("http://", "ws://", 1), topic, filter, self.timeout)

    def watch_events(self, actor: Address, topics: Sequence[Union[str, bytes]] = ()) -> Subscription:
        """A subscription to an actor's events (results are the node's event JSON)."""
        f: dict = {"address": _hex(_addr(actor))}
        if topics:
            f["topics"] = [_hex(encode_topics(t) if isinstance(t, str) else t) for t in topics]
        return self.subscribe("events", f)

    def simulate(self, actor: Address, handler: str, args: Sequence[Any] = (), sender: Optional[Address] = None,
                 value: int = 0, block: BlockTag = "latest") -> Simulation:
        """Runs a handler against the state without committing (`cowboy_call`)."""
        req: dict = {"to": _hex(_addr(actor)), "handler": handler, "args": _hex(encode_args(args)), "value": _q(value)}
        if sender is not None:
            req["from"] = _hex(_addr(sender))
        raw = self.request("cowboy_call", [req, _tag(block)])
        return Simulation(bool(raw["ok"]), _unhex(raw.get("result") or "0x", "result"), raw.get("error"),
                          _int(raw["cyclesUsed"], "cyclesUsed"), _int(raw["cellsUsed"], "cellsUsed"), raw.get("fee"), raw)

    def call(self, actor: Address, handler: str, args: Sequence[Any] = (), **kw: Any) -> Any:
        """The decoded result of a simulated call; raises ActorCallError when the handler fails."""
        s = self.simulate(actor, handler, args, **kw)
        if not s.ok:
            err = s.error or {}
            type_, message = err.get("type", "Error"), err.get("message", "")
            if _TYPE.match(type_) and not type_.startswith("ERR_"):
                raise ActorCallError(handler, type_, message)
            code, type_, detail = parse_failure(message, type_)
            e = ActorCallError(handler, type_, detail)
            e.code = code
            raise e
        return s.value

    def estimate_fee(self, tx: Transaction) -> dict:
        """Limits, basefees and fee caps for a transaction's instruction (§17.10), as hex quantities."""
        return self.request("cowboy_estimateFee", [_hex(encode_transaction(tx))])

    # ------------------------------------------------------------------ writes

    def next_nonce(self, key: PrivateKey) -> int:
        node = _int(self.request("cowboy_getTransactionCount", [_hex(key.address), "pending"]), "nonce")
        return max(node, self._nonces.get(key.address, 0))

    def prepare(self, key: PrivateKey, instruction: Any, *, nonce: Optional[int] = None, **overrides: int) -> Transaction:
        """The unsigned transaction of `instruction` from `key`, with chain id, nonce, limits and fees
        filled from the node unless given (cycles_limit, cells_limit, max_fee_per_cycle, ...)."""
        base = Transaction(self.chain_id(), self.next_nonce(key) if nonce is None else nonce, instruction,
                           0, 0, 0, 0, 0, 0, key.address)
        names = ("cycles_limit", "cells_limit", "max_fee_per_cycle", "max_fee_per_cell",
                 "max_priority_fee_per_cycle", "max_priority_fee_per_cell")
        unknown = set(overrides) - set(names)
        if unknown:
            raise TypeError(f"unknown transaction fields: {sorted(unknown)}")
        if any(n not in overrides for n in names):
            est = self.estimate_fee(base)
            from_node = {
                "cycles_limit": _int(est["cyclesLimit"], "cyclesLimit"),
                "cells_limit": _int(est["cellsLimit"], "cellsLimit"),
                "max_fee_per_cycle": _int(est["maxFeePerCycle"], "maxFeePerCycle"),
                "max_fee_per_cell": _int(est["maxFeePerCell"], "maxFeePerCell"),
                "max_priority_fee_per_cycle": _int(est["maxPriorityFeePerCycle"], "maxPriorityFeePerCycle"),
                "max_priority_fee_per_cell": _int(est["maxPriorityFeePerCell"], "maxPriorityFeePerCell"),
            }
            overrides = {**from_node, **overrides}
        return replace(base, **overrides)

    def send_raw(self, raw: bytes) -> bytes:
        return _unhex(self.request("cowboy_sendRawTransaction", [_hex(raw)]), "hash")

    def send_transaction(self, key: PrivateKey, instruction: Any, *, wait: bool = True, timeout: float = 60.0,
                         **overrides: Any) -> Union[Receipt, bytes]:
        """Prepares, signs and sends; returns the receipt (or the hash with wait=False)."""
        tx = key.sign_transaction(self.prepare(key, instruction, **overrides))
        tx_hash = self.send_raw(encode_transaction(tx))
        self._nonces[key.address] = tx.nonce + 1
        return self.wait_for_receipt(tx_hash, timeout) if wait else tx_hash

    def transfer(self, key: PrivateKey, to: Address, amount: int, **kw: Any) -> Receipt:
        return self.send_transaction(key, Transfer(_addr(to), amount), **kw)

    def deploy(self, key: PrivateKey, source: Union[str, bytes], args: Sequence[Any] = (),
               salt: Optional[bytes] = None, value: int = 0, **kw: Any) -> Deployed:
        """Deploys Python source (canonicalized) and waits; raises ActorCallError if __init__ fails."""
        src = canonicalize_source(source) if isinstance(source, str) else source
        nonce = kw.pop("nonce", None)
        nonce = self.next_nonce(key) if nonce is None else nonce
        salt = default_deploy_salt(nonce) if salt is None else salt
        ins = Deploy(src, salt, encode_args(args), value)
        tx = key.sign_transaction(self.prepare(key, ins, nonce=nonce, **kw))
        tx_hash = self.send_raw(encode_transaction(tx))
        self._nonces[key.address] = tx.nonce + 1
        receipt = self.wait_for_receipt(tx_hash)
        if receipt.status != "success":
            raise _receipt_error("__init__", receipt)
        return Deployed(actor_address(key.address, salt, src), receipt, tx)

    def send(self, key: PrivateKey, actor: Address, handler: str, args: Sequence[Any] = (), value: int = 0,
             **kw: Any) -> Receipt:
        """Calls a handler in a transaction and waits; `receipt.value` is the decoded result.
        Raises ActorCallError when the handler fails (the receipt is on the error)."""
        receipt = self.send_transaction(key, Call(_addr(actor), handler, encode_args(args), value), **kw)
        if receipt.status != "success":
            raise _receipt_error(handler, receipt)
        return receipt

    def schedule_timer(self, key: PrivateKey, actor: Address, fire_at_height: int, handler: str,
                       data: bytes = b"", interval: Optional[int] = None, **kw: Any) -> Receipt:
        return self.send_transaction(key, ScheduleTimer(_addr(actor), fire_at_height, handler, data, interval), **kw)

    def cancel_timer(self, key: PrivateKey, actor: Address, timer_id: bytes, **kw: Any) -> Receipt:
        return self.send_transaction(key, CancelTimer(_addr(actor), timer_id), **kw)

    def publish_library(self, key: PrivateKey, name: str, version: int, source: Union[str, bytes], **kw: Any):
        src = canonicalize_source(source) if isinstance(source, str) else source
        return self.send_transaction(key, Publish(name, version, src), **kw)

    def custom(self, key: PrivateKey, sub_type: int, payload: bytes, **kw: Any) -> Receipt:
        return self.send_transaction(key, Custom(sub_type, payload), **kw)

    def _validator_tx(self, key: PrivateKey, instruction: Any, kw: dict) -> Union[Receipt, bytes]:
        result = self.send_transaction(key, instruction, **kw)
        if isinstance(result, Receipt) and result.status != "success":
            raise ValidatorError(result)
        return result

    def register_validator(self, key: PrivateKey, bls_key: bytes, proof_of_possession: bytes, stake: int,
                           **kw: Any) -> Receipt:
        """Registers ``key``'s account as a validator with ``stake`` base units of its balance, BLS public key
        ``bls_key`` (48 bytes) and its proof of possession for this chain (96 bytes); in the set from the next
        epoch. Waits and raises :class:`ValidatorError` (with the fix) when the chain refuses it."""
        return self._validator_tx(key, RegisterValidator(bytes(bls_key), bytes(proof_of_possession), stake), kw)

    def exit_validator(self, key: PrivateKey, **kw: Any) -> Receipt:
        """Starts unbonding ``key``'s validator (out of the set from the next epoch)."""
        return self._validator_tx(key, ExitValidator(), kw)

    def withdraw_stake(self, key: PrivateKey, **kw: Any) -> Receipt:
        """Returns the stake of ``key``'s validator once it has unbonded."""
        return self._validator_tx(key, WithdrawStake(), kw)

    def unjail_validator(self, key: PrivateKey, **kw: Any) -> Receipt:
        """Releases ``key``'s validator after its jail (back in the set from the next epoch)."""
        return self._validator_tx(key, UnjailValidator(), kw)

    def submit_evidence(self, key: PrivateKey, evidence: bytes, **kw: Any) -> Receipt:
        """Submits equivocation evidence (``encodeEvidence`` bytes); anyone may."""
        return self._validator_tx(key, SubmitEvidence(bytes(evidence)), kw)


_CODE = re.compile(r"(ERR_[A-Z0-9_]+): ?(.*)\Z", re.S)
_TYPE = re.compile(r"([A-Z][A-Za-z0-9_.]*)(?:: (.*))?\Z", re.S)


def parse_failure(text: str, fallback: str = "Error") -> tuple:
    """(code, type, detail) of an error text, as the TS SDK's `parseFailure`:
    "ERR_EXEC_HANDLER: ValueError: by must be positive" → ("ERR_EXEC_HANDLER", "ValueError", "by must be positive")."""
    code, rest = None, text
    m = _CODE.match(rest)
    if m:
        code, rest = m.group(1), m.group(2)
    t = _TYPE.match(rest)
    if t and not t.group(1).startswith("ERR_") and (t.group(2) is not None or code is not None):
        return code, t.group(1), t.group(2) or ""
    return code, code or fallback, rest


def _receipt_error(handler: str, receipt: Receipt) -> ActorCallError:
    code, type_, detail = parse_failure(receipt.error or receipt.status, receipt.status)
    err = ActorCallError(handler, type_, detail, receipt)
    err.code = code
    return err


def value_from_json(v: Any) -> Any:
    """The JSON form of actor values (docs/cli.md; same as the TS SDK's `parseValueJson`):
    integers exact, floats, str, bool, None, lists, dicts with str keys, and
    ``{"$bytes": "0x…"}``, ``{"$set": [...]}``, ``{"$map": [[k, v], ...]}``."""
    if isinstance(v, list):
        return [value_from_json(x) for x in v]
    if isinstance(v, dict):
        if len(v) == 1:
            (tag, inner), = v.items()
            if tag == "$bytes":
                if not isinstance(inner, str) or not inner.startswith("0x"):
                    raise ValueError('"$bytes" takes a 0x-prefixed hex string')
                return bytes.fromhex(inner[2:])
            if tag == "$set":
                return frozenset(_hashable(value_from_json(x)) for x in inner)
            if tag == "$map":
                return {_hashable(value_from_json(k)): value_from_json(x) for k, x in inner}
        return {k: value_from_json(x) for k, x in v.items()}
    return v


def _hashable(v: Any) -> Any:
    return tuple(_hashable(x) for x in v) if isinstance(v, list) else v


def args_from_json(text: str) -> bytes:
    """Canonical CBOR of handler arguments given as a JSON array (`'[1, "a"]'`)."""
    v = json.loads(text or "[]")
    if not isinstance(v, list):
        raise ValueError('handler arguments must be a JSON array, e.g. [1, "a"]')
    return encode_args(value_from_json(v))

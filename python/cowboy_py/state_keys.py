"""The world state's key layout (crates/qmdb/src/keys.rs, docs/state.md) and the account
record encoding, so a client can name the exact state key a proof is about and check the
proven bytes itself: the same rules as the Rust crate and the TypeScript SDK."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Union

#: VM namespace of the Python VM in actor storage keys.
VM_NS_PVM = 0x01
#: Longest actor storage key (bytes after the address).
MAX_STORAGE_KEY_LEN = 512
#: Longest account metadata.
MAX_ACCOUNT_METADATA_LEN = 64 * 1024


def _address(addr: Union[bytes, str]) -> bytes:
    if isinstance(addr, str):
        addr = bytes.fromhex(addr[2:] if addr.startswith("0x") else addr)
    if not isinstance(addr, (bytes, bytearray)) or len(addr) != 20:
        raise ValueError("an address is 20 bytes")
    return bytes(addr)


def account_key(addr: Union[bytes, str]) -> bytes:
    """State key of an account record: ``0x01 ‖ address``."""
    return b"\x01" + _address(addr)


def actor_code_key(addr: Union[bytes, str]) -> bytes:
    """State key of an actor's code: ``0x02 ‖ address``."""
    return b"\x02" + _address(addr)


def actor_storage_key(addr: Union[bytes, str], key: bytes, vm_ns: int = VM_NS_PVM) -> bytes:
    """State key of an actor storage cell: ``0x03 ‖ vm_ns ‖ address ‖ key`` (key 1..=512 bytes)."""
    if not 1 <= len(key) <= MAX_STORAGE_KEY_LEN:
        raise ValueError(f"storage key length {len(key)} outside 1..={MAX_STORAGE_KEY_LEN}")
    if not 0 <= vm_ns <= 0xFF:
        raise ValueError("vm_ns is one byte")
    return bytes([0x03, vm_ns]) + _address(addr) + bytes(key)


@dataclass(frozen=True)
class AccountRecord:
    """An account record: ``balance u128 LE | nonce u64 LE | code_hash (32, zero = no code) |
    u32 LE len | metadata``."""

    balance: int
    nonce: int
    code_hash: bytes
    metadata: bytes

    def encode(self) -> bytes:
        """The record's bytes (the inverse of `decode_account_record`)."""
        if not 0 <= self.balance < 1 << 128 or not 0 <= self.nonce < 1 << 64:
            raise ValueError("balance is a u128 and nonce a u64")
        if len(self.code_hash) != 32 or len(self.metadata) > MAX_ACCOUNT_METADATA_LEN:
            raise ValueError("code hash is 32 bytes and metadata at most 64 KiB")
        return (self.balance.to_bytes(16, "little") + self.nonce.to_bytes(8, "little") + bytes(self.code_hash)
                + len(self.metadata).to_bytes(4, "little") + bytes(self.metadata))


def decode_account_record(buf: bytes) -> AccountRecord:
    """Strictly decodes an account record; ValueError when its length is inconsistent."""
    if len(buf) < 60:
        raise ValueError(f"account record too short ({len(buf)} bytes)")
    n = int.from_bytes(buf[56:60], "little")
    if n > MAX_ACCOUNT_METADATA_LEN:
        raise ValueError(f"account metadata of {n} bytes exceeds 64 KiB")
    if len(buf) != 60 + n:
        raise ValueError("account record length does not match its metadata length")
    return AccountRecord(int.from_bytes(buf[0:16], "little"), int.from_bytes(buf[16:24], "little"),
                         bytes(buf[24:56]), bytes(buf[60:]))

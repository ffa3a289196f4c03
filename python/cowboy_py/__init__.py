"""cowboy-py: a Python client for the Cowboy chain.

The codec, keys and canonical CBOR here produce the same bytes as the Rust crates and the
TypeScript SDK (checked against spec 01 Appendix A and shared vectors).
"""
from .cbor import CborError, decode_cbor, encode_cbor
from .codec import (
    AccessListEntry,
    Call,
    CancelTimer,
    Custom,
    Deploy,
    Publish,
    ScheduleTimer,
    Transaction,
    Transfer,
    actor_address,
    canonicalize_source,
    decode_transaction,
    encode_transaction,
    keccak256,
)
from .errors import CodecError, SignatureError
from .keys import PrivateKey, recover_signer, verify_transaction

__all__ = [
    "AccessListEntry", "Call", "CancelTimer", "CborError", "CodecError", "Custom", "Deploy", "PrivateKey",
    "Publish", "ScheduleTimer", "SignatureError", "Transaction", "Transfer", "actor_address",
    "canonicalize_source", "decode_cbor", "decode_transaction", "encode_cbor", "encode_transaction",
    "keccak256", "recover_signer", "verify_transaction",
]

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
    DkgLog,
    ExitValidator,
    Publish,
    RegisterValidator,
    ScheduleTimer,
    SubmitEvidence,
    SysCancelTimer,
    Transaction,
    Transfer,
    UnjailValidator,
    WithdrawStake,
    actor_address,
    canonicalize_source,
    decode_instruction,
    decode_transaction,
    encode_instruction,
    encode_transaction,
    keccak256,
)
from .client import (
    ActorCallError,
    Client,
    Deployed,
    Event,
    ProofMismatchError,
    ProvenAccount,
    ProvenValue,
    Receipt,
    RpcError,
    Simulation,
    SetMember,
    Subscription,
    TransportError,
    Validator,
    ValidatorError,
    ValidatorFailure,
    ValidatorSet,
    args_from_json,
    decode_topics,
    default_deploy_salt,
    dev_account,
    encode_args,
    encode_topics,
    parse_validator_error,
    value_from_json,
)
from .errors import CodecError, SignatureError
from .state_keys import AccountRecord, account_key, actor_code_key, actor_storage_key, decode_account_record
from .state_proof import StateProofError, decode_state_proof, verify_state_proof
from .hd import DEVNET_MNEMONIC, derive_secret_key, mnemonic_to_seed
from .keys import PrivateKey, recover_signer, verify_transaction

__all__ = [
    "ActorCallError", "Client", "SetMember", "Validator", "ValidatorError", "ValidatorFailure", "ValidatorSet",
    "parse_validator_error", "DEVNET_MNEMONIC", "Deployed", "Event", "Receipt", "RpcError", "Simulation", "Subscription",
    "TransportError", "args_from_json", "decode_topics", "encode_topics", "default_deploy_salt", "derive_secret_key", "dev_account", "encode_args", "value_from_json",
    "mnemonic_to_seed",
    "AccessListEntry", "Call", "CancelTimer", "CborError", "CodecError", "Custom", "Deploy", "PrivateKey",
    "Publish", "ScheduleTimer", "SignatureError", "Transaction", "Transfer", "actor_address",
    "canonicalize_source", "decode_cbor", "decode_transaction", "encode_cbor", "encode_transaction",
    "keccak256", "recover_signer", "verify_transaction",
    "RegisterValidator", "ExitValidator", "WithdrawStake", "UnjailValidator", "SubmitEvidence", "SysCancelTimer",
    "DkgLog",
    "encode_instruction", "decode_instruction",
    "AccountRecord", "ProofMismatchError", "ProvenAccount", "ProvenValue", "StateProofError", "account_key",
    "actor_code_key", "actor_storage_key", "decode_account_record", "decode_state_proof", "verify_state_proof",
]

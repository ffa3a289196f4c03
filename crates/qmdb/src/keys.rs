//! The namespaced key layout of the world state: every key is a 1-byte namespace tag followed
//! by fixed fields. Integers in keys are big-endian so that byte order equals numeric order
//! (timers iterate by fire height, then FIFO sequence).
//!
//! | tag | namespace | layout after the tag |
//! | --- | --- | --- |
//! | `0x01` | account | address (20) |
//! | `0x02` | actor code | address (20) |
//! | `0x03` | actor storage | vm_ns (1) · address (20) · storage key (1..=[`MAX_STORAGE_KEY_LEN`]) |
//! | `0x04` | timer | fire height (u64 BE) · sequence (u64 BE) |
//! | `0x05` | job | job id (32) |
//! | `0x06` | runner | address (20) |
//! | `0x07` | entitlement | address (20) · entitlement id (1..=64) |
//! | `0x08` | governance parameter | name (1..=64 bytes) |

use crate::Error;
use crate::op::Reader;

/// A 20-byte account or actor address.
pub type Address = [u8; 20];

/// Longest actor storage key (bytes after the address).
pub const MAX_STORAGE_KEY_LEN: usize = 512;
/// Longest entitlement id.
pub const MAX_ENTITLEMENT_ID_LEN: usize = 64;
/// Longest governance parameter name.
pub const MAX_PARAM_NAME_LEN: usize = 64;

/// VM namespace of the Python VM (`vm_ns` in actor storage keys, spec 01 "Cross-VM").
pub const VM_NS_PVM: u8 = 0x01;
/// VM namespace reserved for a future EVM.
pub const VM_NS_EVM: u8 = 0x02;

/// Namespace tags. The numeric values are consensus bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Namespace {
    /// Accounts: balance, nonce, code hash, metadata.
    Account = 0x01,
    /// Actor code blobs.
    ActorCode = 0x02,
    /// Actor storage cells.
    ActorStorage = 0x03,
    /// Pending timers.
    Timer = 0x04,
    /// Runner jobs.
    Job = 0x05,
    /// Registered runners.
    Runner = 0x06,
    /// Entitlements.
    Entitlement = 0x07,
    /// Governance parameters.
    Governance = 0x08,
}

impl Namespace {
    /// Parses a tag byte.
    pub fn from_tag(tag: u8) -> Option<Namespace> {
        Some(match tag {
            0x01 => Namespace::Account,
            0x02 => Namespace::ActorCode,
            0x03 => Namespace::ActorStorage,
            0x04 => Namespace::Timer,
            0x05 => Namespace::Job,
            0x06 => Namespace::Runner,
            0x07 => Namespace::Entitlement,
            0x08 => Namespace::Governance,
            _ => return None,
        })
    }

    /// The one-byte prefix of every key of this namespace (for prefix scans).
    pub fn prefix(self) -> [u8; 1] {
        [self as u8]
    }
}

fn with_tag(ns: Namespace, parts: &[&[u8]]) -> Vec<u8> {
    let mut k = Vec::with_capacity(1 + parts.iter().map(|p| p.len()).sum::<usize>());
    k.push(ns as u8);
    for p in parts {
        k.extend_from_slice(p);
    }
    k
}

fn bounded(what: &str, b: &[u8], max: usize) -> Result<(), Error> {
    if b.is_empty() || b.len() > max {
        return Err(Error::Corrupt(format!(
            "{what} length {} outside 1..={max}",
            b.len()
        )));
    }
    Ok(())
}

/// Key of an account record.
pub fn account(addr: &Address) -> Vec<u8> {
    with_tag(Namespace::Account, &[addr])
}

/// Key of an actor's code.
pub fn actor_code(addr: &Address) -> Vec<u8> {
    with_tag(Namespace::ActorCode, &[addr])
}

/// Key of one actor storage cell. `key` must be 1..=[`MAX_STORAGE_KEY_LEN`] bytes.
pub fn actor_storage(vm_ns: u8, addr: &Address, key: &[u8]) -> Result<Vec<u8>, Error> {
    bounded("storage key", key, MAX_STORAGE_KEY_LEN)?;
    Ok(with_tag(Namespace::ActorStorage, &[&[vm_ns], addr, key]))
}

/// Prefix of all storage cells of one actor in one VM namespace.
pub fn actor_storage_prefix(vm_ns: u8, addr: &Address) -> Vec<u8> {
    with_tag(Namespace::ActorStorage, &[&[vm_ns], addr])
}

/// Key of a timer firing at `height` with FIFO sequence `seq` within that height.
pub fn timer(height: u64, seq: u64) -> Vec<u8> {
    with_tag(
        Namespace::Timer,
        &[&height.to_be_bytes(), &seq.to_be_bytes()],
    )
}

/// Prefix of every timer firing at `height`.
pub fn timer_height_prefix(height: u64) -> Vec<u8> {
    with_tag(Namespace::Timer, &[&height.to_be_bytes()])
}

/// Key of a runner job.
pub fn job(id: &[u8; 32]) -> Vec<u8> {
    with_tag(Namespace::Job, &[id])
}

/// Key of a runner registration.
pub fn runner(addr: &Address) -> Vec<u8> {
    with_tag(Namespace::Runner, &[addr])
}

/// Key of an entitlement held by `addr`.
pub fn entitlement(addr: &Address, id: &[u8]) -> Result<Vec<u8>, Error> {
    bounded("entitlement id", id, MAX_ENTITLEMENT_ID_LEN)?;
    Ok(with_tag(Namespace::Entitlement, &[addr, id]))
}

/// Key of a governance parameter.
pub fn governance(name: &[u8]) -> Result<Vec<u8>, Error> {
    bounded("parameter name", name, MAX_PARAM_NAME_LEN)?;
    Ok(with_tag(Namespace::Governance, &[name]))
}

/// A parsed state key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StateKey {
    /// See [`account`].
    Account(Address),
    /// See [`actor_code`].
    ActorCode(Address),
    /// See [`actor_storage`].
    ActorStorage {
        /// VM namespace.
        vm_ns: u8,
        /// Actor address.
        addr: Address,
        /// Storage key.
        key: Vec<u8>,
    },
    /// See [`timer`].
    Timer {
        /// Fire height.
        height: u64,
        /// FIFO sequence.
        seq: u64,
    },
    /// See [`job`].
    Job([u8; 32]),
    /// See [`runner`].
    Runner(Address),
    /// See [`entitlement`].
    Entitlement {
        /// Holder.
        addr: Address,
        /// Entitlement id.
        id: Vec<u8>,
    },
    /// See [`governance`].
    Governance(Vec<u8>),
}

impl StateKey {
    /// Parses a full key; the inverse of the constructors.
    pub fn parse(key: &[u8]) -> Result<StateKey, Error> {
        let (&tag, rest) = key
            .split_first()
            .ok_or_else(|| Error::Corrupt("empty key".into()))?;
        let ns = Namespace::from_tag(tag)
            .ok_or_else(|| Error::Corrupt(format!("unknown namespace {tag:#04x}")))?;
        let addr = |b: &[u8]| -> Result<Address, Error> {
            b.try_into()
                .map_err(|_| Error::Corrupt("address must be 20 bytes".into()))
        };
        Ok(match ns {
            Namespace::Account => StateKey::Account(addr(rest)?),
            Namespace::ActorCode => StateKey::ActorCode(addr(rest)?),
            Namespace::Runner => StateKey::Runner(addr(rest)?),
            Namespace::ActorStorage => {
                if rest.len() < 22 {
                    return Err(Error::Corrupt("short actor storage key".into()));
                }
                bounded("storage key", &rest[21..], MAX_STORAGE_KEY_LEN)?;
                StateKey::ActorStorage {
                    vm_ns: rest[0],
                    addr: addr(&rest[1..21])?,
                    key: rest[21..].to_vec(),
                }
            }
            Namespace::Timer => {
                if rest.len() != 16 {
                    return Err(Error::Corrupt("timer key must be 16 bytes".into()));
                }
                StateKey::Timer {
                    height: u64::from_be_bytes(rest[..8].try_into().expect("8")),
                    seq: u64::from_be_bytes(rest[8..].try_into().expect("8")),
                }
            }
            Namespace::Job => StateKey::Job(
                rest.try_into()
                    .map_err(|_| Error::Corrupt("job id must be 32 bytes".into()))?,
            ),
            Namespace::Entitlement => {
                if rest.len() < 21 {
                    return Err(Error::Corrupt("short entitlement key".into()));
                }
                bounded("entitlement id", &rest[20..], MAX_ENTITLEMENT_ID_LEN)?;
                StateKey::Entitlement {
                    addr: addr(&rest[..20])?,
                    id: rest[20..].to_vec(),
                }
            }
            Namespace::Governance => {
                bounded("parameter name", rest, MAX_PARAM_NAME_LEN)?;
                StateKey::Governance(rest.to_vec())
            }
        })
    }

    /// The encoded key.
    pub fn encode(&self) -> Vec<u8> {
        match self {
            StateKey::Account(a) => account(a),
            StateKey::ActorCode(a) => actor_code(a),
            StateKey::ActorStorage { vm_ns, addr, key } => {
                with_tag(Namespace::ActorStorage, &[&[*vm_ns], addr, key])
            }
            StateKey::Timer { height, seq } => timer(*height, *seq),
            StateKey::Job(id) => job(id),
            StateKey::Runner(a) => runner(a),
            StateKey::Entitlement { addr, id } => with_tag(Namespace::Entitlement, &[addr, id]),
            StateKey::Governance(n) => with_tag(Namespace::Governance, &[n]),
        }
    }
}

/// The account record stored under [`account`]:
/// `balance u128 LE | nonce u64 LE | code_hash (32; all zero = no code) | u32 LE len | metadata`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Account {
    /// Balance in base units (1 CBY = 10^9). The field is 16 bytes wide; the state transition
    /// keeps every balance within u64, the width of amounts in transactions (spec 01 §2.5).
    pub balance: u128,
    /// Next transaction nonce.
    pub nonce: u64,
    /// keccak256 of the actor's canonical source (spec 01 §1.2), all zero for a plain account.
    pub code_hash: [u8; 32],
    /// Free-form metadata (at most 64 KiB).
    pub metadata: Vec<u8>,
}

/// Largest account metadata.
pub const MAX_ACCOUNT_METADATA: usize = 64 * 1024;

impl Account {
    /// Canonical encoding.
    pub fn encode(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(16 + 8 + 32 + 4 + self.metadata.len());
        b.extend_from_slice(&self.balance.to_le_bytes());
        b.extend_from_slice(&self.nonce.to_le_bytes());
        b.extend_from_slice(&self.code_hash);
        b.extend_from_slice(&(self.metadata.len() as u32).to_le_bytes());
        b.extend_from_slice(&self.metadata);
        b
    }

    /// Strict decoding.
    pub fn decode(buf: &[u8]) -> Result<Account, Error> {
        let mut r = Reader { buf, pos: 0 };
        let balance = u128::from_le_bytes(r.take(16)?.try_into().expect("16"));
        let nonce = r.u64()?;
        let code_hash = r.hash()?;
        let metadata = r.bytes(MAX_ACCOUNT_METADATA)?;
        if !r.done() {
            return Err(Error::Corrupt("trailing bytes after account".into()));
        }
        Ok(Account {
            balance,
            nonce,
            code_hash,
            metadata,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_roundtrip_and_are_disjoint() {
        let a = [7u8; 20];
        let keys = vec![
            StateKey::Account(a),
            StateKey::ActorCode(a),
            StateKey::ActorStorage {
                vm_ns: VM_NS_PVM,
                addr: a,
                key: b"count".to_vec(),
            },
            StateKey::Timer { height: 5, seq: 1 },
            StateKey::Job([3; 32]),
            StateKey::Runner(a),
            StateKey::Entitlement {
                addr: a,
                id: b"gpu".to_vec(),
            },
            StateKey::Governance(b"basefee_alpha".to_vec()),
        ];
        let mut seen = std::collections::BTreeSet::new();
        for k in keys {
            let e = k.encode();
            assert_eq!(StateKey::parse(&e).unwrap(), k);
            assert!(seen.insert(e));
        }
        assert_eq!(
            actor_storage(VM_NS_PVM, &a, b"x").unwrap()[..22],
            actor_storage_prefix(VM_NS_PVM, &a)[..]
        );
    }

    #[test]
    fn timer_order_is_height_then_seq() {
        assert!(timer(1, u64::MAX) < timer(2, 0));
        assert!(timer(2, 0) < timer(2, 1));
        assert!(timer(300, 0).starts_with(&timer_height_prefix(300)));
    }

    #[test]
    fn bad_keys_rejected() {
        assert!(StateKey::parse(&[]).is_err());
        assert!(StateKey::parse(&[0x09, 1]).is_err());
        assert!(StateKey::parse(&[0x01, 1, 2]).is_err());
        assert!(StateKey::parse(&[0x04; 5]).is_err());
        assert!(actor_storage(1, &[0; 20], &[]).is_err());
        assert!(governance(&[b'x'; 65]).is_err());
    }

    #[test]
    fn account_roundtrip() {
        let acc = Account {
            balance: u128::MAX - 3,
            nonce: 9,
            code_hash: [1; 32],
            metadata: b"m".to_vec(),
        };
        assert_eq!(Account::decode(&acc.encode()).unwrap(), acc);
        let mut b = acc.encode();
        b.push(0);
        assert!(Account::decode(&b).is_err());
        assert!(Account::decode(&b[..10]).is_err());
    }
}

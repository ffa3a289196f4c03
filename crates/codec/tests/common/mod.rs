//! Deterministic random generators of valid consensus values, shared by the tests.
#![allow(dead_code)]

use cowboy_codec::*;

/// SplitMix64: a tiny deterministic PRNG (tests only).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 { 0 } else { self.next() % n }
    }
    pub fn bool(&mut self) -> bool {
        self.next() & 1 == 1
    }
    /// A u64 biased toward varint size boundaries.
    pub fn u64(&mut self) -> u64 {
        match self.below(4) {
            0 => self.below(200),
            1 => 1u64 << self.below(64),
            2 => (1u64 << self.below(64)).wrapping_sub(1),
            _ => self.next(),
        }
    }
    pub fn bytes(&mut self, max: u64) -> Vec<u8> {
        let n = self.below(max + 1) as usize;
        (0..n).map(|_| self.next() as u8).collect()
    }
    pub fn array<const N: usize>(&mut self) -> [u8; N] {
        let mut a = [0u8; N];
        for b in &mut a {
            *b = self.next() as u8;
        }
        a
    }
    pub fn address(&mut self) -> Address {
        Address(self.array())
    }
    pub fn opt_u64(&mut self) -> Option<u64> {
        if self.bool() { Some(self.u64()) } else { None }
    }
    pub fn handler(&mut self) -> String {
        const FIRST: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_";
        const REST: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789";
        let n = 1 + self.below(64) as usize;
        let mut s = String::new();
        s.push(FIRST[self.below(FIRST.len() as u64) as usize] as char);
        for _ in 1..n {
            s.push(REST[self.below(REST.len() as u64) as usize] as char);
        }
        s
    }
    pub fn lib_name(&mut self) -> String {
        const FIRST: &[u8] = b"abcdefghijklmnopqrstuvwxyz_";
        const REST: &[u8] = b"abcdefghijklmnopqrstuvwxyz_0123456789";
        let n = 1 + self.below(64) as usize;
        let mut s = String::new();
        s.push(FIRST[self.below(FIRST.len() as u64) as usize] as char);
        for _ in 1..n {
            s.push(REST[self.below(REST.len() as u64) as usize] as char);
        }
        s
    }
    /// Canonical (NFC, LF, no BOM) Python-ish source.
    pub fn source(&mut self) -> Vec<u8> {
        const PIECES: &[&str] = &[
            "x",
            " = ",
            "1",
            "\n",
            "def f():\n",
            "    ",
            "'caf\u{e9}'",
            "\u{5b57}",
            "# \u{1f600}\n",
            "\t",
        ];
        let n = self.below(12);
        let mut s = String::new();
        for _ in 0..n {
            s.push_str(PIECES[self.below(PIECES.len() as u64) as usize]);
        }
        s.into_bytes()
    }
    pub fn instruction(&mut self) -> Instruction {
        match self.below(7) {
            0 => Instruction::Transfer {
                to: self.address(),
                amount: self.u64(),
            },
            1 => Instruction::Deploy {
                source: self.source(),
                salt: self.array(),
                init_args: self.bytes(16),
                value: self.u64(),
            },
            2 => Instruction::Call {
                to: self.address(),
                handler: self.handler(),
                args: self.bytes(16),
                value: self.u64(),
            },
            3 => Instruction::ScheduleTimer {
                actor: self.address(),
                fire_at_height: self.u64(),
                handler: self.handler(),
                data: self.bytes(16),
                interval: if self.bool() {
                    Some(self.u64().max(1))
                } else {
                    None
                },
            },
            4 => Instruction::CancelTimer {
                actor: self.address(),
                timer_id: self.array(),
            },
            5 => Instruction::Custom {
                sub_type: self.next() as u8,
                payload: self.bytes(16),
            },
            _ => Instruction::PublishLibrary {
                name: self.lib_name(),
                version: self.u64(),
                source: self.source(),
            },
        }
    }
    /// A validator-set System instruction (sub-types 2..=7). Separate from
    /// [`Rng::instruction`] so the older vectors keep their random stream.
    pub fn system_instruction(&mut self) -> Instruction {
        match self.below(6) {
            0 => Instruction::RegisterValidator {
                bls_key: self.array(),
                proof_of_possession: self.array(),
                stake: self.u64(),
            },
            1 => Instruction::ExitValidator,
            2 => Instruction::WithdrawStake,
            3 => Instruction::UnjailValidator,
            4 => Instruction::SubmitEvidence {
                evidence: self.bytes(200),
            },
            _ => Instruction::SysCancelTimer {
                actor: self.address(),
                timer_id: self.array(),
                epoch: self.u64(),
                signers: self.bytes(4),
                signature: self.array(),
            },
        }
    }
    /// A resharing ceremony's dealer log (System sub-type 8), from its own calls so the
    /// older vectors keep their random streams.
    pub fn dkg_log_instruction(&mut self) -> Instruction {
        Instruction::DkgLog {
            ceremony: self.u64(),
            log: self.bytes(400),
        }
    }
    pub fn transaction(&mut self) -> Transaction {
        let access_list = if self.bool() {
            let n = self.below(3);
            Some(
                (0..n)
                    .map(|_| AccessListEntry {
                        address: self.address(),
                        storage_keys: (0..self.below(3)).map(|_| self.bytes(8)).collect(),
                    })
                    .collect(),
            )
        } else {
            None
        };
        let mut signer_addrs: Vec<Address> = (0..self.below(4)).map(|_| self.address()).collect();
        signer_addrs.sort();
        signer_addrs.dedup();
        Transaction {
            chain_id: self.u64(),
            nonce: self.u64(),
            instruction: self.instruction(),
            cycles_limit: self.u64(),
            cells_limit: self.u64(),
            max_fee_per_cycle: self.u64(),
            max_fee_per_cell: self.u64(),
            max_priority_fee_per_cycle: self.u64(),
            max_priority_fee_per_cell: self.u64(),
            from: self.address(),
            access_list,
            metadata: self.bytes(12),
            origin_tx_hash: if self.bool() {
                Some(self.array())
            } else {
                None
            },
            origin_remaining_cycles: self.opt_u64(),
            origin_remaining_cells: self.opt_u64(),
            signature: self.array(),
            additional_signers: signer_addrs
                .into_iter()
                .map(|address| AdditionalSigner {
                    address,
                    signature: self.array(),
                })
                .collect(),
        }
    }
    pub fn round(&mut self) -> Round {
        Round {
            epoch: self.u64(),
            view: self.u64(),
        }
    }
    pub fn header(&mut self) -> BlockHeader {
        BlockHeader {
            parent: self.array(),
            height: self.u64(),
            round: self.round(),
            proposer: self.address(),
            timestamp_ms: self.u64(),
            state_root: self.array(),
            tx_root: self.array(),
            receipts_root: self.array(),
            cycle_basefee: self.u64(),
            cell_basefee: self.u64(),
            cycles_used: self.u64(),
            cells_used: self.u64(),
            parent_seed: self.bytes(96),
        }
    }
    pub fn block(&mut self) -> Block {
        Block {
            header: self.header(),
            transactions: (0..self.below(4)).map(|_| self.transaction()).collect(),
        }
    }
    pub fn receipt(&mut self) -> Receipt {
        Receipt {
            tx_hash: self.array(),
            status: ReceiptStatus::from_u8(self.below(5) as u8).unwrap(),
            cycles_used: self.u64(),
            cells_used: self.u64(),
            fee_paid: self.u64(),
            return_data: self.bytes(16),
            error: if self.bool() {
                Some(String::from_utf8_lossy(&self.bytes(12)).into_owned())
            } else {
                None
            },
            events: (0..self.below(3))
                .map(|_| Event {
                    emitter: self.address(),
                    topic: self.bytes(8),
                    data: self.bytes(8),
                })
                .collect(),
        }
    }
    pub fn certificate(&mut self) -> Certificate {
        Certificate {
            kind: CertificateKind::from_u8(self.below(3) as u8).unwrap(),
            block_hash: self.array(),
            height: self.u64(),
            round: self.round(),
            aggregated_signature: self.bytes(96),
            signer_bitmap: self.bytes(8),
        }
    }
}

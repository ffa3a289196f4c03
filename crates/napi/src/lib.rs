//! `@cowboy/native`: the one Node addon of Cowboy (napi-rs). Each module exposes one Rust
//! crate to JavaScript; keep this file a thin list of modules.

mod bls;
pub mod codec;
mod dkg;
pub mod pvm;
mod runtime;
mod state;
mod stf;
mod testing;

//! JavaScript bindings of `cowboy-codec` (docs/codec.md).

//! Canonical Python source bytes (spec §1.2): UTF-8, NFC, LF line endings, no BOM.

use crate::error::SourceError;
use unicode_normalization::IsNormalized;
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::is_nfc_quick;

const BOM: &[u8] = &[0xEF, 0xBB, 0xBF];

/// Checks that `bytes` are canonical Python source and returns them unchanged.
///
/// Rules, checked in this order (the first failure is returned): valid UTF-8
/// ([`SourceError::NotUtf8`]), no leading byte-order mark ([`SourceError::HasBom`]), no
/// `\r` anywhere ([`SourceError::HasCr`]), NFC-normalized ([`SourceError::NotNfc`]).
/// Never modifies the input: canonical bytes are what is hashed and stored.
pub fn canonical_source(bytes: &[u8]) -> Result<&[u8], SourceError> {
    let text = core::str::from_utf8(bytes).map_err(|_| SourceError::NotUtf8)?;
    if bytes.starts_with(BOM) {
        return Err(SourceError::HasBom);
    }
    if bytes.contains(&b'\r') {
        return Err(SourceError::HasCr);
    }
    let nfc = match is_nfc_quick(text.chars()) {
        IsNormalized::Yes => true,
        IsNormalized::No => false,
        IsNormalized::Maybe => text.chars().eq(text.nfc()),
    };
    if !nfc {
        return Err(SourceError::NotNfc);
    }
    Ok(bytes)
}

/// Rewrites `text` into canonical form for tools that fix input before submitting
/// (never used by consensus): strips leading BOMs, turns `\r\n` and lone `\r` into `\n`,
/// then NFC-normalizes. The result always passes [`canonical_source`].
pub fn canonicalize_source(text: &str) -> String {
    let text = text.trim_start_matches('\u{FEFF}');
    let lf = text.replace("\r\n", "\n").replace('\r', "\n");
    let out: String = lf.nfc().collect();
    // NFC never introduces U+FEFF at the start or a CR, so the result is canonical.
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_canonical() {
        assert!(canonical_source(b"def f():\n    return 1\n").is_ok());
        assert!(canonical_source("x = 'caf\u{e9}'\n".as_bytes()).is_ok());
        assert!(canonical_source(b"").is_ok());
    }

    #[test]
    fn rejects_each_rule_with_its_code() {
        assert_eq!(canonical_source(&[0xff, 0x00]), Err(SourceError::NotUtf8));
        assert_eq!(
            canonical_source(b"\xEF\xBB\xBFx = 1\n"),
            Err(SourceError::HasBom)
        );
        assert_eq!(canonical_source(b"x = 1\r\n"), Err(SourceError::HasCr));
        assert_eq!(canonical_source(b"x = 1\ry = 2"), Err(SourceError::HasCr));
        // "e" + COMBINING ACUTE ACCENT is NFD; NFC is U+00E9.
        assert_eq!(
            canonical_source("x = 'cafe\u{301}'\n".as_bytes()),
            Err(SourceError::NotNfc)
        );
        assert_eq!(SourceError::NotNfc.code(), "SOURCE_NOT_NFC");
    }

    #[test]
    fn canonicalize_fixes_everything() {
        let fixed = canonicalize_source("\u{FEFF}a = 'cafe\u{301}'\r\nb = 1\rc = 2\n");
        assert_eq!(fixed, "a = 'caf\u{e9}'\nb = 1\nc = 2\n");
        assert!(canonical_source(fixed.as_bytes()).is_ok());
        assert_eq!(canonicalize_source("\u{FEFF}\u{FEFF}x\n"), "x\n");
    }

    #[test]
    fn bom_not_at_start_is_only_an_nfc_question() {
        // U+FEFF inside the text is a (discouraged) ZWNBSP, not a BOM; it is NFC-stable.
        assert!(canonical_source("x = 1\n# \u{FEFF}\n".as_bytes()).is_ok());
    }
}

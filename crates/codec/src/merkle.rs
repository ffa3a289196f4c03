//! Binary Merkle root over 32-byte items with keccak256 (docs/codec.md §5): domain-separated
//! leaves (`0x00`) and inner nodes (`0x01`), odd node promoted unchanged, empty root = zeros.

use crate::hash::{Hash32, keccak256_concat};

/// Domain prefix of a leaf hash.
pub const LEAF_PREFIX: u8 = 0x00;
/// Domain prefix of an inner-node hash.
pub const NODE_PREFIX: u8 = 0x01;
/// Root of the empty tree.
pub const EMPTY_ROOT: Hash32 = [0u8; 32];

/// `keccak256(0x00 ‖ item)`.
pub fn leaf_hash(item: &Hash32) -> Hash32 {
    keccak256_concat(&[&[LEAF_PREFIX], item])
}

/// `keccak256(0x01 ‖ left ‖ right)`.
pub fn node_hash(left: &Hash32, right: &Hash32) -> Hash32 {
    keccak256_concat(&[&[NODE_PREFIX], left, right])
}

/// Merkle root of `items` in order. Pairs are hashed left to right; an odd last node is
/// carried up unchanged; `[]` gives [`EMPTY_ROOT`].
pub fn merkle_root(items: &[Hash32]) -> Hash32 {
    if items.is_empty() {
        return EMPTY_ROOT;
    }
    let mut level: Vec<Hash32> = items.iter().map(leaf_hash).collect();
    while level.len() > 1 {
        let mut next = Vec::with_capacity(level.len().div_ceil(2));
        for pair in level.chunks(2) {
            match pair {
                [l, r] => next.push(node_hash(l, r)),
                [odd] => next.push(*odd),
                _ => unreachable!("chunks(2) yields 1 or 2 items"),
            }
        }
        level = next;
    }
    level[0]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(b: u8) -> Hash32 {
        [b; 32]
    }

    #[test]
    fn small_trees_by_hand() {
        assert_eq!(merkle_root(&[]), EMPTY_ROOT);
        let (a, b, c) = (item(1), item(2), item(3));
        assert_eq!(merkle_root(&[a]), leaf_hash(&a));
        let ab = node_hash(&leaf_hash(&a), &leaf_hash(&b));
        assert_eq!(merkle_root(&[a, b]), ab);
        // Odd node promoted: root(a,b,c) = node(node(La,Lb), Lc).
        assert_eq!(merkle_root(&[a, b, c]), node_hash(&ab, &leaf_hash(&c)));
        // Not the duplicate-last-node rule (which would make [a,b,c] == [a,b,c,c]).
        assert_ne!(merkle_root(&[a, b, c]), merkle_root(&[a, b, c, c]));
        let five = [a, b, c, item(4), item(5)];
        let cd = node_hash(&leaf_hash(&c), &leaf_hash(&item(4)));
        assert_eq!(
            merkle_root(&five),
            node_hash(&node_hash(&ab, &cd), &leaf_hash(&item(5)))
        );
    }

    #[test]
    fn a_leaf_is_not_an_inner_node() {
        let (a, b) = (item(1), item(2));
        // A one-item tree whose item is an inner node's hash differs from the two-item tree.
        let inner = node_hash(&leaf_hash(&a), &leaf_hash(&b));
        assert_ne!(merkle_root(&[inner]), merkle_root(&[a, b]));
        assert_ne!(merkle_root(&[a, b]), merkle_root(&[b, a]));
    }
}

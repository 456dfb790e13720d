//! Tests of the store: lookups, listings, and damage found, never a wrong score.

use super::*;
use crate::solver::book::Damage;

fn keys(n: u64) -> Vec<(u64, u8)> {
    // Gaps of one to three bytes, and a key near the top of the 56-bit range.
    let mut k = 0;
    let mut out: Vec<(u64, u8)> = (0..n)
        .map(|i| {
            k += 1 + (i * i * 7919) % 40_000;
            (k, (i % 100) as u8)
        })
        .collect();
    out.push(((1 << 56) - 1, 3));
    out
}

#[test]
fn every_key_is_found_and_no_other() {
    for n in [0, 1, 2, 31, 32, 33, 63, 64, 1000] {
        let entries = keys(n);
        let s = Store::from_sorted(entries.iter().copied(), 127).unwrap();
        assert_eq!(s.len(), entries.len());
        assert_eq!(s.iter().collect::<Vec<_>>(), entries);
        for &(k, score) in &entries {
            assert_eq!(s.get(k), Some(score), "{n}: {k}");
            assert_eq!(s.get(k + 1).is_some(), entries.iter().any(|e| e.0 == k + 1));
            if k > 0 {
                assert_eq!(s.get(k - 1).is_some(), entries.iter().any(|e| e.0 == k - 1));
            }
        }
        assert_eq!(s.get(0), None);
        assert_eq!(s.get(u64::MAX), None);
        assert!(s.check().is_ok() && s.damage().is_none());
        // The heads found again from the gaps are the ones built.
        let heads = Store::find_heads(s.gap_bytes(), s.len()).unwrap();
        assert_eq!(heads, s.heads().collect::<Vec<_>>());
        let again = Store::from_parts(s.score_bytes(), s.gap_bytes(), &heads, 127).unwrap();
        assert!(again == s);
        assert_eq!(again.head_bytes(), s.head_bytes());
    }
}

#[test]
fn a_damaged_block_answers_nothing_and_is_recorded() {
    let entries = keys(1000);
    let s = Store::from_sorted(entries.iter().copied(), 127).unwrap();
    // Every byte of every part, flipped in turn: a lookup of every key either answers
    // the right score or nothing, and nothing only when damage is recorded.
    let whole = s.bytes.to_vec();
    for at in (0..whole.len()).step_by(7) {
        let mut b = whole.clone();
        b[at] ^= 0x10;
        let d = Store::in_place(Arc::new(Bytes::Owned(b)), s.at.clone(), 127);
        let mut missing = 0;
        for &(k, score) in &entries {
            match d.get(k) {
                Some(got) => assert_eq!(got, score, "byte {at}, key {k}"),
                None => missing += 1,
            }
        }
        assert!(missing > 0, "byte {at}: the flip went unnoticed");
        assert!(d.damage().is_some(), "byte {at}");
        assert!(d.check().is_err());
    }
    // Scores beyond the board's range are damage too.
    let tight = Store::from_sorted(entries.iter().copied(), 50).unwrap();
    assert!(matches!(tight.check(), Err(Damage::Score { .. })));
    assert!(
        tight
            .check()
            .unwrap_err()
            .to_string()
            .contains("out of range")
    );
}

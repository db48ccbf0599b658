//! Saved deck states and deck operations: `key_from_hex` accepts only the canonical text,
//! `Deck::from_state` either refuses a state or restores a deck whose cards stay distinct
//! through any sequence of deals and reshuffles.
#![no_main]
use _core::deck::{key_from_hex, key_to_hex, Deck};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 80 {
        if let Ok(s) = std::str::from_utf8(data) {
            if let Ok(key) = key_from_hex(s) {
                assert_eq!(key_to_hex(&key), s, "a non-canonical key was accepted");
            }
        }
        return;
    }
    let (head, rest) = data.split_at(80);
    let key = match key_from_hex(&String::from_utf8_lossy(&head[..64])) {
        Ok(k) => k,
        Err(_) => {
            let mut k = [0u8; 32];
            k.copy_from_slice(&head[..32]);
            k
        }
    };
    let word_pos = u128::from_le_bytes(head[64..80].try_into().unwrap());
    let (stub, ops) = rest.split_at(rest.len().min(rest.first().copied().unwrap_or(0) as usize));
    let Ok(mut deck) = Deck::from_state(key, word_pos, stub) else {
        return;
    };
    let mut out: Vec<u8> = Vec::new();
    for &op in ops {
        if op & 0x80 == 0 {
            let n = (op & 0x3f) as usize;
            match deck.deal(n) {
                Ok(cards) => out.extend_from_slice(cards),
                Err(_) => assert!(n > deck.len()),
            }
        } else {
            let n = ((op & 0x3f) as usize).min(out.len());
            let back: Vec<u8> = out.drain(..n).collect();
            let before = deck.stub().to_vec();
            if deck.reshuffle(&back).is_err() {
                assert_eq!(deck.stub(), &before[..], "a refused reshuffle changed the deck");
                out.extend_from_slice(&back);
            }
        }
        let mut seen = 0u64;
        for &c in deck.stub().iter().chain(out.iter()) {
            assert!(c < 52);
            assert_eq!(seen >> c & 1, 0, "card {c} twice");
            seen |= 1 << c;
        }
    }
});

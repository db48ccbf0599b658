//! Card text: `parse_text` and `parse_token` never panic on any string; what they accept
//! is distinct valid ids whose canonical text reads back to the same ids.
#![no_main]
use _core::cards::{card_text, cards_text, check_id, parse_text, parse_token};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(ids) = parse_text(&text) {
        let mut seen = 0u64;
        for &c in &ids {
            assert!(c < 52);
            assert_eq!(seen >> c & 1, 0, "duplicate accepted");
            seen |= 1 << c;
        }
        assert_eq!(parse_text(&cards_text(&ids)).unwrap(), ids);
    }
    if let Ok(c) = parse_token(&text) {
        assert!(c < 52);
        assert_eq!(parse_token(&card_text(c)).unwrap(), c);
    }
    for &b in data.iter().take(8) {
        let _ = check_id(b as i128 - 64);
    }
});

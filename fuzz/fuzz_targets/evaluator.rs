//! The evaluator on any five bytes: `rank5_checked` refuses exactly the rows
//! `row_is_valid` refuses; a valid row has a rank in 1..=7462 that does not depend on the
//! order of its cards and agrees with the batch path.
#![no_main]
use _core::eval::{rank5_checked, row_is_valid, tables, NUM_CLASSES};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let t = tables();
    for row in data.chunks_exact(5) {
        let c = [row[0], row[1], row[2], row[3], row[4]];
        let checked = rank5_checked(c);
        assert_eq!(checked.is_ok(), row_is_valid(c));
        // The batch path looks up any row safely and flags the bad ones.
        let (rank, valid) = t.rank5_batch(c);
        assert_eq!(valid, checked.is_ok());
        if let Ok(r) = checked {
            assert!((1..=NUM_CLASSES).contains(&r));
            assert_eq!(rank, r);
            assert_eq!(t.rank5(c), r);
            let rotated = [c[3], c[0], c[4], c[2], c[1]];
            assert_eq!(t.rank5(rotated), r);
            let _ = _core::eval::name(r);
        }
    }
});

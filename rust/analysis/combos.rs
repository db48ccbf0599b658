//! Enumeration of k-card combinations (k <= 5) of a list of cards, in lexicographic order of
//! positions.

/// Calls `f` with every `k`-combination of `cards` (a slice of length `k`), in lexicographic
/// order of positions. `k == 0` calls `f` once with an empty slice.
#[inline]
pub fn for_each_combo(cards: &[u8], k: usize, mut f: impl FnMut(&[u8])) {
    let n = cards.len();
    if k > n {
        return;
    }
    let mut idx = [0usize; 5];
    let mut out = [0u8; 5];
    debug_assert!(k <= 5);
    for i in 0..k {
        idx[i] = i;
        out[i] = cards[i];
    }
    loop {
        f(&out[..k]);
        // Advance: find the rightmost index that can move.
        let mut i = k;
        loop {
            if i == 0 {
                return;
            }
            i -= 1;
            if idx[i] < n - k + i {
                break;
            }
            if i == 0 {
                return;
            }
        }
        idx[i] += 1;
        out[i] = cards[idx[i]];
        for j in i + 1..k {
            idx[j] = idx[j - 1] + 1;
            out[j] = cards[idx[j]];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::choose;

    #[test]
    fn analysis_combos_count_and_order() {
        let cards: Vec<u8> = (0..9).collect();
        for k in 0..=5 {
            let mut seen = Vec::new();
            for_each_combo(&cards, k, |c| seen.push(c.to_vec()));
            assert_eq!(seen.len() as u64, choose(9, k as u64), "k={k}");
            let mut sorted = seen.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted, seen);
            assert!(seen.iter().all(|c| c.windows(2).all(|w| w[0] < w[1])));
        }
        let mut n = 0;
        for_each_combo(&cards[..3], 4, |_| n += 1);
        assert_eq!(n, 0);
    }
}

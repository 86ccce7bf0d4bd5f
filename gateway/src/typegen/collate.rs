//! String order of JavaScript's `localeCompare` (ICU root collation, as Node sorts in `en-US`) for identifiers, so
//! generated names come in the order `supabase gen types` prints them: punctuation before digits before letters,
//! letters compared without case first, then lower case before upper case.

use std::cmp::Ordering;

/// ASCII in ICU root order at the primary level (letters once, case folded).
const PRIMARY_ORDER: &str = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789abcdefghijklmnopqrstuvwxyz";

fn primary(c: char) -> u32 {
    let lower = c.to_ascii_lowercase();
    match PRIMARY_ORDER.find(lower) {
        Some(i) if c.is_ascii() => i as u32,
        // other characters sort after ASCII letters, by code point
        _ => 1000 + c as u32,
    }
}

/// Case at the tertiary level: lower case first.
fn tertiary(c: char) -> u32 {
    u32::from(c.is_uppercase())
}

/// Compares like `a.localeCompare(b)` for the identifiers and JSON texts that type generation sorts.
pub fn locale_compare(a: &str, b: &str) -> Ordering {
    let by = |f: fn(char) -> u32| a.chars().map(f).cmp(b.chars().map(f));
    by(primary).then_with(|| by(tertiary)).then_with(|| a.cmp(b))
}

#[cfg(test)]
mod tests {
    use super::locale_compare;

    fn sorted(words: &[&str]) -> Vec<String> {
        let mut v: Vec<String> = words.iter().map(|s| s.to_string()).collect();
        v.sort_by(|a, b| locale_compare(a, b));
        v
    }

    #[test]
    fn matches_node_for_identifiers() {
        // the order Node 20 (ICU, en-US) gives for these names
        let words = [
            "a_b", "ab", "a-b", "aB", "Ab", "a1", "a", "A", "a b", "ab_", "a_", "a__b", "user-id", "user_id",
            "username", "Zeta", "_under", "alpha", "email", "id", "score",
        ];
        let want = "_under a A a b a_ a__b a_b a-b a1 ab aB Ab ab_ alpha email id score user_id user-id username Zeta";
        assert_eq!(sorted(&words).join(" "), want);
    }

    #[test]
    fn punctuation_comes_before_digits_and_letters() {
        let all: Vec<String> = (32u8..127).map(|b| (b as char).to_string()).collect();
        let refs: Vec<&str> = all.iter().map(String::as_str).collect();
        let want = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789aAbBcCdDeEfFgGhHiIjJkKlLmMnNoOpPqQrRsStTuUvVwWxXyYzZ";
        assert_eq!(sorted(&refs).concat(), want);
    }
}

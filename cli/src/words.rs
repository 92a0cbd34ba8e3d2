//! Words for people: counts with their noun in the right number.

/// `0 errors`, `1 error`, `2 errors`.
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

#[cfg(test)]
mod tests {
    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(super::count(0, "error"), "0 errors");
        assert_eq!(super::count(1, "warning"), "1 warning");
        assert_eq!(super::count(2, "hook"), "2 hooks");
    }
}

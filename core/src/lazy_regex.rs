//! A regex checked at load and compiled on its first use (issue 20). Compiling is most of what
//! loading a configuration costs (a few tens of µs per pattern, however small), and most
//! patterns of a large file are never tested: a group whose event never fires, an `if` rule
//! whose tool never runs.
//!
//! Deferring must not move an error from the load to a fire, so [`LazyRegex::new`] parses the
//! pattern now (every syntax and unsupported-feature error, with regex's own message) and
//! compiles at once any pattern that could exceed its compiled-size limit: one longer than the
//! caller's bound, or with a counted repetition. What is left for later always compiles (a
//! test pins that for the widest classes). It never runs anything.

use regex::{Regex, RegexBuilder};
use std::sync::OnceLock;

/// A regex whose compiled form is built on first use; cloning shares nothing compiled yet.
#[derive(Debug, Clone)]
pub struct LazyRegex {
    source: Box<str>,
    size_limit: usize,
    compiled: OnceLock<Regex>,
}

impl LazyRegex {
    /// Checks `source`. `defer_up_to` is the longest source that is certain to compile within
    /// `size_limit` once its syntax is valid (it depends on what the pattern may contain:
    /// user-written regexes may be all `\w`, generated globs are literals and `.`). `Err` is
    /// the text of regex's own error.
    pub fn new(source: &str, size_limit: usize, defer_up_to: usize) -> Result<LazyRegex, String> {
        let lazy = LazyRegex { source: source.into(), size_limit, compiled: OnceLock::new() };
        if source.len() > defer_up_to || source.contains('{') {
            let re = lazy.build().map_err(|e| e.to_string())?;
            let _ = lazy.compiled.set(re);
        } else {
            regex_syntax::ParserBuilder::new().build().parse(source).map_err(|e| e.to_string())?;
        }
        Ok(lazy)
    }

    fn build(&self) -> Result<Regex, regex::Error> {
        RegexBuilder::new(&self.source).size_limit(self.size_limit).build()
    }

    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// Whether it matches anywhere in `text`; the first call compiles.
    pub fn is_match(&self, text: &str) -> bool {
        // `new` checked the syntax and the size bound, so building cannot fail; were it to,
        // the pattern matches nothing (what an invalid pattern does) rather than panicking.
        match self.compiled.get() {
            Some(re) => re.is_match(text),
            None => match self.build() {
                Ok(re) => self.compiled.get_or_init(|| re).is_match(text),
                Err(_) => false,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMIT: usize = 1 << 20;

    #[test]
    fn syntax_errors_are_found_at_once_with_regex_s_own_message() {
        for bad in ["[", "(?=a)b", "a)", r"\p{Nope}", "(?-u:\\xFF)"] {
            let lazy = LazyRegex::new(bad, LIMIT, 24).unwrap_err();
            let eager = RegexBuilder::new(bad).size_limit(LIMIT).build().unwrap_err().to_string();
            assert_eq!(lazy, eager, "{bad:?}");
        }
    }

    #[test]
    fn patterns_left_for_later_compile_within_the_limit_even_of_the_widest_classes() {
        // The widest classes per byte of pattern (Unicode `\w` fails the 1 MiB limit from 42
        // bytes on); `{` and anything longer than the bound are compiled at load instead.
        for unit in [r"\w", r"\W", r"\pL", r"\PC", r"(?i)\w", r"\w+", "."] {
            let mut p = String::new();
            while p.len() + unit.len() <= 24 {
                p.push_str(unit);
            }
            let lazy = LazyRegex::new(&p, LIMIT, 24).unwrap();
            assert!(lazy.compiled.get().is_none(), "{p:?} was deferred");
            assert!(lazy.build().is_ok(), "{p:?} compiles within the limit");
        }
    }

    #[test]
    fn long_or_counted_patterns_are_compiled_at_load_and_refused_there() {
        let big = r"\w".repeat(30);
        assert!(LazyRegex::new(&big, LIMIT, 24).unwrap_err().contains("size limit"));
        assert!(LazyRegex::new(r"\w{500}", LIMIT, 24).unwrap_err().contains("size limit"));
        assert!(LazyRegex::new("a{2}", LIMIT, 24).unwrap().compiled.get().is_some());
    }

    #[test]
    fn a_deferred_pattern_matches_like_the_compiled_one() {
        let lazy = LazyRegex::new("^mcp__.*__delete_", LIMIT, 24).unwrap();
        assert!(lazy.compiled.get().is_none());
        assert!(lazy.is_match("mcp__github__delete_repo"));
        assert!(!lazy.is_match("mcp__github__create_repo"));
        assert!(
            lazy.clone().is_match("xmcp__a__delete_")
                == Regex::new("^mcp__.*__delete_").unwrap().is_match("xmcp__a__delete_")
        );
    }
}

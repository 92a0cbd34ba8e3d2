//! Which groups of one event can match a matcher value, found without testing every group
//! (issue 20): groups whose matcher is a list of exact names (`Bash`, `Edit|Write`) are filed
//! under each name; the others (regexes, `*`, other dialects' matchers) are kept per distinct
//! matcher, so a matcher shared by many groups is tested once per fire.
//!
//! The index only narrows where `select` looks; it never decides differently from testing each
//! group in turn, and it hands back positions in configuration order, which decides the fold.
//! Built once at load, bounded by the configuration (one entry per group, one key per distinct
//! name); it never runs, allocates or locks on the no-match path.

use crate::matcher::GroupMatcher;
use std::collections::HashMap;

/// The groups of one event, indexed by what their matchers accept. Groups without handlers
/// are left out: they can never run anything.
#[derive(Debug, Default)]
pub struct GroupIndex {
    /// Exact name → positions of the groups naming it, ascending, each once.
    exact: HashMap<Box<str>, Vec<usize>>,
    /// Every other group, by distinct matcher (groups share one when it was compiled once for
    /// one text): the matcher and its groups' positions, ascending.
    scanned: Vec<(GroupMatcher, Vec<usize>)>,
}

impl GroupIndex {
    /// From each group's matcher and whether it has handlers, in configuration order (the
    /// model's `Group` is not named here: `config` holds the index, and imports this module).
    pub fn build<'a>(groups: impl IntoIterator<Item = (&'a GroupMatcher, bool)>) -> GroupIndex {
        let mut index = GroupIndex::default();
        let mut slot_of: HashMap<*const (), usize> = HashMap::new();
        for (pos, (matcher, _)) in groups.into_iter().enumerate().filter(|(_, (_, has))| *has) {
            match matcher.exact_names() {
                Some(names) => {
                    // An empty part matches nothing, so it files the group nowhere.
                    for name in names.iter().filter(|n| !n.is_empty()) {
                        let list = index.exact.entry(name.as_str().into()).or_default();
                        if list.last() != Some(&pos) {
                            list.push(pos);
                        }
                    }
                }
                None => {
                    let slot = *slot_of.entry(matcher.identity()).or_insert_with(|| {
                        index.scanned.push((matcher.clone(), Vec::new()));
                        index.scanned.len() - 1
                    });
                    index.scanned[slot].1.push(pos);
                }
            }
        }
        index
    }

    /// Whether a group with handlers matches `value`: `test` answers for a scanned matcher,
    /// `None` when it cannot tell (then neither can this, unless an exact name already did).
    pub fn any_match(
        &self,
        value: &str,
        mut test: impl FnMut(&GroupMatcher) -> Option<bool>,
    ) -> Option<bool> {
        if self.exact.contains_key(value) {
            return Some(true);
        }
        for (m, _) in &self.scanned {
            if test(m)? {
                return Some(true);
            }
        }
        Some(false)
    }

    /// Positions of the groups with handlers that match `value`, in configuration order: those
    /// filed under `value`, and those of each scanned matcher `test` accepts (tested once).
    pub fn matching(&self, value: &str, mut test: impl FnMut(&GroupMatcher) -> bool) -> Vec<usize> {
        let mut out: Vec<usize> = self.exact.get(value).cloned().unwrap_or_default();
        let before = out.len();
        for (m, positions) in &self.scanned {
            if test(m) {
                out.extend_from_slice(positions);
            }
        }
        if out.len() != before {
            // Each group is filed once (by name or by matcher), so sorting restores the order.
            out.sort_unstable();
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{self, Rules};
    use crate::matcher::Matcher;

    /// A group as the index sees it: its matcher, and how many handlers it has.
    struct Group {
        matcher: GroupMatcher,
        handlers: usize,
    }

    fn group(m: &GroupMatcher, handlers: usize) -> Group {
        Group { matcher: m.clone(), handlers }
    }

    fn build(groups: &[Group]) -> GroupIndex {
        GroupIndex::build(groups.iter().map(|g| (&g.matcher, g.handlers > 0)))
    }

    fn cc(raw: &str) -> GroupMatcher {
        GroupMatcher::new(Matcher::compile(Some(raw), Rules::Current, false).unwrap())
    }

    /// What testing every group in turn selects: the reference the index must agree with.
    fn scan(groups: &[Group], value: &str) -> Vec<usize> {
        let spec = catalog::spec(catalog::lookup("PreToolUse").unwrap());
        let ev = serde_json::Value::Null;
        (0..groups.len())
            .filter(|&i| groups[i].handlers > 0 && groups[i].matcher.matches(spec, value, &ev))
            .collect()
    }

    fn indexed(groups: &[Group], value: &str) -> Vec<usize> {
        let spec = catalog::spec(catalog::lookup("PreToolUse").unwrap());
        let ev = serde_json::Value::Null;
        build(groups).matching(value, |m| m.matches(spec, value, &ev))
    }

    #[test]
    fn exact_and_regex_groups_come_back_in_configuration_order() {
        let (bash, re, alt) = (cc("Bash"), cc("^Ba"), cc("Edit|Bash"));
        let groups = [group(&re, 1), group(&bash, 1), group(&alt, 1), group(&re, 1), group(&bash, 2)];
        assert_eq!(indexed(&groups, "Bash"), vec![0, 1, 2, 3, 4]);
        assert_eq!(indexed(&groups, "Edit"), vec![2]);
        assert_eq!(indexed(&groups, "Bark"), vec![0, 3]);
        for v in ["Bash", "Edit", "Bark", "", "bash", "BashOutput"] {
            assert_eq!(indexed(&groups, v), scan(&groups, v), "{v:?}");
        }
    }

    #[test]
    fn a_name_matching_an_exact_group_and_a_star_group_selects_both_once() {
        let (star, bash) = (cc("*"), cc("Bash|Bash"));
        let groups = [group(&bash, 1), group(&star, 1), group(&bash, 1)];
        assert_eq!(indexed(&groups, "Bash"), vec![0, 1, 2]);
        assert_eq!(indexed(&groups, "Read"), vec![1]);
    }

    #[test]
    fn exact_names_are_case_sensitive_and_whole() {
        let groups = [group(&cc("Bash|mcp__srv__tool"), 1)];
        for (v, hit) in
            [("Bash", true), ("bash", false), ("BASH", false), ("Bas", false), ("BashOutput", false)]
        {
            assert_eq!(!indexed(&groups, v).is_empty(), hit, "{v:?}");
        }
        assert_eq!(indexed(&groups, "mcp__srv__tool"), vec![0]);
    }

    #[test]
    fn empty_parts_and_groups_without_handlers_are_never_selected() {
        let groups = [group(&cc("Bash||"), 1), group(&cc("Read"), 0), group(&cc(".*"), 0)];
        assert!(indexed(&groups, "").is_empty());
        assert!(indexed(&groups, "Read").is_empty());
        let index = build(&groups);
        assert_eq!(index.any_match("Read", |_| Some(true)), Some(false));
        assert_eq!(index.any_match("Bash", |_| None), Some(true));
    }

    #[test]
    fn a_shared_matcher_is_tested_once_per_fire() {
        let re = cc("^mcp__");
        let groups: Vec<Group> = (0..100).map(|_| group(&re, 1)).collect();
        let mut tests = 0;
        let got = build(&groups).matching("mcp__x", |_| {
            tests += 1;
            true
        });
        assert_eq!((tests, got.len()), (1, 100));
    }

    #[test]
    fn a_matcher_that_cannot_tell_from_the_value_leaves_the_answer_open() {
        let groups = [group(&cc("^x"), 1), group(&cc("Bash"), 1)];
        let index = build(&groups);
        assert_eq!(index.any_match("Read", |_| None), None);
        assert_eq!(index.any_match("Bash", |_| None), Some(true));
    }
}

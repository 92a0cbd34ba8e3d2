//! Folding verdicts into one decision: pure functions of the verdicts in configuration order,
//! so the result never depends on which hook finished first. [`fold`] is protocol.md §7 (the
//! `claude-code` precedence fold, also ub's); [`first_block`] is the sequential dialects' (§9).
//! Each dialect picks its fold in its own folder.

use crate::verdict::{Decision, Verdict};
use serde_json::{Map, Value};

/// `classifierContext` kept per fire (§5.12).
const CLASSIFIER_CAP: usize = 2_000;

#[derive(Debug, Clone, PartialEq)]
pub struct Folded {
    pub decision: Option<Decision>,
    pub reason: Option<String>,
    pub continue_: bool,
    pub stop_reason: Option<String>,
    pub updated_input: Option<Value>,
    pub updated_tool_output: Option<Value>,
    pub additional_context: Option<String>,
    pub system_message: Option<String>,
    pub suppress_output: bool,
    pub extra: Map<String, Value>,
    pub warnings: Vec<String>,
}

/// How the model's context from several hooks becomes one text: each non-empty part, in order,
/// separated by a blank line. One rule for the fold, async hooks' pending context and turn-end
/// runs, so the model never sees two spellings of the same join.
pub const CONTEXT_SEPARATOR: &str = "\n\n";

/// Joins the non-empty `parts` with `sep`; `None` when nothing is left.
pub fn join_texts<'a>(sep: &str, parts: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let parts: Vec<&str> = parts.into_iter().filter(|s| !s.is_empty()).collect();
    if parts.is_empty() { None } else { Some(parts.join(sep)) }
}

/// Folds verdicts given in configuration order.
pub fn fold(verdicts: &[&Verdict]) -> Folded {
    let decision = verdicts.iter().filter_map(|v| v.decision).max_by_key(|d| d.rank());
    let reason =
        decision.and_then(|d| verdicts.iter().find(|v| v.decision == Some(d))).and_then(|v| v.reason.clone());
    let continue_ = verdicts.iter().all(|v| v.continue_);
    let stop_reason = verdicts.iter().find(|v| !v.continue_).and_then(|v| v.stop_reason.clone());
    let updated_input = match decision {
        Some(Decision::Deny | Decision::Defer | Decision::Block) => None,
        _ => verdicts
            .iter()
            .filter(|v| v.decision.is_none() || v.decision == decision)
            .filter_map(|v| v.updated_input.clone())
            .next_back(),
    };
    let updated_tool_output = verdicts.iter().filter_map(|v| v.updated_tool_output.clone()).next_back();
    let join = |sep: &str, pick: fn(&Verdict) -> Option<&String>| {
        join_texts(sep, verdicts.iter().filter_map(|v| pick(v)).map(String::as_str))
    };
    let additional_context = join(CONTEXT_SEPARATOR, |v| v.additional_context.as_ref());
    let system_message = join("\n", |v| v.system_message.as_ref());
    let suppress_output = verdicts.iter().any(|v| v.suppress_output);
    let mut warnings = Vec::new();
    let extra = fold_extra(verdicts, decision, &mut warnings);
    Folded {
        decision,
        reason,
        continue_,
        stop_reason,
        updated_input,
        updated_tool_output,
        additional_context,
        system_message,
        suppress_output,
        extra,
        warnings,
    }
}

/// Sequential stop-at-first-block fold (jcode, ok): deny > ask > allow, block = OR; the
/// reason is the stopping hook's; rewrites chained, last wins; texts joined with `\n`.
pub fn first_block(verdicts: &[&Verdict]) -> Folded {
    let decision = verdicts.iter().filter_map(|v| v.decision).max_by_key(|d| d.rank());
    let reason =
        decision.and_then(|d| verdicts.iter().find(|v| v.decision == Some(d))).and_then(|v| v.reason.clone());
    let blocked = decision.is_some_and(Decision::is_blocking);
    let join = |pick: fn(&Verdict) -> Option<&String>| {
        let parts: Vec<&str> = verdicts.iter().filter_map(|v| pick(v)).map(String::as_str).collect();
        if parts.is_empty() { None } else { Some(parts.join("\n")) }
    };
    let mut extra = Map::new();
    for v in verdicts {
        for (k, x) in &v.extra {
            extra.insert(k.clone(), x.clone());
        }
    }
    Folded {
        decision,
        reason,
        continue_: verdicts.iter().all(|v| v.continue_),
        stop_reason: verdicts.iter().find(|v| !v.continue_).and_then(|v| v.stop_reason.clone()),
        updated_input: if blocked {
            None
        } else {
            verdicts.iter().filter_map(|v| v.updated_input.clone()).next_back()
        },
        updated_tool_output: verdicts.iter().filter_map(|v| v.updated_tool_output.clone()).next_back(),
        additional_context: join(|v| v.additional_context.as_ref()),
        system_message: join(|v| v.system_message.as_ref()),
        suppress_output: verdicts.iter().any(|v| v.suppress_output),
        extra,
        warnings: Vec::new(),
    }
}

fn fold_extra(
    verdicts: &[&Verdict],
    decision: Option<Decision>,
    warnings: &mut Vec<String>,
) -> Map<String, Value> {
    let mut out = Map::new();
    let mut keys: Vec<&String> = Vec::new();
    for v in verdicts {
        for k in v.extra.keys() {
            if !keys.contains(&k) {
                keys.push(k);
            }
        }
    }
    for key in keys {
        let values = || verdicts.iter().filter_map(|v| v.extra.get(key).map(|x| (*v, x)));
        let folded = match key.as_str() {
            "suppressOriginalPrompt" | "reloadSkills" | "retry" => {
                Some(Value::Bool(values().any(|(_, x)| x.as_bool() == Some(true))))
            }
            "interrupt" => (decision == Some(Decision::Deny)).then(|| {
                Value::Bool(
                    values().any(|(v, x)| v.decision == Some(Decision::Deny) && x.as_bool() == Some(true)),
                )
            }),
            "updatedPermissions" => (decision == Some(Decision::Allow)).then(|| {
                let all = values()
                    .filter(|(v, _)| v.decision == Some(Decision::Allow))
                    .filter_map(|(_, x)| x.as_array().cloned())
                    .flatten()
                    .collect();
                Value::Array(all)
            }),
            "watchPaths" => {
                let mut seen: Vec<Value> = Vec::new();
                for (_, x) in values() {
                    for p in x.as_array().into_iter().flatten() {
                        if !seen.contains(p) {
                            seen.push(p.clone());
                        }
                    }
                }
                Some(Value::Array(seen))
            }
            "action" => {
                let rank = |a: &str| match a {
                    "decline" => 3,
                    "cancel" => 2,
                    _ => 1,
                };
                values()
                    .filter_map(|(_, x)| x.as_str())
                    .max_by_key(|a| rank(a))
                    .map(|a| Value::String(a.to_string()))
            }
            "content" => {
                let action_is_accept = verdicts
                    .iter()
                    .filter_map(|v| v.extra.get("action").and_then(Value::as_str))
                    .all(|a| a == "accept");
                if action_is_accept {
                    values()
                        .filter(|(v, _)| v.extra.get("action").and_then(Value::as_str) == Some("accept"))
                        .map(|(_, x)| x.clone())
                        .next_back()
                } else {
                    None
                }
            }
            "worktreePath" => {
                let all: Vec<_> = values().map(|(_, x)| x.clone()).collect();
                if all.len() > 1 {
                    warnings.push(
                        "WorktreeCreate: more than one hook returned a worktree path; the first is used"
                            .into(),
                    );
                }
                all.into_iter().next()
            }
            "classifierContext" => {
                let joined = values().filter_map(|(_, x)| x.as_str()).collect::<Vec<_>>().join("\n");
                Some(Value::String(joined.chars().take(CLASSIFIER_CAP).collect()))
            }
            _ => values().map(|(_, x)| x.clone()).next_back(),
        };
        if let Some(val) = folded {
            out.insert(key.clone(), val);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::VerdictSource;
    use serde_json::json;

    fn v(d: Option<Decision>) -> Verdict {
        Verdict { decision: d, source: VerdictSource::Json, ..Verdict::default() }
    }

    fn with_reason(d: Decision, r: &str) -> Verdict {
        Verdict { reason: Some(r.into()), ..v(Some(d)) }
    }

    #[test]
    fn deny_wins_over_allow_whatever_the_order() {
        let (a, b) = (v(Some(Decision::Allow)), with_reason(Decision::Deny, "no"));
        for order in [[&a, &b], [&b, &a]] {
            let f = fold(&order);
            assert_eq!(f.decision, Some(Decision::Deny));
            assert_eq!(f.reason.as_deref(), Some("no"));
        }
    }

    #[test]
    fn precedence_is_deny_defer_ask_allow() {
        let all = [Decision::Allow, Decision::Ask, Decision::Defer, Decision::Deny];
        for (i, hi) in all.iter().enumerate() {
            for lo in &all[..=i] {
                let (x, y) = (v(Some(*hi)), v(Some(*lo)));
                assert_eq!(fold(&[&x, &y]).decision, Some(*hi));
                assert_eq!(fold(&[&y, &x]).decision, Some(*hi));
            }
        }
    }

    #[test]
    fn reason_comes_from_the_first_deciding_hook_in_configuration_order() {
        let (a, b) = (with_reason(Decision::Ask, "first"), with_reason(Decision::Ask, "second"));
        assert_eq!(fold(&[&a, &b]).reason.as_deref(), Some("first"));
    }

    #[test]
    fn later_rewrite_in_configuration_order_wins() {
        let a = Verdict { updated_input: Some(json!({"c": 1})), ..v(Some(Decision::Allow)) };
        let b = Verdict { updated_input: Some(json!({"c": 2})), ..v(Some(Decision::Allow)) };
        assert_eq!(fold(&[&a, &b]).updated_input, Some(json!({"c": 2})));
        assert_eq!(fold(&[&b, &a]).updated_input, Some(json!({"c": 1})));
    }

    #[test]
    fn rewrites_are_dropped_on_deny_and_defer() {
        let a = Verdict { updated_input: Some(json!({"c": 1})), ..v(Some(Decision::Defer)) };
        assert_eq!(fold(&[&a]).decision, Some(Decision::Defer));
        assert_eq!(fold(&[&a]).updated_input, None);
        let d = v(Some(Decision::Deny));
        let b = Verdict { updated_input: Some(json!({"c": 1})), ..v(Some(Decision::Allow)) };
        assert_eq!(fold(&[&b, &d]).updated_input, None);
    }

    #[test]
    fn a_rewrite_from_a_hook_with_a_lower_decision_is_not_taken() {
        let ask = v(Some(Decision::Ask));
        let allow = Verdict { updated_input: Some(json!({"c": 1})), ..v(Some(Decision::Allow)) };
        let none = Verdict { updated_input: Some(json!({"c": 2})), ..v(None) };
        assert_eq!(fold(&[&ask, &allow]).updated_input, None);
        assert_eq!(fold(&[&ask, &none]).updated_input, Some(json!({"c": 2})));
    }

    #[test]
    fn contexts_join_with_blank_lines_and_messages_with_newlines() {
        let a = Verdict { additional_context: Some("a".into()), system_message: Some("x".into()), ..v(None) };
        let b = Verdict { additional_context: Some("b".into()), system_message: Some("y".into()), ..v(None) };
        let f = fold(&[&a, &b]);
        assert_eq!(f.additional_context.as_deref(), Some("a\n\nb"));
        assert_eq!(f.system_message.as_deref(), Some("x\ny"));
    }

    #[test]
    fn continue_false_beats_everything_and_keeps_the_first_stop_reason() {
        let a = Verdict { continue_: false, stop_reason: Some("s".into()), ..v(None) };
        let b = with_reason(Decision::Deny, "no");
        let c = Verdict { continue_: false, stop_reason: Some("t".into()), ..v(None) };
        let f = fold(&[&a, &b, &c]);
        assert!(!f.continue_);
        assert_eq!(f.stop_reason.as_deref(), Some("s"));
        assert_eq!(f.decision, Some(Decision::Deny));
    }

    #[test]
    fn extras_fold_by_their_own_rules() {
        let mut a = v(None);
        a.extra.insert("watchPaths".into(), json!(["/a", "/b"]));
        a.extra.insert("sessionTitle".into(), json!("one"));
        a.extra.insert("retry".into(), json!(false));
        let mut b = v(None);
        b.extra.insert("watchPaths".into(), json!(["/b", "/c"]));
        b.extra.insert("sessionTitle".into(), json!("two"));
        b.extra.insert("retry".into(), json!(true));
        let f = fold(&[&a, &b]);
        assert_eq!(f.extra["watchPaths"], json!(["/a", "/b", "/c"]));
        assert_eq!(f.extra["sessionTitle"], json!("two"));
        assert_eq!(f.extra["retry"], json!(true));
    }

    #[test]
    fn elicitation_action_prefers_decline_then_cancel() {
        let mk = |a: &str| {
            let mut x = v(None);
            x.extra.insert("action".into(), json!(a));
            x
        };
        let (acc, can, dec) = (mk("accept"), mk("cancel"), mk("decline"));
        assert_eq!(fold(&[&acc, &can]).extra["action"], json!("cancel"));
        assert_eq!(fold(&[&dec, &can, &acc]).extra["action"], json!("decline"));
    }

    #[test]
    fn nothing_folds_to_nothing() {
        let f = fold(&[]);
        assert_eq!(f.decision, None);
        assert!(f.continue_);
        assert!(f.extra.is_empty());
    }
}

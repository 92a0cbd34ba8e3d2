//! Gemini's fold of one fire (agents.md §3.4), over the readings in configuration order:
//! deny > ask > allow, block if any; every reason (allow reasons included) joined with `\n`,
//! `No reason provided` when the fire blocks without one; the event's `tool_input` with every
//! hook's `tool_input` laid over it in order; texts joined with `\n`; and the Gemini-only
//! outputs in `extra`. Pure: the result never depends on which hook finished first.

use super::reading::merge;
use crate::dialect::Step;
use crate::fold::Folded;
use crate::verdict::{Decision, Verdict};
use serde_json::{Map, Value};

/// The reason of a blocking fire whose hooks gave none (Gemini's words).
const NO_REASON: &str = "No reason provided";

pub(super) fn fold(steps: &[&Step]) -> Folded {
    let verdicts: Vec<&Verdict> = steps.iter().map(|s| &s.reading.verdict).collect();
    let decision = verdicts.iter().filter_map(|v| v.decision).max_by_key(|d| d.rank());
    let join = |sep: &str, pick: fn(&Verdict) -> Option<&String>| -> Option<String> {
        let parts: Vec<&str> =
            verdicts.iter().filter_map(|v| pick(v)).map(String::as_str).filter(|s| !s.is_empty()).collect();
        (!parts.is_empty()).then(|| parts.join(sep))
    };
    let mut reason = join("\n", |v| v.reason.as_ref());
    if reason.is_none() && decision.is_some_and(Decision::is_blocking) {
        reason = Some(NO_REASON.to_string());
    }
    let updated_input = match decision {
        Some(d) if d.is_blocking() => None,
        _ => updated_input(steps),
    };
    Folded {
        decision,
        reason,
        continue_: verdicts.iter().all(|v| v.continue_),
        stop_reason: join("\n", |v| v.stop_reason.as_ref()),
        updated_input,
        updated_tool_output: verdicts.iter().filter_map(|v| v.updated_tool_output.clone()).next_back(),
        additional_context: join("\n", |v| v.additional_context.as_ref()),
        system_message: join("\n", |v| v.system_message.as_ref()),
        suppress_output: verdicts.iter().any(|v| v.suppress_output),
        extra: extra(&verdicts),
        warnings: Vec::new(),
    }
}

/// The event's `tool_input` with each hook's laid over it, in configuration order. A Gemini
/// step carries its own `tool_input` in its verdict and, in its chain, that input laid over the
/// one it saw: the first such step gives the base, later ones are laid over it. A step of
/// another dialect (a mixed fire) replaces the whole input, as its own rules say.
fn updated_input(steps: &[&Step]) -> Option<Value> {
    let mut acc: Option<Value> = None;
    for s in steps {
        let Some(own) = &s.reading.verdict.updated_input else { continue };
        let merged = s.chain.iter().find(|(k, _)| k == "tool_input").map(|(_, v)| v);
        acc = match (acc, merged, own.as_object()) {
            (None, Some(m), _) => Some(m.clone()),
            (Some(base), Some(_), Some(over)) => Some(merge(Some(&base), over)),
            _ => Some(own.clone()),
        };
    }
    acc
}

/// `clearContext`: OR. `llm_request`, `llm_response`: shallow merge, later wins.
/// `toolConfig`: mode NONE > ANY > AUTO, `allowedFunctionNames` the sorted union (empty under
/// NONE). Anything else (`tailToolCallRequest`, other dialects' keys): the last.
fn extra(verdicts: &[&Verdict]) -> Map<String, Value> {
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
        let values: Vec<&Value> = verdicts.iter().filter_map(|v| v.extra.get(key)).collect();
        let folded = match key.as_str() {
            "clearContext" => Value::Bool(values.iter().any(|x| x.as_bool() == Some(true))),
            "llm_request" | "llm_response" => {
                let mut acc = Value::Object(Map::new());
                for x in &values {
                    match x.as_object() {
                        Some(over) => acc = merge(Some(&acc), over),
                        None => acc = (*x).clone(),
                    }
                }
                acc
            }
            "toolConfig" => tool_config(&values),
            _ => values.last().map(|x| (*x).clone()).unwrap_or(Value::Null),
        };
        out.insert(key.clone(), folded);
    }
    out
}

fn tool_config(values: &[&Value]) -> Value {
    let rank = |m: &str| match m {
        "NONE" => 3,
        "ANY" => 2,
        "AUTO" => 1,
        _ => 0,
    };
    let mode = values
        .iter()
        .filter_map(|v| v.get("mode").and_then(Value::as_str))
        .max_by_key(|m| rank(m))
        .map(str::to_string);
    let mut names: Vec<String> = Vec::new();
    if mode.as_deref() != Some("NONE") {
        for v in values {
            for n in v.get("allowedFunctionNames").and_then(Value::as_array).into_iter().flatten() {
                if let Some(n) = n.as_str().filter(|n| !names.iter().any(|x| x == n)) {
                    names.push(n.to_string());
                }
            }
        }
        names.sort();
    }
    let mut m = Map::new();
    if let Some(mode) = mode {
        m.insert("mode".into(), Value::String(mode));
    }
    m.insert("allowedFunctionNames".into(), Value::Array(names.into_iter().map(Value::String).collect()));
    Value::Object(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::{Reading, Status, VerdictSource};
    use serde_json::json;

    fn step(v: Verdict, chain: Vec<(String, Value)>) -> Step {
        let reading = Reading { verdict: v, status: Status::Ok, error: None, warnings: Vec::new() };
        Step { chain, ..Step::of(reading) }
    }

    fn said(d: Option<Decision>, reason: Option<&str>) -> Verdict {
        Verdict {
            decision: d,
            reason: reason.map(str::to_string),
            source: VerdictSource::Json,
            ..Verdict::default()
        }
    }

    #[test]
    fn every_reason_is_joined_in_configuration_order_allow_included() {
        let (a, b) = (
            step(said(Some(Decision::Allow), Some("a")), vec![]),
            step(said(Some(Decision::Deny), Some("b")), vec![]),
        );
        let f = fold(&[&a, &b]);
        assert_eq!((f.decision, f.reason.as_deref()), (Some(Decision::Deny), Some("a\nb")));
        let f = fold(&[&b, &a]);
        assert_eq!((f.decision, f.reason.as_deref()), (Some(Decision::Deny), Some("b\na")));
    }

    #[test]
    fn a_block_without_any_reason_says_no_reason_provided() {
        let a = step(said(Some(Decision::Block), None), vec![]);
        assert_eq!(fold(&[&a]).reason.as_deref(), Some(NO_REASON));
        let allow = step(said(Some(Decision::Allow), None), vec![]);
        assert_eq!(fold(&[&allow]).reason, None);
    }

    #[test]
    fn deny_beats_ask_beats_allow() {
        let mk = |d| step(said(Some(d), None), vec![]);
        let (al, ask, deny) = (mk(Decision::Allow), mk(Decision::Ask), mk(Decision::Deny));
        assert_eq!(fold(&[&ask, &al]).decision, Some(Decision::Ask));
        assert_eq!(fold(&[&al, &deny, &ask]).decision, Some(Decision::Deny));
    }

    #[test]
    fn tool_inputs_are_laid_over_the_event_in_configuration_order() {
        let base = json!({"command": "a", "description": "d"});
        let hook = |over: Value| {
            let m = merge(Some(&base), over.as_object().unwrap());
            let v = Verdict { updated_input: Some(over), ..said(None, None) };
            step(v, vec![("tool_input".into(), m)])
        };
        let (x, y) = (hook(json!({"command": "x"})), hook(json!({"description": "y", "extra": 1})));
        let f = fold(&[&x, &y]);
        assert_eq!(
            serde_json::to_string(&f.updated_input).unwrap(),
            r#"{"command":"x","description":"y","extra":1}"#
        );
        let z = hook(json!({"command": "a"}));
        assert_eq!(fold(&[&x, &z]).updated_input, Some(json!({"command": "a", "description": "d"})));
        let deny = step(said(Some(Decision::Deny), None), vec![]);
        assert_eq!(fold(&[&x, &deny]).updated_input, None);
    }

    #[test]
    fn extras_fold_by_gemini_rules() {
        let mk = |k: &str, x: Value| {
            let mut v = said(None, None);
            v.extra.insert(k.into(), x);
            step(v, vec![])
        };
        let a = mk("toolConfig", json!({"mode": "AUTO", "allowedFunctionNames": ["b", "a"]}));
        let b = mk("toolConfig", json!({"mode": "ANY", "allowedFunctionNames": ["c", "a"]}));
        let n = mk("toolConfig", json!({"mode": "NONE", "allowedFunctionNames": ["z"]}));
        assert_eq!(
            fold(&[&a, &b]).extra["toolConfig"],
            json!({"mode": "ANY", "allowedFunctionNames": ["a", "b", "c"]})
        );
        assert_eq!(fold(&[&a, &n]).extra["toolConfig"], json!({"mode": "NONE", "allowedFunctionNames": []}));
        let r1 = mk("llm_request", json!({"model": "m1", "config": {"t": 1}}));
        let r2 = mk("llm_request", json!({"config": {"u": 2}}));
        assert_eq!(fold(&[&r1, &r2]).extra["llm_request"], json!({"model": "m1", "config": {"u": 2}}));
        let c1 = mk("clearContext", json!(false));
        let c2 = mk("clearContext", json!(true));
        assert_eq!(fold(&[&c2, &c1]).extra["clearContext"], json!(true));
    }

    #[test]
    fn texts_join_with_newlines_and_continue_false_wins() {
        let a = Verdict {
            additional_context: Some("c1".into()),
            system_message: Some("s1".into()),
            continue_: false,
            stop_reason: Some("r1".into()),
            ..said(None, None)
        };
        let b = Verdict {
            additional_context: Some("c2".into()),
            system_message: Some("s2".into()),
            continue_: false,
            stop_reason: Some("r2".into()),
            ..said(None, None)
        };
        let f = fold(&[&step(a, vec![]), &step(b, vec![])]);
        assert_eq!(f.additional_context.as_deref(), Some("c1\nc2"));
        assert_eq!(f.system_message.as_deref(), Some("s1\ns2"));
        assert_eq!(f.stop_reason.as_deref(), Some("r1\nr2"));
        assert!(!f.continue_);
    }
}

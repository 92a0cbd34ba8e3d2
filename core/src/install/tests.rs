use super::{Installer, shell_quote, shell_unquote};
use crate::catalog::{self, Dialect};
use serde_json::json;

fn every() -> Vec<Installer> {
    Installer::agents().into_iter().map(|a| Installer::for_agent(a).expect("installable")).collect()
}

#[test]
fn every_installed_event_is_the_agents_own_and_stands_for_a_claude_code_event() {
    for i in every() {
        let profile = Dialect::parse(i.name()).expect("dialect").rules().profile();
        for e in i.data().events {
            let ids = match profile.native_events {
                Some(_) => profile.event_ids(e),
                None => catalog::lookup(e).into_iter().collect(),
            };
            assert!(!ids.is_empty(), "{}: {e} is not one of its events", i.name());
            assert!(ids.iter().all(|id| catalog::spec(*id).native_of.is_none()), "{}: {e}", i.name());
        }
    }
}

#[test]
fn every_skeleton_holds_its_container() {
    for i in every() {
        let s: serde_json::Value = serde_json::from_str(i.data().skeleton).expect("skeleton JSON");
        let c = s.get(i.data().at).expect("container in skeleton");
        assert_eq!(c.is_array(), i.data().list, "{}", i.name());
        assert!(i.data().user.is_some() || i.data().project.is_some(), "{}", i.name());
    }
}

#[test]
fn install_is_idempotent_and_uninstall_gives_back_the_document_for_every_agent() {
    for i in every() {
        let events = i.events(&[]).expect("events");
        let empty = i.install(None, "/opt/bin/hookwire", &events).expect("install");
        assert_eq!(
            i.install(Some(&empty), "/opt/bin/hookwire", &events).expect("again"),
            empty,
            "{}",
            i.name()
        );
        assert_eq!(i.installed(&empty).len(), events.len(), "{}", i.name());
        let removed = i.uninstall(&empty).expect("uninstall");
        assert!(removed.only_skeleton, "{}: {}", i.name(), removed.doc);
        assert_eq!(removed.count, events.len());
        let again = i.uninstall(&removed.doc).expect("second uninstall");
        assert_eq!(again.count, 0);
        assert_eq!(again.doc, removed.doc);
    }
}

#[test]
fn a_new_program_path_replaces_the_old_entries_in_place() {
    let i = Installer::for_agent("codex").expect("codex");
    let events = i.events(&["PreToolUse".to_string()]).expect("events");
    let user = json!({"type": "command", "command": "./guard.sh"});
    let doc = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [user]}]}});
    let old = i.install(Some(&doc), "/old/hookwire", &events).expect("old");
    let new = i.install(Some(&old), "/new dir/hookwire", &events).expect("new");
    let list = new["hooks"]["PreToolUse"].as_array().expect("list");
    assert_eq!(list.len(), 2);
    assert_eq!(list[0]["matcher"], "Bash");
    assert_eq!(list[1]["hooks"][0]["command"], "'/new dir/hookwire' bridge --agent codex");
    assert_eq!(i.uninstall(&new).expect("uninstall").doc, doc);
}

#[test]
fn an_entry_the_user_changed_is_no_longer_hookwires() {
    let i = Installer::for_agent("cursor").expect("cursor");
    let doc = json!({"version": 1, "hooks": {"preToolUse": [
        {"command": "hookwire bridge --agent cursor", "failClosed": true},
        {"command": "hookwire bridge --agent codex"},
        {"command": "myhookwire bridge --agent cursor"}
    ]}});
    let r = i.uninstall(&doc).expect("uninstall");
    assert_eq!(r.count, 0);
    assert_eq!(r.doc, doc);
}

#[test]
fn installing_fewer_events_removes_hookwires_others() {
    let i = Installer::for_agent("kiro").expect("kiro");
    let all = i.install(None, "hookwire", &i.events(&[]).expect("all")).expect("all");
    let one = i.events(&["PreToolUse".to_string()]).expect("one");
    let less = i.install(Some(&all), "hookwire", &one).expect("less");
    assert_eq!(i.installed(&less), vec![("PreToolUse".to_string(), "hookwire".to_string())]);
}

#[test]
fn an_unknown_event_or_a_wrong_container_is_refused() {
    let i = Installer::for_agent("gemini").expect("gemini");
    assert!(i.events(&["PreToolUse".to_string()]).expect_err("not gemini's").contains("BeforeTool"));
    let bad = json!({"hooks": []});
    assert!(i.install(Some(&bad), "hookwire", &["BeforeTool"]).expect_err("list").contains("not an object"));
    let bad = json!({"hooks": {"BeforeTool": {}}});
    assert!(i.install(Some(&bad), "hookwire", &["BeforeTool"]).expect_err("map").contains("not a list"));
    assert!(i.install(Some(&json!([])), "hookwire", &["BeforeTool"]).is_err());
}

#[test]
fn agents_without_an_install_say_so() {
    assert!(Installer::for_agent("claude-code").expect_err("none").contains("cannot write"));
    assert!(Installer::for_agent("neocode").is_err());
    assert!(Installer::for_agent("nope").is_err());
}

#[test]
fn a_script_is_hookwires_only_while_it_is_exactly_what_install_writes() {
    let i = Installer::for_agent("cline").expect("cline installs scripts");
    assert!(i.data().scripts);
    let text = i.script("/opt/my tools/hookwire", "PreToolUse");
    assert!(text.starts_with("#!/bin/sh\n"), "{text}");
    assert!(
        text.ends_with("exec '/opt/my tools/hookwire' bridge --agent cline --event PreToolUse\n"),
        "{text}"
    );
    assert_eq!(i.script_program(&text, "PreToolUse").as_deref(), Some("/opt/my tools/hookwire"));
    // Another event's script, an edit, a user's script, another program: not hookwire's.
    assert_eq!(i.script_program(&text, "PostToolUse"), None);
    assert_eq!(i.script_program(&format!("{text}echo more\n"), "PreToolUse"), None);
    assert_eq!(i.script_program(&text.replace("exec ", "exec  "), "PreToolUse"), None);
    assert_eq!(
        i.script_program("#!/bin/sh\nexec hookwire bridge --agent cline --event PreToolUse\n", "PreToolUse"),
        None
    );
    let other = i.script("/usr/bin/python3", "PreToolUse");
    assert_eq!(i.script_program(&other, "PreToolUse"), None);
    assert_eq!(i.script_program("", "PreToolUse"), None);
}

#[test]
fn a_quoted_program_reads_back_as_written() {
    for p in ["hookwire", "/a b/hookwire", "/it's/hookwire", "/x/$HOME/hookwire"] {
        assert_eq!(shell_unquote(&shell_quote(p)).as_deref(), Some(p));
    }
    assert_eq!(shell_unquote("/a b/hookwire"), None);
}

//! `hookwire test`: case files run against the real engine, PASS and FAIL with what differed,
//! the summary and exit code, `--record`, errors in the case file, and the committed JSON
//! Schema of the case format (`HOOKWIRE_BLESS=1` rewrites it after an intended change).
#![allow(clippy::unwrap_used)]

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BLESS: &str = "HOOKWIRE_BLESS=1 cargo test -p hookwire-cli --test test_command";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// Runs `hookwire` at the repository root; returns the exit code, stdout and stderr.
fn hookwire(args: &[&str]) -> (Option<i32>, String, String) {
    let o: Output = Command::new(env!("CARGO_BIN_EXE_hookwire"))
        .args(args)
        .current_dir(root())
        .env_remove("NO_COLOR")
        .output()
        .unwrap();
    (o.status.code(), String::from_utf8(o.stdout).unwrap(), String::from_utf8(o.stderr).unwrap())
}

/// A directory of its own for one test's files, removed at the end.
struct Dir(PathBuf);

impl Dir {
    fn new(name: &str) -> Dir {
        let dir = std::env::temp_dir().join(format!("hookwire-test-command-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Dir(dir)
    }
    /// Writes `name` (JSON) and returns its path.
    fn json(&self, name: &str, value: &Value) -> String {
        let path = self.0.join(name);
        std::fs::write(&path, serde_json::to_string_pretty(value).unwrap()).unwrap();
        path.to_string_lossy().into_owned()
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn the_example_suite_passes() {
    let (code, out, err) = hookwire(&["test", "examples/tests.json"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.starts_with("PASS rm -rf is denied"), "{out}");
    assert!(out.ends_with("\n4 passed, 0 failed\n"), "{out}");
}

#[test]
fn a_failing_expectation_prints_fail_with_expected_and_got_and_exits_1() {
    let (code, out, _) = hookwire(&["test", "cli/tests/fixtures/failing-tests.json"]);
    assert_eq!(code, Some(1), "{out}");
    let want = "\
PASS ls is let through
FAIL rm -rf is allowed (wrong on purpose)
    decision: expected \"allow\", got \"deny\"
    reason: expected a text containing \"fine\", got \"refusing rm -rf: rm -rf /\"
1 passed, 1 failed
";
    assert_eq!(out, want);
}

#[test]
fn the_json_report_gives_each_case_its_differences_and_result() {
    let (code, out, _) = hookwire(&["--json", "test", "cli/tests/fixtures/failing-tests.json"]);
    assert_eq!(code, Some(1));
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!((v["passed"].as_u64(), v["failed"].as_u64()), (Some(1), Some(1)));
    let failed = &v["cases"][1];
    assert_eq!(failed["passed"], false);
    assert_eq!(
        failed["differences"][0],
        json!({"key": "decision", "test": "equals", "expected": "allow", "got": "deny"})
    );
    assert_eq!(failed["differences"][1]["test"], "contains");
    assert_eq!(failed["result"]["reason"], "refusing rm -rf: rm -rf /");
}

#[test]
fn config_on_the_command_line_replaces_the_case_files_own() {
    let (code, out, _) = hookwire(&["test", "--config", "examples/ask.json", "examples/tests.json"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("    decision: expected \"deny\", got \"ask\""), "{out}");
}

#[test]
fn files_make_a_fresh_working_and_project_directory_and_env_reaches_the_hooks() {
    let d = Dir::new("files");
    // Plain stdout of a UserPromptSubmit hook is context: the file, the variables, and whether
    // CLAUDE_PROJECT_DIR is the directory the hook runs in, then that directory.
    let hook = r#"printf '%s|%s|%s|%s|' "$(cat data/in.txt)" "$GREETING" "$OTHER" "$([ "$CLAUDE_PROJECT_DIR" = "$(pwd -P)" ] && echo same)"; pwd -P"#;
    let settings = json!({"env": {"GREETING": "from the config", "OTHER": "kept"},
                          "hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": hook}]}]}});
    d.json("settings.json", &settings);
    let prompt = json!({"hook_event_name": "UserPromptSubmit", "prompt": "hi", "cwd": "/"});
    let cases = json!({"config": "settings.json", "cases": [
        {"name": "with files", "event": prompt, "env": {"GREETING": "hello"},
         "files": {"data/in.txt": "from the file"},
         "expect": {"context": "from the file|hello|kept|same|/"}},
        {"name": "without files the event's cwd stays", "event": prompt,
         "expect": {"context": "|from the config|kept|same|"}},
    ]});
    let file = d.json("cases.json", &cases);
    let (code, out, err) = hookwire(&["--json", "test", &file]);
    assert_eq!(code, Some(0), "{out}{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let context = v["cases"][0]["result"]["additional_context"].as_str().unwrap();
    let dir = context.rsplit('|').next().unwrap().trim_end();
    assert!(dir.contains("hookwire-test-"), "the hook ran in {dir}");
    assert!(!Path::new(dir).exists(), "{dir} is removed after its case");
    assert_eq!(v["cases"][1]["result"]["additional_context"], "|from the config|kept|same|/");
}

#[test]
fn record_writes_the_results_as_expectations_that_then_pass() {
    let d = Dir::new("record");
    let settings = root().join("examples/settings.json");
    let cases = json!({"config": settings, "cases": [
        {"name": "deny", "event": {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "rm -rf x"}}},
        {"name": "stale", "event": {"hook_event_name": "PreToolUse", "tool_name": "Read", "tool_input": {}},
         "expect": {"decision": "deny"}},
    ]});
    let file = d.json("cases.json", &cases);
    let (code, out, _) = hookwire(&["test", &file]);
    assert_eq!(code, Some(1), "an empty and a wrong expectation fail: {out}");
    assert!(out.contains("FAIL deny\n    error: expects nothing"), "{out}");

    let (code, out, _) = hookwire(&["test", "--record", &file]);
    assert_eq!(code, Some(0), "{out}");
    assert_eq!(
        out,
        format!("RECORD deny (new)\nRECORD stale (changed)\nwrote the expectations of 2 cases to {file}\n")
    );
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(written["config"], cases["config"], "the rest of the file is kept");
    assert_eq!(written["cases"][0]["name"], "deny");
    assert_eq!(
        written["cases"][0]["expect"],
        json!({"decision": "deny", "reason": "refusing rm -rf: rm -rf x", "context": "audited by hookwire",
               "outcomes": [{"hook": "session:PreToolUse[0].hooks[0]", "status": "ok"},
                            {"hook": "session:PreToolUse[1].hooks[0]", "status": "ok"}]})
    );
    assert_eq!(written["cases"][1]["expect"]["decision"], "none");

    let (code, out, _) = hookwire(&["test", &file]);
    assert_eq!((code, out.lines().last()), (Some(0), Some("2 passed, 0 failed")), "{out}");
}

#[test]
fn record_keeps_the_expectations_of_a_case_that_cannot_run_and_exits_1() {
    let d = Dir::new("record-error");
    let cases = json!({"config": root().join("examples/settings.json"), "cases": [
        {"name": "runs", "event": {"hook_event_name": "Stop"}},
        {"name": "broken", "event": "no-such-event.json", "expect": {"decision": "block"}},
    ]});
    let file = d.json("cases.json", &cases);
    let (code, out, _) = hookwire(&["test", "--record", &file]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("ERROR broken\n    error: "), "{out}");
    assert!(out.ends_with("; 1 case did not run and kept its expectations\n"), "{out}");
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(written["cases"][0]["expect"], json!({"decision": "none", "outcomes": []}));
    assert_eq!(written["cases"][1]["expect"], json!({"decision": "block"}));
}

#[test]
fn a_misspelt_expectation_is_an_error_naming_file_line_and_column() {
    let d = Dir::new("typo");
    let path = d.0.join("cases.json");
    std::fs::write(&path, "{\"cases\": [\n  {\"name\": \"x\", \"event\": {\"hook_event_name\": \"Stop\"},\n   \"expect\": {\"decison\": \"block\"}}]}").unwrap();
    let file = path.to_string_lossy();
    let (code, out, err) = hookwire(&["test", &file]);
    assert_eq!(code, Some(1), "{out}");
    assert!(err.contains(&format!("{file}:3:")), "{err}");
    assert!(err.contains("unknown field `decison`, expected one of `decision`"), "{err}");
}

#[test]
fn hostile_case_files_are_errors_never_panics() {
    let d = Dir::new("hostile");
    let deep = format!("{{\"cases\": {}{}}}", "[".repeat(10_000), "]".repeat(10_000));
    let escape = json!({"cases": [{"name": "x", "event": {"hook_event_name": "Stop"}, "files": {"../../escaped": "x"},
                                    "expect": {"decision": "none"}}]});
    let duplicate = json!({"cases": [{"name": "x", "event": {"hook_event_name": "Stop"}},
                                      {"name": "x", "event": {"hook_event_name": "Stop"}}]});
    let big = d.0.join("big.json");
    std::fs::write(&big, vec![b' '; 17 << 20]).unwrap();
    std::fs::write(d.0.join("deep.json"), deep).unwrap();
    let files = [
        (d.0.join("deep.json").to_string_lossy().into_owned(), "recursion limit exceeded"),
        (d.json("escape.json", &escape), "is not a relative path inside the case directory"),
        (d.json("duplicate.json", &duplicate), "two cases are named \"x\""),
        (big.to_string_lossy().into_owned(), "larger than the 16 MiB"),
        (d.json("array.json", &json!([])), "a case file is an object"),
        (d.json("empty.json", &json!({"cases": []})), "no cases"),
    ];
    for (file, why) in files {
        let (code, out, err) = hookwire(&["test", &file]);
        assert_eq!(code, Some(1), "{file}: {out}{err}");
        assert!(out.contains(why) || err.contains(why), "{file}: {why:?} missing in {out}{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    assert!(!d.0.parent().unwrap().join("escaped").exists());
}

#[test]
fn committed_case_schema_matches_the_rust_types() {
    let (code, fresh, err) = hookwire(&["test", "--schema"]);
    assert_eq!(code, Some(0), "{err}");
    let fresh = fresh.trim_end().to_string() + "\n";
    let path = root().join("schema/hook-test.schema.json");
    if std::env::var_os("HOOKWIRE_BLESS").is_some() {
        std::fs::write(&path, &fresh).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == fresh,
        "schema/hook-test.schema.json is out of date with cli/src/hooktest/case.rs.\n\
         Review the change, then re-bless it with:\n    {BLESS}"
    );
}

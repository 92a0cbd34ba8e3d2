//! The Rust runner of the conformance corpus: every `tests/vectors/*.json`, in sorted order,
//! against `hookwire_core::Dispatcher`, compared by the matching rules of `tests/README.md`.
//!
//! One `#[test]` runs the corpus: first, a bounded pool of worker threads
//! (`HOOKWIRE_VECTOR_WORKERS`, default 4; 1 runs everything one after another) takes the
//! vectors that may run concurrently; then the serial vectors (`"serial": true`, or any
//! `host_env`, which sets variables in this process's environment that the hooks inherit) run
//! one at a time with no other vector running. Every failure of every vector is collected and
//! reported together at the end, in file order, so one run shows the whole picture.
//! `HOOKWIRE_VECTOR_TIMES=1` prints every vector's wall time (slowest first).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use hookwire_core::Dispatcher;
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// The repository root: `core/` is one level below it.
fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("core/ has a parent").to_path_buf()
}

/// A fresh, empty directory under the system temporary directory, removed on drop.
struct ScratchDir(PathBuf);

impl ScratchDir {
    fn new(tag: &str) -> ScratchDir {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
        let clean: String = tag.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
        let dir =
            std::env::temp_dir().join(format!("hookwire-vec-{}-{nanos}-{n}-{clean}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("create the vector's scratch directory");
        ScratchDir(dir)
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `host_env` of one vector: set on creation, restored (or removed) on drop.
struct HostEnv(Vec<(String, Option<std::ffi::OsString>)>);

impl HostEnv {
    fn set(vars: &Map<String, Value>) -> HostEnv {
        let mut saved = Vec::new();
        for (k, v) in vars {
            saved.push((k.clone(), std::env::var_os(k)));
            let value = v.as_str().unwrap_or_default();
            // SAFETY: this file holds a single #[test], so no other test thread of this binary
            // reads or writes the environment; a vector with `host_env` is serial: it runs only
            // after the worker pool has been joined, alone, so no fire is running while we
            // change it and no other thread exists that could read it.
            unsafe { std::env::set_var(k, value) };
        }
        HostEnv(saved)
    }
}

impl Drop for HostEnv {
    fn drop(&mut self) {
        for (k, old) in self.0.drain(..).rev() {
            // SAFETY: as in `HostEnv::set`: the serial phase, one thread, no fire running.
            unsafe {
                match old {
                    Some(v) => std::env::set_var(&k, v),
                    None => std::env::remove_var(&k),
                }
            }
        }
    }
}

/// Replaces `${HOOKS}` and `${TMP}` in every string value (not in keys), recursively.
fn substitute(v: &Value, hooks: &str, tmp: &str) -> Value {
    match v {
        Value::String(s) => Value::String(s.replace("${HOOKS}", hooks).replace("${TMP}", tmp)),
        Value::Array(a) => Value::Array(a.iter().map(|x| substitute(x, hooks, tmp)).collect()),
        Value::Object(o) => {
            Value::Object(o.iter().map(|(k, x)| (k.clone(), substitute(x, hooks, tmp))).collect())
        }
        other => other.clone(),
    }
}

/// Failures of one run, each already formatted as `file: path: what`.
struct Report {
    file: String,
    failures: Vec<String>,
}

impl Report {
    fn fail(&mut self, path: &str, msg: impl AsRef<str>) {
        self.failures.push(format!(
            "{}: {}: {}",
            self.file,
            if path.is_empty() { "$" } else { path },
            msg.as_ref()
        ));
    }
}

fn show(v: Option<&Value>) -> String {
    match v {
        None => "<missing>".to_string(),
        Some(v) => {
            let s = v.to_string();
            if s.chars().count() > 300 {
                let head: String = s.chars().take(300).collect();
                format!("{head}... ({} chars)", s.chars().count())
            } else {
                s
            }
        }
    }
}

/// Deep equality where numbers compare as numbers (`1` equals `1.0`).
fn deep_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_f64(), y.as_f64()) {
            (Some(p), Some(q)) => p == q,
            _ => x == y,
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| deep_eq(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, p)| y.get(k).is_some_and(|q| deep_eq(p, q)))
        }
        _ => a == b,
    }
}

/// The operator of an expectation object: exactly one key, starting with `$`.
fn operator(expected: &Value) -> Option<(&str, &Value)> {
    match expected {
        Value::Object(o) if o.len() == 1 => {
            let (k, v) = o.iter().next().expect("one key");
            k.starts_with('$').then_some((k.as_str(), v))
        }
        _ => None,
    }
}

/// Matches `actual` (None = the key is absent) against `expected` by the rules of tests/README.md.
fn check(report: &mut Report, path: &str, expected: &Value, actual: Option<&Value>) {
    if let Some((op, arg)) = operator(expected) {
        if op == "$any" {
            if actual.is_none() {
                report.fail(path, "expected the key to be present, it is missing");
            }
            return;
        }
        let Some(act) = actual else {
            report.fail(path, format!("expected {}, the key is missing", show(Some(expected))));
            return;
        };
        let ok = match op {
            "$eq" => deep_eq(arg, act),
            "$contains" | "$not_contains" => match (act.as_str(), arg.as_str()) {
                (Some(a), Some(s)) => a.contains(s) == (op == "$contains"),
                _ => false,
            },
            "$some_contains" | "$none_contains" => match (act.as_array(), arg.as_str()) {
                (Some(items), Some(s)) => {
                    let some = items.iter().any(|i| i.as_str().is_some_and(|t| t.contains(s)));
                    some == (op == "$some_contains")
                }
                _ => false,
            },
            "$lt" | "$gt" => match (act.as_f64(), arg.as_f64()) {
                (Some(a), Some(n)) => {
                    if op == "$lt" {
                        a < n
                    } else {
                        a > n
                    }
                }
                _ => false,
            },
            "$len" => {
                let n = arg.as_u64();
                let len = match act {
                    Value::Array(a) => Some(a.len() as u64),
                    Value::String(s) => Some(s.chars().count() as u64),
                    _ => None,
                };
                n.is_some() && len == n
            }
            _ => {
                report.fail(path, format!("unknown operator {op} in the vector"));
                return;
            }
        };
        if !ok {
            let shown = if op == "$len" {
                match act {
                    Value::Array(a) => format!("array of {} elements", a.len()),
                    Value::String(s) => {
                        format!("string of {} characters: {}", s.chars().count(), show(Some(act)))
                    }
                    _ => show(Some(act)),
                }
            } else {
                show(Some(act))
            };
            report.fail(path, format!("expected {}, got {shown}", show(Some(expected))));
        }
        return;
    }
    let Some(act) = actual else {
        report.fail(path, format!("expected {}, the key is missing", show(Some(expected))));
        return;
    };
    match expected {
        Value::Object(exp) => {
            let Some(obj) = act.as_object() else {
                report.fail(
                    path,
                    format!("expected an object matching {}, got {}", show(Some(expected)), show(Some(act))),
                );
                return;
            };
            for (k, e) in exp {
                check(report, &format!("{path}.{k}"), e, obj.get(k));
            }
        }
        Value::Array(exp) => {
            let Some(arr) = act.as_array() else {
                report.fail(path, format!("expected an array, got {}", show(Some(act))));
                return;
            };
            if arr.len() != exp.len() {
                report.fail(
                    path,
                    format!("expected {} elements, got {}: {}", exp.len(), arr.len(), show(Some(act))),
                );
                return;
            }
            for (i, e) in exp.iter().enumerate() {
                check(report, &format!("{path}[{i}]"), e, arr.get(i));
            }
        }
        _ => {
            if !deep_eq(expected, act) {
                report.fail(path, format!("expected {}, got {}", show(Some(expected)), show(Some(act))));
            }
        }
    }
}

/// The event text of one fire: `event_text` verbatim, else `event` serialised, with the
/// optional `pad_bytes` string field added to `event` (see tests/README.md).
fn event_text(fire: &Map<String, Value>) -> Option<String> {
    if let Some(t) = fire.get("event_text") {
        return Some(t.as_str()?.to_string());
    }
    let mut event = fire.get("event")?.clone();
    if let (Some(n), Some(obj)) = (fire.get("pad_bytes").and_then(Value::as_u64), event.as_object_mut()) {
        obj.insert("padding".to_string(), Value::String("x".repeat(n as usize)));
    }
    Some(serde_json::to_string(&event).expect("a JSON value serialises"))
}

/// Runs one fire on `dispatcher` and checks its `expect`.
fn run_fire(report: &mut Report, at: &str, dispatcher: &Dispatcher, fire: &Map<String, Value>) {
    if let Some(ms) = fire.get("sleep_ms").and_then(Value::as_u64) {
        std::thread::sleep(Duration::from_millis(ms));
    }
    let Some(text) = event_text(fire) else {
        report.fail(at, "the vector has neither a string `event_text` nor an `event`");
        return;
    };
    let empty = Value::Object(Map::new());
    let expect = fire.get("expect").unwrap_or(&empty);
    let started = Instant::now();
    let fired = dispatcher.fire_json(&text);
    let elapsed_ms = started.elapsed().as_secs_f64() * 1000.0;

    if let Some(max) = expect.get("max_ms").and_then(Value::as_f64)
        && elapsed_ms >= max
    {
        report
            .fail(&format!("{at}max_ms"), format!("the fire took {elapsed_ms:.1} ms, expected below {max}"));
    }
    if let Some(min) = expect.get("min_ms").and_then(Value::as_f64)
        && elapsed_ms < min
    {
        report.fail(
            &format!("{at}min_ms"),
            format!("the fire took {elapsed_ms:.1} ms, expected at least {min}"),
        );
    }

    match fired {
        Err(e) => {
            let err_json: Value = serde_json::from_str(&e.details().to_json()).expect("error JSON parses");
            match expect.get("error") {
                Some(exp) => check(report, &format!("{at}error"), exp, err_json.get("error")),
                None => report.fail(at, format!("the fire failed: {}", err_json)),
            }
        }
        Ok(result_text) => {
            let result: Value = match serde_json::from_str(&result_text) {
                Ok(v) => v,
                Err(e) => {
                    report.fail(at, format!("the result is not JSON ({e}): {result_text}"));
                    return;
                }
            };
            if let Some(exp) = expect.get("error") {
                report.fail(
                    &format!("{at}error"),
                    format!("expected an error {exp}, the fire succeeded: {result_text}"),
                );
                return;
            }
            if let Some(exp) = expect.get("result") {
                if exp.is_object() && operator(exp).is_none() {
                    for (k, e) in exp.as_object().expect("an object") {
                        check(report, &format!("{at}result.{k}"), e, result.get(k));
                    }
                } else {
                    check(report, &format!("{at}result"), exp, Some(&result));
                }
            }
            for key in ["outcomes", "async_outcomes"] {
                if let Some(exp) = expect.get(key) {
                    if !exp.is_array() && operator(exp).is_none() {
                        report.fail(&format!("{at}{key}"), "the vector's expectation must be an array");
                        continue;
                    }
                    check(report, &format!("{at}{key}"), exp, result.get(key));
                }
            }
            if let Some(exp) = expect.get("warnings") {
                check(report, &format!("{at}warnings"), exp, result.get("warnings"));
            }
        }
    }

    for (key, want) in [("files_absent", false), ("files_present", true)] {
        for p in expect.get(key).and_then(Value::as_array).into_iter().flatten() {
            let Some(p) = p.as_str() else { continue };
            if Path::new(p).exists() != want {
                report.fail(
                    &format!("{at}{key}"),
                    format!("{p} {}", if want { "does not exist" } else { "exists" }),
                );
            }
        }
    }
}

/// Runs one vector file; returns false when it was skipped.
fn run_vector(report: &mut Report, path: &Path, hooks: &str) -> bool {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            report.fail("", format!("cannot read: {e}"));
            return true;
        }
    };
    let raw: Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(e) => {
            report.fail("", format!("not JSON: {e}"));
            return true;
        }
    };
    let Some(vector) = raw.as_object() else {
        report.fail("", "a vector must be a JSON object");
        return true;
    };
    let skipped = vector
        .get("skip")
        .and_then(Value::as_array)
        .is_some_and(|langs| langs.iter().any(|l| l.as_str() == Some("rust")));
    if skipped {
        return false;
    }

    let tmp = ScratchDir::new(&report.file);
    let tmp_str = tmp.0.to_str().expect("the temporary directory path is UTF-8").to_string();
    let sub = |v: &Value| substitute(v, hooks, &tmp_str);

    let env_vars = vector.get("host_env").map(sub).and_then(|v| v.as_object().cloned()).unwrap_or_default();
    let _env = HostEnv::set(&env_vars);

    let config = sub(vector.get("config").unwrap_or(&Value::Object(Map::new())));
    let config_text = match &config {
        Value::String(s) => s.clone(),
        other => serde_json::to_string(other).expect("a JSON value serialises"),
    };

    // One fire (`event`/`event_text` + `expect`) or several (`fires`), all substituted.
    let mut fires: Vec<Map<String, Value>> = Vec::new();
    if let Some(list) = vector.get("fires") {
        for f in list.as_array().into_iter().flatten() {
            match sub(f) {
                Value::Object(o) => fires.push(o),
                _ => report.fail("fires", "each element must be an object"),
            }
        }
    } else {
        let mut one = Map::new();
        for key in ["event", "event_text", "expect", "pad_bytes", "sleep_ms"] {
            if let Some(v) = vector.get(key) {
                one.insert(key.to_string(), sub(v));
            }
        }
        fires.push(one);
    }
    if fires.is_empty() {
        report.fail("", "the vector has no fire");
        return true;
    }

    let dispatcher = match Dispatcher::new(&config_text) {
        Ok(d) => d,
        Err(e) => {
            let err_json: Value = serde_json::from_str(&e.details().to_json()).expect("error JSON parses");
            let first = fires[0].get("expect");
            match first.and_then(|x| x.get("config_error").or_else(|| x.get("error"))) {
                Some(exp) => check(report, "config_error", exp, err_json.get("error")),
                None => report.fail("config", format!("the dispatcher build failed: {err_json}")),
            }
            return true;
        }
    };
    if let Some(exp) = fires[0].get("expect").and_then(|x| x.get("config_error")) {
        report.fail("config_error", format!("expected the build to fail with {exp}, it succeeded"));
        return true;
    }
    let many = vector.contains_key("fires");
    for (i, fire) in fires.iter().enumerate() {
        let at = if many { format!("fires[{i}].") } else { String::new() };
        run_fire(report, &at, &dispatcher, fire);
    }
    drop(dispatcher);
    true
}

/// Whether a vector must run alone (tests/README.md, `serial`): it says `"serial": true`, or it
/// has `host_env` (process-wide variables). A file that does not parse is not serial: its
/// `run_vector` reports why.
fn is_serial(path: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(path) else { return false };
    let Ok(Value::Object(v)) = serde_json::from_str::<Value>(&text) else { return false };
    v.get("serial").and_then(Value::as_bool) == Some(true) || v.contains_key("host_env")
}

/// What running one vector gave: its report, whether it ran (not skipped), and its wall time.
struct Outcome {
    report: Report,
    was_run: bool,
    took: Duration,
}

fn run_one(path: &Path, hooks: &str) -> Outcome {
    let file = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let mut report = Report { file, failures: Vec::new() };
    let start = Instant::now();
    let was_run = run_vector(&mut report, path, hooks);
    Outcome { report, was_run, took: start.elapsed() }
}

/// `HOOKWIRE_VECTOR_WORKERS`: how many vectors run at once (default 4, at least 1).
fn workers() -> usize {
    match std::env::var("HOOKWIRE_VECTOR_WORKERS") {
        Ok(w) => w
            .trim()
            .parse::<usize>()
            .ok()
            .filter(|&n| n >= 1)
            .unwrap_or_else(|| panic!("HOOKWIRE_VECTOR_WORKERS={w:?}: expected a whole number >= 1")),
        Err(_) => 4,
    }
}

#[test]
fn conformance_vectors() {
    let root = repo_root();
    let vectors_dir = root.join("tests").join("vectors");
    let hooks_dir = root.join("tests").join("hooks");
    let hooks = hooks_dir.to_str().expect("the hooks path is UTF-8").to_string();

    let mut files: Vec<PathBuf> = std::fs::read_dir(&vectors_dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", vectors_dir.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no vectors found in {}", vectors_dir.display());

    let only = std::env::var("HOOKWIRE_VECTOR").ok();
    files.retain(|p| {
        only.as_deref().is_none_or(|o| p.file_name().is_some_and(|n| n.to_string_lossy().contains(o)))
    });
    let (serial, concurrent): (Vec<usize>, Vec<usize>) =
        (0..files.len()).partition(|&i| is_serial(&files[i]));
    let workers = workers().min(concurrent.len().max(1));

    // Phase 1: the worker pool over the concurrent vectors; phase 2: the serial ones, alone.
    let mut outcomes: Vec<Option<Outcome>> = (0..files.len()).map(|_| None).collect();
    let started = Instant::now();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let done = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&i) = concurrent.get(k) else { break };
                    let outcome = run_one(&files[i], &hooks);
                    done.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push((i, outcome));
                }
            });
        }
    });
    for (i, outcome) in done.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner) {
        outcomes[i] = Some(outcome);
    }
    let pool_took = started.elapsed();
    for &i in &serial {
        outcomes[i] = Some(run_one(&files[i], &hooks));
    }

    let mut failures = Vec::new();
    let (mut ran, mut skipped, mut failed) = (0usize, 0usize, 0usize);
    // Each vector's wall time, to name the slowest at the end (the corpus's share of CI).
    let mut took = Vec::new();
    for (i, outcome) in outcomes.into_iter().enumerate() {
        let outcome = outcome.unwrap_or_else(|| panic!("{}: no worker ran it", files[i].display()));
        took.push((outcome.took, outcome.report.file.clone()));
        if outcome.was_run {
            ran += 1;
        } else {
            skipped += 1;
        }
        if !outcome.report.failures.is_empty() {
            failed += 1;
            failures.extend(outcome.report.failures);
        }
    }
    assert!(ran > 0, "no vector ran ({skipped} skipped)");
    eprintln!("conformance: {ran} vectors run, {skipped} skipped, {failed} failed");
    eprintln!(
        "conformance: {} vectors on {workers} workers in {:.1} s, then {} serial vectors in {:.1} s",
        concurrent.len(),
        pool_took.as_secs_f64(),
        serial.len(),
        (started.elapsed() - pool_took).as_secs_f64()
    );
    took.sort_unstable_by_key(|t| std::cmp::Reverse(t.0));
    let all = std::env::var("HOOKWIRE_VECTOR_TIMES").is_ok_and(|v| v == "1");
    let slowest: Vec<String> = took
        .iter()
        .take(if all { took.len() } else { 10 })
        .map(|(d, f)| format!("{f} {:.2} s", d.as_secs_f64()))
        .collect();
    if all {
        eprintln!("conformance: every vector's wall time, slowest first:\n{}", slowest.join("\n"));
    } else {
        eprintln!("conformance: slowest vectors: {}", slowest.join(", "));
    }
    if !failures.is_empty() {
        panic!("{failed} of {ran} vectors failed ({} mismatches):\n{}", failures.len(), failures.join("\n"));
    }
}

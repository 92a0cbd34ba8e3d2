//! What `hookwire test` prints: `PASS name` or `FAIL name` with each difference indented
//! beneath, then `N passed, M failed`; for `--record`, what was written. Text for people,
//! `--json` for machines. It only renders the comparison; it never compares.

use super::case::Case;
use super::expect::{Difference, Test, differences};
use crate::paint::Paint;
use hookwire_core::{FireResult, Status};
use serde_json::{Value, json};
use std::path::Path;

/// The outcome of one case in a test run.
pub struct CaseReport {
    name: String,
    differences: Vec<Difference>,
    /// Why the case could not run (no result to compare).
    error: Option<String>,
    result: Option<FireResult>,
}

impl CaseReport {
    pub fn new(case: &Case, run: Result<FireResult, String>) -> CaseReport {
        match run {
            Ok(result) => CaseReport {
                name: case.name.clone(),
                differences: differences(&case.expect, &result),
                error: None,
                result: Some(result),
            },
            Err(e) => CaseReport::error(case, e),
        }
    }

    pub fn error(case: &Case, error: String) -> CaseReport {
        CaseReport { name: case.name.clone(), differences: Vec::new(), error: Some(error), result: None }
    }

    pub fn passed(&self) -> bool {
        self.error.is_none() && self.differences.is_empty()
    }

    fn to_json(&self) -> Value {
        json!({"name": self.name, "passed": self.passed(), "error": self.error,
               "differences": self.differences, "result": self.result})
    }

    /// Prints `PASS name`, or `FAIL name` and what differed.
    pub fn print(&self) {
        say!("{}", self.render(Paint::stdout()));
    }

    fn render(&self, p: Paint) -> String {
        if self.passed() {
            return format!("{} {}", p.green("PASS"), self.name);
        }
        let mut lines = vec![format!("{} {}", p.red("FAIL"), self.name)];
        lines.extend(self.error.iter().map(|e| format!("    error: {e}")));
        lines.extend(self.differences.iter().map(|d| {
            let how = if d.test == Test::Contains { "expected a text containing" } else { "expected" };
            format!("    {}: {how} {}, got {}", d.key, d.expected, d.got)
        }));
        // A hook that did not end well is often why: say so under the differences.
        let troubled = self.result.iter().flat_map(|r| &r.outcomes).filter(|o| o.status != Status::Ok);
        lines.extend(troubled.map(|o| {
            let status = serde_json::to_value(o.status).unwrap_or(Value::Null);
            let status = status.as_str().unwrap_or("?");
            format!("    {} {} {status}: {}", p.dim("note: hook"), o.hook, o.error.as_deref().unwrap_or(""))
        }));
        lines.join("\n")
    }
}

fn count(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

/// After the cases: `N passed, M failed`, or with `--json` the whole report.
pub fn summary(file: &Path, reports: &[CaseReport], as_json: bool) {
    let passed = reports.iter().filter(|r| r.passed()).count();
    let failed = reports.len() - passed;
    if as_json {
        let cases: Vec<Value> = reports.iter().map(CaseReport::to_json).collect();
        say!(
            "{}",
            json!({"file": file.display().to_string(), "passed": passed, "failed": failed, "cases": cases})
        );
        return;
    }
    let p = Paint::stdout();
    let summary = format!("{passed} passed, {failed} failed");
    say!("{}", if failed == 0 { p.green(&summary) } else { p.red(&summary) });
}

/// What `--record` did with one case.
pub struct Recorded {
    name: String,
    /// `new`, `changed` or `unchanged`; or why the case could not run.
    what: Result<&'static str, String>,
}

impl Recorded {
    pub fn new(name: &str, what: Result<&'static str, String>) -> Recorded {
        Recorded { name: name.to_string(), what }
    }

    pub fn ok(&self) -> bool {
        self.what.is_ok()
    }
}

/// The report of `--record`.
pub fn recorded(file: &Path, done: &[Recorded], written: bool, as_json: bool) {
    let ok = done.iter().filter(|r| r.ok()).count();
    let failed = done.len() - ok;
    if as_json {
        let cases: Vec<Value> = done
            .iter()
            .map(|r| match &r.what {
                Ok(what) => json!({"name": r.name, "recorded": what, "error": null}),
                Err(e) => json!({"name": r.name, "recorded": null, "error": e}),
            })
            .collect();
        let file = file.display().to_string();
        say!(
            "{}",
            json!({"file": file, "written": written, "recorded": ok, "failed": failed, "cases": cases})
        );
        return;
    }
    let p = Paint::stdout();
    for r in done {
        match &r.what {
            Ok(what) => say!("{} {} ({what})", p.green("RECORD"), r.name),
            Err(e) => say!("{} {}\n    error: {e}", p.red("ERROR"), r.name),
        }
    }
    let file = file.display();
    let mut summary = match written {
        true => format!("wrote the expectations of {} to {file}", count(ok, "case")),
        false => format!("wrote nothing to {file}"),
    };
    if failed > 0 {
        summary += &format!(
            "; {} did not run and kept {} expectations",
            count(failed, "case"),
            if failed == 1 { "its" } else { "their" }
        );
    }
    say!("{summary}");
}

//! `hookwire test`: a hook author's unit tests. Each case of a case file fires one event
//! through the real engine, against a freshly built dispatcher with the case's `env` and in a
//! scratch directory holding its `files`, and its expectations are compared with the result
//! JSON; `--record` writes the current results back as the expectations. The engine decides
//! everything: this module only prepares the fire and compares what came out.

mod case;
mod expect;
mod report;
mod scratch;

use crate::config::{Parsed, Source, parse_json, read_text_at_most};
use crate::progress::Spinner;
use crate::{ConfigArgs, Failure};
use case::{Case, EventSpec, Suite};
use hookwire_core::{ErrorDetails, ErrorKind, FireResult};
use report::{CaseReport, Recorded};
use scratch::Scratch;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::Path;

/// `hookwire test [--record] [--schema] CASES`: exit 0 when every case passes (or every case
/// was recorded), 1 otherwise.
pub fn run(
    cases: Option<&Path>,
    args: &ConfigArgs,
    record: bool,
    schema: bool,
    json: bool,
) -> Result<u8, Failure> {
    if schema {
        say!("{}", case::schema().trim_end());
        return Ok(0);
    }
    let Some(path) = cases else {
        let d = ErrorDetails::new(ErrorKind::Internal, "name a case file (or --schema)");
        return Err(Failure::new(d, None));
    };
    let mut suite = case::read(path)?;
    let config = source(args, &suite, path).parse()?;
    // A broken configuration is one error, not the same error once per case.
    config.build(config.value.clone())?;
    let dir = path.parent().unwrap_or(Path::new(""));
    if record {
        let runs: Vec<_> = suite.cases.iter().map(|c| fire(&config, c, dir)).collect();
        return record_results(path, &mut suite, runs, json);
    }
    let mut reports = Vec::with_capacity(suite.cases.len());
    for case in &suite.cases {
        let report = if case.expect.is_empty() {
            CaseReport::error(case, "expects nothing: give `expect` a key, or write it with --record".into())
        } else {
            CaseReport::new(case, fire(&config, case, dir))
        };
        // Each case is printed as it ends, so a long suite shows its progress.
        if !json {
            report.print();
        }
        reports.push(report);
    }
    report::summary(path, &reports, json);
    Ok(u8::from(reports.iter().any(|r| !r.passed())))
}

/// The command line's `--config` or `--project`, else the case file's `config` (relative to
/// the case file), else Claude Code's layering of the current directory.
fn source(args: &ConfigArgs, suite: &Suite, path: &Path) -> Source {
    match &suite.config {
        Some(file) if args.config.is_none() && args.project.is_none() => {
            Source::File(path.parent().unwrap_or(Path::new("")).join(file))
        }
        _ => Source::from(args),
    }
}

/// Fires one case: its event (read from its file when it names one), in a scratch directory
/// when it has `files`, through a dispatcher built with its `env`.
fn fire(config: &Parsed, case: &Case, dir: &Path) -> Result<FireResult, String> {
    let (mut event, shown) = match &case.event {
        EventSpec::Inline(e) => (Value::Object(e.clone()), None),
        EventSpec::File(f) => {
            let p = dir.join(f);
            let shown = p.display().to_string();
            let text = read_text_at_most(&p, case::MAX_FILE_BYTES).map_err(|f| describe(&f))?;
            (parse_json(&text, Some(shown.clone())).map_err(|f| describe(&f))?, Some(shown))
        }
    };
    let scratch = case.files.as_ref().map(Scratch::with_files).transpose()?;
    if let (Some(s), Some(e)) = (&scratch, event.as_object_mut()) {
        e.insert("cwd".into(), json!(s.path().to_string_lossy()));
    }
    let mut value = config.value.clone();
    add_env(&mut value, &case.env);
    let dispatcher = config.build(value).map_err(|f| describe(&f))?;
    // One fire per dispatcher: async hooks run to completion here, before the case's scratch
    // directory goes, and the result says their output reaches no later fire (`oneshot`).
    dispatcher.set_one_shot(true);
    let spinner = Spinner::start(format!("running hooks for {}", case.name));
    let result = dispatcher.fire(&event);
    dispatcher.wait_async(None);
    spinner.stop();
    result.map_err(|e| match shown {
        Some(file) => describe(&Failure::new(e.details(), Some(file))),
        None => format!("the event: {}", describe(&Failure::new(e.details(), None))),
    })
}

/// Adds the case's variables to the configuration's top-level `env` (protocol.md §3.4),
/// replacing a variable of the same name. A configuration that is not an object, or whose
/// `env` is not one, is left for the engine to refuse.
fn add_env(config: &mut Value, env: &BTreeMap<String, String>) {
    if env.is_empty() {
        return;
    }
    if let Some(vars) =
        config.as_object_mut().and_then(|c| c.entry("env").or_insert(json!({})).as_object_mut())
    {
        vars.extend(env.iter().map(|(k, v)| (k.clone(), json!(v))));
    }
}

/// A failure as one line: `file:line:column: message (kind)`.
fn describe(f: &Failure) -> String {
    let d = &f.details;
    let at: String = [f.file.clone(), d.line.map(|l| l.to_string()), d.column.map(|c| c.to_string())]
        .into_iter()
        .flatten()
        .map(|part| part + ":")
        .collect();
    let at = if at.is_empty() { at } else { at + " " };
    format!("{at}{} ({})", d.message, d.kind)
}

/// `--record`: each case that ran gets the expectations its result satisfies; a case that
/// could not run keeps its own and is reported, and the command then exits 1.
fn record_results(
    path: &Path,
    suite: &mut Suite,
    runs: Vec<Result<FireResult, String>>,
    json: bool,
) -> Result<u8, Failure> {
    let mut done = Vec::with_capacity(runs.len());
    for (case, run) in suite.cases.iter_mut().zip(runs) {
        done.push(match run {
            Ok(result) => {
                let was = std::mem::replace(&mut case.expect, expect::recorded(&result));
                let what = match was {
                    _ if was.is_empty() => "new",
                    _ if was == case.expect => "unchanged",
                    _ => "changed",
                };
                Recorded::new(&case.name, Ok(what))
            }
            Err(e) => Recorded::new(&case.name, Err(e)),
        });
    }
    let written = done.iter().any(Recorded::ok);
    if written {
        case::write(path, suite)?;
    }
    report::recorded(path, &done, written, json);
    Ok(u8::from(done.iter().any(|r| !r.ok())))
}

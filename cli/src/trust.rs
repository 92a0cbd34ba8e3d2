//! `hookwire trust`: which project and local settings files are trusted (and which sources of
//! other scopes the configuration marks `"trusted": false`), and recording trust for the
//! project and local files as they are now. The store format and the hashing are the core's.

use crate::Failure;
use crate::config::Source;
use crate::paint::Paint;

fn text(v: Option<&str>) -> &str {
    v.unwrap_or("-")
}

pub fn run(source: &Source, record: bool, json: bool) -> Result<u8, Failure> {
    let loaded = source.load()?;
    let status = if record {
        hookwire_core::record_trust_for(&loaded.text).map_err(|e| Failure::new(e.details(), None))?
    } else {
        loaded.dispatcher.trust_status()
    };
    if json {
        say!("{}", status.to_json());
        return Ok(0);
    }
    let p = Paint::stdout();
    say!("project    {}", text(status.project_dir.as_deref()));
    match &status.store {
        Some(s) => say!("store      {s}"),
        None => say!("store      none (default would be {})", text(status.default_store.as_deref())),
    }
    if status.sources.is_empty() {
        say!("no project or local settings to trust");
    }
    for s in &status.sources {
        let mark = if s.trusted { p.green("trusted  ") } else { p.red("untrusted") };
        say!("{mark}  {}", p.cyan(&s.label));
        say!("           file    {}", text(s.resolved.as_deref()));
        if let Some(d) = &s.digest {
            say!("           digest  {d}");
        }
        say!("           why     {}", s.why);
    }
    if record {
        say!("recorded trust for the files above as they are now; any edit untrusts them");
    } else if status.sources.iter().any(|s| !s.trusted && matches!(s.scope, "project" | "local")) {
        say!("{}", p.dim("run `hookwire trust --record` (same options) to trust these files as they are"));
    }
    Ok(0)
}

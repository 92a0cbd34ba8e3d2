//! The `codebuddy` dialect (Tencent CodeBuddy Code; agents-2.md §1): Claude Code's settings in
//! `~/.codebuddy/`, `.codebuddy/settings.json` and `.codebuddy/settings.local.json`, read with
//! one difference that is code: every matcher is an unanchored regex, so `Write` also matches
//! `NotebookWrite` [d]. Hooks get `CODEBUDDY_PROJECT_DIR` [d]; timeouts are seconds, 60 by
//! default [d]; hooks run in parallel [d]. Everything else is Claude Code's.

mod install;

use super::Profile;
use super::family::{Anchoring, CLASSIC_EVENTS, Family, Member};
use crate::catalog::Dialect;

/// The `codebuddy` dialect.
pub struct CodebuddyRules;

/// What this dialect is, as data.
static PROFILE: Profile = Profile {
    dialect: Dialect::Codebuddy,
    files: "`~/.codebuddy/settings.json`, `.codebuddy/settings.json`, `.codebuddy/settings.local.json`, enterprise settings",
    shape: "Claude Code's",
    differs: "unanchored matchers (`Write` also matches `NotebookWrite`), `CODEBUDDY_PROJECT_DIR`, a 60 s default timeout, Claude Code's nine classic events",
    native_events: Some(CLASSIC_EVENTS),
    default_timeout_s: Some(60.0),
    answer: Some(answer),
    install: Some(&install::INSTALL),
    write: Some(|m, r| super::family::write(&FAMILY, m, r)),
    ..Profile::BASE
};

static FAMILY: Family = Family {
    profile: &PROFILE,
    dirs: &[".codebuddy"],
    anchoring: Anchoring::Unanchored,
    project_dir_vars: &["CODEBUDDY_PROJECT_DIR"],
    ..Family::BASE
};

impl Member for CodebuddyRules {
    fn family(&self) -> &'static Family {
        &FAMILY
    }
}

/// A result in CodeBuddy Code's own answer form, for the bridge: Claude Code's, which it reads.
fn answer(a: &crate::dialect::answering::Answering<'_>) -> crate::dialect::answering::Answer {
    crate::dialect::claude_code::answer::answer_as("CodeBuddy Code", a)
}

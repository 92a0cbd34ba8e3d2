//! The `qoder` dialect (Qoder CLI; agents-2.md §1): Claude Code's settings shape in
//! `~/.qoder/settings.json`, `.qoder/settings.json` and `.qoder/settings.local.json` [s], with
//! Claude Code's matchers and its command, http, prompt and agent handlers [s]. Nothing else is
//! known (Qoder CLI cannot run without its servers, so nothing was observed): hookwire's
//! choices are Claude Code's nine classic events, timeouts in seconds with Claude Code's
//! defaults, and `CLAUDE_PROJECT_DIR` for the project.

mod install;

use super::Profile;
use super::family::{CLASSIC_EVENTS, Family, Member};
use crate::catalog::Dialect;

/// The `qoder` dialect.
pub struct QoderRules;

static PROFILE: Profile = Profile {
    dialect: Dialect::Qoder,
    files: "`~/.qoder/settings.json`, `.qoder/settings.json`, `.qoder/settings.local.json`",
    shape: "Claude Code's",
    differs: "`.qoder/` files and Claude Code's nine classic events; otherwise unverified and read as Claude Code",
    native_events: Some(CLASSIC_EVENTS),
    sets_project_dir: true,
    answer: Some(answer),
    install: Some(&install::INSTALL),
    write: Some(|m, r| super::family::write(&FAMILY, m, r)),
    ..Profile::BASE
};

static FAMILY: Family = Family { profile: &PROFILE, dirs: &[".qoder"], ..Family::BASE };

impl Member for QoderRules {
    fn family(&self) -> &'static Family {
        &FAMILY
    }
}

/// A result in Qoder CLI's own answer form, for the bridge: Claude Code's, which it reads.
fn answer(a: &crate::dialect::answering::Answering<'_>) -> crate::dialect::answering::Answer {
    crate::dialect::claude_code::answer::answer_as("Qoder CLI", a)
}

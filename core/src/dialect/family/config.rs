//! Reading a member's documents, where the settings reader needs help: a document whose
//! events sit at its root (Devin's `hooks.v1.json`) is read as the `hooks` of a wrapper, and
//! the problems it reports then point under a `hooks` key the file does not have. This puts
//! them back where they are in the document: the pointers of the problems added by that read,
//! the `(at …)` of their texts, and the pointer of the error that refused it.

use crate::config::ConfigWarnings;
use crate::error::ConfigError;

/// How many problems and texts the warnings held before the read.
pub struct Marks {
    problems: usize,
    global: usize,
    per_event: Vec<usize>,
}

impl Marks {
    pub fn of(w: &ConfigWarnings) -> Marks {
        Marks {
            problems: w.problems.len(),
            global: w.global.len(),
            per_event: w.per_event.iter().map(Vec::len).collect(),
        }
    }
}

/// The read's problems and error with `{base}/hooks/…` pointers turned into `{base}/…`.
pub fn unwrap(
    base: &str,
    marks: Marks,
    w: &mut ConfigWarnings,
    read: Result<(), ConfigError>,
) -> Result<(), ConfigError> {
    let wrapped = format!("{base}/hooks/");
    let at = |p: &str| p.strip_prefix(wrapped.as_str()).map(|rest| format!("{base}/{rest}"));
    let text = |m: &mut String| {
        let from = format!("(at {wrapped}");
        if m.contains(&from) {
            *m = m.replace(&from, &format!("(at {base}/"));
        }
    };
    for problem in w.problems.iter_mut().skip(marks.problems) {
        if let Some(p) = problem.pointer.as_deref().and_then(at) {
            problem.pointer = Some(p);
        }
        text(&mut problem.message);
    }
    w.global.iter_mut().skip(marks.global).for_each(text);
    for (list, from) in w.per_event.iter_mut().zip(marks.per_event) {
        list.iter_mut().skip(from).for_each(text);
    }
    match read {
        Err(ConfigError::Invalid { pointer: Some(p), message }) => {
            let pointer = at(&p).or(Some(p));
            Err(ConfigError::Invalid { pointer, message })
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_root_documents_error_points_at_its_own_place() {
        let mut w = ConfigWarnings::new();
        let marks = Marks::of(&w);
        let read = Err(ConfigError::invalid("/sources/0/settings/hooks/Stop/0", "bad"));
        let err = unwrap("/sources/0/settings", marks, &mut w, read).unwrap_err();
        assert_eq!(err.details().pointer.as_deref(), Some("/sources/0/settings/Stop/0"));
    }
}

//! What a simple command starts, for a `Bash(…)` rule: the program its command word names
//! (also by its last path component), the programs that wrappers (`env`, `sudo`, `timeout`,
//! `xargs`, `find -exec`, …) run, the code that shells (`bash -c`), `eval` and `su -c` read,
//! and the builtins whose effect the rule cannot see (`source`, `trap`, `alias`, …), which leave
//! it undecided. A rule answers "no" only when every program that bash would start is known.

use super::IfMatch;
use super::shell::{self, Flow, Reading, SimpleCommand, Word};
use crate::lazy_regex::LazyRegex;
use std::cell::Cell;

/// A `Bash(pattern)` rule, ready to judge commands.
#[derive(Debug, Clone)]
pub struct CommandRule {
    /// The glob, and the same glob with a path-qualified program reduced to its last component.
    /// Each with the literal text every match starts with.
    pub globs: Vec<(String, LazyRegex)>,
    /// The program the glob names, when its first word is literal (`rm` for `rm -rf *`).
    pub program: Option<String>,
    /// Whether the glob mentions `<` or `>`: then a redirection may be what it is about.
    pub names_redirection: bool,
}

/// The bytes a judgement reads (each text handed to the reader, matched or joined), counted in
/// tests so that linear work is asserted by counting, not by timing a loaded machine.
pub(super) mod work {
    #[cfg(test)]
    thread_local! {
        static BYTES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }

    #[cfg(test)]
    pub fn add(n: usize) {
        BYTES.with(|b| b.set(b.get() + n));
    }

    #[cfg(not(test))]
    #[inline(always)]
    pub fn add(_: usize) {}

    /// The bytes counted on this thread since the last call.
    #[cfg(test)]
    pub fn take() -> usize {
        BYTES.with(|b| b.replace(0))
    }
}

/// Where a command is judged: its nesting, whether an undecided answer still needs its
/// reason (formatting one per command of a hostile megabyte cost more than reading it), and
/// the bytes of code it may still read.
#[derive(Clone, Copy)]
struct Cx<'b> {
    depth: usize,
    explain: bool,
    budget: &'b Cell<usize>,
}

/// Code a judgement may read, as a multiple of the command's length, plus a constant. Each
/// level of `eval`, `bash -c` or `env -S` reads its code again: without a bound, `eval eval …`
/// a megabyte long was read 32 times (14 s in a debug build). Real commands nest code a level
/// or two and each level is shorter than the last, far below it.
const BUDGET_PER_BYTE: usize = 4;
const BUDGET_FLOOR: usize = 64 << 10;

impl<'b> Cx<'b> {
    fn deeper(self) -> Cx<'b> {
        Cx { depth: self.depth + 1, ..self }
    }

    /// Takes `n` bytes from the budget; `false` when it does not hold them.
    fn spend(self, n: usize) -> bool {
        let left = self.budget.get();
        self.budget.set(left.saturating_sub(n));
        left >= n
    }

    fn undecided(self, why: impl FnOnce() -> String) -> IfMatch {
        IfMatch::Undecided(if self.explain { why() } else { String::new() })
    }
}

/// Most programs one simple command is searched for (wrappers within wrappers, `sudo`'s
/// candidate commands); past it the rule is undecided.
const MAX_INVOCATIONS: usize = 64;

impl CommandRule {
    fn matches(&self, text: &str) -> bool {
        work::add(text.len());
        self.globs.iter().any(|(head, g)| text.starts_with(head.as_str()) && g.is_match(text))
    }

    /// Whether the glob could match a command of `program` with arguments the shell alone knows.
    fn could_name(&self, program: &str) -> bool {
        self.program.as_deref().is_none_or(|p| p == program || basename(p) == program)
    }

    /// The rule's verdict on a whole command line.
    pub fn judge(&self, command: &str) -> IfMatch {
        let budget = Cell::new(command.len().saturating_mul(BUDGET_PER_BYTE).saturating_add(BUDGET_FLOOR));
        self.judge_in(command, Cx { depth: 0, explain: true, budget: &budget })
    }

    fn judge_in(&self, command: &str, cx: Cx<'_>) -> IfMatch {
        if !cx.spend(command.len()) {
            return cx.undecided(|| "more code nested in code than the rule reads".into());
        }
        work::add(command.len());
        if self.matches(command) {
            return IfMatch::Yes;
        }
        let mut verdict = IfMatch::No;
        let reading = shell::read(command, cx.depth, &mut |cmd, depth| {
            // Once undecided, only a "yes" changes the answer: later reasons are not written.
            let explain = cx.explain && verdict == IfMatch::No;
            verdict.merge(self.judge_simple(cmd, Cx { depth, explain, ..cx }));
            if verdict == IfMatch::Yes { Flow::Stop } else { Flow::Continue }
        });
        if let Reading::Undecided(why) = reading {
            verdict.merge(IfMatch::Undecided(why));
        }
        verdict
    }

    fn judge_simple(&self, cmd: &SimpleCommand<'_, '_>, cx: Cx<'_>) -> IfMatch {
        if !cmd.raw.is_empty() && self.matches(cmd.raw) {
            return IfMatch::Yes;
        }
        let mut verdict = IfMatch::No;
        for a in cmd.assignments {
            // Bash removes line continuations first: `PS\<newline>4=…` assigns `PS4`.
            let raw = match a.raw.contains("\\\n") {
                true => std::borrow::Cow::Owned(a.raw.replace("\\\n", "")),
                false => std::borrow::Cow::Borrowed(a.raw),
            };
            if let Some(why) = assignment_changes_programs(&raw) {
                verdict.merge(IfMatch::Undecided(why));
            }
        }
        if cmd.words.is_empty() {
            return verdict;
        }
        let line = Line::new(cmd.words);
        // The command word first; wrappers push the programs they run (no allocation without).
        let mut todo = Queue::default();
        let mut first = Some((0usize, false));
        let mut seen = 0;
        while let Some((at, appends)) = first.take().or_else(|| todo.pop()) {
            seen += 1;
            if seen > MAX_INVOCATIONS {
                verdict.merge(cx.undecided(|| format!("more than {MAX_INVOCATIONS} wrapped programs")));
                break;
            }
            verdict.merge(self.invocation(&line, at, appends, cx, &mut todo));
            if verdict == IfMatch::Yes {
                return verdict;
            }
        }
        if verdict == IfMatch::No && self.names_redirection && cmd.redirected {
            verdict = cx.undecided(|| "the rule names a redirection".into());
        }
        verdict
    }

    /// The program started at word `at` of `line` (`appends`: with more arguments than
    /// written); wrapped programs are pushed onto `todo`.
    fn invocation(
        &self,
        line: &Line<'_, '_>,
        at: usize,
        appends: bool,
        cx: Cx<'_>,
        todo: &mut Queue,
    ) -> IfMatch {
        let word = &line.words[at];
        let Some(name) = word.value.as_deref() else {
            return cx.undecided(|| format!("the command word {} is not literal text", shorten(word.raw)));
        };
        let base = basename(name);
        let text = line.text_from(at);
        let by_base = (base.len() < name.len()).then(|| format!("{base}{}", &text[name.len()..]));
        let texts = [Some(text), by_base.as_deref()];
        let more = |t: &str| appends && self.matches(&format!("{t} "));
        if texts.iter().flatten().any(|t| self.matches(t) || more(t)) {
            return IfMatch::Yes;
        }
        if (appends || line.unknown_after(at)) && self.could_name(base) {
            return cx.undecided(|| format!("an argument of `{base}` is known only to the shell"));
        }
        let args = &line.words[at + 1..];
        // A name with a slash is a file; builtins are found by bare name only.
        if let Some(v) = self.builtin(name, args, cx).filter(|_| !name.contains('/')) {
            return v;
        }
        if let Some(v) = self.shell(base, args, cx) {
            return v;
        }
        match wrapped(base, args) {
            Wrapped::Nothing => IfMatch::No,
            Wrapped::At(list, appends) => {
                for i in list {
                    todo.push(line.words.len(), at + 1 + i, appends);
                }
                IfMatch::No
            }
            Wrapped::Replacing(list, marker) => {
                if list.len() > MAX_INVOCATIONS {
                    return cx.undecided(|| format!("`{base}` runs more than {MAX_INVOCATIONS} programs"));
                }
                let mut v = IfMatch::No;
                for (start, end) in list {
                    let program = &args[start..end];
                    if program.iter().any(|w| w.value.as_deref().is_some_and(|s| s.contains(marker.as_str())))
                    {
                        v.merge(self.replaced(program, &marker, cx));
                    } else {
                        todo.push(line.words.len(), at + 1 + start, true);
                    }
                    if v == IfMatch::Yes {
                        break;
                    }
                }
                v
            }
            Wrapped::Code(i) => match args.get(i) {
                Some(w) => self.code(w, cx),
                None => IfMatch::No,
            },
            Wrapped::Text(code) => self.judge_in(&code, cx.deeper()),
            Wrapped::Undecided(why) => IfMatch::Undecided(why),
            Wrapped::Unknown(i) => {
                // Options this table does not know: every later word may be the program.
                let mut v = IfMatch::No;
                let mut candidates = 0;
                for (j, w) in args.iter().enumerate().skip(i) {
                    match w.value.as_deref() {
                        None => {
                            return cx.undecided(|| {
                                format!("`{base}` may run {}, known only to the shell", shorten(w.raw))
                            });
                        }
                        Some(s) if s.starts_with('-') => {}
                        Some(s) => {
                            candidates += 1;
                            if candidates > 16 {
                                return cx.undecided(|| format!("`{base}` has more than 16 operands"));
                            }
                            // A word queued once is judged once: wrappers within wrappers
                            // name the same later words (`strace strace … 'code'`).
                            // Anything but a plain word may be code the wrapper hands to a
                            // shell (`watch`, `flock -c`, `tmux new 'rm x'`): read as such.
                            if todo.push(line.words.len(), at + 1 + j, false) && !plain_word(s) {
                                v.merge(self.judge_in(s, cx.deeper()));
                            }
                        }
                    }
                }
                if candidates == 0 && matches!(base, "nsenter" | "unshare" | "firejail" | "runuser" | "sg") {
                    return cx.undecided(|| format!("`{base}` without a program starts a shell"));
                }
                v
            }
        }
    }

    /// Shell code in a word: read when its text is known.
    fn code(&self, word: &Word<'_>, cx: Cx<'_>) -> IfMatch {
        match word.value.as_deref() {
            Some(code) => self.judge_in(code, cx.deeper()),
            None => cx.undecided(|| format!("shell code {} is known only to the shell", shorten(word.raw))),
        }
    }

    /// A program whose words a wrapper rewrites before running it (`xargs -I {}`, `find -exec
    /// … {}`): each word holding `marker` is known only when it runs, the program's name too.
    fn replaced(&self, program: &[Word<'_>], marker: &str, cx: Cx<'_>) -> IfMatch {
        if cx.depth >= shell::MAX_NESTING {
            return cx.undecided(|| format!("nested more than {} levels deep", shell::MAX_NESTING));
        }
        let len = program.iter().map(|w| w.raw.len()).sum();
        if !cx.spend(len) {
            return cx.undecided(|| "more code nested in code than the rule reads".into());
        }
        work::add(len);
        let words: Vec<Word<'_>> = program
            .iter()
            .map(|w| Word { raw: w.raw, value: w.value.clone().filter(|v| !v.contains(marker)) })
            .collect();
        let cmd = SimpleCommand { assignments: &[], words: &words, redirected: false, raw: "" };
        self.judge_simple(&cmd, cx.deeper())
    }

    /// A shell's own commands; `None` when `name` is not a bash builtin or is a wrapper one.
    fn builtin(&self, name: &str, args: &[Word<'_>], cx: Cx<'_>) -> Option<IfMatch> {
        let values = || args.iter().map(|w| w.value.as_deref());
        match name {
            "eval" => Some(match values().collect::<Option<Vec<_>>>() {
                // `eval -- CODE`: bash's option end is not part of the code.
                Some(parts) => {
                    let code = if parts.first() == Some(&"--") { &parts[1..] } else { &parts[..] };
                    // Not joined when it could not be read: `eval eval …` stays linear.
                    let len = code.iter().map(|p| p.len() + 1).sum::<usize>();
                    if cx.budget.get() < len {
                        return Some(cx.undecided(|| "more code nested in code than the rule reads".into()));
                    }
                    self.judge_in(&code.join(" "), cx.deeper())
                }
                None => cx.undecided(|| "`eval` of text known only to the shell".into()),
            }),
            "source" | "." | "trap" | "alias" | "bind" | "complete" | "compgen" | "enable" | "fc"
            | "hash" | "let" | "mapfile" | "readarray" | "shopt" => {
                Some(cx.undecided(|| format!("`{name}` runs or changes code the rule cannot read")))
            }
            "set" => Some(set_options(args)),
            "declare" | "typeset" | "local" | "export" | "readonly" | "unset" | "read" | "printf"
            | "getopts" | "wait" => {
                // Their variable names may carry an array subscript, which bash evaluates as
                // arithmetic (running any `$(…)` in it, or in the value of a variable it
                // names), and `-i` makes every later assignment arithmetic: only plain names
                // and values without `[` are read.
                // `-n` makes a name a reference, so that a later plain assignment sets whatever
                // variable it names (`declare -n r=PS4; r='$(rm x)'`). Variables that run code
                // (`PS4`, `BASH_CMDS`, `RANDOM`) are as dangerous set by `read`, `printf -v`
                // or `getopts` as by an assignment.
                let declares = matches!(name, "declare" | "typeset" | "local" | "export" | "readonly");
                // Once, not per word: `printf [ [ [ …` stays linear.
                let subscripts = name != "printf"
                    || args.iter().any(|w| w.value.as_deref().is_some_and(|v| v.starts_with("-v")));
                let sets = subscripts && name != "unset";
                for v in values() {
                    let Some(v) = v else { continue };
                    if v.contains('[') && subscripts {
                        return Some(cx.undecided(|| format!("`{name}` with an array subscript")));
                    }
                    if declares && v.starts_with(['-', '+']) && v.contains(['i', 'n']) {
                        return Some(cx.undecided(|| {
                            format!("`{name} {v}` makes assignments arithmetic or names references")
                        }));
                    }
                    if let Some(why) = assignment_changes_programs(v).filter(|_| sets) {
                        return Some(IfMatch::Undecided(why));
                    }
                }
                Some(IfMatch::No)
            }
            // `-v NAME` evaluates NAME's subscript; other tests compare text and numbers.
            "test" | "[" if has_option(args, 'v') || has_option(args, 'R') => {
                Some(cx.undecided(|| format!("`{name} -v` evaluates a subscript")))
            }
            "test" | "[" => Some(IfMatch::No),
            "echo" | "cd" | "pwd" | "true" | "false" | ":" | "exit" | "return" | "shift" | "type"
            | "umask" | "ulimit" | "kill" | "pushd" | "popd" | "dirs" | "break" | "continue" | "times"
            | "help" | "logout" | "disown" | "suspend" | "fg" | "bg" | "history" | "unalias" | "caller"
            | "compopt" => Some(IfMatch::No),
            _ => None,
        }
    }

    /// `bash -c CODE` and its kin; `None` when `base` is not a shell.
    fn shell(&self, base: &str, args: &[Word<'_>], cx: Cx<'_>) -> Option<IfMatch> {
        const BASH_GRAMMAR: &[&str] = &["bash", "sh", "dash", "ash", "rbash"];
        const OTHER_SHELLS: &[&str] = &[
            "zsh",
            "ksh",
            "ksh93",
            "mksh",
            "oksh",
            "yash",
            "fish",
            "csh",
            "tcsh",
            "pwsh",
            "powershell",
            "nu",
            "elvish",
            "xonsh",
            "osh",
            "ysh",
        ];
        if OTHER_SHELLS.contains(&base) {
            return Some(cx.undecided(|| format!("`{base}` reads a language the rule does not")));
        }
        if !BASH_GRAMMAR.contains(&base) {
            return None;
        }
        let mut code = false;
        let mut i = 0;
        while i < args.len() {
            let Some(a) = args[i].value.as_deref() else {
                return Some(cx.undecided(|| format!("`{base}` with an option known only to the shell")));
            };
            i += 1;
            match a {
                "--" => break,
                "--rcfile" | "--init-file" => i += 1,
                _ if a.starts_with("--") => {}
                _ if (a.starts_with('-') || a.starts_with('+')) && a.len() > 1 => {
                    for c in a[1..].chars() {
                        match c {
                            'c' => code = true,
                            // `-o keyword` and `-k` make `NAME=value` anywhere an assignment,
                            // `-O expand_aliases` runs aliases: the code would be misread.
                            'o' => match args.get(i).and_then(|w| w.value.as_deref()) {
                                Some(o) if SAFE_LONG_OPTIONS.contains(&o) => i += 1,
                                _ => {
                                    return Some(cx.undecided(|| {
                                        format!("`{base} -o` with an option that may change how it reads")
                                    }));
                                }
                            },
                            'O' | 'k' => {
                                return Some(
                                    cx.undecided(|| format!("`{base} -{c}` changes how it reads code")),
                                );
                            }
                            's' | 'i' => {
                                return Some(
                                    cx.undecided(|| format!("`{base} -{c}` reads commands from its input")),
                                );
                            }
                            _ => {}
                        }
                    }
                }
                _ => {
                    i -= 1;
                    break;
                }
            }
        }
        Some(match (code, args.get(i)) {
            (true, Some(w)) => self.code(w, cx),
            (true, None) => IfMatch::No,
            (false, Some(_)) => cx.undecided(|| format!("`{base}` runs a script the rule cannot read")),
            (false, None) => cx.undecided(|| format!("`{base}` reads commands from its input")),
        })
    }
}

/// Whether an argument is the option `-c` alone (`-v`, `-R`).
fn has_option(args: &[Word<'_>], c: char) -> bool {
    args.iter()
        .any(|w| w.value.as_deref().is_some_and(|v| v.len() == 2 && v.starts_with('-') && v.ends_with(c)))
}

/// `set -o` options that change nothing about which programs run. Not `keyword` (`set -k`):
/// with it, `NAME=value` words anywhere are assignments, so `nice A=1 rm x` runs `rm`.
const SAFE_LONG_OPTIONS: &[&str] = &[
    "errexit",
    "nounset",
    "pipefail",
    "xtrace",
    "verbose",
    "noglob",
    "noclobber",
    "allexport",
    "notify",
    "hashall",
    "braceexpand",
    "physical",
    "errtrace",
    "functrace",
    "ignoreeof",
    "monitor",
    "emacs",
    "vi",
    "noexec",
    "onecmd",
    "posix",
    "privileged",
    "nolog",
];

/// `set`'s options that change nothing about which programs run.
fn set_options(args: &[Word<'_>]) -> IfMatch {
    let mut i = 0;
    while i < args.len() {
        let Some(a) = args[i].value.as_deref() else {
            return IfMatch::Undecided("`set` with an option known only to the shell".into());
        };
        i += 1;
        match a {
            "--" | "-" => return IfMatch::No,
            _ if a.len() > 1 && (a.starts_with('-') || a.starts_with('+')) => {
                for c in a[1..].chars() {
                    match c {
                        // `-euo pipefail`: the option's name is the next word.
                        'o' => match args.get(i).and_then(|w| w.value.as_deref()) {
                            Some(o) if SAFE_LONG_OPTIONS.contains(&o) => i += 1,
                            None if i == args.len() => {}
                            _ => {
                                return IfMatch::Undecided(
                                    "`set -o` with an option the rule does not know".into(),
                                );
                            }
                        },
                        c if "euxvfCabhmnBPTE".contains(c) => {}
                        _ => {
                            return IfMatch::Undecided(format!(
                                "`set {a}` changes how the shell reads what follows"
                            ));
                        }
                    }
                }
            }
            _ => return IfMatch::No,
        }
    }
    IfMatch::No
}

/// Variables that run code or name programs, whatever their value.
const CODE_VARIABLES: &[&str] = &[
    "BASH_ENV",
    "ENV",
    "PS4",
    "PS0",
    "PS1",
    "PS2",
    "PS3",
    "PROMPT_COMMAND",
    "SHELLOPTS",
    "BASHOPTS",
    "BASH_CMDS",
    "BASH_ALIASES",
    "BASH_COMPAT",
];

/// Variables whose value bash (or a bash it starts) runs or reads as code, or which name the
/// programs that commands run: `NAME=value`, `NAME+=value`, or a `NAME` that `read` sets.
/// `BASH_CMDS=/bin/rm` makes the command `0` run `rm`; `RANDOM`, `SRANDOM`, `HISTCMD` and
/// `OPTIND` evaluate what they are given as arithmetic, running the `$(…)` of a subscript
/// (`RANDOM='a[$(rm x)]'`), so for them only a number is harmless.
fn assignment_changes_programs(word: &str) -> Option<String> {
    let name = word.split(['=', '+']).next().unwrap_or(word);
    let value = word.split_once('=').map(|(_, v)| v);
    let arithmetic = matches!(name, "RANDOM" | "SRANDOM" | "HISTCMD" | "OPTIND")
        && !value.is_some_and(|v| !v.is_empty() && v.bytes().all(|c| c.is_ascii_digit()));
    // `printf -vPS4 …`, `read -aPS4`: an option with the name attached.
    let attached = word.starts_with('-') && CODE_VARIABLES.iter().any(|v| word.ends_with(v));
    let runs_code =
        arithmetic || attached || CODE_VARIABLES.contains(&name) || name.starts_with("BASH_FUNC_");
    runs_code.then(|| format!("assigning `{name}` makes bash run code the rule cannot read"))
}

/// The words of a simple command joined by single spaces, with where each starts.
struct Line<'s, 'w> {
    words: &'w [Word<'s>],
    text: String,
    starts: Vec<usize>,
    /// Index of the last word only the shell can read, if any.
    last_unknown: Option<usize>,
}

impl<'s, 'w> Line<'s, 'w> {
    fn new(words: &'w [Word<'s>]) -> Self {
        work::add(words.iter().map(|w| w.raw.len()).sum());
        let len = words.iter().map(|w| w.value.as_deref().unwrap_or(w.raw).len() + 1).sum();
        let mut text = String::with_capacity(len);
        let mut starts = Vec::with_capacity(words.len());
        let mut last_unknown = None;
        for (i, w) in words.iter().enumerate() {
            if i > 0 {
                text.push(' ');
            }
            starts.push(text.len());
            match w.value.as_deref() {
                Some(v) => text.push_str(v),
                None => {
                    // As written: a rule written against the text still matches it.
                    text.push_str(w.raw);
                    last_unknown = Some(i);
                }
            }
        }
        Line { words, text, starts, last_unknown }
    }

    /// The command from word `at` on, as one text.
    fn text_from(&self, at: usize) -> &str {
        &self.text[self.starts[at]..]
    }

    fn unknown_after(&self, at: usize) -> bool {
        self.last_unknown.is_some_and(|u| u > at)
    }
}

fn basename(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

fn shorten(raw: &str) -> String {
    let short: String = raw.chars().take(40).collect();
    format!("{short:?}")
}

/// Where a wrapper's program is among its arguments.
#[derive(Debug, PartialEq)]
enum Wrapped {
    /// Not a wrapper, or one given no program.
    Nothing,
    /// The program starts at these argument indexes; `true` when the wrapper adds arguments
    /// of its own after the ones written (`xargs`).
    At(Vec<usize>, bool),
    /// Programs at these ranges of arguments, in whose words the wrapper replaces this text
    /// (`xargs -I {}`, `find -exec … {} ;`).
    Replacing(Vec<(usize, usize)>, String),
    /// The wrapper runs this command line, written for bash to read (`env -S 'rm x'`).
    Text(String),
    /// This argument is shell code.
    Code(usize),
    /// An option the table does not know, at this index: any later word may be the program.
    Unknown(usize),
    /// The wrapper itself makes bash run code the rule cannot read.
    Undecided(String),
}

/// How a wrapper program's arguments are laid out.
struct Wrapper {
    names: &'static [&'static str],
    /// Short options that take an argument (in the next word, or the rest of the cluster).
    short_arg: &'static str,
    short_flags: &'static str,
    /// Long options that take the next word as their argument when written without `=`.
    long_arg: &'static [&'static str],
    /// Long options that take no argument.
    long_flags: &'static [&'static str],
    /// Given no program, it starts a shell reading its input (`su`, `sudo -s`).
    starts_shell: bool,
    /// `NAME=value` words before the program (`env`, `sudo`).
    assignments: bool,
    /// Words before the program (`timeout`'s duration, `chroot`'s directory).
    operands: usize,
    /// `-10` is a flag (`nice`).
    numeric_flags: bool,
}

const W: Wrapper = Wrapper {
    names: &[],
    short_arg: "",
    short_flags: "",
    long_arg: &[],
    long_flags: &[],
    starts_shell: false,
    assignments: false,
    operands: 0,
    numeric_flags: false,
};

/// Programs that run the program named by their arguments, and how to find it. A program
/// not listed here is not looked through: `git`, `make`, `python -c` and the like run what
/// their own files or languages say, which no rule over the command line can see.
const WRAPPERS: &[Wrapper] = &[
    Wrapper {
        names: &["env"],
        short_arg: "uCP",
        short_flags: "i0v",
        long_arg: &["unset", "chdir", "split-string"],
        long_flags: &["ignore-environment", "null", "debug"],
        assignments: true,
        ..W
    },
    Wrapper { names: &["command"], short_flags: "pvV", ..W },
    Wrapper {
        names: &[
            "builtin",
            "nohup",
            "unbuffer",
            "catchsegv",
            "torsocks",
            "torify",
            "dbus-run-session",
            "fakeroot",
            "eatmydata",
            "nocache",
        ],
        ..W
    },
    Wrapper { names: &["exec"], short_arg: "a", short_flags: "cl", ..W },
    Wrapper { names: &["nice"], short_arg: "n", long_arg: &["adjustment"], numeric_flags: true, ..W },
    Wrapper {
        names: &["timeout"],
        short_arg: "sk",
        short_flags: "v",
        long_arg: &["signal", "kill-after"],
        long_flags: &["preserve-status", "foreground", "verbose"],
        operands: 1,
        ..W
    },
    Wrapper { names: &["stdbuf"], short_arg: "ioe", long_arg: &["input", "output", "error"], ..W },
    Wrapper {
        names: &["sudo"],
        short_arg: "ugCDhprtTUR",
        short_flags: "AbEHiknPsSvlK",
        long_arg: &[
            "user",
            "group",
            "close-from",
            "chdir",
            "host",
            "prompt",
            "role",
            "type",
            "command-timeout",
            "other-user",
            "chroot",
        ],
        long_flags: &[
            "askpass",
            "background",
            "bell",
            "preserve-env",
            "edit",
            "set-home",
            "login",
            "remove-timestamp",
            "reset-timestamp",
            "list",
            "non-interactive",
            "preserve-groups",
            "shell",
            "stdin",
            "validate",
        ],
        assignments: true,
        starts_shell: true,
        ..W
    },
    Wrapper { names: &["doas"], short_arg: "uC", short_flags: "nsL", starts_shell: true, ..W },
    Wrapper {
        names: &["pkexec"],
        long_arg: &["user"],
        long_flags: &["keep-cwd", "disable-internal-agent"],
        starts_shell: true,
        ..W
    },
    Wrapper {
        names: &["time"],
        short_arg: "fo",
        short_flags: "pvaq",
        long_arg: &["format", "output"],
        long_flags: &["portability", "verbose", "append", "quiet"],
        ..W
    },
    Wrapper {
        names: &["xargs"],
        short_arg: "adEILnPs",
        short_flags: "0rtpxo",
        long_arg: &[
            "arg-file",
            "delimiter",
            "max-args",
            "max-procs",
            "max-chars",
            "max-lines",
            "replace",
            "process-slot-var",
        ],
        long_flags: &["null", "no-run-if-empty", "verbose", "interactive", "exit", "open-tty", "show-limits"],
        ..W
    },
    Wrapper { names: &["setsid"], short_flags: "cfw", ..W },
    Wrapper { names: &["ionice"], short_arg: "cn", short_flags: "t", ..W },
    Wrapper { names: &["taskset"], short_flags: "ac", operands: 1, ..W },
    Wrapper {
        names: &["chroot"],
        long_arg: &["userspec", "groups"],
        long_flags: &["skip-chdir"],
        operands: 1,
        starts_shell: true,
        ..W
    },
    Wrapper { names: &["caffeinate"], short_arg: "tw", short_flags: "dimsu", ..W },
];

/// Wrappers whose options are not listed: every later word that is not an option may be the
/// program (and is read as code when it holds blanks or operators).
const GENERIC_WRAPPERS: &[&str] = &[
    "prlimit",
    "numactl",
    "cpulimit",
    "firejail",
    "bwrap",
    "nsenter",
    "unshare",
    "strace",
    "ltrace",
    "valgrind",
    "systemd-run",
    "xvfb-run",
    "proxychains",
    "proxychains4",
    "flock",
    "setpriv",
    "chrt",
    "gdb",
    "setarch",
    "linux32",
    "linux64",
    "cgexec",
    "faketime",
    "rlwrap",
    "entr",
    "watchexec",
    "chronic",
    "ifne",
    "tmux",
    "screen",
    "dtach",
    "cross-env",
    "env-cmd",
    "dotenv",
    "npx",
    "uvx",
    "pnpx",
    "bunx",
    "nix-shell",
];

/// Programs that run the program named after a subcommand: `uv run rm …`.
const SUBCOMMAND_WRAPPERS: &[(&str, &[&str])] = &[
    ("uv", &["run", "tool"]),
    ("poetry", &["run"]),
    ("pipenv", &["run"]),
    ("pdm", &["run"]),
    ("hatch", &["run"]),
    ("rye", &["run"]),
    ("pixi", &["run", "exec"]),
    ("conda", &["run"]),
    ("mamba", &["run"]),
    ("micromamba", &["run"]),
    ("bundle", &["exec"]),
    ("npm", &["exec", "x"]),
    ("pnpm", &["exec", "dlx"]),
    ("yarn", &["exec", "dlx"]),
    ("bun", &["x", "run"]),
    ("mise", &["exec", "x"]),
    ("asdf", &["exec"]),
    ("direnv", &["exec"]),
    ("devbox", &["run"]),
    ("nix", &["develop", "shell", "run"]),
];

fn wrapped(base: &str, args: &[Word<'_>]) -> Wrapped {
    match base {
        "find" => return find_exec(args),
        // `busybox rm …` runs its applet; `watch` joins its words for `sh -c`.
        "busybox" | "toybox" if args.is_empty() => return Wrapped::Nothing,
        "busybox" | "toybox" => return Wrapped::At(vec![0], false),
        "watch" => return Wrapped::Unknown(0),
        "jobs" => return jobs_exec(args),
        // Their commands come from their input or files, or from `{}` filled in from them.
        "parallel" | "sem" | "at" | "batch" => {
            return Wrapped::Undecided(format!("`{base}` runs commands the rule cannot read"));
        }
        "su" | "runuser" | "sg" | "script" => return shell_option(base, args),
        _ if GENERIC_WRAPPERS.contains(&base) => return Wrapped::Unknown(0),
        _ => {}
    }
    if let Some((_, subs)) = SUBCOMMAND_WRAPPERS.iter().find(|(n, _)| *n == base) {
        for (i, a) in args.iter().enumerate() {
            match a.value.as_deref() {
                None => return Wrapped::Unknown(i),
                Some(v) if subs.contains(&v) => return Wrapped::Unknown(i + 1),
                Some(_) => {}
            }
        }
        return Wrapped::Nothing;
    }
    let Some(w) = WRAPPERS.iter().find(|w| w.names.contains(&base)) else { return Wrapped::Nothing };
    // `xargs -I R`, `-i[R]`, `--replace[=R]`: R in the words is replaced by input.
    let mut marker: Option<String> = None;
    // Options first, up to `--` or the first word that is not one.
    let mut i = 0;
    while i < args.len() {
        let Some(a) = args[i].value.as_deref() else { return Wrapped::Unknown(i) };
        if a == "--" {
            i += 1;
            break;
        }
        if let Some(long) = a.strip_prefix("--") {
            let name = long.split('=').next().unwrap_or(long);
            if base == "env" && name == "split-string" {
                return match long.split_once('=') {
                    Some((_, text)) => env_split_string(Some(text), &args[i + 1..]),
                    None => env_split_string(
                        args.get(i + 1).map(|w| w.value.as_deref()).unwrap_or(Some("")),
                        args.get(i + 2..).unwrap_or(&[]),
                    ),
                };
            }
            if base == "xargs" && name == "replace" {
                marker = Some(long.split_once('=').map_or("{}", |(_, r)| r).to_string());
                i += 1;
                continue;
            }
            if w.long_arg.contains(&name) && !long.contains('=') {
                i += 2;
            } else if long.contains('=') || w.long_flags.contains(&name) {
                i += 1;
            } else {
                // An option the table does not know may take the next word as its argument.
                return Wrapped::Unknown(i);
            }
            continue;
        }
        if a.len() > 1 && a.starts_with('-') {
            if w.numeric_flags && a[1..].bytes().all(|c| c.is_ascii_digit()) {
                i += 1;
                continue;
            }
            let mut takes_next = false;
            for (k, c) in a[1..].char_indices() {
                let rest = &a[k + 2..];
                match (base, c) {
                    // `env -S TEXT`, `-STEXT`, `-vSTEXT`: env splits TEXT into words itself.
                    ("env", 'S') if rest.is_empty() => {
                        return env_split_string(
                            args.get(i + 1).map(|w| w.value.as_deref()).unwrap_or(Some("")),
                            args.get(i + 2..).unwrap_or(&[]),
                        );
                    }
                    ("env", 'S') => return env_split_string(Some(rest), &args[i + 1..]),
                    ("xargs", 'i') => {
                        marker = Some(if rest.is_empty() { "{}" } else { rest }.to_string());
                        break;
                    }
                    ("xargs", 'I') if rest.is_empty() => match args.get(i + 1).map(|w| w.value.as_deref()) {
                        Some(Some(r)) => {
                            marker = Some(r.to_string());
                            takes_next = true;
                            break;
                        }
                        _ => return Wrapped::Unknown(i),
                    },
                    ("xargs", 'I') => {
                        marker = Some(rest.to_string());
                        break;
                    }
                    _ => {}
                }
                if w.short_arg.contains(c) {
                    takes_next = k + 2 == a.len();
                    break;
                }
                if !w.short_flags.contains(c) {
                    return Wrapped::Unknown(i);
                }
            }
            i += if takes_next { 2 } else { 1 };
            continue;
        }
        break;
    }
    // `env - PROGRAM`: a lone `-` is `-i`.
    if base == "env" && args.get(i).and_then(|w| w.value.as_deref()) == Some("-") {
        i += 1;
    }
    // Then `NAME=value` words (`env -- A=1 git`), then operands (`timeout`'s duration).
    while w.assignments && i < args.len() {
        let Some(a) = args[i].value.as_deref() else { return Wrapped::Unknown(i) };
        if !env_assignment(a) {
            break;
        }
        if let Some(why) = assignment_changes_programs(a) {
            return Wrapped::Undecided(why);
        }
        i += 1;
    }
    i += w.operands;
    match i < args.len() {
        true => match marker {
            Some(m) if !m.is_empty() => Wrapped::Replacing(vec![(i, args.len())], m),
            _ => Wrapped::At(vec![i], base == "xargs"),
        },
        false if w.starts_shell => {
            Wrapped::Undecided(format!("`{base}` without a program may start a shell"))
        }
        false => Wrapped::Nothing,
    }
}

/// `NAME=value` as `env` and `sudo` read it: any name, even one bash would not accept
/// (`BASH_FUNC_ls%%` is how bash exports a function).
fn env_assignment(a: &str) -> bool {
    a.split_once('=').is_some_and(|(name, _)| !name.is_empty())
}

/// `su -c CODE`, `runuser -c`, `sg GROUP -c`, `script -c`, the option anywhere among the
/// arguments (`su - root -c CODE`). Without it `su` and `script` start a shell reading their
/// input, and `runuser` and `sg` may run the words that follow.
fn shell_option(base: &str, args: &[Word<'_>]) -> Wrapped {
    for (i, a) in args.iter().enumerate() {
        let Some(a) = a.value.as_deref() else { return Wrapped::Unknown(i) };
        // `su -s PROGRAM -c x` runs PROGRAM with `-c x`.
        let shell =
            a == "-s" || a == "--shell" || a.starts_with("--shell=") || (a.starts_with("-s") && a.len() > 2);
        if shell && matches!(base, "su" | "runuser") {
            return Wrapped::Undecided(format!("`{base} {a}` chooses the program that runs"));
        }
        let cluster_ends_in_c = a.len() > 2 && !a.starts_with("--") && a.starts_with('-') && a.ends_with('c');
        if a == "-c" || a == "--command" || a == "--session-command" || cluster_ends_in_c {
            return Wrapped::Code(i + 1);
        }
        if a.starts_with("--command=")
            || a.starts_with("--session-command=")
            || (a.starts_with("-c") && a.len() > 2)
        {
            return Wrapped::Unknown(i);
        }
    }
    match base {
        "runuser" | "sg" => Wrapped::Unknown(0),
        _ => Wrapped::Undecided(format!("`{base}` without -c starts a shell reading its input")),
    }
}

/// `find … -exec PROGRAM … ;` (and `-execdir`, `-ok`, `-okdir`): each program, whose words
/// (its name too) have `{}` replaced by each file found. A word only the shell knows may be
/// `-exec` itself (then the next word is a program), or, unquoted, split into `-exec rm {} ;`.
fn find_exec(args: &[Word<'_>]) -> Wrapped {
    let mut at = Vec::new();
    for (i, a) in args.iter().enumerate() {
        match a.value.as_deref() {
            Some("-exec" | "-execdir" | "-ok" | "-okdir") if i + 1 < args.len() => at.push(i + 1),
            Some(_) => {}
            None if one_word(a.raw) => {
                if i + 1 < args.len() {
                    at.push(i + 1);
                }
            }
            None => {
                return Wrapped::Undecided(format!(
                    "`find` with {}, which may expand to `-exec` and a program",
                    shorten(a.raw)
                ));
            }
        }
    }
    // Each program's words end at its `;`, or at the `+` after its `{}`.
    let mut ranges = Vec::with_capacity(at.len());
    for start in at {
        let end = (start..args.len())
            .find(|&j| match args[j].value.as_deref() {
                Some(";") => true,
                Some("+") => j > start && args[j - 1].value.as_deref() == Some("{}"),
                _ => false,
            })
            .unwrap_or(args.len());
        ranges.push((start, end.max(start + 1).min(args.len())));
        if ranges.len() > MAX_INVOCATIONS {
            break;
        }
    }
    if ranges.is_empty() { Wrapped::Nothing } else { Wrapped::Replacing(ranges, "{}".into()) }
}

/// Whether an expansion stays one word: all of it inside double quotes, or `~` or `~/path`
/// (no splitting, no glob).
fn one_word(raw: &str) -> bool {
    let quoted = raw.len() >= 2
        && raw.starts_with('"')
        && raw.ends_with('"')
        && !raw[1..raw.len() - 1].replace("\\\\", "").replace("\\\"", "").contains('"');
    let tilde = raw.starts_with('~') && !raw.contains(['$', '`', '*', '?', '[', '{', '\'', '"', '\\']);
    quoted || tilde
}

/// `jobs -x PROGRAM …`: bash runs PROGRAM (with job specs replaced by process ids).
fn jobs_exec(args: &[Word<'_>]) -> Wrapped {
    let mut exec = false;
    for (i, a) in args.iter().enumerate() {
        let Some(a) = a.value.as_deref() else { return Wrapped::Unknown(i) };
        if a == "--" {
            return if exec && i + 1 < args.len() {
                Wrapped::At(vec![i + 1], false)
            } else {
                Wrapped::Nothing
            };
        }
        if a.len() > 1 && a.starts_with('-') && a[1..].chars().all(|c| "lpnxrs".contains(c)) {
            exec |= a.contains('x');
            continue;
        }
        return if exec { Wrapped::At(vec![i], false) } else { Wrapped::Nothing };
    }
    Wrapped::Nothing
}

/// `env -S TEXT REST…`: env splits TEXT into words with a quoting of its own (`\_`, `${X}`,
/// quotes); TEXT without any of those splits at blanks as bash would, so `env TEXT REST` is
/// read as a command line. REST is as written, read again.
fn env_split_string(text: Option<&str>, rest: &[Word<'_>]) -> Wrapped {
    let Some(text) = text else {
        return Wrapped::Undecided("`env -S` with text known only to the shell".into());
    };
    if text.contains(['\\', '$', '\'', '"', '#']) {
        return Wrapped::Undecided("`env -S` text with quotes, escapes or variables of its own".into());
    }
    let mut line = format!("env {text}");
    for w in rest {
        line.push(' ');
        line.push_str(w.raw);
    }
    Wrapped::Text(line)
}

/// A word no shell would read as anything but itself.
fn plain_word(s: &str) -> bool {
    s.bytes().all(|c| c.is_ascii_alphanumeric() || b"-_./=:,+@%^".contains(&c))
}

/// The words a simple command's wrappers say start programs, each queued once.
#[derive(Default)]
struct Queue {
    todo: Vec<(usize, bool)>,
    queued: Vec<bool>,
}

impl Queue {
    /// Queues word `at` of `len`; whether it was not queued before.
    fn push(&mut self, len: usize, at: usize, appends: bool) -> bool {
        if self.queued.len() < len {
            self.queued.resize(len, false);
        }
        if at >= len || std::mem::replace(&mut self.queued[at], true) {
            return false;
        }
        self.todo.push((at, appends));
        true
    }

    fn pop(&mut self) -> Option<(usize, bool)> {
        self.todo.pop()
    }
}

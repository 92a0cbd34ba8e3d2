//! Reading a model-written command line as bash reads it, as far as a guard needs: the simple
//! commands it holds, each word after quote removal.
//!
//! The reader understands a small part of bash completely and nothing else: simple commands of
//! words (plain, quoted, escaped, with `$name` expansions, `$(…)`, backticks, process
//! substitutions and here-documents whose bodies it reads), joined by `;`, `&&`, `||`, `|`,
//! `|&`, `&` and newlines, with redirections in any position, `!` and `time` before a pipeline,
//! and comments. Whatever else it meets (a reserved word, a subshell, a function, arithmetic,
//! `${…}` with an operator, an array, a control byte, a line continuation inside an operator)
//! makes it stop with the reason: the caller must then run the guarded hook. Blanks are what
//! bash says they are: space and tab; a newline ends a command.
//!
//! The text is written by the model (a prompt injection controls it), so the reader is one
//! pass over the bytes with a cursor; nesting (`$(`, backticks, `<(`, and the code of
//! `bash -c` read by the caller) is bounded by [`MAX_NESTING`], each level reading its own
//! bytes once (a backtick body is copied once per level), so the work is at most
//! (depth + 1) × the command's length.

use std::borrow::Cow;

/// Deepest nesting of `$(…)`, backticks, process substitutions and shell code read through
/// `bash -c` or `eval` that a command may have and still be read.
pub const MAX_NESTING: usize = 32;

/// One word of a simple command.
#[derive(Debug)]
pub struct Word<'s> {
    /// The word as written.
    pub raw: &'s str,
    /// The word after quote removal; `None` when only the shell knows it: an expansion
    /// (`$x`, `$(…)`, a glob, a brace expansion, `~`) or a quoting this reader does not decode
    /// (`$'…'`, `$"…"`).
    pub value: Option<Cow<'s, str>>,
}

/// One simple command, as the reader hands it over.
#[derive(Debug)]
pub struct SimpleCommand<'s, 'w> {
    /// `NAME=value` words before the command word.
    pub assignments: &'w [Word<'s>],
    /// The command word and its arguments (redirections removed).
    pub words: &'w [Word<'s>],
    /// Whether it has a redirection.
    pub redirected: bool,
    /// From its first word or redirection after the assignments to its end, as written.
    pub raw: &'s str,
}

/// What the visitor wants after a command.
#[derive(Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Stop,
}

/// How a reading ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Reading {
    /// Every command was read and visited.
    Read,
    /// The visitor stopped it.
    Stopped,
    /// The text holds something the reader does not understand completely.
    Undecided(String),
}

/// The visitor: each simple command, with the nesting depth it was read at.
pub type Visit<'v> = dyn FnMut(&SimpleCommand<'_, '_>, usize) -> Flow + 'v;

/// Reads `text` at nesting `depth`, handing each simple command to `visit` as soon as it is read.
pub fn read(text: &str, depth: usize, visit: &mut Visit<'_>) -> Reading {
    if depth > MAX_NESTING {
        return Reading::Undecided(format!("nested more than {MAX_NESTING} levels deep"));
    }
    // Bash keeps its own quoting marks in these bytes (CTLESC, CTLNUL); NUL cannot reach it.
    if let Some(i) = memchr::memchr3(0, 1, 0x7f, text.as_bytes()) {
        return Reading::Undecided(format!("byte 0x{:02x} at {i}", text.as_bytes()[i]));
    }
    let mut r = Reader { src: text, b: text.as_bytes(), pos: 0, depth, heredocs: Vec::new(), visit };
    match r.list(End::Eof) {
        Ok(()) => Reading::Read,
        Err(Stop::Visited) => Reading::Stopped,
        Err(Stop::Undecided(why)) => Reading::Undecided(why),
    }
}

enum Stop {
    Visited,
    Undecided(String),
}

type Step<T> = Result<T, Stop>;

fn undecided<T>(why: impl Into<String>) -> Step<T> {
    Err(Stop::Undecided(why.into()))
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum End {
    Eof,
    Paren,
}

/// A here-document whose body starts after the next newline.
struct Heredoc {
    delimiter: String,
    /// A quoted delimiter leaves the body literal; otherwise it is expanded like `"…"`.
    quoted: bool,
    strip_tabs: bool,
    depth: usize,
}

/// The reserved words bash recognises in a command word's place. `!` and `time` are read
/// (they only prefix a pipeline); the others open grammar this reader does not follow.
const RESERVED: &[&str] = &[
    "!", "time", "if", "then", "elif", "else", "fi", "case", "esac", "for", "select", "while", "until", "do",
    "done", "in", "function", "coproc", "{", "}", "[[", "]]",
];

struct Reader<'s, 'v> {
    src: &'s str,
    b: &'s [u8],
    pos: usize,
    depth: usize,
    heredocs: Vec<Heredoc>,
    visit: &'v mut Visit<'v>,
}

/// A word being read: its value is the raw text until the first quote or escape, then a copy.
struct Builder {
    start: usize,
    copy: Option<Vec<u8>>,
    literal: bool,
    bracket: bool,
    brace: bool,
    brace_list: bool,
}

impl Builder {
    fn new(start: usize) -> Builder {
        Builder { start, copy: None, literal: true, bracket: false, brace: false, brace_list: false }
    }

    /// Starts the copy at `at`: what follows is no longer the raw text.
    fn edit(&mut self, b: &[u8], at: usize) {
        if self.copy.is_none() {
            self.copy = Some(b[self.start..at].to_vec());
        }
    }

    fn push(&mut self, bytes: &[u8]) {
        if let Some(c) = self.copy.as_mut() {
            c.extend_from_slice(bytes);
        }
    }
}

impl<'s, 'v> Reader<'s, 'v> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.pos).copied()
    }

    fn at(&self, k: usize) -> Option<u8> {
        self.b.get(self.pos + k).copied()
    }

    fn continuation_at(&self, k: usize) -> bool {
        self.at(k) == Some(b'\\') && self.at(k + 1) == Some(b'\n')
    }

    /// Spaces, tabs and line continuations.
    fn skip_blanks(&mut self) {
        loop {
            match self.peek() {
                Some(b' ' | b'\t') => self.pos += 1,
                Some(b'\\') if self.at(1) == Some(b'\n') => self.pos += 2,
                _ => return,
            }
        }
    }

    fn skip_comment(&mut self) {
        self.pos = memchr::memchr(b'\n', &self.b[self.pos..]).map_or(self.b.len(), |i| self.pos + i);
    }

    /// A list of pipelines up to the end of the text, or up to the `)` closing a `$(` or `<(`.
    fn list(&mut self, end: End) -> Step<()> {
        loop {
            self.skip_blanks();
            match self.peek() {
                None if end == End::Eof => return self.no_heredoc_left(),
                None => return undecided("a `$(`, `<(` or `>(` does not close"),
                Some(b')') if end == End::Paren => {
                    self.pos += 1;
                    return self.no_heredoc_left();
                }
                Some(b')') => return undecided("a `)` closes nothing"),
                Some(b'\n') => self.newline()?,
                Some(b'#') => self.skip_comment(),
                Some(b';' | b'|') => return undecided("an operator with no command before it"),
                Some(b'&') if self.at(1) != Some(b'>') => {
                    return undecided("an operator with no command before it");
                }
                Some(_) => {
                    self.simple_command()?;
                    self.separator()?;
                }
            }
        }
    }

    fn no_heredoc_left(&self) -> Step<()> {
        // Those opened at this level come last (a deeper level's were checked when it closed):
        // looking at the last alone keeps a line of many `<<E` and many `$(…)` linear.
        match self.heredocs.last().is_some_and(|h| h.depth == self.depth) {
            true => undecided("a here-document has no body"),
            false => Ok(()),
        }
    }

    fn newline(&mut self) -> Step<()> {
        self.pos += 1;
        self.heredoc_bodies()
    }

    /// What follows a simple command: an operator, or the end of a line or of the list.
    fn separator(&mut self) -> Step<()> {
        self.skip_blanks();
        match self.peek() {
            None | Some(b'\n' | b')' | b'#') => Ok(()),
            Some(b';') if matches!(self.at(1), Some(b';' | b'&')) => undecided("`;;` belongs to `case`"),
            Some(b';') => {
                self.pos += 1;
                Ok(())
            }
            Some(b'&') if self.at(1) == Some(b'&') => {
                self.pos += 2;
                self.command_follows()
            }
            Some(b'&') => {
                self.pos += 1;
                Ok(())
            }
            Some(b'|') => {
                self.pos += if matches!(self.at(1), Some(b'|' | b'&')) { 2 } else { 1 };
                self.command_follows()
            }
            Some(c) => undecided(format!("unexpected {:?} after a command", c as char)),
        }
    }

    /// After `&&`, `||` and `|`: newlines may come before the command, nothing else.
    fn command_follows(&mut self) -> Step<()> {
        loop {
            self.skip_blanks();
            match self.peek() {
                Some(b'\n') => self.newline()?,
                Some(b'#') => self.skip_comment(),
                None | Some(b')' | b';' | b'|') => return undecided("an operator with no command after it"),
                Some(b'&') if self.at(1) != Some(b'>') => {
                    return undecided("an operator with no command after it");
                }
                Some(_) => return Ok(()),
            }
        }
    }

    fn simple_command(&mut self) -> Step<()> {
        let mut assignments: Vec<Word<'s>> = Vec::new();
        let mut words: Vec<Word<'s>> = Vec::with_capacity(8);
        let mut redirected = false;
        let mut body_start: Option<usize> = None;
        let mut after_time = false;
        loop {
            self.skip_blanks();
            let here = self.pos;
            let Some(c) = self.peek() else { break };
            match c {
                b'\n' | b';' | b'|' | b')' => break,
                b'&' if self.at(1) != Some(b'>') => break,
                b'#' => {
                    self.skip_comment();
                    break;
                }
                b'(' => return undecided("`(` opens a subshell or a function"),
                b'<' | b'>' | b'&' if self.at(1) != Some(b'(') => {
                    body_start.get_or_insert(here);
                    self.redirection()?;
                    redirected = true;
                }
                _ => {
                    let word = self.word()?;
                    // Bash removes line continuations before it reads tokens: `2\<newline>>x`.
                    let joined = match word.raw.contains('\\') {
                        true => Cow::Owned(word.raw.replace("\\\n", "")),
                        false => Cow::Borrowed(word.raw),
                    };
                    let fd_prefix = joined.bytes().all(|c| c.is_ascii_digit()) || is_fd_variable(&joined);
                    if fd_prefix && matches!(self.peek(), Some(b'<' | b'>')) && self.at(1) != Some(b'(') {
                        body_start.get_or_insert(here);
                        self.redirection()?;
                        redirected = true;
                        continue;
                    }
                    if words.is_empty() {
                        let bare = assignments.is_empty() && !redirected;
                        // `time -p`, `time --`, `time -p --`: bash's own options of `time`.
                        if after_time && (joined == "-p" || joined == "--") {
                            after_time = joined == "-p";
                            continue;
                        }
                        after_time = false;
                        // As `joined`: `!\<newline>` and `functio\<newline>n` are reserved words.
                        if let Some(rw) = RESERVED.iter().find(|r| **r == joined) {
                            match *rw {
                                "!" if bare => continue,
                                "time" if bare => {
                                    after_time = true;
                                    continue;
                                }
                                _ => return undecided(format!("the reserved word `{rw}`")),
                            }
                        }
                        if let Some(name_end) = assignment_name(&joined) {
                            if joined.as_bytes()[name_end] == b'[' {
                                return undecided("an array element assignment");
                            }
                            assignments.push(word);
                            continue;
                        }
                    }
                    body_start.get_or_insert(here);
                    words.push(word);
                }
            }
        }
        let raw = body_start.map_or("", |s| self.src[s..self.pos].trim_end_matches([' ', '\t']));
        let cmd = SimpleCommand { assignments: &assignments, words: &words, redirected, raw };
        match (self.visit)(&cmd, self.depth) {
            Flow::Continue => Ok(()),
            Flow::Stop => Err(Stop::Visited),
        }
    }

    /// At `<`, `>` or `&>` (an fd number or `{name}` already read): the operator and its target.
    fn redirection(&mut self) -> Step<()> {
        const OPS: &[&str] = &["&>>", "&>", "<<<", "<<-", "<<", "<>", "<&", "<", ">>", ">|", ">&", ">"];
        let rest = &self.b[self.pos..];
        let Some(op) = OPS.iter().find(|op| rest.starts_with(op.as_bytes())) else {
            return undecided("an unknown redirection");
        };
        self.pos += op.len();
        if self.continuation_at(0) {
            return undecided("a line continuation inside a redirection operator");
        }
        self.skip_blanks();
        match self.peek() {
            None | Some(b'\n' | b';' | b'&' | b'|' | b')' | b'(' | b'#') => {
                return undecided("a redirection without a target");
            }
            Some(b'<' | b'>') if self.at(1) != Some(b'(') => {
                return undecided("a redirection without a target");
            }
            _ => {}
        }
        let target = self.word()?;
        if matches!(*op, "<<" | "<<-") {
            let Some(delimiter) = target.value else {
                return undecided("a here-document delimiter with an expansion");
            };
            // A continuation is not quoting (`<<E\<newline>F` is the unquoted `EF`).
            let quoted = target.raw.replace("\\\n", "").contains(['\'', '"', '\\']);
            self.heredocs.push(Heredoc {
                delimiter: delimiter.into_owned(),
                quoted,
                strip_tabs: *op == "<<-",
                depth: self.depth,
            });
        }
        Ok(())
    }

    /// After a newline token: the bodies of the here-documents opened on the line before.
    fn heredoc_bodies(&mut self) -> Step<()> {
        for h in std::mem::take(&mut self.heredocs) {
            if h.depth != self.depth {
                return undecided("a here-document opened at another nesting level");
            }
            let body_start = self.pos;
            let body_end = loop {
                let line_start = self.pos;
                let line_end = memchr::memchr(b'\n', &self.b[line_start..]).map(|i| line_start + i);
                let line = &self.src[line_start..line_end.unwrap_or(self.b.len())];
                let line = if h.strip_tabs { line.trim_start_matches('\t') } else { line };
                if line == h.delimiter {
                    self.pos = line_end.map_or(self.b.len(), |e| e + 1);
                    break line_start;
                }
                match line_end {
                    Some(e) => self.pos = e + 1,
                    None => return undecided("a here-document is not closed"),
                }
            };
            if !h.quoted {
                let body = &self.src[body_start..body_end];
                if body.contains("\\\n") {
                    return undecided("a line continuation in a here-document");
                }
                self.nested(body, |r| r.expansions_only())?;
            }
        }
        Ok(())
    }

    /// An unquoted here-document's body: text with the expansions of `"…"`.
    fn expansions_only(&mut self) -> Step<()> {
        let mut w = Builder::new(self.pos);
        while self.pos < self.b.len() {
            self.dquoted_byte(&mut w)?;
        }
        Ok(())
    }

    /// Reads `text` with a reader of its own, one level deeper, sharing the visitor.
    fn nested<'t>(&mut self, text: &'t str, f: impl FnOnce(&mut Reader<'t, '_>) -> Step<()>) -> Step<()> {
        if self.depth >= MAX_NESTING {
            return undecided(format!("nested more than {MAX_NESTING} levels deep"));
        }
        let mut sub = Reader {
            src: text,
            b: text.as_bytes(),
            pos: 0,
            depth: self.depth + 1,
            heredocs: Vec::new(),
            visit: self.visit,
        };
        f(&mut sub)
    }

    /// A `$(…)`, `<(…)` or `>(…)` body at the cursor (just past its opening parenthesis).
    fn subshell_body(&mut self) -> Step<()> {
        if self.depth >= MAX_NESTING {
            return undecided(format!("nested more than {MAX_NESTING} levels deep"));
        }
        self.depth += 1;
        let r = self.list(End::Paren);
        self.depth -= 1;
        r
    }

    fn word(&mut self) -> Step<Word<'s>> {
        let start = self.pos;
        let mut w = Builder::new(start);
        while let Some(c) = self.peek() {
            match c {
                b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b')' => break,
                b'<' | b'>' if self.at(1) == Some(b'(') => {
                    w.literal = false;
                    self.pos += 2;
                    self.subshell_body()?;
                }
                b'<' | b'>' => break,
                b'(' => return undecided("`(` inside a word (a function, an array or an extended glob)"),
                b'\'' => {
                    w.edit(self.b, self.pos);
                    let Some(len) = memchr::memchr(b'\'', &self.b[self.pos + 1..]) else {
                        return undecided("a single quote does not close");
                    };
                    w.push(&self.b[self.pos + 1..self.pos + 1 + len]);
                    self.pos += len + 2;
                }
                b'"' => {
                    w.edit(self.b, self.pos);
                    self.pos += 1;
                    self.dquoted(&mut w)?;
                }
                b'\\' => {
                    w.edit(self.b, self.pos);
                    match self.at(1) {
                        Some(b'\n') => self.pos += 2,
                        None => {
                            w.push(b"\\");
                            self.pos += 1;
                        }
                        Some(_) => {
                            let n = char_len(&self.src[self.pos + 1..]);
                            w.push(&self.b[self.pos + 1..self.pos + 1 + n]);
                            self.pos += 1 + n;
                        }
                    }
                }
                b'$' => self.dollar(&mut w, false)?,
                b'`' => self.backtick(&mut w, false)?,
                _ => {
                    match c {
                        b'*' | b'?' => w.literal = false,
                        b'[' => w.bracket = true,
                        b']' if w.bracket => w.literal = false,
                        b'{' => w.brace = true,
                        b',' if w.brace => w.brace_list = true,
                        b'.' if w.brace && self.at(1) == Some(b'.') => w.brace_list = true,
                        b'}' if w.brace_list => w.literal = false,
                        b'~' if self.pos == start => w.literal = false,
                        0..=8 | 11..=12 | 14..=31 => return undecided("an unquoted control byte"),
                        _ => {}
                    }
                    w.push(&self.b[self.pos..self.pos + 1]);
                    self.pos += 1;
                }
            }
        }
        let raw = &self.src[start..self.pos];
        let value = match (w.literal, w.copy) {
            (false, _) => None,
            (true, None) => Some(Cow::Borrowed(raw)),
            (true, Some(bytes)) => Some(Cow::Owned(String::from_utf8_lossy(&bytes).into_owned())),
        };
        Ok(Word { raw, value })
    }

    /// The inside of `"…"`, the cursor just past the opening quote; leaves it past the closing.
    fn dquoted(&mut self, w: &mut Builder) -> Step<()> {
        loop {
            match self.peek() {
                None => return undecided("a double quote does not close"),
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(());
                }
                Some(_) => self.dquoted_byte(w)?,
            }
        }
    }

    /// One unit of double-quoted text (also an unquoted here-document's body).
    fn dquoted_byte(&mut self, w: &mut Builder) -> Step<()> {
        match self.peek() {
            Some(b'\\') => match self.at(1) {
                Some(c @ (b'$' | b'`' | b'"' | b'\\')) => {
                    w.push(&[c]);
                    self.pos += 2;
                }
                Some(b'\n') => self.pos += 2,
                _ => {
                    w.push(b"\\");
                    self.pos += 1;
                }
            },
            Some(b'$') => self.dollar(w, true)?,
            Some(b'`') => self.backtick(w, true)?,
            Some(_) => {
                w.push(&self.b[self.pos..self.pos + 1]);
                self.pos += 1;
            }
            None => {}
        }
        Ok(())
    }

    /// At `$`: an expansion, or a literal dollar sign.
    fn dollar(&mut self, w: &mut Builder, in_dquote: bool) -> Step<()> {
        let special =
            |c: u8| matches!(c, b'@' | b'*' | b'#' | b'?' | b'$' | b'!' | b'-') || c.is_ascii_digit();
        let name_char = |c: &u8| *c == b'_' || c.is_ascii_alphanumeric();
        match self.at(1) {
            Some(b'(') if self.at(2) == Some(b'(') => undecided("arithmetic `$((`"),
            Some(b'(') => {
                w.literal = false;
                self.pos += 2;
                self.subshell_body()
            }
            Some(b'[') => undecided("arithmetic `$[`"),
            Some(b'{') => {
                let inner = &self.b[self.pos + 2..];
                let Some(close) = memchr::memchr(b'}', inner) else {
                    return undecided("a `${` does not close");
                };
                let name = &inner[..close];
                let name = name.strip_prefix(b"#").filter(|n| !n.is_empty()).unwrap_or(name);
                let plain = match name {
                    [c] if special(*c) => true,
                    [first, ..] => {
                        (first.is_ascii_digit() && name.iter().all(u8::is_ascii_digit))
                            || (!first.is_ascii_digit() && name.iter().all(name_char))
                    }
                    [] => false,
                };
                if !plain {
                    return undecided("`${…}` with an operator");
                }
                w.literal = false;
                self.pos += 3 + close;
                Ok(())
            }
            Some(b'\'') if !in_dquote => {
                // ANSI-C quoting: only the shell decodes it here; find its end.
                w.literal = false;
                let mut i = self.pos + 2;
                loop {
                    match self.b.get(i) {
                        None => return undecided("a `$'` quote does not close"),
                        Some(b'\\') => i += 2,
                        Some(b'\'') => break,
                        Some(_) => i += 1,
                    }
                }
                self.pos = i + 1;
                Ok(())
            }
            Some(b'"') if !in_dquote => {
                // Locale translation: the text may be replaced, so it is not literal.
                w.literal = false;
                self.pos += 2;
                self.dquoted(w)
            }
            Some(b'\\') if self.at(2) == Some(b'\n') => undecided("a line continuation inside an expansion"),
            Some(c) if special(c) => {
                w.literal = false;
                self.pos += 2;
                Ok(())
            }
            Some(c) if c == b'_' || c.is_ascii_alphabetic() => {
                w.literal = false;
                let n = self.b[self.pos + 1..].iter().take_while(|c| name_char(c)).count();
                self.pos += 1 + n;
                Ok(())
            }
            _ => {
                w.push(b"$");
                self.pos += 1;
                Ok(())
            }
        }
    }

    /// At a backquote: the body, unescaped as bash does, read as commands one level deeper.
    fn backtick(&mut self, w: &mut Builder, in_dquote: bool) -> Step<()> {
        w.literal = false;
        let mut body = Vec::new();
        let mut i = self.pos + 1;
        loop {
            match self.b.get(i) {
                None => return undecided("a backquote does not close"),
                Some(b'`') => break,
                Some(b'\\') => match self.b.get(i + 1) {
                    Some(&c @ (b'`' | b'\\' | b'$')) => {
                        body.push(c);
                        i += 2;
                    }
                    Some(b'"') if in_dquote => {
                        body.push(b'"');
                        i += 2;
                    }
                    _ => {
                        body.push(b'\\');
                        i += 1;
                    }
                },
                Some(&c) => {
                    body.push(c);
                    i += 1;
                }
            }
        }
        self.pos = i + 1;
        let body = String::from_utf8_lossy(&body).into_owned();
        self.nested(&body, |r| r.list(End::Eof))
    }
}

/// The length of `NAME` in a word that starts `NAME=`, `NAME+=` or `NAME[`, if it does.
fn assignment_name(raw: &str) -> Option<usize> {
    let b = raw.as_bytes();
    let n = b.iter().take_while(|c| **c == b'_' || c.is_ascii_alphanumeric()).count();
    if n == 0 || b[0].is_ascii_digit() {
        return None;
    }
    match b.get(n) {
        Some(b'=') => Some(n),
        Some(b'+') if b.get(n + 1) == Some(&b'=') => Some(n),
        Some(b'[') if raw[n..].contains("]=") || raw[n..].contains("]+=") => Some(n),
        _ => None,
    }
}

/// `{name}` before a redirection operator: bash stores the descriptor it opens in `name`.
fn is_fd_variable(raw: &str) -> bool {
    raw.strip_prefix('{').and_then(|r| r.strip_suffix('}')).is_some_and(|n| {
        !n.is_empty()
            && !n.as_bytes()[0].is_ascii_digit()
            && n.bytes().all(|c| c == b'_' || c.is_ascii_alphanumeric())
    })
}

fn char_len(s: &str) -> usize {
    s.chars().next().map_or(1, char::len_utf8)
}

#[cfg(test)]
mod tests;

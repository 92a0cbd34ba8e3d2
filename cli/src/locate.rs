//! Finding where a JSON pointer points in JSON text, so an error the engine reports with a
//! pointer (`/hooks/PreToolUse/0/hooks/1/timeout`) can also name a line and column. It scans
//! text that already parsed; it never judges what it finds.

/// The 1-based line and column of the value at `pointer`, or of the deepest part of it that
/// exists (a missing key points at the object that lacks it). `None` when the text is not
/// scannable JSON.
pub fn pointer(text: &str, pointer: &str) -> Option<(usize, usize)> {
    let mut s = Scanner { b: text.as_bytes(), i: 0 };
    s.ws();
    let tokens = pointer.split('/').skip(1).map(|t| t.replace("~1", "/").replace("~0", "~"));
    for tok in tokens {
        let here = s.i;
        let found = match s.b.get(s.i)? {
            b'{' => s.member(&tok)?,
            b'[' => match tok.parse::<usize>() {
                Ok(n) => s.element(n)?,
                Err(_) => false,
            },
            _ => false,
        };
        if !found {
            s.i = here;
            break;
        }
    }
    Some(line_col(text, s.i))
}

fn line_col(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

struct Scanner<'a> {
    b: &'a [u8],
    i: usize,
}

impl Scanner<'_> {
    fn ws(&mut self) {
        while self.b.get(self.i).is_some_and(|c| c.is_ascii_whitespace()) {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> Option<()> {
        self.ws();
        (self.b.get(self.i) == Some(&c)).then(|| self.i += 1)
    }

    /// At `{`: moves to the value of member `key`. `Some(false)` when there is none.
    fn member(&mut self, key: &str) -> Option<bool> {
        self.eat(b'{')?;
        loop {
            self.ws();
            if self.b.get(self.i)? == &b'}' {
                return Some(false);
            }
            let start = self.i;
            self.skip_string()?;
            let name: String = serde_json::from_slice(&self.b[start..self.i]).ok()?;
            self.eat(b':')?;
            self.ws();
            if name == key {
                return Some(true);
            }
            self.skip_value()?;
            self.ws();
            if self.eat(b',').is_none() {
                return Some(false);
            }
        }
    }

    /// At `[`: moves to element `n`. `Some(false)` when the array is shorter.
    fn element(&mut self, n: usize) -> Option<bool> {
        self.eat(b'[')?;
        for _ in 0..n {
            self.ws();
            if self.b.get(self.i)? == &b']' {
                return Some(false);
            }
            self.skip_value()?;
            if self.eat(b',').is_none() {
                return Some(false);
            }
        }
        self.ws();
        Some(self.b.get(self.i)? != &b']')
    }

    fn skip_string(&mut self) -> Option<()> {
        (self.b.get(self.i)? == &b'"').then_some(())?;
        self.i += 1;
        loop {
            match self.b.get(self.i)? {
                b'\\' => self.i += 2,
                b'"' => {
                    self.i += 1;
                    return Some(());
                }
                _ => self.i += 1,
            }
        }
    }

    fn skip_value(&mut self) -> Option<()> {
        self.ws();
        match self.b.get(self.i)? {
            b'"' => self.skip_string(),
            b'{' | b'[' => {
                let mut depth = 0usize;
                loop {
                    match self.b.get(self.i)? {
                        b'"' => {
                            self.skip_string()?;
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                self.i += 1;
                                return Some(());
                            }
                        }
                        _ => {}
                    }
                    self.i += 1;
                }
            }
            _ => {
                while self
                    .b
                    .get(self.i)
                    .is_some_and(|c| !matches!(c, b',' | b'}' | b']') && !c.is_ascii_whitespace())
                {
                    self.i += 1;
                }
                Some(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::pointer;

    const DOC: &str = "{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\"matcher\": \"Bash\", \"hooks\": [\n        {\"type\": \"command\"},\n        {\"type\": \"command\", \"timeout\": \"5\"}\n      ]}\n    ]\n  }\n}";

    #[test]
    fn a_pointer_into_nested_arrays_names_the_value_position() {
        assert_eq!(pointer(DOC, "/hooks/PreToolUse/0/hooks/1/timeout"), Some((6, 40)));
    }

    #[test]
    fn a_missing_key_points_at_the_object_that_lacks_it() {
        assert_eq!(pointer(DOC, "/hooks/PreToolUse/0/hooks/0/command"), Some((5, 9)));
    }

    #[test]
    fn the_empty_pointer_is_the_document() {
        assert_eq!(pointer(DOC, ""), Some((1, 1)));
    }
}

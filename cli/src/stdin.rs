//! Reading one JSON text from stdin, as `bridge` and `fire -`/`explain -` take an event: bounded
//! in size, and ended by the text itself. An agent may write its payload and keep its end of the
//! pipe open; waiting for EOF then hung the command until the agent's own timeout (which most
//! agents read as "run the tool"). And a stdin that never ends (`/dev/zero`) grew memory without
//! bound. This module only reads bytes; what they mean is the core's.

use std::io::Read;

/// Reads `input` until EOF, or until the first top-level object or array has closed (what
/// follows it in the same read is kept, so that trailing text is still the parser's to refuse),
/// or until more than `limit` bytes have come: those are returned as `limit + 1` of them, for
/// the reader to refuse as too large (`hookwire_core::sent::read`).
pub fn read_json(mut input: impl Read, limit: usize) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    let mut frame = Frame::default();
    let mut chunk = vec![0u8; 64 << 10];
    loop {
        let n = match input.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        bytes.extend_from_slice(&chunk[..n]);
        if bytes.len() > limit {
            bytes.truncate(limit + 1);
            return Ok(bytes);
        }
        if frame.feed(&chunk[..n]) {
            break;
        }
    }
    Ok(bytes)
}

/// Where a JSON text stands: whether its first container has closed. Only brackets outside
/// strings count; a text that starts with anything but `{` or `[` is read to EOF.
#[derive(Default)]
struct Frame {
    started: bool,
    scalar: bool,
    depth: usize,
    in_string: bool,
    escaped: bool,
}

impl Frame {
    /// Takes the next bytes; `true` once the first top-level container has closed.
    fn feed(&mut self, bytes: &[u8]) -> bool {
        for &b in bytes {
            if self.scalar {
                return false;
            }
            if self.in_string {
                match (self.escaped, b) {
                    (true, _) => self.escaped = false,
                    (false, b'\\') => self.escaped = true,
                    (false, b'"') => self.in_string = false,
                    _ => {}
                }
                continue;
            }
            match b {
                b' ' | b'\t' | b'\n' | b'\r' if !self.started => {}
                b'{' | b'[' => {
                    self.started = true;
                    self.depth += 1;
                }
                b'}' | b']' if self.started => {
                    self.depth = self.depth.saturating_sub(1);
                    if self.depth == 0 {
                        return true;
                    }
                }
                b'"' if self.started => self.in_string = true,
                _ if !self.started => self.scalar = true,
                _ => {}
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that gives its chunks one by one, then blocks forever, as a pipe whose writer
    /// never closes would (here: panics, which a read past the text would hit).
    struct OpenPipe(Vec<&'static [u8]>);

    impl Read for OpenPipe {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            assert!(!self.0.is_empty(), "read past the end of the JSON text: a real pipe would hang here");
            let c = self.0.remove(0);
            buf[..c.len()].copy_from_slice(c);
            Ok(c.len())
        }
    }

    #[test]
    fn an_object_ends_the_read_though_the_pipe_stays_open() {
        let parts: Vec<&'static [u8]> = vec![b"  {\"a\": \"}]\\\"{\", \"b\"", b": [1, {\"c\": 2}]}\n"];
        let r = read_json(OpenPipe(parts), 1 << 20).unwrap();
        assert_eq!(r, b"  {\"a\": \"}]\\\"{\", \"b\": [1, {\"c\": 2}]}\n");
        let r = read_json(OpenPipe(vec![b"[[]", b"]"]), 1 << 20).unwrap();
        assert_eq!(r, b"[[]]");
    }

    #[test]
    fn a_text_that_is_no_container_or_never_closes_is_read_to_eof_within_the_limit() {
        for text in [&b"\"x\""[..], b"12", b"{\"a\": [", b"nul", b"", b"}"] {
            let r = read_json(text, 1 << 20).unwrap();
            assert_eq!(r.as_slice(), text);
        }
        let r = read_json(std::io::repeat(b'[').take(1 << 30), 100).unwrap();
        assert_eq!(r.len(), 101);
        let r = read_json(std::io::repeat(0).take(1 << 30), 1000).unwrap();
        assert_eq!(r.len(), 1001);
    }
}

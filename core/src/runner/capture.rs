//! Bounded capture of one output stream (protocol.md §5.4): at most `cap` bytes kept, the rest
//! read and discarded so the hook never stalls on a full pipe, truncation flagged, and the kept
//! bytes cut at the last complete UTF-8 sequence.

use std::os::fd::OwnedFd;

#[derive(Debug, Clone, Default)]
pub struct Capture {
    bytes: Vec<u8>,
    cap: usize,
    truncated: bool,
}

/// A finished capture, decoded.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Text {
    pub text: String,
    pub truncated: bool,
    /// Invalid UTF-8 was replaced by U+FFFD.
    pub lossy: bool,
}

impl Capture {
    pub fn new(cap: usize) -> Capture {
        Capture { bytes: Vec::new(), cap, truncated: false }
    }

    pub fn push(&mut self, data: &[u8]) {
        let room = self.cap.saturating_sub(self.bytes.len());
        if data.len() > room {
            self.truncated = true;
        }
        self.bytes.extend_from_slice(&data[..data.len().min(room)]);
    }

    /// One `read` from `fd`: into the kept bytes while the cap leaves room, else into `scratch`
    /// and discarded. The count read; 0 at EOF.
    ///
    /// Kept output is read in place: a 1 MiB stdout was read into a bounce buffer, copied, and
    /// grown through a dozen reallocations, each another copy (figure 4b, issue 20). Past 64 KiB
    /// the text jumps to 1 MiB (the default cap) and doubles from there; pages never written are
    /// never touched.
    pub fn read_from(&mut self, fd: &OwnedFd, scratch: &mut super::Reader) -> std::io::Result<usize> {
        let room = self.cap.saturating_sub(self.bytes.len());
        if room == 0 {
            let n = scratch.read(fd)?.len();
            self.truncated |= n > 0;
            return Ok(n);
        }
        if self.bytes.len() == self.bytes.capacity() {
            let len = self.bytes.len();
            if len >= crate::buffer_pool::MIN {
                // Large output: a kept buffer from an earlier fire, warm, when there is one.
                let mut big = crate::buffer_pool::take(len.max(1 << 20).min(room) + len);
                big.extend_from_slice(&self.bytes);
                self.bytes = big;
            } else {
                self.bytes.reserve_exact(len.max(8 * 1024).min(room));
            }
        }
        super::os::read_append(fd, &mut self.bytes, room)
    }

    pub fn finish(mut self) -> Text {
        if self.truncated {
            let keep = complete_utf8_prefix(&self.bytes);
            self.bytes.truncate(keep);
        }
        match String::from_utf8(self.bytes) {
            Ok(text) => Text { text, truncated: self.truncated, lossy: false },
            Err(e) => Text {
                text: String::from_utf8_lossy(e.as_bytes()).into_owned(),
                truncated: self.truncated,
                lossy: true,
            },
        }
    }
}

/// Length of `b` without a UTF-8 sequence cut short at its end.
fn complete_utf8_prefix(b: &[u8]) -> usize {
    let n = b.len();
    // Look back at most 3 bytes for the start of the last sequence.
    for back in 1..=n.min(4) {
        let byte = b[n - back];
        if byte & 0xC0 == 0x80 {
            continue; // continuation byte
        }
        let need = if byte & 0x80 == 0 {
            1
        } else if byte & 0xE0 == 0xC0 {
            2
        } else if byte & 0xF0 == 0xE0 {
            3
        } else if byte & 0xF8 == 0xF0 {
            4
        } else {
            return n; // not UTF-8 anyway: the lossy decoder handles it
        };
        return if need > back { n - back } else { n };
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_at_most_cap_bytes_and_flags_truncation() {
        let mut c = Capture::new(4);
        c.push(b"abcdef");
        c.push(b"gh");
        let t = c.finish();
        assert_eq!(t.text, "abcd");
        assert!(t.truncated && !t.lossy);
    }

    #[test]
    fn truncation_never_splits_a_character() {
        let mut c = Capture::new(5);
        c.push("abcé€".as_bytes()); // é is 2 bytes: a b c 0xC3 0xA9 | € cut
        let t = c.finish();
        assert_eq!(t.text, "abcé");
        let mut c = Capture::new(4);
        c.push("abcé".as_bytes());
        assert_eq!(c.finish().text, "abc");
    }

    /// Output as a pipe gives it: every byte up to the cap kept in order, the rest read and
    /// dropped, truncation flagged only when something was dropped.
    #[test]
    fn reading_in_place_keeps_exactly_the_cap_and_flags_only_real_truncation() {
        use std::io::Write;
        let data: Vec<u8> = (0..300_000u32).map(|i| (i % 251) as u8).collect();
        for (cap, len) in
            [(200_000, 300_000), (300_000, 300_000), (1 << 20, 300_000), (10, 9), (0, 5), (70_000, 0)]
        {
            let (r, mut w) = std::io::pipe().unwrap();
            let r = std::os::fd::OwnedFd::from(r);
            let sent = data[..len].to_vec();
            let writer = std::thread::spawn(move || w.write_all(&sent).unwrap());
            let (mut c, mut scratch) = (Capture::new(cap), super::super::Reader::new());
            while c.read_from(&r, &mut scratch).unwrap() > 0 {}
            writer.join().unwrap();
            assert_eq!(c.bytes, data[..len.min(cap)], "cap {cap}, {len} bytes");
            assert_eq!(c.truncated, len > cap, "cap {cap}, {len} bytes");
        }
    }

    #[test]
    fn invalid_utf8_is_replaced_and_flagged() {
        let mut c = Capture::new(100);
        c.push(b"ok\xff\xfe!");
        let t = c.finish();
        assert!(t.lossy && !t.truncated);
        assert_eq!(t.text, "ok\u{FFFD}\u{FFFD}!");
    }
}

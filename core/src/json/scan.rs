//! Finding where a run of plain string bytes ends: the one scan that JSON text spends its time
//! in when it carries a large string (a file's content in a `Write` tool input, a hook echoing
//! its event). A byte is plain when a JSON string may hold it as it is: not `"`, not `\`, not
//! below 0x20. Reading such a string ([`super::quick`]) and writing one (`json_escape`) both
//! come down to this scan; serde_json's own does eight bytes at a time, this one sixteen (SSE2,
//! which every x86_64 has) or thirty-two (AVX2, when the processor has it).

/// The length of the longest prefix of `b` made of plain bytes.
pub fn plain_run(b: &[u8]) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        if b.len() >= 64 && std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2, checked just above.
            return unsafe { x86::plain_run_avx2(b) };
        }
        x86::plain_run_sse2(b)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        plain_run_words(b, 0)
    }
}

/// Whether `c` needs a JSON escape: `"`, `\` or a control byte.
pub fn is_special(c: u8) -> bool {
    c < 0x20 || c == b'"' || c == b'\\'
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// [`plain_run`] from `from` on, eight bytes at a time, then byte by byte.
fn plain_run_words(b: &[u8], from: usize) -> usize {
    let mut i = from;
    while let Some(word) = b.get(i..i + 8) {
        let w = u64::from_le_bytes([word[0], word[1], word[2], word[3], word[4], word[5], word[6], word[7]]);
        if may_be_special(w) {
            break;
        }
        i += 8;
    }
    i + b[i..].iter().position(|&c| is_special(c)).unwrap_or(b.len() - i)
}

/// Whether any byte of `w` may be special (a zero byte after the XOR is a match). May say yes
/// for a word of plain bytes; never no for one that has a special byte.
fn may_be_special(w: u64) -> bool {
    let zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGHS;
    let below_space = w.wrapping_sub(ONES * 0x20) & !w & HIGHS;
    (below_space | zero(w ^ (ONES * u64::from(b'"'))) | zero(w ^ (ONES * u64::from(b'\\')))) != 0
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    /// Sixteen bytes at a time with SSE2, then the word loop for the tail.
    pub fn plain_run_sse2(b: &[u8]) -> usize {
        let mut i = 0;
        // SAFETY: SSE2 is part of the x86_64 baseline; every load reads 16 bytes that lie
        // inside `b` (`i + 16 <= b.len()`), unaligned loads being allowed.
        unsafe {
            let (quote, backslash, below) =
                (_mm_set1_epi8(b'"' as i8), _mm_set1_epi8(b'\\' as i8), _mm_set1_epi8(0x1f));
            while i + 16 <= b.len() {
                let v = _mm_loadu_si128(b.as_ptr().add(i).cast());
                // A byte is at most 0x1f exactly when its unsigned max with 0x1f is 0x1f.
                let ctrl = _mm_cmpeq_epi8(_mm_max_epu8(v, below), below);
                let special =
                    _mm_or_si128(ctrl, _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)));
                let mask = _mm_movemask_epi8(special) as u32;
                if mask != 0 {
                    return i + mask.trailing_zeros() as usize;
                }
                i += 16;
            }
        }
        super::plain_run_words(b, i)
    }

    /// Sixty-four bytes a round with AVX2, then SSE2 for the tail.
    ///
    /// # Safety
    /// The processor must have AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn plain_run_avx2(b: &[u8]) -> usize {
        let mut i = 0;
        let (quote, backslash, below) =
            (_mm256_set1_epi8(b'"' as i8), _mm256_set1_epi8(b'\\' as i8), _mm256_set1_epi8(0x1f));
        let special = |v: __m256i| {
            let ctrl = _mm256_cmpeq_epi8(_mm256_max_epu8(v, below), below);
            _mm256_or_si256(
                ctrl,
                _mm256_or_si256(_mm256_cmpeq_epi8(v, quote), _mm256_cmpeq_epi8(v, backslash)),
            )
        };
        while i + 64 <= b.len() {
            // SAFETY: both loads read 32 bytes inside `b` (`i + 64 <= b.len()`), unaligned.
            let (lo, hi) = unsafe {
                (
                    _mm256_loadu_si256(b.as_ptr().add(i).cast()),
                    _mm256_loadu_si256(b.as_ptr().add(i + 32).cast()),
                )
            };
            let (lo, hi) = (special(lo), special(hi));
            if _mm256_testz_si256(_mm256_or_si256(lo, hi), _mm256_or_si256(lo, hi)) == 0 {
                let mask = (_mm256_movemask_epi8(lo) as u32 as u64)
                    | ((_mm256_movemask_epi8(hi) as u32 as u64) << 32);
                return i + mask.trailing_zeros() as usize;
            }
            i += 64;
        }
        i + plain_run_sse2(&b[i..])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every position and kind of special byte, in runs of every length around the vector
    /// widths, against the plain definition.
    #[test]
    fn the_run_ends_at_the_first_special_byte_wherever_it_is() {
        let reference = |b: &[u8]| b.iter().position(|&c| is_special(c)).unwrap_or(b.len());
        for len in (0..200).chain([1000, 4096, 4099]) {
            let base: Vec<u8> = (0..len).map(|i| b"abc\x7f\x80\xff 0~"[i % 9]).collect();
            assert_eq!(plain_run(&base), len);
            assert_eq!(plain_run_words(&base, 0), len);
            for at in (0..len).step_by(if len > 300 { 37 } else { 1 }) {
                for special in [b'"', b'\\', 0x00, 0x1f, b'\n'] {
                    let mut b = base.clone();
                    b[at] = special;
                    if at + 3 < len {
                        b[at + 3] = b'"'; // a later one must not win
                    }
                    assert_eq!(plain_run(&b), reference(&b), "len {len}, at {at}, byte {special:#x}");
                    assert_eq!(plain_run_words(&b, 0), reference(&b), "len {len}, at {at}");
                    #[cfg(target_arch = "x86_64")]
                    assert_eq!(x86::plain_run_sse2(&b), reference(&b), "len {len}, at {at}");
                }
            }
        }
        // Bytes just above the control range and the sign boundary are plain.
        assert_eq!(plain_run(&[0x20; 100]), 100);
        assert_eq!(plain_run(&[0x80; 100]), 100);
    }
}

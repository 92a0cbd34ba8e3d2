//! The strings this library hands to C, and takes back.
//!
//! A short string is a `CString`'s buffer. A large one (a result carrying a hook's 1 MiB
//! output) is a Rust byte buffer with a NUL pushed on, recorded by address with its buffer's
//! capacity until it comes back (`hooks_free`). Knowing the capacity is what lets it come back
//! without a `strlen` over it, and go back to the core's [`buffer_pool`] whole: a 1 MiB result
//! text is written into a kept buffer and returns to it when the host frees it, where a
//! `CString` round trip scanned it twice and left the allocator to map, fault in and unmap a
//! fresh MiB on every fire (figure 4b, issue 20). Short strings skip the record, whose lock
//! cost a no-match fire a seventh of its time: while no large string is out, taking one back
//! costs one atomic load.

use hookwire_core::buffer_pool;
use std::collections::BTreeMap;
use std::ffi::{CStr, CString, c_char};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Strings at least this long are recorded: below it a buffer is not worth keeping.
const RECORDED_MIN: usize = buffer_pool::MIN;

/// Every large string handed out and not yet taken back: address to buffer capacity. Few at a
/// time (a host holds a result until it has read it), so a tree is as quick as a hash here.
static RECORDED: Mutex<BTreeMap<usize, usize>> = Mutex::new(BTreeMap::new());

/// How many strings [`RECORDED`] holds, read without its lock.
static RECORDED_OUT: AtomicUsize = AtomicUsize::new(0);

fn recorded() -> std::sync::MutexGuard<'static, BTreeMap<usize, usize>> {
    RECORDED.lock().unwrap_or_else(|e| e.into_inner())
}

/// Hands `text` to C as a NUL-terminated string, or `None` when it holds a NUL (C would read
/// it cut short). A large text's buffer itself is handed over: no copy.
pub(crate) fn hand_out(text: String) -> Option<*mut c_char> {
    hand_out_bytes(text.into_bytes())
}

/// [`hand_out`] for bytes, which C reads as they are.
fn hand_out_bytes(mut bytes: Vec<u8>) -> Option<*mut c_char> {
    if memchr::memchr(0, &bytes).is_some() {
        return None;
    }
    if bytes.len() < RECORDED_MIN {
        // SAFETY: just checked that `bytes` holds no NUL.
        return Some(unsafe { CString::from_vec_unchecked(bytes) }.into_raw());
    }
    bytes.push(0);
    let mut bytes = std::mem::ManuallyDrop::new(bytes);
    let p = bytes.as_mut_ptr();
    let mut recorded = recorded();
    recorded.insert(p as usize, bytes.capacity());
    RECORDED_OUT.store(recorded.len(), Ordering::Release);
    Some(p.cast())
}

/// Releases a string [`hand_out`] made; a large one's buffer goes back to the pool. NULL does
/// nothing.
///
/// # Safety
/// `s` is NULL or came from [`hand_out`] and is released once, and not used afterwards.
pub(crate) unsafe fn release(s: *mut c_char) {
    if s.is_null() {
        return;
    }
    // A large string out is recorded before its pointer is handed over, so the holder of one
    // always sees a count above zero here.
    if RECORDED_OUT.load(Ordering::Acquire) > 0 {
        let mut recorded = recorded();
        if let Some(capacity) = recorded.remove(&(s as usize)) {
            RECORDED_OUT.store(recorded.len(), Ordering::Release);
            drop(recorded);
            // SAFETY: `s` was the pointer of a `Vec<u8>` with this capacity that `hand_out`
            // forgot, and removing its record makes this the one place that rebuilds it.
            // Length 0: bytes need no drop.
            buffer_pool::give(unsafe { Vec::from_raw_parts(s.cast::<u8>(), 0, capacity) });
            return;
        }
    }
    // SAFETY: not recorded, so `s` came from `CString::into_raw` in `hand_out` (caller's
    // contract), and is released once.
    drop(unsafe { CString::from_raw(s) });
}

/// Reads and releases a string a host handed over (one it made with `hooks_string_new`);
/// NULL is `None`. Bytes that are not UTF-8 are replaced, so a careless host still gets its
/// text read.
///
/// # Safety
/// `s` is NULL or a string from [`copy`] that no one else uses or frees once handed over.
pub(crate) unsafe fn take_text(s: *mut c_char) -> Option<String> {
    if s.is_null() {
        return None;
    }
    // SAFETY: `s` is NUL-terminated and ours now (caller's contract).
    let text = unsafe { CStr::from_ptr(s) }.to_string_lossy().into_owned();
    // SAFETY: as above; after this nothing uses `s`.
    unsafe { release(s) };
    Some(text)
}

/// A copy of a NUL-terminated string, as a string this library made (for hooks_string_new).
///
/// # Safety
/// `s` is non-NULL and NUL-terminated, valid for the call.
pub(crate) unsafe fn copy(s: *const c_char) -> *mut c_char {
    // SAFETY: guaranteed by the caller.
    let bytes = unsafe { CStr::from_ptr(s) }.to_bytes();
    let mut owned = Vec::with_capacity(bytes.len() + 1);
    owned.extend_from_slice(bytes);
    // A C string has no NUL before its end, so it is always handed out.
    hand_out_bytes(owned).unwrap_or(std::ptr::null_mut())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a handed-out string reads as from C.
    fn read(p: *mut c_char) -> String {
        // SAFETY: `p` is a live handed-out string in these tests.
        unsafe { CStr::from_ptr(p) }.to_str().unwrap().to_string()
    }

    #[test]
    fn short_and_large_strings_read_whole_from_c_and_come_back() {
        for text in ["{\"a\":1}".to_string(), "x".repeat(RECORDED_MIN), "y".repeat(1 << 20)] {
            let p = hand_out(text.clone()).unwrap();
            assert_eq!(read(p), text);
            // SAFETY: `p` came from `hand_out` and is released once.
            unsafe { release(p) };
        }
    }

    #[test]
    fn text_with_an_inner_nul_is_not_handed_out() {
        assert!(hand_out("a\0b".to_string()).is_none());
        assert!(hand_out(format!("{}\0", "x".repeat(RECORDED_MIN))).is_none());
    }

    #[test]
    fn a_large_string_is_recorded_until_it_comes_back() {
        let p = hand_out("x".repeat(300_000)).unwrap();
        assert_eq!(recorded().get(&(p as usize)).map(|&c| c > 300_000), Some(true));
        assert!(RECORDED_OUT.load(Ordering::Acquire) > 0);
        // SAFETY: `p` came from `hand_out` and is released once.
        unsafe { release(p) };
        assert_eq!(recorded().get(&(p as usize)), None);
    }

    #[test]
    fn a_copy_is_taken_back_as_its_text() {
        for source in [c"hello".to_owned(), CString::new("z".repeat(RECORDED_MIN + 1)).unwrap()] {
            // SAFETY: `source` is NUL-terminated.
            let p = unsafe { copy(source.as_ptr()) };
            // SAFETY: `p` came from `copy` and is handed over once.
            assert_eq!(unsafe { take_text(p) }.as_deref(), source.to_str().ok());
        }
    }
}

//! The strings this library hands to C, and takes back.
//!
//! Each one is a Rust byte buffer with a NUL pushed on, recorded by address with its buffer's
//! capacity until it comes back (`hooks_free`, or a host function handing over a
//! `hooks_string_new` string). Knowing the capacity is what lets a string come back without a
//! `strlen` over it, and go back to the core's [`buffer_pool`] whole: a 1 MiB result text is
//! written into a kept buffer and returns to it when the host frees it, where a
//! `CString` round trip scanned it twice and left the allocator to map, fault in and unmap
//! a fresh MiB on every fire (figure 4b, issue 20).
//!
//! The record also makes a pointer that did not come from here, or came back already, a
//! no-op instead of a corrupted heap.

use hookwire_core::buffer_pool;
use std::collections::BTreeMap;
use std::ffi::{CStr, c_char};
use std::sync::Mutex;

/// Every string handed out and not yet taken back: address to buffer capacity. Few at a time
/// (a host holds a result until it has read it), so a tree is as quick as a hash here.
static OUT: Mutex<BTreeMap<usize, usize>> = Mutex::new(BTreeMap::new());

fn out() -> std::sync::MutexGuard<'static, BTreeMap<usize, usize>> {
    OUT.lock().unwrap_or_else(|e| e.into_inner())
}

/// Hands `text` to C as a NUL-terminated string, or `None` when it holds a NUL (C would read
/// it cut short). The text's buffer itself is handed over: no copy.
pub(crate) fn hand_out(text: String) -> Option<*mut c_char> {
    hand_out_bytes(text.into_bytes())
}

/// [`hand_out`] for bytes, which C reads as they are.
fn hand_out_bytes(mut bytes: Vec<u8>) -> Option<*mut c_char> {
    if memchr::memchr(0, &bytes).is_some() {
        return None;
    }
    bytes.push(0);
    let mut bytes = std::mem::ManuallyDrop::new(bytes);
    let p = bytes.as_mut_ptr();
    out().insert(p as usize, bytes.capacity());
    Some(p.cast())
}

/// Takes back a string [`hand_out`] made, as its buffer (cleared); `None` for NULL and for a
/// pointer not handed out or already taken back.
///
/// # Safety
/// `s` is NULL, or a pointer that either came from [`hand_out`] (and is not in use anywhere
/// else once taken back) or is not a live handed-out string at all.
unsafe fn take_back(s: *mut c_char) -> Option<Vec<u8>> {
    let capacity = out().remove(&(s as usize))?;
    // SAFETY: `s` was the pointer of a `Vec<u8>` with this capacity that `hand_out` forgot,
    // and removing its record makes this the one place that rebuilds it. Length 0: bytes need
    // no drop, and the caller reads them before this point if it wants them.
    Some(unsafe { Vec::from_raw_parts(s.cast::<u8>(), 0, capacity) })
}

/// Releases a string [`hand_out`] made; its buffer goes back to the pool when large. NULL,
/// a foreign pointer or a second release does nothing.
///
/// # Safety
/// As for [`take_back`].
pub(crate) unsafe fn release(s: *mut c_char) {
    if s.is_null() {
        return;
    }
    // SAFETY: guaranteed by the caller.
    if let Some(buffer) = unsafe { take_back(s) } {
        buffer_pool::give(buffer);
    }
}

/// Reads and releases a string a host handed over (one it made with `hooks_string_new`);
/// NULL is `None`. Bytes that are not UTF-8 are replaced, so a careless host still gets its
/// text read. A string this library did not make is read and left to its owner.
///
/// # Safety
/// `s` is NULL or a NUL-terminated string that no one else uses or frees once handed over.
pub(crate) unsafe fn take_text(s: *mut c_char) -> Option<String> {
    if s.is_null() {
        return None;
    }
    // SAFETY: `s` is NUL-terminated and ours to read for this call (caller's contract).
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
    fn a_string_reads_whole_from_c_and_comes_back_once() {
        let p = hand_out("{\"a\":1}".to_string()).unwrap();
        assert_eq!(read(p), "{\"a\":1}");
        // SAFETY: `p` came from `hand_out`; the second release finds no record and does nothing.
        unsafe {
            release(p);
            release(p);
        }
    }

    #[test]
    fn text_with_an_inner_nul_is_not_handed_out() {
        assert!(hand_out("a\0b".to_string()).is_none());
    }

    #[test]
    fn a_pointer_this_library_did_not_make_is_left_alone() {
        let mut foreign = *b"not ours\0";
        let p: *mut c_char = foreign.as_mut_ptr().cast();
        // SAFETY: `p` is a live NUL-terminated string that was never handed out.
        unsafe { release(p) };
        // SAFETY: as above; it is read, not freed.
        assert_eq!(unsafe { take_text(p) }.as_deref(), Some("not ours"));
        assert_eq!(&foreign, b"not ours\0");
    }

    #[test]
    fn a_large_string_goes_back_to_the_pool_whole() {
        let text = "x".repeat(300_000);
        let p = hand_out(text).unwrap();
        assert_eq!(read(p).len(), 300_000);
        // SAFETY: `p` came from `hand_out` and is taken back once.
        let buffer = unsafe { take_back(p) }.unwrap();
        assert!(buffer.is_empty() && buffer.capacity() > 300_000);
    }

    #[test]
    fn a_copy_is_taken_back_as_its_text() {
        let source = c"hello";
        // SAFETY: `source` is NUL-terminated.
        let p = unsafe { copy(source.as_ptr()) };
        // SAFETY: `p` came from `copy` and is handed over once.
        assert_eq!(unsafe { take_text(p) }.as_deref(), Some("hello"));
    }
}

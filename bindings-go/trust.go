package hookwire

/*
#include <stdlib.h>
#include "hookwire.h"
*/
import "C"

import (
	"encoding/json"
	"runtime"
	"unsafe"
)

// TrustStatus is the trust state of a configuration's project and local sources, and of any
// other source marked "trusted": false (protocol.md §2.8), as Dispatcher.TrustStatus and RecordTrust return it. The json tags are
// the status JSON's keys; nullable values are pointers (nil for JSON null), and keys added by
// newer libraries are ignored.
//
// A *TrustStatus is a plain value, owned by the caller; it may be shared between goroutines
// as long as none modifies it.
type TrustStatus struct {
	// Store is the configured trust.store; nil when none is given.
	Store *string `json:"store"`
	// DefaultStore is where RecordTrust writes without trust.store:
	// $XDG_CONFIG_HOME/hookwire/trust.json or ~/.config/hookwire/trust.json; nil when neither
	// XDG_CONFIG_HOME nor HOME is set.
	DefaultStore *string `json:"default_store"`
	// ProjectDir is the configured project_dir, the key of the store; nil when unset.
	ProjectDir *string `json:"project_dir"`
	// Sources has one entry per project or local source, in configuration order.
	Sources []TrustSource `json:"sources"`
}

// TrustSource is one project or local source, or another source marked "trusted": false, as
// the trust gate saw it.
type TrustSource struct {
	// Scope is "project" or "local", the scopes that run only when trusted, or another scope
	// ("managed", "user", "plugin", "session") whose source says "trusted": false.
	Scope string `json:"scope"`
	// Label names the source as warnings do, for example "project .claude/settings.json".
	Label string `json:"label"`
	// Path is the file as configured, Resolved the file resolved against project_dir; both
	// nil for inline settings.
	Path     *string `json:"path"`
	Resolved *string `json:"resolved"`
	// Key is the file's key in the trust store (relative to the project root when inside it).
	Key *string `json:"key"`
	// Digest is "sha256:<64 hex>" of the bytes read; nil for inline settings or a missing file.
	Digest *string `json:"digest"`
	// Trusted says whether this source's hooks run.
	Trusted bool `json:"trusted"`
	// Why says, for people, why it is (not) trusted.
	Why string `json:"why"`
}

// TrustStatus reports the trust state of every project and local source of the dispatcher's
// configuration, and of any other source marked "trusted": false. A host shows the untrusted sources to the user; once approved, it calls
// RecordTrust and builds a new dispatcher, which runs them. Nothing is spawned, read or
// written. Safe to call concurrently with fires; on a closed or nil dispatcher it returns
// ErrClosed.
func (d *Dispatcher) TrustStatus() (*TrustStatus, error) {
	return dispatcherCall[TrustStatus](d, "hooks_trust_status", "trust status",
		func(ptr *C.HooksDispatcher, out **C.char) C.int32_t { return C.hooks_trust_status(ptr, out) })
}

// dispatcherCall runs fn, a C call on d's live dispatcher that stores its reply in *out, under
// the read lock (so it never races with Close), and decodes the reply with decodeReply. A
// closed or nil dispatcher is ErrClosed.
func dispatcherCall[T any](d *Dispatcher, call, what string, fn func(ptr *C.HooksDispatcher, out **C.char) C.int32_t) (*T, error) {
	if d == nil || d.h == nil {
		return nil, ErrClosed
	}
	h := d.h
	h.mu.RLock()
	defer h.mu.RUnlock()
	if h.ptr == nil {
		return nil, ErrClosed
	}
	var cOut *C.char
	rc := fn(h.ptr, &cOut)
	runtime.KeepAlive(d)
	return decodeReply[T](rc, cOut, call, what)
}

// RecordTrust records trust in every project and local file source of a configuration (the
// same kinds of value as New takes), as the files read now: their SHA-256 goes to the trust
// store, trust.store, else $XDG_CONFIG_HOME/hookwire/trust.json or
// ~/.config/hookwire/trust.json (written atomically, mode 0600). Dispatchers built afterwards
// run those sources until a file changes. It returns the new trust status.
//
// Call it only after the user approved what TrustStatus showed. Errors are *Error values as
// for New: invalid_json, invalid_utf8, invalid_config (Pointer "/project_dir" when the
// configuration has no project_dir), and internal when the store could not be written. Safe
// to call from any goroutine.
func RecordTrust(config any) (*TrustStatus, error) {
	return textCall[TrustStatus](config, CodeInvalidConfig, KindInvalidConfig, "hooks_trust_record", "trust status",
		func(in *C.char, out **C.char) C.int32_t { return C.hooks_trust_record(in, out) })
}

// textCall encodes v as JSON text (as New does: a value that cannot be encoded is an *Error
// of code and kind), passes it to fn, a C call that stores its reply in *out, and decodes the
// reply with decodeReply (call and what name it in errors).
func textCall[T any](v any, code Code, kind, call, what string, fn func(in *C.char, out **C.char) C.int32_t) (*T, error) {
	text, err := encode(v, code, kind)
	if err != nil {
		return nil, err
	}
	cIn, err := cString(text)
	if err != nil {
		return nil, err
	}
	defer C.free(unsafe.Pointer(cIn))
	var cOut *C.char
	rc := fn(cIn, &cOut)
	return decodeReply[T](rc, cOut, call, what)
}

// decodeReply turns the string a call stored into a *T (decoded from its JSON) or an *Error,
// and releases it with hooks_free. what names the JSON in the internal error.
func decodeReply[T any](rc C.int32_t, cOut *C.char, call, what string) (*T, error) {
	if cOut == nil {
		return nil, newError(CodeInternal, KindInternal, call+" stored no string", 0, 0)
	}
	defer C.hooks_free(cOut)
	text := goBytes(cOut)
	if rc != C.HOOKS_OK {
		return nil, parseError(Code(rc), text)
	}
	var v T
	if err := json.Unmarshal(text, &v); err != nil {
		return nil, newError(CodeInternal, KindInternal, what+" JSON could not be decoded: "+err.Error(), 0, 0)
	}
	return &v, nil
}

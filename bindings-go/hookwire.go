// Package hookwire runs Claude-Code-style lifecycle hooks: load a configuration once with
// New, then Fire events at it from any number of goroutines and read the folded decision and
// one Outcome per hook from the Result.
//
// It is a thin cgo wrapper over the hookwire C ABI (include/hookwire.h), statically linked
// against the prebuilt library inside the module, prebuilt/<goos>_<goarch>/libhookwire.a (the
// module made by dist/build carries it for linux/amd64). In a checkout, prebuilt/ is
// gitignored; fill it from the cargo build with
//
//	cargo build --release -p hookwire-ffi && bash dist/go-prebuilt
//
// Build with the tag hookwire_dynamic to link prebuilt/<goos>_<goarch>/libhookwire.so instead
// (an rpath to that folder is recorded). Everything the engine does is specified in protocol.md; this
// package converts values, errors and threading, and nothing else.
package hookwire

/*
#cgo CFLAGS: -I${SRCDIR}/prebuilt/include
#cgo linux,amd64,!hookwire_dynamic LDFLAGS: ${SRCDIR}/prebuilt/linux_amd64/libhookwire.a -ldl -lm -lpthread
#cgo linux,arm64,!hookwire_dynamic LDFLAGS: ${SRCDIR}/prebuilt/linux_arm64/libhookwire.a -ldl -lm -lpthread
#cgo darwin,amd64,!hookwire_dynamic LDFLAGS: ${SRCDIR}/prebuilt/darwin_amd64/libhookwire.a -lm -lpthread -framework CoreFoundation -framework Security
#cgo darwin,arm64,!hookwire_dynamic LDFLAGS: ${SRCDIR}/prebuilt/darwin_arm64/libhookwire.a -lm -lpthread -framework CoreFoundation -framework Security
#cgo linux,amd64,hookwire_dynamic LDFLAGS: -L${SRCDIR}/prebuilt/linux_amd64 -lhookwire -Wl,-rpath,${SRCDIR}/prebuilt/linux_amd64
#cgo linux,arm64,hookwire_dynamic LDFLAGS: -L${SRCDIR}/prebuilt/linux_arm64 -lhookwire -Wl,-rpath,${SRCDIR}/prebuilt/linux_arm64
#cgo darwin,amd64,hookwire_dynamic LDFLAGS: -L${SRCDIR}/prebuilt/darwin_amd64 -lhookwire -Wl,-rpath,${SRCDIR}/prebuilt/darwin_amd64
#cgo darwin,arm64,hookwire_dynamic LDFLAGS: -L${SRCDIR}/prebuilt/darwin_arm64 -lhookwire -Wl,-rpath,${SRCDIR}/prebuilt/darwin_arm64
#include <stdlib.h>
#include <string.h>
#include "hookwire.h"

// What hookwire_fire_into and hookwire_answer_into report besides the code.
typedef struct {
	size_t len;  // the length of the stored string
	char *big;   // the string itself when it did not fit buf (the caller frees it), else NULL
	int stored;  // 0: no string was stored
} hookwire_fire_out;

// Copies s into buf and frees it when it fits, else hands it over in o->big.
static void hookwire_take(char *s, char *buf, size_t cap, hookwire_fire_out *o) {
	o->len = 0;
	o->big = NULL;
	o->stored = s != NULL;
	if (s == NULL) {
		return;
	}
	o->len = strlen(s);
	if (o->len <= cap) {
		memcpy(buf, s, o->len);
		hooks_free(s);
	} else {
		o->big = s;
	}
}

// hooks_fire_with, then the stored string copied into buf and freed when it fits: a fire
// costs one cgo call instead of four (fire, strlen, copy, hooks_free), which was a tenth of
// a no-match Fire. event and buf may be Go memory: neither is kept after the call.
static int32_t hookwire_fire_into(const HooksDispatcher *d, const char *event,
                                  const HooksCancelToken *token, char *buf, size_t cap,
                                  hookwire_fire_out *o) {
	char *s = NULL;
	int32_t rc = hooks_fire_with(d, event, token, &s);
	hookwire_take(s, buf, cap, o);
	return rc;
}

// hookwire_fire_into for hooks_answer_without_running, which stores NULL (stored 0) when
// only a fire can answer.
static int32_t hookwire_answer_into(const HooksDispatcher *d, const char *event, char *buf,
                                    size_t cap, hookwire_fire_out *o) {
	char *s = NULL;
	int32_t rc = hooks_answer_without_running(d, event, &s);
	hookwire_take(s, buf, cap, o);
	return rc;
}
*/
import "C"

import (
	"bytes"
	"context"
	"runtime"
	"runtime/cgo"
	"strings"
	"sync"
	"unsafe"
)

// Dispatcher is a loaded configuration, ready to fire events.
//
// A *Dispatcher is safe for concurrent use by any number of goroutines: their fires run at
// the same time, each with its own hook processes. Close may be called at any moment, from
// any goroutine, any number of times; it waits for the fires in flight and makes later ones
// return ErrClosed. A nil *Dispatcher behaves as a closed one.
type Dispatcher struct {
	h       *handle
	cleanup runtime.Cleanup
}

// handle owns the C dispatcher. It is separate from Dispatcher so that the backstop cleanup
// (which must not reference the Dispatcher) can free it.
type handle struct {
	// mu guards ptr. Fires hold the read side for the whole C call, including fires whose
	// caller already returned on ctx; close takes the write side, so hooks_dispatcher_free
	// never races with hooks_fire (abi.md §2.5).
	mu  sync.RWMutex
	ptr *C.HooksDispatcher

	// ctx is the base of every Go function hook's and host callback's ctx; close ends it.
	ctx    context.Context
	cancel context.CancelFunc
	// results holds the decoded results of fires that ran nothing, by their text.
	results resultCache
	// handles are the registered Go funcs (the library's user_data), deleted by close once
	// hooks_dispatcher_free has returned, so no call can still look one up.
	handlesMu sync.Mutex
	handles   []cgo.Handle
}

// testHookFire, when set by a test, runs inside every fire just before the C call, while the
// read lock is held. It lets tests stretch a fire without depending on the engine.
var testHookFire func()

// New loads a configuration (protocol.md §2) and compiles its matchers.
//
// config is a []byte (including json.RawMessage) or a string, used as JSON text as is, or
// any other value, which is encoded as json.Marshal would (without HTML escaping, so the
// text is what other languages would produce). A value that cannot be encoded gives an
// *Error of kind invalid_config; a refused configuration gives an *Error whose Kind is
// invalid_json (with Line and Column), invalid_utf8 or invalid_config (with Pointer).
//
// Configuration problems that do not stop loading (an unknown event name, an invalid regex)
// are not errors: they appear in every Result's Warnings.
func New(config any) (*Dispatcher, error) {
	cConfig, err := configCString(config)
	if err != nil {
		return nil, err
	}
	defer C.free(unsafe.Pointer(cConfig))

	var cErr *C.char
	ptr := C.hooks_dispatcher_new(cConfig, &cErr)
	if ptr == nil {
		if cErr == nil {
			return nil, newError(CodeInternal, KindInternal, "hooks_dispatcher_new failed without an error JSON", 0, 0)
		}
		defer C.hooks_free(cErr)
		return nil, parseError(0, goBytes(cErr))
	}
	if cErr != nil { // never written on success by contract; tolerate it rather than leak
		C.hooks_free(cErr)
	}
	ctx, cancel := context.WithCancel(context.Background())
	h := &handle{ptr: ptr, ctx: ctx, cancel: cancel}
	d := &Dispatcher{h: h}
	// A backstop for a forgotten Close. Fire keeps d alive until its C call returns, so the
	// cleanup can only run when no fire is in flight.
	d.cleanup = runtime.AddCleanup(d, (*handle).close, h)
	return d, nil
}

// Fire fires one event (protocol.md §3) and returns the result once every matching hook has
// exited or been killed at its deadline.
//
// event takes the same kinds of value as New's config; a value that cannot be encoded gives
// an *Error of kind invalid_event. An event the engine refuses gives an *Error (invalid_json,
// invalid_utf8 or invalid_event). Hooks that fail, hang or flood output are not errors: their
// Outcome says what happened.
//
// When ctx ends before the fire does, Fire returns ctx.Err() at once and cancels the fire:
// its running hooks are killed (process group SIGTERM, then SIGKILL), hooks not yet started
// never start, and the cancelled result is freed in the background; Close waits for that.
// On a closed or nil dispatcher Fire returns ErrClosed.
func (d *Dispatcher) Fire(ctx context.Context, event any) (*Result, error) {
	if d == nil || d.h == nil {
		return nil, ErrClosed
	}
	fb := getFireBuf()
	var err error
	if fb.in, err = appendEncoded(fb.in[:0], event, CodeInvalidEvent, KindInvalidEvent); err != nil {
		fb.release()
		return nil, err
	}
	text, err := d.fire(ctx, fb)
	if err != nil {
		return nil, err
	}
	defer fb.release()
	return d.h.results.decode(text)
}

// FireJSON is Fire for hosts that forward the result: it takes the event as JSON text and
// returns the result JSON (protocol.md §8) unchanged. Errors are as for Fire.
func (d *Dispatcher) FireJSON(ctx context.Context, event []byte) ([]byte, error) {
	if d == nil || d.h == nil {
		return nil, ErrClosed
	}
	fb := getFireBuf()
	fb.in = append(fb.in[:0], event...)
	text, err := d.fire(ctx, fb)
	if err != nil {
		return nil, err
	}
	defer fb.release()
	return bytes.Clone(text), nil
}

// Close frees the dispatcher. It waits for the fires in flight, including those whose caller
// already returned on ctx, then ends the ctx of running function hooks and host callbacks,
// frees the C handle (which waits for calls of them still running, such as one that overran
// its timeout) and releases the registered funcs; later fires and registrations return
// ErrClosed. Close is idempotent, safe to call concurrently, and always returns nil. It must
// not be called from inside a function hook or host callback of the same dispatcher.
func (d *Dispatcher) Close() error {
	if d == nil || d.h == nil {
		return nil
	}
	d.h.close()
	d.cleanup.Stop()
	runtime.KeepAlive(d)
	return nil
}

// Version returns the linked library's version (hooks_version(), "MAJOR.MINOR.PATCH"), which
// is also the version of this module.
func Version() string {
	return C.GoString(C.hooks_version())
}

// ClaudeCodeVersion returns the Claude Code release (hooks_claude_code_version(), "2.1.332")
// whose events the library knows and whose loop HostStepOf reproduces.
func ClaudeCodeVersion() string {
	return C.GoString(C.hooks_claude_code_version())
}

// close frees the C dispatcher once, after the fires in flight have released the read lock,
// then deletes the handles of the Go funcs: hooks_dispatcher_free has waited for their calls
// in progress and refuses new ones, so none can look a handle up any more.
func (h *handle) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.ptr != nil {
		h.cancel()
		C.hooks_dispatcher_free(h.ptr)
		h.ptr = nil
		h.handlesMu.Lock()
		for _, hd := range h.handles {
			hd.Delete()
		}
		h.handles = nil
		h.handlesMu.Unlock()
	}
}

type fireReply struct {
	out []byte
	err error
}

// fire fires the event text in fb.in and returns the result text, which lives in fb (or is a
// new slice) until fb.release. On an error it has released fb itself, or left it to the fire
// abandoned on ctx, which may still be using it. The C call runs on a goroutine so that ctx
// can end the wait at once; a ctx that can end also gets a cancel token, so that it ends the
// fire in the engine too.
func (d *Dispatcher) fire(ctx context.Context, fb *fireBuf) ([]byte, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if err := ctx.Err(); err != nil {
		fb.release()
		return nil, err
	}
	// fb.in is already a copy made on the caller's goroutine, so nothing the caller owns is
	// read after Fire returns on ctx. It becomes a C string here (abi.md §2.4: borrowed for
	// the call only, so Go memory will do).
	if err := terminate(fb); err != nil {
		fb.release()
		return nil, err
	}
	h := d.h
	h.mu.RLock()
	if h.ptr == nil {
		h.mu.RUnlock()
		fb.release()
		return nil, ErrClosed
	}
	if ctx.Done() == nil {
		// This ctx can never end (context.Background and friends), so there is nothing to
		// race against: skip the goroutine.
		defer h.mu.RUnlock()
		out, err := h.fireLocked(fb, nil)
		runtime.KeepAlive(d)
		if err != nil {
			fb.release()
		}
		return out, err
	}
	// A fire that runs nothing cannot be waited on or cancelled: answer it here, and pay
	// for the goroutine and the token only when hooks run (they took 3x a no-match fire's
	// time). Not while a test stretches fires: those must reach the goroutine.
	if testHookFire == nil {
		if text, ok := h.answerLocked(fb); ok {
			h.mu.RUnlock()
			runtime.KeepAlive(d)
			return text, nil
		}
	}
	// A token per fire: when ctx ends, the fire is cancelled in the engine. tokenMu keeps
	// the cancel (run by AfterFunc on its own goroutine) from racing with the token's free.
	token := C.hooks_cancel_token_new()
	var tokenMu sync.Mutex
	stop := context.AfterFunc(ctx, func() {
		tokenMu.Lock()
		defer tokenMu.Unlock()
		if token != nil {
			C.hooks_cancel_token_cancel(token)
		}
	})
	done := make(chan fireReply, 1) // buffered: an abandoned fire must not block on send
	go func() {
		defer h.mu.RUnlock()
		out, err := h.fireLocked(fb, token)
		runtime.KeepAlive(d)
		stop()
		tokenMu.Lock()
		C.hooks_cancel_token_free(token)
		token = nil
		tokenMu.Unlock()
		done <- fireReply{out, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			fb.release()
		}
		return r.out, r.err
	case <-ctx.Done():
		// The goroutine still uses fb; it is left to the garbage collector, not the pool.
		return nil, ctx.Err()
	}
}

// fireLocked calls hooks_fire_with (a NULL token is a plain fire) on the NUL-terminated text
// in fb.in; the caller holds h.mu's read side and h.ptr is not nil. The result text is copied
// into fb.out (or a new slice when it is larger) and the C string released with hooks_free,
// never C.free.
func (h *handle) fireLocked(fb *fireBuf, token *C.HooksCancelToken) ([]byte, error) {
	if testHookFire != nil {
		testHookFire()
	}
	rc := C.hookwire_fire_into(h.ptr, (*C.char)(unsafe.Pointer(&fb.in[0])), token,
		(*C.char)(unsafe.Pointer(&fb.out[0])), C.size_t(len(fb.out)), fb.c)
	runtime.KeepAlive(h)
	if fb.c.stored == 0 {
		return nil, newError(CodeInternal, KindInternal, "hooks_fire stored no string", 0, 0)
	}
	text := fb.taken()
	if rc != C.HOOKS_OK {
		return nil, parseError(Code(rc), text)
	}
	return text, nil
}

// fireBuf holds one fire's event text and result text. Fires take one from fireBufs, so a
// fire allocates neither a C copy of its event nor a Go copy of its result (figure 6go-0).
type fireBuf struct {
	in  []byte // the event text, then NUL once terminated
	out []byte // where hookwire_fire_into copies the result text when it fits
	c   *C.hookwire_fire_out
}

// fireBufOut is the size of fireBuf.out: a no-match result is about 400 bytes; results with
// outcomes that do not fit cost one more cgo call and a copy, next to a spawn.
const fireBufOut = 4096

// maxPooledEvent keeps the pool from holding on to the buffer of one huge event.
const maxPooledEvent = 64 << 10

var fireBufs = sync.Pool{New: func() any {
	return &fireBuf{in: make([]byte, 0, 512), out: make([]byte, fireBufOut), c: new(C.hookwire_fire_out)}
}}

func getFireBuf() *fireBuf { return fireBufs.Get().(*fireBuf) }

// release returns fb to the pool; nothing may use fb or a result text in it afterwards.
func (fb *fireBuf) release() {
	if cap(fb.in) > maxPooledEvent {
		return
	}
	fb.in = fb.in[:0]
	fireBufs.Put(fb)
}

// terminate makes fb.in a C string, refusing a NUL byte inside as cString does.
func terminate(fb *fireBuf) error {
	if err := noNUL(fb.in); err != nil {
		return err
	}
	fb.in = append(fb.in, 0)
	return nil
}

// answerLocked asks hooks_answer_without_running for the result of fb.in's fire when that
// fire would run nothing, copied as fireLocked copies it; false when only a fire can answer
// (hooks, or an event error the fire will report). The caller holds h.mu's read side and
// h.ptr is not nil.
func (h *handle) answerLocked(fb *fireBuf) ([]byte, bool) {
	rc := C.hookwire_answer_into(h.ptr, (*C.char)(unsafe.Pointer(&fb.in[0])),
		(*C.char)(unsafe.Pointer(&fb.out[0])), C.size_t(len(fb.out)), fb.c)
	runtime.KeepAlive(h)
	if fb.c.stored == 0 {
		return nil, false
	}
	text := fb.taken()
	if rc != C.HOOKS_OK { // only a NULL argument, which fire never passes
		return nil, false
	}
	return text, true
}

// taken is the string hookwire_take reported in fb.c: in fb.out, or copied from the C string
// it hands over, which is then released with hooks_free, never C.free.
func (fb *fireBuf) taken() []byte {
	if fb.c.big == nil {
		return fb.out[:fb.c.len]
	}
	text := bytes.Clone(unsafe.Slice((*byte)(unsafe.Pointer(fb.c.big)), fb.c.len))
	C.hooks_free(fb.c.big)
	fb.c.big = nil
	return text
}

// goBytes copies a NUL-terminated C string into a new Go slice.
func goBytes(s *C.char) []byte {
	return C.GoBytes(unsafe.Pointer(s), C.int(C.strlen(s)))
}

// configCString encodes a configuration (any value New accepts) as a C string the caller
// frees with C.free; encoding failures are *Error values of kind invalid_config.
func configCString(config any) (*C.char, error) {
	text, err := encode(config, CodeInvalidConfig, KindInvalidConfig)
	if err != nil {
		return nil, err
	}
	return cString(text)
}

// cString copies JSON text into C memory, which the caller frees with C.free. Text holding a
// NUL byte cannot cross as a C string, and is not JSON anyway: it is refused here as
// invalid_json rather than silently cut short.
func cString(text string) (*C.char, error) {
	if strings.IndexByte(text, 0) >= 0 {
		return nil, noNUL([]byte(text))
	}
	return C.CString(text), nil
}

// noNUL refuses text holding a NUL byte, as invalid_json at that byte.
func noNUL(text []byte) error {
	i := bytes.IndexByte(text, 0)
	if i < 0 {
		return nil
	}
	line := 1 + bytes.Count(text[:i], []byte("\n"))
	column := i + 1
	if nl := bytes.LastIndexByte(text[:i], '\n'); nl >= 0 {
		column = i - nl
	}
	return newError(CodeInvalidJSON, KindInvalidJSON, "NUL byte in JSON text", line, column)
}

// The Go codes must equal the header's: this fails to compile if one differs.
func _() {
	var x [1]struct{}
	_ = x[C.HOOKS_OK]
	_ = x[CodeNullPointer-C.HOOKS_ERR_NULL_POINTER]
	_ = x[CodeInvalidUTF8-C.HOOKS_ERR_INVALID_UTF8]
	_ = x[CodeInvalidJSON-C.HOOKS_ERR_INVALID_JSON]
	_ = x[CodeInvalidConfig-C.HOOKS_ERR_INVALID_CONFIG]
	_ = x[CodeInvalidEvent-C.HOOKS_ERR_INVALID_EVENT]
	_ = x[CodePanic-C.HOOKS_ERR_PANIC]
	_ = x[CodeInternal-C.HOOKS_ERR_INTERNAL]
}

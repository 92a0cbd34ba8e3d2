package hookwire

// Function hooks and host callbacks written in Go (issue 8): hookwire calls them from its own
// threads through the exported trampolines of export.go. Each registered Go func sits behind
// a runtime/cgo.Handle, which is what the library keeps as user_data; the handles are deleted
// when the dispatcher is freed, after hooks_dispatcher_free has waited for calls in progress.

/*
#include <stdint.h>
#include <stdlib.h>
#include "hookwire.h"

extern int32_t hookwireGoFunctionHook(void *user_data, char *event_json, char **answer);
extern int32_t hookwireGoHostCallback(void *user_data, char *request_json, char **reply_json);

// The exported Go functions take char *, the typedefs const char *: these shims bridge the
// two, and turn the handle into user_data on the C side, so Go never makes a pointer of it.
static int32_t hookwire_function_hook(void *user_data, const char *event_json, char **answer) {
	return hookwireGoFunctionHook(user_data, (char *)event_json, answer);
}
static int32_t hookwire_host_callback(void *user_data, const char *request_json, char **reply_json) {
	return hookwireGoHostCallback(user_data, (char *)request_json, reply_json);
}
static int32_t hookwire_add_go_function_hook(const HooksDispatcher *d, const char *options, uintptr_t handle, char **result_json) {
	return hooks_add_function_hook(d, options, hookwire_function_hook, (void *)handle, result_json);
}
static int32_t hookwire_set_go_host_callback(const HooksDispatcher *d, const char *handler_type, uintptr_t handle, char **error_json) {
	return hooks_set_host_callback(d, handler_type, hookwire_host_callback, (void *)handle, error_json);
}
*/
import "C"

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/cgo"
	"time"
	"unsafe"
)

// FunctionHook says where a Go function runs as a hook (AddFunctionHook). The zero value of
// each optional field means "as for a configured command hook".
type FunctionHook struct {
	// Event is the event it runs on, a canonical name such as "PreToolUse". Required.
	Event string `json:"event"`
	// Matcher is a claude-code matcher on the event's matcher field ("Bash", "Write|Edit");
	// empty means every occurrence.
	Matcher string `json:"matcher,omitempty"`
	// Timeout bounds each call; zero means the default of a command hook on that event. The
	// function's ctx ends at this deadline.
	Timeout time.Duration `json:"-"`
	// FailClosed makes an error, a panic or a timeout block where the event can block;
	// otherwise they are non-blocking errors.
	FailClosed bool `json:"fail_closed,omitempty"`
	// Name names the hook id "function(<Name>):<Event>"; else "function#<n>:<Event>".
	Name string `json:"name,omitempty"`
	// First runs it before the configured hooks in configuration order (default: after).
	First bool `json:"first,omitempty"`
}

// HookFunc is a Go function hook or host callback. It receives the event JSON (function
// hooks) or the request JSON (host callbacks) and answers what a command hook would print on
// stdout: nil for nothing, or JSON. An error is the hook's error (never an error of Fire).
//
// It is called from hookwire's own threads, possibly by several fires at once, so it must be
// safe for concurrent use. Its ctx ends at the hook's timeout and when the dispatcher is
// closed; a call that overruns its timeout is reported timed_out and its answer dropped. It
// must not call Close on its own dispatcher.
type HookFunc func(ctx context.Context, input json.RawMessage) (json.RawMessage, error)

// registration is what a cgo.Handle points to: the Go func and how to bound its calls.
type registration struct {
	fn       HookFunc
	base     context.Context // ends when the dispatcher is closed
	timeout  time.Duration   // 0: from the request's timeout_s, if any
	callback bool            // a host callback (request JSON carries timeout_s)
}

// AddFunctionHook registers fn as a hook of opts.Event, beside the configured hooks of d; its
// answers are read and folded like a command hook's stdout, in configuration order (after the
// configured hooks unless opts.First). It returns the hook id that outcomes carry. A
// registration refused by the engine gives an *Error of kind invalid_config (an unknown
// event, a bad matcher or timeout); on a closed dispatcher it returns ErrClosed.
//
// fn runs on hookwire's threads; see HookFunc. A panic in fn is recovered and becomes the
// hook's error. fn stays registered until Close.
func (d *Dispatcher) AddFunctionHook(opts FunctionHook, fn func(ctx context.Context, event json.RawMessage) (json.RawMessage, error)) (string, error) {
	if fn == nil {
		return "", newError(CodeInvalidConfig, KindInvalidConfig, "fn is nil", 0, 0)
	}
	type wire struct {
		FunctionHook
		TimeoutS float64 `json:"timeout_s,omitempty"`
	}
	options, err := encode(wire{opts, opts.Timeout.Seconds()}, CodeInvalidConfig, KindInvalidConfig)
	if err != nil {
		return "", err
	}
	var id string
	err = d.register(&registration{fn: fn, timeout: opts.Timeout}, func(h *handle, handle C.uintptr_t) (C.int32_t, *C.char) {
		cOptions := C.CString(options)
		defer C.free(unsafe.Pointer(cOptions))
		var out *C.char
		rc := C.hookwire_add_go_function_hook(h.ptr, cOptions, handle, &out)
		if rc == C.HOOKS_OK && out != nil {
			var reply struct {
				Hook string `json:"hook"`
			}
			_ = json.Unmarshal(goBytes(out), &reply)
			id = reply.Hook
			C.hooks_free(out)
			return rc, nil
		}
		return rc, out
	})
	return id, err
}

// SetHostCallback registers fn as the host's callback for one delegated handler type,
// "prompt", "agent" or "mcp_tool" (protocol.md §5.9), replacing an earlier one. Without a
// callback such handlers are skipped with a warning.
//
// fn receives the request {"type", "handler", "event", "timeout_s"} and answers
// {"text": "..."} (mcp_tool: read as a command's stdout) or
// {"ok": bool, "reason"?: "...", "impossible"?: bool} (prompt, agent). Its error, panic or
// lateness is the handler's outcome, never an error of Fire. Its ctx ends at the handler's
// timeout and on Close. Another handler type gives an *Error of kind invalid_config; a closed
// dispatcher gives ErrClosed.
func (d *Dispatcher) SetHostCallback(handlerType string, fn func(ctx context.Context, request json.RawMessage) (json.RawMessage, error)) error {
	if fn == nil {
		return newError(CodeInvalidConfig, KindInvalidConfig, "fn is nil", 0, 0)
	}
	cType, err := cString(handlerType)
	if err != nil {
		return err
	}
	defer C.free(unsafe.Pointer(cType))
	return d.register(&registration{fn: fn, callback: true}, func(h *handle, handle C.uintptr_t) (C.int32_t, *C.char) {
		var cErr *C.char
		rc := C.hookwire_set_go_host_callback(h.ptr, cType, handle, &cErr)
		return rc, cErr
	})
}

// register makes a handle for reg and runs call with it while holding d's read lock; the
// handle is kept (and deleted on Close) when call succeeds, deleted at once otherwise. call
// returns the code and, on failure, the error JSON, which register frees.
func (d *Dispatcher) register(reg *registration, call func(h *handle, handle C.uintptr_t) (C.int32_t, *C.char)) error {
	if d == nil || d.h == nil {
		return ErrClosed
	}
	h := d.h
	h.mu.RLock()
	defer h.mu.RUnlock()
	if h.ptr == nil {
		return ErrClosed
	}
	reg.base = h.ctx
	hd := cgo.NewHandle(reg)
	rc, cErr := call(h, C.uintptr_t(hd))
	runtime.KeepAlive(d)
	if rc != C.HOOKS_OK {
		hd.Delete()
		if cErr == nil {
			return newError(Code(rc), KindInternal, "registration failed without an error JSON", 0, 0)
		}
		defer C.hooks_free(cErr)
		return parseError(Code(rc), goBytes(cErr))
	}
	h.handlesMu.Lock()
	h.handles = append(h.handles, hd)
	h.handlesMu.Unlock()
	return nil
}

// callRegistered runs the Go func behind userData on a hookwire thread and hands its answer
// back through out as a string made by hooks_string_new. It never panics: a panic (in the
// func, or a stale handle) becomes an error answer, because nothing may unwind into C.
func callRegistered(userData unsafe.Pointer, input *C.char, out **C.char) (rc C.int32_t) {
	defer func() {
		if p := recover(); p != nil {
			rc = answer(out, fmt.Sprintf("the Go function panicked: %v", p), 1)
		}
	}()
	reg := cgo.Handle(uintptr(userData)).Value().(*registration)
	in := json.RawMessage(goBytes(input))
	ctx, cancel := reg.context(in)
	defer cancel()
	reply, err := reg.fn(ctx, in)
	if err != nil {
		return answer(out, err.Error(), 1)
	}
	if len(reply) == 0 {
		return 0
	}
	return answer(out, string(reply), 0)
}

// context bounds one call: the registered timeout, else a host callback's timeout_s.
func (reg *registration) context(in json.RawMessage) (context.Context, context.CancelFunc) {
	timeout := reg.timeout
	if timeout == 0 && reg.callback {
		var req struct {
			TimeoutS float64 `json:"timeout_s"`
		}
		if json.Unmarshal(in, &req) == nil && req.TimeoutS > 0 {
			timeout = time.Duration(req.TimeoutS * float64(time.Second))
		}
	}
	if timeout > 0 {
		return context.WithTimeout(reg.base, timeout)
	}
	return context.WithCancel(reg.base)
}

// answer stores text in *out as a string the library owns, and returns rc. Text holding a NUL
// byte is cut there: the library reads C strings.
func answer(out **C.char, text string, rc C.int32_t) C.int32_t {
	cText := C.CString(text)
	defer C.free(unsafe.Pointer(cText))
	*out = C.hooks_string_new(cText)
	return rc
}

package hookwire

import (
	"encoding/json"
	"errors"
)

// Code is the C return code of a hookwire call (abi.md §2.2). Callers should treat a code
// they do not know as an error and read its Kind and Message: new codes may appear.
type Code int32

// The codes of abi.md §6. A nil dispatcher is ErrClosed in Go, so CodeNullPointer is not
// returned by this package in practice; it exists because the C contract has it.
const (
	CodeNullPointer   Code = 1 // HOOKS_ERR_NULL_POINTER: a required pointer argument is NULL
	CodeInvalidUTF8   Code = 2 // HOOKS_ERR_INVALID_UTF8: input text is not UTF-8
	CodeInvalidJSON   Code = 3 // HOOKS_ERR_INVALID_JSON: input text is not JSON; Line and Column set
	CodeInvalidConfig Code = 4 // HOOKS_ERR_INVALID_CONFIG: JSON, but not a configuration; Pointer set
	CodeInvalidEvent  Code = 5 // HOOKS_ERR_INVALID_EVENT: JSON, but not an event
	CodePanic         Code = 6 // HOOKS_ERR_PANIC: a bug in hookwire, caught at the boundary
	CodeInternal      Code = 7 // HOOKS_ERR_INTERNAL: any other failure of hookwire itself
)

// The stable kind strings of abi.md §6; programs branch on Error.Kind or Error.Code.
const (
	KindNullPointer   = "null_pointer"
	KindInvalidUTF8   = "invalid_utf8"
	KindInvalidJSON   = "invalid_json"
	KindInvalidConfig = "invalid_config"
	KindInvalidEvent  = "invalid_event"
	KindPanic         = "panic"
	KindInternal      = "internal"
)

// ErrClosed is returned by Fire and FireJSON on a dispatcher that was closed, or on a nil
// *Dispatcher. It is never wrapped in an *Error.
var ErrClosed = errors.New("hookwire: dispatcher is closed")

// Error is an engine error: no dispatcher could be built, or the event could not be fired.
// What happens to a hook (non-zero exit, timeout, missing program) is never an Error; it is an
// Outcome inside a successful Result. Get at it with errors.As.
//
// An *Error is an immutable value and may be shared between goroutines.
type Error struct {
	// Code is the C code of the failing call (CodeInvalidJSON, ...). For a failed New, which
	// returns no code in C, it is derived from Kind.
	Code Code
	// Kind is the stable kind string ("invalid_json", ...); programs may branch on it.
	Kind string
	// Message is for people and may change between releases.
	Message string
	// Line and Column (1-based; the column counted in bytes) locate a JSON syntax error;
	// zero when absent.
	Line, Column int
	// Pointer is a JSON pointer such as /hooks/PreToolUse/0/hooks/1/timeout naming the
	// wrong part of a well-formed document; empty when absent.
	Pointer string

	// raw is the error JSON's "error" object as the engine wrote it (or as this package
	// built it), kept so the conformance runner can match it key by key.
	raw json.RawMessage
}

// Error reads "hookwire: <kind>: <message>".
func (e *Error) Error() string {
	return "hookwire: " + e.Kind + ": " + e.Message
}

// kinds is the table of abi.md §6: each code with its kind string, read both ways below.
var kinds = map[Code]string{
	CodeNullPointer:   KindNullPointer,
	CodeInvalidUTF8:   KindInvalidUTF8,
	CodeInvalidJSON:   KindInvalidJSON,
	CodeInvalidConfig: KindInvalidConfig,
	CodeInvalidEvent:  KindInvalidEvent,
	CodePanic:         KindPanic,
	CodeInternal:      KindInternal,
}

// codeForKind maps a kind string to its code. A kind this package does not know (a newer
// library) maps to CodeInternal, so that such an error is never mistaken for success.
func codeForKind(kind string) Code {
	for code, k := range kinds {
		if k == kind {
			return code
		}
	}
	return CodeInternal
}

// kindForCode is the inverse of codeForKind, used only when the error JSON is unreadable.
func kindForCode(code Code) string {
	if kind, ok := kinds[code]; ok {
		return kind
	}
	return KindInternal
}

// wireError is the "error" object of the error JSON (abi.md §1) and the one declaration of
// its shape on the Go side: the library's errors are decoded into it, and the few errors this
// package makes itself (a value that cannot be encoded, a NUL byte in text, a nil func), which
// never reach the library, are encoded from it, so both kinds read alike.
type wireError struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	Pointer string `json:"pointer,omitempty"`
}

// toError builds the *Error of an error object; raw is the object as JSON text.
func (o wireError) toError(code Code, raw json.RawMessage) *Error {
	return &Error{
		Code:    code,
		Kind:    o.Kind,
		Message: o.Message,
		Line:    o.Line,
		Column:  o.Column,
		Pointer: o.Pointer,
		raw:     raw,
	}
}

// errorDocument is the error JSON as the engine writes it: {"error": {...}} (abi.md §1).
type errorDocument struct {
	Error json.RawMessage `json:"error"`
}

// newError builds an *Error on the Go side, for a failure that never reaches the library.
func newError(code Code, kind, message string, line, column int) *Error {
	obj := wireError{Kind: kind, Message: message, Line: line, Column: column}
	raw, _ := json.Marshal(obj) // strings and ints always marshal
	return obj.toError(code, raw)
}

// parseError turns an error JSON ({"error": {...}}) returned with code into an *Error. Keys it
// does not know are ignored (abi.md §7). Text that is not an error JSON still gives an
// *Error, carrying the text as its message.
func parseError(code Code, text []byte) *Error {
	var doc errorDocument
	var obj wireError
	if json.Unmarshal(text, &doc) != nil || len(doc.Error) == 0 ||
		json.Unmarshal(doc.Error, &obj) != nil || obj.Kind == "" {
		if code == 0 {
			code = CodeInternal
		}
		return newError(code, kindForCode(code), "unreadable error JSON: "+string(text), 0, 0)
	}
	if code == 0 {
		code = codeForKind(obj.Kind)
	}
	return obj.toError(code, doc.Error)
}

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

// codeForKind maps a kind string to its code. A kind this package does not know (a newer
// library) maps to CodeInternal, so that such an error is never mistaken for success.
func codeForKind(kind string) Code {
	switch kind {
	case KindNullPointer:
		return CodeNullPointer
	case KindInvalidUTF8:
		return CodeInvalidUTF8
	case KindInvalidJSON:
		return CodeInvalidJSON
	case KindInvalidConfig:
		return CodeInvalidConfig
	case KindInvalidEvent:
		return CodeInvalidEvent
	case KindPanic:
		return CodePanic
	default:
		return CodeInternal
	}
}

// kindForCode is the inverse of codeForKind, used only when the error JSON is unreadable.
func kindForCode(code Code) string {
	switch code {
	case CodeNullPointer:
		return KindNullPointer
	case CodeInvalidUTF8:
		return KindInvalidUTF8
	case CodeInvalidJSON:
		return KindInvalidJSON
	case CodeInvalidConfig:
		return KindInvalidConfig
	case CodeInvalidEvent:
		return KindInvalidEvent
	case CodePanic:
		return KindPanic
	default:
		return KindInternal
	}
}

// errorDocument is the error JSON as the engine writes it: {"error": {...}} (abi.md §1).
type errorDocument struct {
	Error json.RawMessage `json:"error"`
}

// errorFields is the error JSON's "error" object; the keys with omitempty are absent, never
// null, when they do not apply. schema_test.go checks these tags against
// ../schema/error.schema.json.
type errorFields struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	Pointer string `json:"pointer,omitempty"`
}

// newError builds an *Error on the Go side (for example when a value cannot be marshalled),
// with the same error object the engine writes.
func newError(code Code, kind, message string, line, column int) *Error {
	e := &Error{Code: code, Kind: kind, Message: message, Line: line, Column: column}
	e.raw, _ = json.Marshal(errorFields{Kind: kind, Message: message, Line: line, Column: column}) // strings and ints always marshal
	return e
}

// parseError turns an error JSON ({"error": {...}}) returned with code into an *Error. Keys it
// does not know are ignored (abi.md §7). Text that is not an error JSON still gives an
// *Error, carrying the text as its message.
func parseError(code Code, text []byte) *Error {
	var doc errorDocument
	var obj errorFields
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
	return &Error{
		Code:    code,
		Kind:    obj.Kind,
		Message: obj.Message,
		Line:    obj.Line,
		Column:  obj.Column,
		Pointer: obj.Pointer,
		raw:     doc.Error,
	}
}

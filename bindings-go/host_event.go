package hookwire

/*
#include <stdlib.h>
#include "hookwire.h"
*/
import "C"

import (
	"encoding/json"
	"unsafe"
)

// MaxStopContinuations (HOOKS_MAX_STOP_CONTINUATIONS, 16) is how many consecutive Stop
// continuations a host allows in one run before it ends the turn itself: the framework
// adapters' bound, above the engine's own guard (limits.stop_block_cap, 8 per session), for a
// configuration that turns that guard off.
const MaxStopContinuations = 16

// HostFacts is what a framework knows at one point of its loop, from which HostEvent builds
// the event to fire (schema/host-facts.schema.json). Event, SessionID and Cwd are always
// needed; each event needs the facts its rule reads (a tool event ToolName, UserPromptSubmit
// Prompt, PostToolUseFailure Error). A nil pointer, map or interface is a fact not given.
type HostFacts struct {
	// Event is the Claude Code event to build ("PreToolUse", "Stop", ...).
	Event     string `json:"event"`
	SessionID string `json:"session_id"`
	// Cwd is the working directory the hooks see.
	Cwd string `json:"cwd"`
	// TranscriptPath is left out of the event when nil (the host keeps no transcript file).
	TranscriptPath *string `json:"transcript_path,omitempty"`
	// PermissionMode is "default" when nil.
	PermissionMode *string `json:"permission_mode,omitempty"`
	// ToolName is the tool as the framework names it.
	ToolName *string `json:"tool_name,omitempty"`
	// ToolNames maps a framework tool name to the name hooks match ({"bash": "Bash"}); a
	// name not in the map is sent as the framework spells it.
	ToolNames map[string]string `json:"tool_names,omitempty"`
	// ToolInput is the tool's arguments as the model gave them: any JSON (a json.RawMessage
	// is sent as is); the event's tool_input is always an object.
	ToolInput any     `json:"tool_input,omitempty"`
	ToolUseID *string `json:"tool_use_id,omitempty"`
	// ToolResponse (PostToolUse) is what the tool returned, any JSON; nil is null.
	ToolResponse any `json:"tool_response,omitempty"`
	// Error (PostToolUseFailure) is the error's message, ErrorType its type, put before it.
	Error       *string `json:"error,omitempty"`
	ErrorType   *string `json:"error_type,omitempty"`
	IsInterrupt *bool   `json:"is_interrupt,omitempty"`
	// Prompt (UserPromptSubmit) is the prompt's text.
	Prompt *string `json:"prompt,omitempty"`
	// Source (SessionStart) is "startup" when nil; Reason (SessionEnd) "other".
	Source *string `json:"source,omitempty"`
	Reason *string `json:"reason,omitempty"`
	// StopHookActive and LastAssistantMessage are Stop's and SubagentStop's.
	StopHookActive       *bool   `json:"stop_hook_active,omitempty"`
	LastAssistantMessage *string `json:"last_assistant_message,omitempty"`
	// Fields are the event's other keys, as the host gives them (permission_suggestions,
	// agent_id, ...); they never overwrite a key the rule writes.
	Fields map[string]any `json:"fields,omitempty"`
}

// HostEvent builds the event a host fires from what its framework knows, by the engine's one
// rule (hooks_host_event): Claude Code's key order, transcript_path only when given,
// permission_mode "default" unless given, tool_name mapped through ToolNames, tool_input
// always an object, PostToolUseFailure's error as "<error_type>: <error>". facts is a
// HostFacts (or *HostFacts), a map, or JSON text ([]byte, json.RawMessage or string). The
// event is JSON text, ready for Dispatcher.Fire or FireJSON, which pass it to the hooks as
// is.
//
// Errors are *Error values: invalid_json, and invalid_event for facts of the wrong shape (an
// unknown or mistyped key, an unknown event) or missing a fact the event needs (its Pointer
// names it, for example "/tool_name"). A pure function, safe from any goroutine.
func HostEvent(facts any) (json.RawMessage, error) {
	event, err := textCall[json.RawMessage](facts, CodeInvalidEvent, KindInvalidEvent, "hooks_host_event", "host event",
		func(in *C.char, out **C.char) C.int32_t { return C.hooks_host_event(in, out) })
	if err != nil {
		return nil, err
	}
	return *event, nil
}

// ToolReach says whether a framework's tool can reach the hooks a dispatcher has on tool
// events (schema/tool-reach.schema.json), as Dispatcher.ToolReach returns it.
type ToolReach struct {
	// ToolName is the tool name as the hooks would see it.
	ToolName string `json:"tool_name"`
	// Hooked: hooks are configured on tool events (PreToolUse, PermissionRequest, ...).
	Hooked bool `json:"hooked"`
	// Reached: the matcher of at least one of those hooks matches this name.
	Reached bool `json:"reached"`
	// Warning, when hooks are configured on tool events and none can match this name, is the
	// text to show once, naming the matchers it missed; nil otherwise.
	Warning *string `json:"warning"`
}

// ToolReach says whether the tool toolName (as the hooks see it: after any tool-name map) is
// matched by a hook on a tool event, and when it is not, the warning a host shows once, the
// first time the tool is called: a user's "Bash" guard never runs on a tool named "bash"
// unless the name is mapped. Nothing is run. Safe to call concurrently with fires; on a
// closed or nil dispatcher it returns ErrClosed; a name holding a NUL byte is an *Error.
func (d *Dispatcher) ToolReach(toolName string) (*ToolReach, error) {
	if d == nil || d.h == nil {
		return nil, ErrClosed
	}
	cName, err := cString(toolName)
	if err != nil {
		return nil, err
	}
	defer C.free(unsafe.Pointer(cName))
	return dispatcherCall[ToolReach](d, "hooks_tool_reach", "tool reach",
		func(ptr *C.HooksDispatcher, out **C.char) C.int32_t { return C.hooks_tool_reach(ptr, cName, out) })
}

// MaxStopContinuations must equal the header's: this fails to compile if it differs.
func _() {
	var x [1]struct{}
	_ = x[MaxStopContinuations-C.HOOKS_MAX_STOP_CONTINUATIONS]
}

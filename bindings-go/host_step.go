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

// HostAction is what an agent loop does next with a result (agents.md §5). Each action
// belongs to one point of the loop; the event decides which can occur.
type HostAction string

// The actions of a host step (schema/host-step.schema.json).
const (
	// ActionRunTool (PreToolUse): run the tool, with ToolInput when a hook rewrote it.
	ActionRunTool HostAction = "run_tool"
	// ActionDenyTool (PreToolUse deny, or ask with nobody to ask): do not run the tool; the
	// model gets an error tool result whose text is Message.
	ActionDenyTool HostAction = "deny_tool"
	// ActionDeferTool (PreToolUse defer): do not run the tool and give no tool result; the run
	// ends and the pending call is handed back to the caller.
	ActionDeferTool HostAction = "defer_tool"
	// ActionDeliverResult (PostToolUse, PostToolUseFailure): the model gets the real result,
	// Feedback beside it, and ToolOutput instead of it when that fits the tool's output.
	ActionDeliverResult HostAction = "deliver_result"
	// ActionCallModel (UserPromptSubmit): call the model, with Prompt when a hook rewrote it.
	ActionCallModel HostAction = "call_model"
	// ActionBlockPrompt (UserPromptSubmit block or continue: false): no model call; the prompt
	// is dropped and UserMessage is shown to the user, never to the model.
	ActionBlockPrompt HostAction = "block_prompt"
	// ActionContinueTurn (Stop, SubagentStop block or context): one more model call with
	// Message as its user message; the next Stop event carries stop_hook_active: true.
	ActionContinueTurn HostAction = "continue_turn"
	// ActionEndTurn (Stop, SubagentStop): let the turn end.
	ActionEndTurn HostAction = "end_turn"
	// ActionSwitchModel (PreModelSwitch allow or no decision): switch the model.
	ActionSwitchModel HostAction = "switch_model"
	// ActionKeepModel (PreModelSwitch deny, or ask with nobody to ask): keep the current
	// model; UserMessage says why.
	ActionKeepModel HostAction = "keep_model"
	// ActionProceed (any other event): go on; deliver Context if there is any.
	ActionProceed HostAction = "proceed"
)

// Audience says who sees a text of a host step.
type Audience string

// The audiences of SeenBy.
const (
	// AudienceModel: the model only.
	AudienceModel Audience = "model"
	// AudienceUser: the user only, never the model.
	AudienceUser Audience = "user"
	// AudienceBoth: the model, in the step's slot, and the user as well.
	AudienceBoth Audience = "both"
)

// SeenBy names, for each text of a host step, who sees it (nil exactly when the text is
// nil), so that an adapter never guesses: since Claude Code 2.1.332 one Message can reach
// both the model and the user (an ask turned deny, a PermissionRequest denial).
type SeenBy struct {
	Message     *Audience `json:"message"`
	Feedback    *Audience `json:"feedback"`
	Prompt      *Audience `json:"prompt"`
	Context     *Audience `json:"context"`
	UserMessage *Audience `json:"user_message"`
}

// HostStep is what an agent loop does next with the result of one fire, as Claude Code's own
// loop would (agents.md §5); HostStepOf computes it in the engine, so every language and
// every framework adapter applies a result the same way. The json tags are the step JSON's
// keys; nullable values are pointers or json.RawMessage ("null" or empty when absent).
type HostStep struct {
	// Event is the result's event.
	Event  string     `json:"event"`
	Action HostAction `json:"action"`
	// ToolInput (run_tool) is the replacement tool input; null runs the call as made.
	ToolInput json.RawMessage `json:"tool_input"`
	// Message is the error tool result's text (deny_tool) or the extra call's user message
	// (continue_turn).
	Message *string `json:"message"`
	// Feedback (deliver_result) is text for the model beside the real tool result.
	Feedback *string `json:"feedback"`
	// ToolOutput (deliver_result) replaces the tool output only when it fits what the tool
	// returns; otherwise keep the original.
	ToolOutput json.RawMessage `json:"tool_output"`
	// Prompt (call_model) is the rewritten prompt; nil keeps the prompt as submitted.
	Prompt *string `json:"prompt"`
	// Context is text for the model, labelled with the event: beside the tool result (also
	// on deny_tool), before the prompt, at session start.
	Context *string `json:"context"`
	// UserMessage is text for the user and never the model.
	UserMessage *string `json:"user_message"`
	// Stop ends the run after this step (PreToolUse: after the tool ran).
	Stop bool `json:"stop"`
	// SeenBy says who sees each text above; show a Message seen by AudienceBoth to the
	// user too.
	SeenBy SeenBy `json:"seen_by"`
	// Approved is true on ActionRunTool when a hook decided allow (PreToolUse,
	// PermissionRequest): the host's own approval of the call is not asked, as Claude Code
	// skips its permission prompt. False on ActionRunTool without a decision: the host's own
	// approval, and PermissionRequest where it would ask someone, still stand.
	Approved bool `json:"approved"`
}

// UserTexts are the step's texts for the user, in order: Message when the user sees it too,
// then UserMessage. An adapter hands each to its user callback.
func (s *HostStep) UserTexts() []string {
	var out []string
	if s.Message != nil && s.SeenBy.Message != nil && *s.SeenBy.Message != AudienceModel {
		out = append(out, *s.Message)
	}
	if s.UserMessage != nil {
		out = append(out, *s.UserMessage)
	}
	return out
}

// HostStepOf returns the host step of a result: a *Result or Result from Fire, the JSON text
// FireJSON returned ([]byte, json.RawMessage or string), or any value json.Marshal encodes
// as a result. Something that is not a result gives an *Error of kind invalid_json or
// invalid_event. A pure function, safe from any goroutine.
func HostStepOf(result any) (*HostStep, error) {
	return textCall[HostStep](result, CodeInvalidEvent, KindInvalidEvent, "hooks_host_step", "host step",
		func(in *C.char, out **C.char) C.int32_t { return C.hooks_host_step(in, out) })
}

// HostStepFor is HostStepOf for a PostToolUse result of a tool whose output was toolResponse
// (any value json.Marshal encodes, or JSON text as []byte or json.RawMessage): the step's
// ToolOutput is kept only when it has the JSON kind of that output (a string for a string, an
// object for an object, ...), else it is nil and the host keeps the real output. A host tells
// a refused replacement by the result's UpdatedToolOutput being set. Errors as HostStepOf's,
// and an *Error of kind invalid_json for toolResponse text that is not JSON.
func HostStepFor(result any, toolResponse any) (*HostStep, error) {
	if text, ok := toolResponse.(string); ok {
		// A string is the tool's output, not JSON text as encode takes it.
		toolResponse, _ = json.Marshal(text)
	}
	response, err := encode(toolResponse, CodeInvalidJSON, KindInvalidJSON)
	if err != nil {
		return nil, err
	}
	cResponse, err := cString(response)
	if err != nil {
		return nil, err
	}
	defer C.free(unsafe.Pointer(cResponse))
	return textCall[HostStep](result, CodeInvalidEvent, KindInvalidEvent, "hooks_host_step_for", "host step",
		func(in *C.char, out **C.char) C.int32_t { return C.hooks_host_step_for(in, cResponse, out) })
}

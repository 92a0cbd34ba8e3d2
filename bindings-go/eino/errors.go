package hookwireeino

import (
	"encoding/json"
	"fmt"
)

// DeferredToolCall is the error a run ends with when a PreToolUse hook deferred a tool call:
// the tool did not run and the model got no result; the pending call is handed back to the
// caller, who may run it (or not) and resume the conversation. Find it with errors.As in the
// Err of the run's last event.
type DeferredToolCall struct {
	ToolName  string          // the eino tool name
	Arguments string          // the arguments as the model wrote them
	ToolInput json.RawMessage // the tool_input the hooks saw
	ToolUseID string          // the call id
}

func (e *DeferredToolCall) Error() string {
	return fmt.Sprintf("hookwire: a PreToolUse hook deferred the call %s of tool %q; the run ended with the call pending", e.ToolUseID, e.ToolName)
}

// PromptBlockedError is the error of a run whose prompt a UserPromptSubmit hook blocked: no
// model call was made. Message is the hooks' text for the user (never given to the model).
type PromptBlockedError struct {
	Message string
}

func (e *PromptBlockedError) Error() string {
	if e.Message == "" {
		return "hookwire: a UserPromptSubmit hook blocked the prompt"
	}
	return "hookwire: a UserPromptSubmit hook blocked the prompt: " + e.Message
}

// StoppedError is the error of a run that a hook stopped (continue: false) after a tool call:
// the tool ran, and the run ended before the next model call. Event is the hook event that
// stopped it; the stop reason went to the user (Options.OnUserMessage).
type StoppedError struct {
	Event string
}

func (e *StoppedError) Error() string {
	return fmt.Sprintf("hookwire: a %s hook stopped the run before the next model call", e.Event)
}

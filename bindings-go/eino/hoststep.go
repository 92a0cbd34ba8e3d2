package hookwireeino

// TEMPORARY SHIM, to be deleted when hookwire.HostStepOf lands on main: until then this file
// stands in for the core's host step with the contract's types and a minimal reading of a
// result, so the adapter can be built and tested. After the merge the file keeps only the
// aliases and hostStep calling hookwire.HostStepOf.

import (
	"encoding/json"
	"fmt"

	hookwire "github.com/hookwire/hookwire/bindings-go"
)

type stepAction string

const (
	actionRunTool       stepAction = "run_tool"
	actionDenyTool      stepAction = "deny_tool"
	actionDeferTool     stepAction = "defer_tool"
	actionDeliverResult stepAction = "deliver_result"
	actionCallModel     stepAction = "call_model"
	actionBlockPrompt   stepAction = "block_prompt"
	actionContinueTurn  stepAction = "continue_turn"
	actionEndTurn       stepAction = "end_turn"
	actionProceed       stepAction = "proceed"
)

type step struct {
	Event       string          `json:"event"`
	Action      stepAction      `json:"action"`
	ToolInput   json.RawMessage `json:"tool_input"`
	Message     *string         `json:"message"`
	Feedback    *string         `json:"feedback"`
	ToolOutput  json.RawMessage `json:"tool_output"`
	Prompt      *string         `json:"prompt"`
	Context     *string         `json:"context"`
	UserMessage *string         `json:"user_message"`
	Stop        bool            `json:"stop"`
}

// hostStep is the one call of the core's host step.
func hostStep(r *hookwire.Result) (*step, error) {
	s := &step{Event: r.Event, Stop: !r.Continue, UserMessage: r.SystemMessage}
	dec := ""
	if r.Decision != nil {
		dec = string(*r.Decision)
	}
	if r.AdditionalContext != nil {
		c := fmt.Sprintf("%s hook additional context: %s", r.Event, *r.AdditionalContext)
		s.Context = &c
	}
	switch r.Event {
	case "PreToolUse":
		switch dec {
		case "deny", "ask":
			s.Action, s.Message = actionDenyTool, r.Reason
		case "defer":
			s.Action = actionDeferTool
		default:
			s.Action, s.ToolInput = actionRunTool, r.UpdatedInput
		}
	case "PostToolUse", "PostToolUseFailure":
		s.Action, s.ToolOutput = actionDeliverResult, r.UpdatedToolOutput
		if dec == "block" {
			s.Feedback = r.Reason
		}
	case "UserPromptSubmit":
		s.Action = actionCallModel
		if dec == "block" || !r.Continue {
			s.Action, s.UserMessage = actionBlockPrompt, r.Reason
		}
	case "Stop", "SubagentStop":
		s.Action = actionEndTurn
		if dec == "block" && r.Continue {
			m := "Stop hook feedback:\n" + *r.Reason
			s.Action, s.Message = actionContinueTurn, &m
		}
	default:
		s.Action = actionProceed
	}
	return s, nil
}

package hookwireeino

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
)

// Middleware returns the eino middleware that fires the tool hooks: add it to
// adk.ChatModelAgentConfig.Middlewares. Its WrapToolCall guards the four kinds of eino tool
// (invokable, streamable, enhanced invokable, enhanced streamable); its BeforeChatModel
// keeps the model from being called once a hook stopped the run (which needs the run to go
// through Wrap).
func (h *Hooks) Middleware() adk.AgentMiddleware {
	return adk.AgentMiddleware{
		BeforeChatModel: h.beforeChatModel,
		WrapToolCall: compose.ToolMiddleware{
			Invokable: func(next compose.InvokableToolEndpoint) compose.InvokableToolEndpoint {
				call := guardTool(h, textOutput, func(ctx context.Context, in *compose.ToolInput) (string, error) {
					out, err := next(ctx, in)
					if err != nil {
						return "", err
					}
					return out.Result, nil
				})
				return func(ctx context.Context, in *compose.ToolInput) (*compose.ToolOutput, error) {
					s, err := call(ctx, in)
					if err != nil {
						return nil, err
					}
					return &compose.ToolOutput{Result: s}, nil
				}
			},
			Streamable: func(next compose.StreamableToolEndpoint) compose.StreamableToolEndpoint {
				call := guardTool(h, textOutput, func(ctx context.Context, in *compose.ToolInput) (string, error) {
					out, err := next(ctx, in)
					if err != nil {
						return "", err
					}
					return drainText(out.Result)
				})
				return func(ctx context.Context, in *compose.ToolInput) (*compose.StreamToolOutput, error) {
					s, err := call(ctx, in)
					if err != nil {
						return nil, err
					}
					return &compose.StreamToolOutput{Result: schema.StreamReaderFromArray([]string{s})}, nil
				}
			},
			EnhancedInvokable: func(next compose.EnhancedInvokableToolEndpoint) compose.EnhancedInvokableToolEndpoint {
				call := guardTool(h, toolResultOutput, func(ctx context.Context, in *compose.ToolInput) (*schema.ToolResult, error) {
					out, err := next(ctx, in)
					if err != nil {
						return nil, err
					}
					return out.Result, nil
				})
				return func(ctx context.Context, in *compose.ToolInput) (*compose.EnhancedInvokableToolOutput, error) {
					r, err := call(ctx, in)
					if err != nil {
						return nil, err
					}
					return &compose.EnhancedInvokableToolOutput{Result: r}, nil
				}
			},
			EnhancedStreamable: func(next compose.EnhancedStreamableToolEndpoint) compose.EnhancedStreamableToolEndpoint {
				call := guardTool(h, toolResultOutput, func(ctx context.Context, in *compose.ToolInput) (*schema.ToolResult, error) {
					out, err := next(ctx, in)
					if err != nil {
						return nil, err
					}
					return drainToolResult(out.Result)
				})
				return func(ctx context.Context, in *compose.ToolInput) (*compose.EnhancedStreamableToolOutput, error) {
					r, err := call(ctx, in)
					if err != nil {
						return nil, err
					}
					return &compose.EnhancedStreamableToolOutput{Result: schema.StreamReaderFromArray([]*schema.ToolResult{r})}, nil
				}
			},
		},
	}
}

// beforeChatModel ends the run, before the model is called, once a hook stopped it.
func (h *Hooks) beforeChatModel(ctx context.Context, _ *adk.ChatModelAgentState) error {
	if rs := runStateOf(ctx); rs != nil && rs.stoppedBy() != "" {
		return errRunStopped
	}
	return nil
}

// guardTool wraps one tool call in its hooks: PreToolUse before it, PostToolUse or
// PostToolUseFailure after it, each result applied through its host step.
func guardTool[O any](h *Hooks, kind outputKind[O], next func(context.Context, *compose.ToolInput) (O, error)) func(context.Context, *compose.ToolInput) (O, error) {
	return func(ctx context.Context, in *compose.ToolInput) (O, error) {
		var zero O
		rs := runStateOf(ctx)
		if rs == nil {
			h.warnOnce(ctx, "not-wrapped", "tool hooks fire, but the agent does not run through Hooks.Wrap: "+
				"SessionStart, UserPromptSubmit and Stop hooks do not fire and a hook's stop is not applied")
		} else {
			rs.countToolFire()
		}
		toolInput, ok := objectArguments(in.Arguments)
		if !ok {
			// No hook can judge a call whose input it cannot read; the tool could not either.
			return kind.fromText("hookwire: the tool arguments are not a JSON object; the call was not run"), nil
		}
		name := h.toolName(in.Name)
		pre, err := h.fire(ctx, "PreToolUse", map[string]any{
			"tool_name": name, "tool_input": toolInput, "tool_use_id": in.CallID,
		})
		if err != nil {
			return zero, err
		}
		if pre.Stop {
			h.stopRun(ctx, rs, "PreToolUse")
		}
		switch pre.Action {
		case actionDenyTool:
			out := kind.fromText(textOr(pre.Message, "The PreToolUse hook denied this tool call."))
			if pre.Context != nil {
				out = beside(ctx, h, kind, out, *pre.Context)
			}
			return out, nil
		case actionDeferTool:
			d := &DeferredToolCall{ToolName: in.Name, Arguments: in.Arguments, ToolInput: toolInput, ToolUseID: in.CallID}
			if rs != nil {
				rs.setDeferred(d)
			}
			return zero, d
		case actionRunTool:
		default:
			return zero, fmt.Errorf("hookwire: PreToolUse host step with unexpected action %q", pre.Action)
		}
		call := in
		if len(pre.ToolInput) > 0 && string(pre.ToolInput) != "null" {
			replacement, ok := objectArguments(string(pre.ToolInput))
			if !ok {
				h.warnOnce(ctx, "bad-updated-input", "a PreToolUse hook's updatedInput is not a JSON object; the call was not run")
				return kind.fromText("hookwire: a PreToolUse hook rewrote this call's input into something that is not a JSON object; the call was not run"), nil
			}
			c := *in
			c.Arguments = string(replacement)
			call, toolInput = &c, replacement
		}
		out, err := next(ctx, call)
		if err != nil {
			h.afterFailure(ctx, rs, call, name, toolInput, err)
			return zero, err
		}
		post, err := h.fire(ctx, "PostToolUse", map[string]any{
			"tool_name": name, "tool_input": toolInput, "tool_use_id": in.CallID,
			"tool_response": kind.response(out),
		})
		if err != nil {
			return zero, err
		}
		if len(post.ToolOutput) > 0 && string(post.ToolOutput) != "null" {
			if r, ok := kind.replace(post.ToolOutput); ok {
				out = r
			} else {
				h.warnOnce(ctx, "tool-output-shape", "a PostToolUse hook's updatedToolOutput does not have the shape of the tool's output "+
					"(a JSON string for a text tool, {\"parts\": [...]} for an enhanced tool); the original output is kept")
			}
		}
		if post.Feedback != nil {
			out = beside(ctx, h, kind, out, *post.Feedback)
		}
		if post.Context != nil {
			out = beside(ctx, h, kind, out, *post.Context)
		}
		if post.Stop {
			h.stopRun(ctx, rs, "PostToolUse")
		}
		return out, nil
	}
}

// afterFailure fires PostToolUseFailure for a tool that returned an error (not for an eino
// interrupt, which pauses the run rather than failing the call). eino ends the run with that
// error, so no text of the result can reach a model: said in a warning.
func (h *Hooks) afterFailure(ctx context.Context, rs *runState, in *compose.ToolInput, name string, toolInput json.RawMessage, toolErr error) {
	if _, interrupted := compose.IsInterruptRerunError(toolErr); interrupted {
		return
	}
	st, err := h.fire(ctx, "PostToolUseFailure", map[string]any{
		"tool_name": name, "tool_input": toolInput, "tool_use_id": in.CallID,
		"error": toolErr.Error(), "is_interrupt": false,
	})
	if err != nil {
		h.opts.Logger.WarnContext(ctx, "hookwire eino adapter: PostToolUseFailure not fired", "error", err)
		return
	}
	if st.Feedback != nil || st.Context != nil || len(st.ToolOutput) > 0 && string(st.ToolOutput) != "null" {
		h.warnOnce(ctx, "failure-result", "a PostToolUseFailure hook's feedback, context or output cannot reach the model: "+
			"eino ends the run with the tool's error")
	}
	if st.Stop {
		h.stopRun(ctx, rs, "PostToolUseFailure")
	}
}

// beside gives the model text a hook meant for beside the tool result. eino has no message
// slot there (a tool middleware only returns the result), so the text is appended to it.
func beside[O any](ctx context.Context, h *Hooks, kind outputKind[O], out O, text string) O {
	h.warnOnce(ctx, "beside-result", "eino cannot put a message beside a tool result: "+
		"hook context and PostToolUse feedback are appended to the tool result instead")
	return kind.appendText(out, text)
}

// stopRun ends the run after the current tool call, before the next model call.
func (h *Hooks) stopRun(ctx context.Context, rs *runState, event string) {
	if rs == nil {
		h.warnOnce(ctx, "stop-not-wrapped", "a "+event+" hook stopped the run, but the agent does not run through Hooks.Wrap; the run goes on")
		return
	}
	rs.requestStop(event)
}

// objectArguments is a tool's arguments as a JSON object for tool_input: "" (a tool without
// parameters) is {}; anything but an object is refused.
func objectArguments(args string) (json.RawMessage, bool) {
	trimmed := bytes.TrimSpace([]byte(args))
	if len(trimmed) == 0 {
		return json.RawMessage("{}"), true
	}
	if trimmed[0] != '{' || !json.Valid(trimmed) {
		return nil, false
	}
	var compact bytes.Buffer
	if json.Compact(&compact, trimmed) != nil {
		return nil, false
	}
	return compact.Bytes(), true
}

func textOr(s *string, fallback string) string {
	if s == nil || *s == "" {
		return fallback
	}
	return *s
}

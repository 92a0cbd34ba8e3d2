package hookwireeino

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"

	hookwire "github.com/hookwire/hookwire/bindings-go"
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
		h.checkReach(ctx, in.Name)
		pre, err := h.fire(ctx, hookwire.HostFacts{
			Event: "PreToolUse", ToolName: &in.Name, ToolInput: toolInput, ToolUseID: &in.CallID,
		})
		if err != nil {
			return zero, err
		}
		if pre.Stop {
			h.stopRun(ctx, rs, "PreToolUse")
		}
		switch pre.Action {
		case actionDenyTool:
			return denied(ctx, h, kind, pre, pre.Context), nil
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
		if !rewrite(ctx, h, pre, &call, &toolInput) {
			return kind.fromText(notRewritten("PreToolUse")), nil
		}
		// Claude Code asks for permission only when no PreToolUse hook allowed the call; with
		// nobody to ask, PermissionRequest decides, and only its allow runs the tool.
		if !pre.Approved && h.opts.NeedsPermission != nil && h.opts.NeedsPermission(h.hookName(in.Name), toolInput) {
			asked, err := h.fire(ctx, hookwire.HostFacts{
				Event: "PermissionRequest", ToolName: &in.Name, ToolInput: toolInput,
				Fields: map[string]any{"permission_suggestions": []any{}},
			})
			if err != nil {
				return zero, err
			}
			if asked.Stop {
				h.stopRun(ctx, rs, "PermissionRequest")
			}
			if asked.Action != actionRunTool {
				return denied(ctx, h, kind, asked, pre.Context, asked.Context), nil
			}
			if !rewrite(ctx, h, asked, &call, &toolInput) {
				return kind.fromText(notRewritten("PermissionRequest")), nil
			}
		}
		out, err := next(ctx, call)
		if err != nil {
			h.afterFailure(ctx, rs, call, toolInput, err)
			return zero, err
		}
		post, err := h.fire(ctx, hookwire.HostFacts{
			Event: "PostToolUse", ToolName: &in.Name, ToolInput: toolInput, ToolUseID: &in.CallID,
			ToolResponse: kind.response(out),
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
func (h *Hooks) afterFailure(ctx context.Context, rs *runState, in *compose.ToolInput, toolInput json.RawMessage, toolErr error) {
	if _, interrupted := compose.IsInterruptRerunError(toolErr); interrupted {
		return
	}
	message := toolErr.Error()
	st, err := h.fire(ctx, hookwire.HostFacts{
		Event: "PostToolUseFailure", ToolName: &in.Name, ToolInput: toolInput, ToolUseID: &in.CallID,
		Error: &message,
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

// denied is the tool result of a call a hook denied: the step's message (the user got it
// already when the step says they see it too), then the hooks' context for the model.
func denied[O any](ctx context.Context, h *Hooks, kind outputKind[O], st *step, contexts ...*string) O {
	out := kind.fromText(textOr(st.Message, "The "+st.Event+" hook denied this tool call."))
	for _, text := range contexts {
		if text != nil {
			out = beside(ctx, h, kind, out, *text)
		}
	}
	return out
}

// rewrite applies a step's replacement tool input to the call (and the events' toolInput);
// false when the replacement is not a JSON object, so the call must not run.
func rewrite(ctx context.Context, h *Hooks, st *step, call **compose.ToolInput, toolInput *json.RawMessage) bool {
	if len(st.ToolInput) == 0 || string(st.ToolInput) == "null" {
		return true
	}
	replacement, ok := objectArguments(string(st.ToolInput))
	if !ok {
		h.warnOnce(ctx, "bad-updated-input", "a "+st.Event+" hook's updatedInput is not a JSON object; the call was not run")
		return false
	}
	c := **call
	c.Arguments = string(replacement)
	*call, *toolInput = &c, replacement
	return true
}

// notRewritten is the tool output of a call whose rewrite was not a JSON object.
func notRewritten(event string) string {
	return "hookwire: a " + event + " hook rewrote this call's input into something that is not a JSON object; the call was not run"
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

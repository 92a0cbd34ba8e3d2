package hookwireeino_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/cloudwego/eino/components/tool"

	hookwireeino "github.com/hookwire/hookwire/bindings-go/eino"
)

// PermissionRequest and the user's texts, as Claude Code 2.1.332 applies them. eino's ADK
// has no approval mechanism of its own (a tool that wants a human raises an interrupt
// itself), so Options.NeedsPermission names the calls that need permission; nobody is asked
// for them, and a PreToolUse allow skips the request as it skips Claude Code's prompt.

// toldUser is an OnUserMessage that records "event: text".
type toldUser struct {
	mu   sync.Mutex
	seen []string
}

func (u *toldUser) add(_ context.Context, event, text string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.seen = append(u.seen, event+": "+text)
}

func (u *toldUser) all() []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]string(nil), u.seen...)
}

func permissionHooks(t *testing.T, p *project, told *toldUser, needs func(string, json.RawMessage) bool) *hookwireeino.Hooks {
	t.Helper()
	h, err := hookwireeino.New(p.dispatcher(nil), hookwireeino.Options{Cwd: p.dir, OnUserMessage: told.add, NeedsPermission: needs})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// bashNeedsPermission is a NeedsPermission that sees the hooks' name (Bash, not bash).
func bashNeedsPermission(name string, _ json.RawMessage) bool { return name == "Bash" }

const permissionAllow = `
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "allow",
    "updatedInput": {"command": event["tool_input"]["command"] + " --safe"}}}}))`

func TestPermissionRequestAllowRunsTheToolWithItsInput(t *testing.T) {
	p := newProject(t)
	p.hook("PermissionRequest", "Bash", permissionAllow)
	m := newScriptedModel(callBash("call_1", "ls"), answer("done"))
	bash, told := &bashTool{}, &toldUser{}
	run := runAgent(t, permissionHooks(t, p, told, bashNeedsPermission), m, bash, "list", false)

	if len(run.errs) > 0 {
		t.Fatalf("run errors: %v", run.errs)
	}
	if got := bash.commands(); !reflect.DeepEqual(got, []string{"ls --safe"}) {
		t.Fatalf("the allowed tool ran %v", got)
	}
	asked := p.events("PermissionRequest")
	if len(asked) != 1 || asked[0]["tool_name"] != "Bash" || !reflect.DeepEqual(asked[0]["tool_input"], map[string]any{"command": "ls"}) ||
		!reflect.DeepEqual(asked[0]["permission_suggestions"], []any{}) {
		t.Fatalf("PermissionRequest events: %v", asked)
	}
	if got := told.all(); len(got) != 0 {
		t.Fatalf("the user was told %q", got)
	}
}

func TestPermissionRequestDenyTellsTheModelAndTheUser(t *testing.T) {
	p := newProject(t)
	p.hook("PermissionRequest", "Bash", `
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "deny", "message": "no shell today"}}}))`)
	m := newScriptedModel(callBash("call_1", "ls"), answer("done"))
	bash, told := &bashTool{}, &toldUser{}
	run := runAgent(t, permissionHooks(t, p, told, bashNeedsPermission), m, bash, "list", false)

	if len(run.errs) > 0 {
		t.Fatalf("run errors: %v", run.errs)
	}
	if got := bash.commands(); len(got) != 0 {
		t.Fatalf("the denied tool ran: %v", got)
	}
	if results := toolMessages(lastCall(t, m)); len(results) != 1 || results[0].Content != "no shell today" {
		t.Fatalf("the model did not get the denial as the call's result: %+v", results)
	}
	if got := told.all(); !reflect.DeepEqual(got, []string{"PermissionRequest: no shell today"}) {
		t.Fatalf("the user was told %q", got)
	}
}

func TestPermissionRequestDenyWithInterruptEndsTheRun(t *testing.T) {
	p := newProject(t)
	p.hook("PermissionRequest", "Bash", `
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PermissionRequest",
    "decision": {"behavior": "deny", "message": "stop here", "interrupt": True}}}))`)
	m := newScriptedModel(callBash("call_1", "ls"), answer("done"))
	bash := &bashTool{}
	run := runAgent(t, permissionHooks(t, p, &toldUser{}, bashNeedsPermission), m, bash, "list", false)

	var stopped *hookwireeino.StoppedError
	if len(bash.commands()) != 0 || len(m.received()) != 1 || len(run.errs) != 1 || !errors.As(run.errs[0], &stopped) || stopped.Event != "PermissionRequest" {
		t.Fatalf("ran %v, model calls %d, errors %v: want no run, no further model call, a *StoppedError", bash.commands(), len(m.received()), run.errs)
	}
}

// With nobody to ask (NeedsPermission: eino has no approval of its own to leave in charge),
// a PermissionRequest that no hook decides denies, as Claude Code does in -p.
func TestPermissionRequestWithoutADecisionDeniesWhenNobodyIsAsked(t *testing.T) {
	p := newProject(t)
	p.hook("PermissionRequest", "Bash", ``)
	m := newScriptedModel(callBash("call_1", "ls"), answer("done"))
	bash, told := &bashTool{}, &toldUser{}
	runAgent(t, permissionHooks(t, p, told, bashNeedsPermission), m, bash, "list", false)

	if got := bash.commands(); len(got) != 0 {
		t.Fatalf("the tool ran without an allow: %v", got)
	}
	results := toolMessages(lastCall(t, m))
	if len(results) != 1 || !strings.Contains(results[0].Content, "not granted") {
		t.Fatalf("the model's tool result: %+v", results)
	}
	if got := told.all(); len(got) != 1 || !strings.Contains(got[0], "not granted") {
		t.Fatalf("the user was told %q", got)
	}
}

func TestAPreToolUseAllowSkipsThePermissionRequest(t *testing.T) {
	p := newProject(t)
	p.hook("PreToolUse", "Bash", `
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}))`)
	p.hook("PermissionRequest", "Bash", `
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "deny", "message": "asked anyway"}}}))`)
	m := newScriptedModel(callBash("call_1", "ls"), answer("done"))
	bash := &bashTool{}
	runAgent(t, permissionHooks(t, p, &toldUser{}, bashNeedsPermission), m, bash, "list", false)

	if got := bash.commands(); !reflect.DeepEqual(got, []string{"ls"}) {
		t.Fatalf("the call a PreToolUse hook allowed ran %v", got)
	}
	if asked := p.events("PermissionRequest"); len(asked) != 0 {
		t.Fatalf("PermissionRequest fired after a PreToolUse allow: %v", asked)
	}
}

func TestAPreToolUseWithoutADecisionStillAsksPermission(t *testing.T) {
	p := newProject(t)
	p.hook("PreToolUse", "Bash", ``)
	p.hook("PermissionRequest", "Bash", permissionAllow)
	bash := &bashTool{}
	runAgent(t, permissionHooks(t, p, &toldUser{}, bashNeedsPermission), newScriptedModel(callBash("call_1", "ls"), answer("done")), bash, "list", false)
	if got := bash.commands(); !reflect.DeepEqual(got, []string{"ls --safe"}) || len(p.events("PermissionRequest")) != 1 {
		t.Fatalf("ran %v, PermissionRequest events %v", got, p.events("PermissionRequest"))
	}
}

func TestNoPermissionRequestWithoutNeedsPermission(t *testing.T) {
	p := newProject(t)
	p.hook("PermissionRequest", "Bash", ``)
	m := newScriptedModel(callBash("call_1", "ls"), answer("done"))
	bash := &bashTool{}
	runAgent(t, permissionHooks(t, p, &toldUser{}, nil), m, bash, "list", false)
	if got := bash.commands(); !reflect.DeepEqual(got, []string{"ls"}) || len(p.events("PermissionRequest")) != 0 {
		t.Fatalf("ran %v, PermissionRequest events %v", got, p.events("PermissionRequest"))
	}
}

// approvalTool is eino's human-in-the-loop pattern: the tool interrupts to ask a human, and
// runs once resumed. The adapter leaves that approval in charge.
type approvalTool struct{ bashTool }

func (t *approvalTool) InvokableRun(ctx context.Context, args string, opts ...tool.Option) (string, error) {
	if wasInterrupted, _, _ := tool.GetInterruptState[any](ctx); !wasInterrupted {
		return "", tool.Interrupt(ctx, "approve "+args+"?")
	}
	return t.bashTool.InvokableRun(ctx, args, opts...)
}

func TestAToolsOwnApprovalInterruptReachesTheCaller(t *testing.T) {
	p := newProject(t)
	p.hook("PermissionRequest", "Bash", ``)
	p.hook("PostToolUseFailure", "Bash", ``)
	p.hook("Stop", "", ``)
	tl := &approvalTool{}
	run := runAgent(t, permissionHooks(t, p, &toldUser{}, nil), newScriptedModel(callBash("call_1", "ls"), answer("done")), tl, "list", false)

	if len(run.interrupts) != 1 || len(tl.commands()) != 0 {
		t.Fatalf("interrupts %v, errors %v, ran %v: want the tool's approval request to reach the caller", run.interrupts, run.errs, tl.commands())
	}
	for _, event := range []string{"PermissionRequest", "PostToolUseFailure", "Stop"} {
		if got := p.events(event); len(got) != 0 {
			t.Fatalf("%s fired on an interrupted call: %v", event, got)
		}
	}
}

func TestPreToolUseSystemMessageReachesTheUserNotTheModel(t *testing.T) {
	p := newProject(t)
	p.hook("PreToolUse", "Bash", `
print(json.dumps({"systemMessage": "heads up: a shell command"}))`)
	m := newScriptedModel(callBash("call_1", "ls"), answer("done"))
	bash, told := &bashTool{}, &toldUser{}
	runAgent(t, permissionHooks(t, p, told, nil), m, bash, "list", false)

	if got := bash.commands(); !reflect.DeepEqual(got, []string{"ls"}) {
		t.Fatalf("ran %v", got)
	}
	if got := told.all(); !reflect.DeepEqual(got, []string{"PreToolUse: heads up: a shell command"}) {
		t.Fatalf("the user was told %q", got)
	}
	for _, call := range m.received() {
		for _, msg := range call {
			if strings.Contains(msg.Content, "heads up") {
				t.Fatalf("the model saw the system message: %+v", msg)
			}
		}
	}
}

package hookwireeino_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/cloudwego/eino/schema"

	hookwire "github.com/hookwire/hookwire/bindings-go"
	hookwireeino "github.com/hookwire/hookwire/bindings-go/eino"
)

// newHooks is a Hooks on the project's settings; the default tool-name map shows the bash
// tool to hooks as Bash.
func newHooks(t *testing.T, p *project, limits map[string]any, log *logBuffer) *hookwireeino.Hooks {
	t.Helper()
	opts := hookwireeino.Options{Cwd: p.dir}
	if log != nil {
		opts.Logger = log.logger()
	}
	h, err := hookwireeino.New(p.dispatcher(limits), opts)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// lastCall is the messages of the model's last call.
func lastCall(t *testing.T, m *scriptedModel) []*schema.Message {
	t.Helper()
	calls := m.received()
	if len(calls) == 0 {
		t.Fatal("the model was never called")
	}
	return calls[len(calls)-1]
}

func TestPreToolUseDenyKeepsTheToolFromRunningAndTheModelGetsTheReason(t *testing.T) {
	p := newProject(t)
	p.hook("PreToolUse", "Bash", `
if "rm -rf" in event["tool_input"]["command"]:
    sys.stderr.write("no rm -rf here")
    sys.exit(2)`)
	m := newScriptedModel(callBash("call_1", "rm -rf /"), answer("ok, I won't"))
	bash := &bashTool{}
	run := runAgent(t, newHooks(t, p, nil, nil), m, bash, "clean up", false)

	if len(run.errs) > 0 {
		t.Fatalf("run errors: %v", run.errs)
	}
	if got := bash.commands(); len(got) != 0 {
		t.Fatalf("the denied tool ran: %v", got)
	}
	results := toolMessages(lastCall(t, m))
	if len(results) != 1 || !strings.Contains(results[0].Content, "no rm -rf here") || results[0].ToolCallID != "call_1" {
		t.Fatalf("the model did not get the deny reason as the call's result: %+v", results)
	}
	ev := p.events("PreToolUse")[0]
	if ev["tool_name"] != "Bash" || ev["tool_use_id"] != "call_1" || ev["cwd"] != p.dir || ev["permission_mode"] != "default" {
		t.Fatalf("PreToolUse event fields: %v", ev)
	}
	if _, ok := ev["transcript_path"]; ok {
		t.Fatalf("an eino agent keeps no transcript, yet the event has transcript_path: %v", ev)
	}
}

func TestPreToolUseUpdatedInputRewritesTheCall(t *testing.T) {
	p := newProject(t)
	p.hook("PreToolUse", "Bash", `
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
    "updatedInput": {"command": event["tool_input"]["command"].replace("--force", "--dry-run")}}}))`)
	p.hook("PostToolUse", "Bash", ``)
	m := newScriptedModel(callBash("call_1", "git clean --force"), answer("cleaned"))
	bash := &bashTool{}
	run := runAgent(t, newHooks(t, p, nil, nil), m, bash, "clean", false)

	if len(run.errs) > 0 {
		t.Fatalf("run errors: %v", run.errs)
	}
	if got := bash.commands(); len(got) != 1 || got[0] != "git clean --dry-run" {
		t.Fatalf("the tool did not run the rewritten call: %v", got)
	}
	post := p.events("PostToolUse")
	if len(post) != 1 || post[0]["tool_input"].(map[string]any)["command"] != "git clean --dry-run" || post[0]["tool_response"] != "ran: git clean --dry-run" {
		t.Fatalf("PostToolUse did not see the call that ran: %v", post)
	}
}

func TestStopBlockRunsOneMoreModelTurnWithTheReason(t *testing.T) {
	p := newProject(t)
	p.hook("Stop", "", `
if not event["stop_hook_active"]:
    print(json.dumps({"decision": "block", "reason": "run the tests first"}))`)
	m := newScriptedModel(answer("done"), answer("tests pass, done"))
	run := runAgent(t, newHooks(t, p, nil, nil), m, &bashTool{}, "fix the bug", false)

	if len(run.errs) > 0 {
		t.Fatalf("run errors: %v", run.errs)
	}
	calls := m.received()
	if len(calls) != 2 {
		t.Fatalf("model calls = %d, want 2 (the answer, then one more turn)", len(calls))
	}
	second := calls[1]
	last := second[len(second)-1]
	if last.Role != schema.User || !strings.Contains(last.Content, "run the tests first") {
		t.Fatalf("the extra turn's last message is not the Stop reason: %+v", last)
	}
	if second[len(second)-2].Role != schema.Assistant || second[len(second)-2].Content != "done" {
		t.Fatalf("the extra turn lost the first answer: %+v", second)
	}
	stops := p.events("Stop")
	if len(stops) != 2 || stops[0]["stop_hook_active"] != false || stops[1]["stop_hook_active"] != true ||
		stops[0]["last_assistant_message"] != "done" || stops[0]["session_id"] != stops[1]["session_id"] {
		t.Fatalf("Stop events: %v", stops)
	}
}

func TestEndlessStopBlockEndsAtTheEngineCap(t *testing.T) {
	p := newProject(t)
	p.hook("Stop", "", `print(json.dumps({"decision": "block", "reason": "keep going"}))`)
	m := newScriptedModel(answer("done"))
	run := runAgent(t, newHooks(t, p, nil, nil), m, &bashTool{}, "go", false)

	if len(run.errs) > 0 {
		t.Fatalf("run errors: %v", run.errs)
	}
	// The engine honours 8 consecutive blocks and overrides the 9th: 1 + 8 model calls.
	if got := len(m.received()); got != 9 {
		t.Fatalf("model calls = %d, want 9", got)
	}
	if got := len(p.events("Stop")); got != 9 {
		t.Fatalf("Stop fires = %d, want 9", got)
	}
}

func TestEndlessStopBlockWithoutEngineCapEndsAtTheAdapterBound(t *testing.T) {
	p := newProject(t)
	p.hook("Stop", "", `print(json.dumps({"decision": "block", "reason": "keep going"}))`)
	m := newScriptedModel(answer("done"))
	log := &logBuffer{}
	runAgent(t, newHooks(t, p, map[string]any{"stop_block_cap": 0}, log), m, &bashTool{}, "go", false)

	if got := len(m.received()); got != 1+hookwire.MaxStopContinuations {
		t.Fatalf("model calls = %d, want %d (the answer and the core's bound of continuations)", got, 1+hookwire.MaxStopContinuations)
	}
	if want := fmt.Sprintf("Stop hooks blocked %d consecutive times", hookwire.MaxStopContinuations+1); !strings.Contains(log.String(), want) {
		t.Fatalf("no warning for the adapter's bound: %s", log.String())
	}
}

func TestPostToolUseBlockAndContextReachTheModelBesideTheResult(t *testing.T) {
	p := newProject(t)
	p.hook("PostToolUse", "Bash", `
print(json.dumps({"decision": "block", "reason": "the output shows a failing test",
    "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "tests live in ./t"}}))`)
	m := newScriptedModel(callBash("call_1", "make test"), answer("I see"))
	bash := &bashTool{}
	log := &logBuffer{}
	run := runAgent(t, newHooks(t, p, nil, log), m, bash, "test it", false)

	if len(run.errs) > 0 {
		t.Fatalf("run errors: %v", run.errs)
	}
	if len(bash.commands()) != 1 {
		t.Fatalf("the tool did not run: %v", bash.commands())
	}
	results := toolMessages(lastCall(t, m))
	if len(results) != 1 {
		t.Fatalf("tool results: %+v", results)
	}
	for _, want := range []string{"ran: make test", "the output shows a failing test", "tests live in ./t"} {
		if !strings.Contains(results[0].Content, want) {
			t.Fatalf("the tool result %q lacks %q", results[0].Content, want)
		}
	}
	if strings.Count(log.String(), "kind=beside-result") != 1 {
		t.Fatalf("want one warning that eino has no slot beside a tool result: %s", log.String())
	}
}

func TestUserPromptSubmitBlockMakesNoModelCall(t *testing.T) {
	p := newProject(t)
	p.hook("UserPromptSubmit", "", `
if "password" in event["prompt"]:
    sys.stderr.write("prompts must not hold secrets")
    sys.exit(2)`)
	m := newScriptedModel(answer("sure"))
	var mu sync.Mutex
	var told []string
	h, err := hookwireeino.New(p.dispatcher(nil), hookwireeino.Options{
		OnUserMessage: func(_ context.Context, event, text string) {
			mu.Lock()
			defer mu.Unlock()
			told = append(told, event+": "+text)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	run := runAgent(t, h, m, &bashTool{}, "my password is hunter2", false)

	if got := len(m.received()); got != 0 {
		t.Fatalf("the model was called %d times", got)
	}
	var blocked *hookwireeino.PromptBlockedError
	if len(run.errs) != 1 || !errors.As(run.errs[0], &blocked) || !strings.Contains(blocked.Message, "prompts must not hold secrets") {
		t.Fatalf("run errors = %v, want one *PromptBlockedError with the reason", run.errs)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(told) != 1 || !strings.Contains(told[0], "UserPromptSubmit: ") || !strings.Contains(told[0], "prompts must not hold secrets") {
		t.Fatalf("the user was told %q", told)
	}
}

func TestUserPromptSubmitAndSessionStartContextReachTheModelAsSystemMessages(t *testing.T) {
	p := newProject(t)
	p.hook("SessionStart", "", `print("the repo uses tabs")`)
	p.hook("UserPromptSubmit", "", `print("today is a release day")`)
	m := newScriptedModel(answer("ok"))
	run := runAgent(t, newHooks(t, p, nil, nil), m, &bashTool{}, "hello", false)

	if len(run.errs) > 0 {
		t.Fatalf("run errors: %v", run.errs)
	}
	msgs := lastCall(t, m)
	var system []string
	for _, msg := range msgs {
		if msg.Role == schema.System {
			system = append(system, msg.Content)
		}
	}
	joined := strings.Join(system, "\n")
	if !strings.Contains(joined, "the repo uses tabs") || !strings.Contains(joined, "today is a release day") {
		t.Fatalf("system messages %q lack the hooks' context", system)
	}
	if last := msgs[len(msgs)-1]; last.Role != schema.User || last.Content != "hello" {
		t.Fatalf("the prompt is not the last message: %+v", last)
	}
	if p.events("SessionStart")[0]["source"] != "startup" {
		t.Fatalf("SessionStart event: %v", p.events("SessionStart"))
	}
}

func TestPreToolUseDeferEndsTheRunAndHandsBackTheCall(t *testing.T) {
	p := newProject(t)
	p.hook("PreToolUse", "Bash", `
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "defer"}}))`)
	p.hook("Stop", "", ``)
	m := newScriptedModel(callBash("call_7", "deploy"), answer("deployed"))
	bash := &bashTool{}
	run := runAgent(t, newHooks(t, p, nil, nil), m, bash, "deploy", false)

	if len(bash.commands()) != 0 || len(m.received()) != 1 {
		t.Fatalf("tool ran %v, model calls %d: want no tool run and no further model call", bash.commands(), len(m.received()))
	}
	var deferred *hookwireeino.DeferredToolCall
	if len(run.errs) != 1 || !errors.As(run.errs[0], &deferred) || deferred.ToolUseID != "call_7" || deferred.ToolName != "bash" {
		t.Fatalf("run errors = %v, want the deferred call", run.errs)
	}
	if len(p.events("Stop")) != 0 {
		t.Fatal("Stop fired for a run that ended on a deferred call")
	}
}

func TestPreToolUseContinueFalseRunsTheToolThenEndsTheRun(t *testing.T) {
	p := newProject(t)
	p.hook("PreToolUse", "Bash", `print(json.dumps({"continue": False, "stopReason": "budget spent"}))`)
	m := newScriptedModel(callBash("call_1", "ls"), answer("listed"))
	bash := &bashTool{}
	run := runAgent(t, newHooks(t, p, nil, nil), m, bash, "list", false)

	if len(bash.commands()) != 1 {
		t.Fatalf("the tool should still run: %v", bash.commands())
	}
	if got := len(m.received()); got != 1 {
		t.Fatalf("model calls = %d, want 1 (none after the stopped tool call)", got)
	}
	var stopped *hookwireeino.StoppedError
	if len(run.errs) != 1 || !errors.As(run.errs[0], &stopped) || stopped.Event != "PreToolUse" {
		t.Fatalf("run errors = %v, want a *StoppedError of PreToolUse", run.errs)
	}
}

func TestUpdatedToolOutputOfAnotherShapeKeepsTheOriginalAndWarnsOnce(t *testing.T) {
	p := newProject(t)
	p.hook("PostToolUse", "Bash", `
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PostToolUse", "updatedToolOutput": {"stdout": "hidden"}}}))`)
	m := newScriptedModel(callBash("call_1", "ls"), callBash("call_2", "pwd"), answer("done"))
	log := &logBuffer{}
	run := runAgent(t, newHooks(t, p, nil, log), m, &bashTool{}, "look", false)

	if len(run.errs) > 0 {
		t.Fatalf("run errors: %v", run.errs)
	}
	results := toolMessages(lastCall(t, m))
	if len(results) != 2 || results[0].Content != "ran: ls" || results[1].Content != "ran: pwd" {
		t.Fatalf("tool results changed: %+v", results)
	}
	if strings.Count(log.String(), "kind=tool-output-shape") != 1 {
		t.Fatalf("want exactly one warning: %s", log.String())
	}
}

func TestUpdatedToolOutputStringReplacesATextToolsResult(t *testing.T) {
	p := newProject(t)
	p.hook("PostToolUse", "Bash", `
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PostToolUse", "updatedToolOutput": "[redacted]"}}))`)
	m := newScriptedModel(callBash("call_1", "cat .env"), answer("done"))
	run := runAgent(t, newHooks(t, p, nil, nil), m, &bashTool{}, "show env", false)

	if len(run.errs) > 0 {
		t.Fatalf("run errors: %v", run.errs)
	}
	if results := toolMessages(lastCall(t, m)); len(results) != 1 || results[0].Content != "[redacted]" {
		t.Fatalf("tool results: %+v", results)
	}
}

func TestStreamingRunAppliesDenyAndStopBlock(t *testing.T) {
	p := newProject(t)
	p.hook("PreToolUse", "Bash", `
sys.stderr.write("not in streaming mode either")
sys.exit(2)`)
	p.hook("Stop", "", `
if not event["stop_hook_active"]:
    print(json.dumps({"decision": "block", "reason": "say goodbye"}))`)
	m := newScriptedModel(callBash("call_1", "rm x"), answer("done"), answer("goodbye"))
	bash := &bashTool{}
	run := runAgent(t, newHooks(t, p, nil, nil), m, bash, "go", true)

	if len(run.errs) > 0 {
		t.Fatalf("run errors: %v", run.errs)
	}
	calls := m.received()
	if len(bash.commands()) != 0 || len(calls) != 3 {
		t.Fatalf("tool ran %v; model calls %d, want 3", bash.commands(), len(calls))
	}
	third := calls[2]
	if tm := toolMessages(third); len(tm) != 1 || !strings.Contains(tm[0].Content, "not in streaming mode either") {
		t.Fatalf("the continuation lost the denied call's result: %+v", third)
	}
	if last := third[len(third)-1]; last.Role != schema.User || !strings.Contains(last.Content, "say goodbye") {
		t.Fatalf("the continuation's last message: %+v", last)
	}
}

func TestArgumentsThatAreNotAnObjectNeverReachTheTool(t *testing.T) {
	p := newProject(t)
	p.hook("PreToolUse", "Bash", ``)
	bad := schema.AssistantMessage("", []schema.ToolCall{{
		ID: "call_1", Type: "function", Function: schema.FunctionCall{Name: "bash", Arguments: `"rm -rf /"`},
	}})
	m := newScriptedModel(bad, answer("hm"))
	bash := &bashTool{}
	run := runAgent(t, newHooks(t, p, nil, nil), m, bash, "go", false)

	if len(run.errs) > 0 {
		t.Fatalf("run errors: %v", run.errs)
	}
	if len(bash.commands()) != 0 {
		t.Fatalf("the tool ran: %v", bash.commands())
	}
	if results := toolMessages(lastCall(t, m)); len(results) != 1 || !strings.Contains(results[0].Content, "not a JSON object") {
		t.Fatalf("tool results: %+v", results)
	}
}

func TestEndSessionFiresSessionEndOnceAfterTheSessionStarted(t *testing.T) {
	p := newProject(t)
	p.hook("SessionEnd", "", ``)
	h := newHooks(t, p, nil, nil)
	ctx := context.Background()
	if err := h.EndSession(ctx, ""); err != nil {
		t.Fatal(err)
	}
	if len(p.events("SessionEnd")) != 0 {
		t.Fatal("SessionEnd fired before the session started")
	}
	runAgent(t, h, newScriptedModel(answer("hi")), &bashTool{}, "hi", false)
	for i := 0; i < 2; i++ {
		if err := h.EndSession(ctx, "prompt_input_exit"); err != nil {
			t.Fatal(err)
		}
	}
	ends := p.events("SessionEnd")
	if len(ends) != 1 || ends[0]["reason"] != "prompt_input_exit" || ends[0]["session_id"] != h.SessionID() {
		t.Fatalf("SessionEnd events: %v", ends)
	}
}

func TestPreToolUseDenyStillDeliversTheHooksContext(t *testing.T) {
	p := newProject(t)
	p.hook("PreToolUse", "Bash", `
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
    "permissionDecisionReason": "use the make target", "additionalContext": "make clean exists"}}))`)
	m := newScriptedModel(callBash("call_1", "rm -r build"), answer("ok"))
	bash := &bashTool{}
	run := runAgent(t, newHooks(t, p, nil, nil), m, bash, "clean", false)

	if len(run.errs) > 0 || len(bash.commands()) != 0 {
		t.Fatalf("run errors %v, tool ran %v", run.errs, bash.commands())
	}
	results := toolMessages(lastCall(t, m))
	if len(results) != 1 || !strings.Contains(results[0].Content, "use the make target") || !strings.Contains(results[0].Content, "make clean exists") {
		t.Fatalf("the denied call's result lacks the reason or the context: %+v", results)
	}
}

package hookwire

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The binding hands facts to the engine's host event and a tool name to its tool reach; the
// rules themselves are pinned in core/src/host_event.rs and core/src/inspect.rs.

func ptr[T any](v T) *T { return &v }

func TestHostEventBuildsClaudeCodesShapeFromFacts(t *testing.T) {
	event, err := HostEvent(HostFacts{
		Event: "PreToolUse", SessionID: "s1", Cwd: "/repo",
		ToolName: ptr("bash"), ToolNames: map[string]string{"bash": "Bash"},
		ToolInput: json.RawMessage(`{"command":"ls"}`), ToolUseID: ptr("call_1"),
	})
	if err != nil {
		t.Fatal(err)
	}
	// Claude Code's key order, no transcript_path, permission_mode "default".
	want := `{"session_id":"s1","cwd":"/repo","permission_mode":"default","hook_event_name":"PreToolUse",` +
		`"tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"call_1"}`
	if string(event) != want {
		t.Fatalf("event\n%s\nwant\n%s", event, want)
	}
	// A map and JSON text are facts too, and give the same event.
	for _, facts := range []any{
		map[string]any{"event": "PreToolUse", "session_id": "s1", "cwd": "/repo", "tool_name": "bash",
			"tool_names": map[string]string{"bash": "Bash"}, "tool_input": map[string]any{"command": "ls"}, "tool_use_id": "call_1"},
		`{"event":"PreToolUse","session_id":"s1","cwd":"/repo","tool_name":"bash","tool_names":{"bash":"Bash"},"tool_input":{"command":"ls"},"tool_use_id":"call_1"}`,
	} {
		if got, err := HostEvent(facts); err != nil || string(got) != want {
			t.Fatalf("%T facts: %s, %v", facts, got, err)
		}
	}
}

func TestHostEventOfAFailureNamesTheErrorTypeAndAnEmptyPromptIsAPrompt(t *testing.T) {
	event, err := HostEvent(&HostFacts{
		Event: "PostToolUseFailure", SessionID: "s", Cwd: "/", ToolName: ptr("x"),
		Error: ptr("boom"), ErrorType: ptr("ValueError"), TranscriptPath: ptr("/t.jsonl"),
	})
	if err != nil {
		t.Fatal(err)
	}
	var e map[string]any
	if err := json.Unmarshal(event, &e); err != nil {
		t.Fatal(err)
	}
	if e["error"] != "ValueError: boom" || e["is_interrupt"] != false || e["transcript_path"] != "/t.jsonl" || e["tool_input"] == nil {
		t.Fatalf("event %s", event)
	}
	event, err = HostEvent(HostFacts{Event: "UserPromptSubmit", SessionID: "s", Cwd: "/", Prompt: ptr("")})
	if err != nil || !strings.Contains(string(event), `"prompt":""`) {
		t.Fatalf("an empty prompt: %s, %v", event, err)
	}
}

func TestHostEventErrorsNameTheMissingOrWrongFact(t *testing.T) {
	for _, tc := range []struct {
		facts         any
		kind, pointer string
	}{
		{HostFacts{Event: "PreToolUse", SessionID: "s", Cwd: "/"}, KindInvalidEvent, "/tool_name"},
		{HostFacts{Event: "UserPromptSubmit", SessionID: "s", Cwd: "/"}, KindInvalidEvent, "/prompt"},
		{HostFacts{Event: "Nope", SessionID: "s", Cwd: "/"}, KindInvalidEvent, "/event"},
		{`{"event":"Stop","session_id":"s","cwd":"/","tool_nmae":"x"}`, KindInvalidEvent, ""},
		{`{"event":`, KindInvalidJSON, ""},
	} {
		_, err := HostEvent(tc.facts)
		var e *Error
		if !errors.As(err, &e) || e.Kind != tc.kind || e.Pointer != tc.pointer {
			t.Errorf("%v: %v (want kind %s, pointer %q)", tc.facts, err, tc.kind, tc.pointer)
		}
	}
	if _, err := HostEvent(func() {}); err == nil {
		t.Fatal("a func is not facts")
	}
}

// The event HostEvent builds is what a command hook reads on stdin, byte for byte.
func TestAHostEventFiresAsIs(t *testing.T) {
	dir := t.TempDir()
	stdin := filepath.Join(dir, "stdin.json")
	d, err := New(map[string]any{"hooks": map[string]any{"PreToolUse": []any{map[string]any{
		"matcher": "Bash", "hooks": []any{map[string]any{"type": "command", "command": "cat > " + stdin}},
	}}}})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	event, err := HostEvent(HostFacts{Event: "PreToolUse", SessionID: "s", Cwd: dir, ToolName: ptr("bash"),
		ToolNames: map[string]string{"bash": "Bash"}, ToolInput: map[string]any{"command": "ls"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Fire(context.Background(), event); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(stdin)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(event) {
		t.Fatalf("the hook read\n%s\nthe host event is\n%s", got, event)
	}
}

func TestToolReachWarnsOfAToolNoMatcherCanMatch(t *testing.T) {
	d, err := New(`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"exit 0"}]}]}}`)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	r, err := d.ToolReach("bash")
	if err != nil {
		t.Fatal(err)
	}
	if r.ToolName != "bash" || !r.Hooked || r.Reached || r.Warning == nil || !strings.Contains(*r.Warning, "Bash") {
		t.Fatalf("bash against a Bash matcher: %+v", r)
	}
	r, err = d.ToolReach("Bash")
	if err != nil || !r.Hooked || !r.Reached || r.Warning != nil {
		t.Fatalf("Bash: %+v, %v", r, err)
	}

	none, err := New(`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"exit 0"}]}]}}`)
	if err != nil {
		t.Fatal(err)
	}
	defer none.Close()
	if r, err := none.ToolReach("bash"); err != nil || r.Hooked || r.Warning != nil {
		t.Fatalf("no hook on a tool event: %+v, %v", r, err)
	}
}

func TestToolReachErrors(t *testing.T) {
	d, err := New(`{}`)
	if err != nil {
		t.Fatal(err)
	}
	var e *Error
	if _, err := d.ToolReach("ba\x00sh"); !errors.As(err, &e) {
		t.Fatalf("a NUL byte in the name: %v", err)
	}
	d.Close()
	if _, err := d.ToolReach("bash"); !errors.Is(err, ErrClosed) {
		t.Fatalf("closed dispatcher: %v", err)
	}
	var nilD *Dispatcher
	if _, err := nilD.ToolReach("bash"); !errors.Is(err, ErrClosed) {
		t.Fatalf("nil dispatcher: %v", err)
	}
}

func TestMaxStopContinuationsIsTheCoresBound(t *testing.T) {
	// The header's value is checked at compile time (host_event.go); this pins the number
	// the adapters' documentation gives.
	if MaxStopContinuations != 16 {
		t.Fatalf("MaxStopContinuations = %d", MaxStopContinuations)
	}
}

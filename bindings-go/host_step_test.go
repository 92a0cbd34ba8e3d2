package hookwire

import (
	"context"
	"errors"
	"testing"
)

// The binding hands a result to the engine's host step and back as a struct; the rules
// themselves are pinned in core/src/host_step/tests.rs.

func TestHostStepOfAFiredDenyIsADeniedToolWithTheHooksReason(t *testing.T) {
	d, err := New(`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo 'not here' >&2; exit 2"}]}]}}`)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	event := map[string]any{"hook_event_name": "PreToolUse", "cwd": "/", "tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}}
	res, err := d.Fire(context.Background(), event)
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []any{res, *res} {
		step, err := HostStepOf(in)
		if err != nil {
			t.Fatal(err)
		}
		if step.Action != ActionDenyTool || step.Message == nil || *step.Message != "not here" || step.Stop {
			t.Fatalf("step %+v", step)
		}
	}
	raw, err := d.FireJSON(context.Background(), []byte(`{"hook_event_name":"PreToolUse","cwd":"/","tool_name":"Bash","tool_input":{}}`))
	if err != nil {
		t.Fatal(err)
	}
	if step, err := HostStepOf(raw); err != nil || step.Action != ActionDenyTool {
		t.Fatalf("step of FireJSON's text: %+v, %v", step, err)
	}
}

func TestHostStepOfARewriteCarriesTheNewInput(t *testing.T) {
	step, err := HostStepOf(`{"event":"PreToolUse","updated_input":{"command":"ls -la"}}`)
	if err != nil {
		t.Fatal(err)
	}
	if step.Action != ActionRunTool || string(step.ToolInput) != `{"command":"ls -la"}` {
		t.Fatalf("step %+v (tool_input %s)", step, step.ToolInput)
	}
}

func TestHostStepOfSomethingThatIsNotAResultIsAnError(t *testing.T) {
	for text, kind := range map[string]string{`{"decision":"deny"}`: KindInvalidEvent, `{`: KindInvalidJSON} {
		_, err := HostStepOf(text)
		var e *Error
		if !errors.As(err, &e) || e.Kind != kind {
			t.Fatalf("%s: %v, want kind %s", text, err, kind)
		}
	}
	if _, err := HostStepOf(func() {}); err == nil {
		t.Fatal("a func is not a result")
	}
}

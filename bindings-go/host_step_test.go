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

func TestHostStepOfAnAskSaysTheUserSeesItsReasonToo(t *testing.T) {
	step, err := HostStepOf(`{"event":"PreToolUse","decision":"ask","reason":"confirm the push","system_message":"guard on"}`)
	if err != nil {
		t.Fatal(err)
	}
	if step.Action != ActionDenyTool || step.SeenBy.Message == nil || *step.SeenBy.Message != AudienceBoth {
		t.Fatalf("ask with nobody to ask: %+v", step)
	}
	if got := step.UserTexts(); len(got) != 2 || got[0] != "confirm the push" || got[1] != "guard on" {
		t.Fatalf("user texts %q", got)
	}
	deny, _ := HostStepOf(`{"event":"PreToolUse","decision":"deny","reason":"no"}`)
	if len(deny.UserTexts()) != 0 || *deny.SeenBy.Message != AudienceModel {
		t.Fatalf("a plain deny is the model's: %+v", deny)
	}
}

func TestHostStepOfAPermissionRequestWithoutADecisionDenies(t *testing.T) {
	step, err := HostStepOf(`{"event":"PermissionRequest","decision":null}`)
	if err != nil || step.Action != ActionDenyTool || step.Message == nil || len(step.UserTexts()) != 1 {
		t.Fatalf("%+v %v", step, err)
	}
}

func TestClaudeCodeVersionIsTheReleaseTheCatalogueMatches(t *testing.T) {
	if v := ClaudeCodeVersion(); v != "2.1.332" {
		t.Fatalf("ClaudeCodeVersion() = %q", v)
	}
}

func TestHostStepSaysWhenAHookApprovedTheCall(t *testing.T) {
	for result, approved := range map[string]bool{
		`{"event":"PreToolUse","decision":"allow"}`:        true,
		`{"event":"PreToolUse"}`:                           false,
		`{"event":"PermissionRequest","decision":"allow"}`: true,
	} {
		step, err := HostStepOf(result)
		if err != nil || step.Action != ActionRunTool || step.Approved != approved {
			t.Errorf("%s: %+v, %v; want run_tool with approved %v", result, step, err, approved)
		}
	}
	if deny, _ := HostStepOf(`{"event":"PreToolUse","decision":"deny"}`); deny.Approved {
		t.Errorf("a deny is not approved: %+v", deny)
	}
}

func TestHostStepForRefusesAReplacementOutputOfAnotherKind(t *testing.T) {
	result := map[string]any{"event": "PostToolUse", "updated_tool_output": map[string]any{"lines": 3}}
	step, err := HostStepFor(result, map[string]any{"lines": 9})
	if err != nil {
		t.Fatal(err)
	}
	if string(step.ToolOutput) != `{"lines":3}` {
		t.Fatalf("an object replacing an object was refused: %s", step.ToolOutput)
	}
	step, err = HostStepFor(result, "nine lines")
	if err != nil {
		t.Fatal(err)
	}
	if len(step.ToolOutput) != 0 && string(step.ToolOutput) != "null" {
		t.Fatalf("an object replacing a string was kept: %s", step.ToolOutput)
	}
	var e *Error
	if _, err := HostStepFor(result, []byte("{")); !errors.As(err, &e) || e.Kind != KindInvalidJSON {
		t.Fatalf("tool response that is not JSON: %v", err)
	}
}

package hookwire_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	hookwire "github.com/hookwire/hookwire/bindings-go"
)

// The quick start: load a configuration once, fire an event, read the folded decision.
func ExampleDispatcher_Fire() {
	d, err := hookwire.New(`{"hooks": {"PreToolUse": [
	  {"matcher": "Bash", "hooks": [{"type": "command", "command": "echo 'no rm -rf here' >&2; exit 2"}]}
	]}}`)
	if err != nil {
		log.Fatal(err)
	}
	defer d.Close()

	res, err := d.Fire(context.Background(), map[string]any{
		"hook_event_name": "PreToolUse",
		"session_id":      "s1",
		"tool_name":       "Bash",
		"tool_input":      map[string]any{"command": "rm -rf /"},
	})
	if err != nil {
		log.Fatal(err)
	}
	if res.Decision != nil && *res.Decision == hookwire.DecisionDeny {
		fmt.Printf("deny: %s\n", *res.Reason)
	}
	for _, o := range res.Outcomes {
		fmt.Println(o.Hook, o.Status, *o.ExitCode)
	}
	// Output:
	// deny: no rm -rf here
	// session:PreToolUse[0].hooks[0] ok 2
}

// Errors are *hookwire.Error values; branch on Kind or Code.
func ExampleNew_error() {
	_, err := hookwire.New("{\"hooks\": [}")
	var he *hookwire.Error
	if errors.As(err, &he) {
		fmt.Println(he.Kind, he.Code == hookwire.CodeInvalidJSON, he.Line, he.Column)
	}
	// Output: invalid_json true 1 12
}

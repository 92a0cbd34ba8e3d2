package hookwire

// Which runner backend the linked library starts hooks with, observed from a hook: under
// HOOKWIRE_EXPECT_BACKEND=linux the host holds a pidfd for the running hook, under =portable
// (a library built with the `portable-runner` feature) none. CI sets it in both runs of the
// suite; without it the test is skipped (docs/reliability.md, "Runner backends").

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestHooksRunOnTheBackendTheBuildNames(t *testing.T) {
	expect, ok := os.LookupEnv("HOOKWIRE_EXPECT_BACKEND")
	if !ok {
		t.Skip("HOOKWIRE_EXPECT_BACKEND is not set (CI sets linux or portable)")
	}
	if expect != "linux" && expect != "portable" {
		t.Fatalf("HOOKWIRE_EXPECT_BACKEND=%q: linux or portable", expect)
	}
	script, err := filepath.Abs(filepath.Join("..", "tests", "hooks", "parent-pidfds.sh"))
	if err != nil {
		t.Fatal(err)
	}
	handler := map[string]any{"type": "command", "command": "/bin/sh", "args": []any{script}, "timeout": 10}
	d := mustNew(t, map[string]any{"hooks": map[string]any{"Stop": []any{map[string]any{"hooks": []any{handler}}}}})
	r, err := d.Fire(context.Background(), map[string]any{"hook_event_name": "Stop", "session_id": "go-backend", "cwd": "/"})
	if err != nil {
		t.Fatal(err)
	}
	o := onlyOutcome(t, r)
	pidfds, err := strconv.Atoi(strings.TrimSpace(o.Stdout))
	if o.Status != StatusOK || err != nil {
		t.Fatalf("outcome %+v (%v)", o, err)
	}
	if expect == "linux" && pidfds < 1 {
		t.Errorf("the Linux backend watches the hook through a pidfd; the host holds %d", pidfds)
	}
	if expect == "portable" && pidfds != 0 {
		t.Errorf("the portable backend opens no pidfd; the host holds %d", pidfds)
	}
}

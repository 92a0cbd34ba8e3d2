package hookwire

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A sandbox set from Go confines the hook (docs/sandbox.md): the same configuration key as
// every language, checked with a planted key and the same hook unsandboxed as the control.
func sandboxedKeyRead(t *testing.T, root string, sandbox any) string {
	t.Helper()
	home, project := filepath.Join(root, "home"), filepath.Join(root, "project")
	for _, d := range []string{filepath.Join(home, ".ssh"), project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	key := filepath.Join(home, ".ssh", "id_ed25519")
	if err := os.WriteFile(key, []byte("-----BEGIN OPENSSH PRIVATE KEY-----\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	handler := map[string]any{"type": "command",
		"command": `if cat "$HOME/.ssh/id_ed25519" >/dev/null 2>&1; then echo ok; else echo refused; fi`}
	if sandbox != nil {
		handler["sandbox"] = sandbox
	}
	d, err := New(map[string]any{
		"project_dir": project,
		"env":         map[string]any{"HOME": home},
		"sources": []any{map[string]any{"scope": "user", "settings": map[string]any{
			"hooks": map[string]any{"PreToolUse": []any{map[string]any{"hooks": []any{handler}}}}}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	r, err := d.Fire(context.Background(), map[string]any{"hook_event_name": "PreToolUse", "session_id": "s",
		"cwd": project, "tool_name": "Bash", "tool_input": map[string]any{"command": "true"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Outcomes) != 1 {
		t.Fatalf("one outcome expected: %+v", r)
	}
	return strings.TrimSpace(r.Outcomes[0].Stdout)
}

func TestAStrictSandboxKeepsAPlantedKeyUnreadable(t *testing.T) {
	root := t.TempDir()
	if got := sandboxedKeyRead(t, filepath.Join(root, "control"), nil); got != "ok" {
		t.Fatalf("the control must read the key: %q", got)
	}
	if got := sandboxedKeyRead(t, filepath.Join(root, "boxed"), "strict"); got != "refused" {
		t.Fatalf("the sandbox must refuse: %q", got)
	}
}

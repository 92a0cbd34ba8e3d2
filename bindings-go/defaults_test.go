package hookwire

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestClaudeCodeDefaultsNameTheThreeSettingsFilesOfTheResolvedProject(t *testing.T) {
	dir := t.TempDir()
	envelope, err := ClaudeCodeDefaults(filepath.Join(dir, "."))
	if err != nil {
		t.Fatal(err)
	}
	var e struct {
		ProjectDir string `json:"project_dir"`
		Sources    []struct {
			Scope, Path string
		} `json:"sources"`
	}
	if err := json.Unmarshal(envelope, &e); err != nil {
		t.Fatal(err)
	}
	resolved, _ := filepath.EvalSymlinks(dir)
	if e.ProjectDir != resolved || len(e.Sources) != 3 || e.Sources[1].Path != ".claude/settings.json" {
		t.Fatalf("envelope %s", envelope)
	}
}

func TestNewFromClaudeCodeDefaultsLeavesAnUntrustedProjectsHooksOut(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	if err := os.MkdirAll(filepath.Join(dir, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	settings := `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"exit 2"}]}]}}`
	if err := os.WriteFile(filepath.Join(dir, ".claude", "settings.json"), []byte(settings), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := NewFromClaudeCodeDefaults(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	status, err := d.TrustStatus()
	if err != nil {
		t.Fatal(err)
	}
	if len(status.Sources) == 0 || status.Sources[0].Scope != "project" || status.Sources[0].Trusted {
		t.Fatalf("status %+v", status)
	}
	res, err := d.Fire(context.Background(), map[string]any{"hook_event_name": "Stop", "cwd": dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Outcomes) != 0 || res.Decision != nil {
		t.Fatalf("an untrusted project hook ran: %+v", res)
	}
}

func TestClaudeCodeDefaultsOfAMissingDirectoryIsInvalidConfigAtProjectDir(t *testing.T) {
	_, err := ClaudeCodeDefaults("/nonexistent/hookwire-project")
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindInvalidConfig || e.Pointer != "/project_dir" {
		t.Fatalf("got %v", err)
	}
}

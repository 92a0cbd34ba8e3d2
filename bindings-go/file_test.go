package hookwire

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// writeFile writes text to name in dir and returns its path.
func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// fireFromFile loads path with NewFromFile and fires event at it.
func fireFromFile(t *testing.T, path string, event any) *Result {
	t.Helper()
	d, err := NewFromFile(path)
	if err != nil {
		t.Fatalf("NewFromFile(%q): %v", path, err)
	}
	defer d.Close()
	res, err := d.Fire(context.Background(), event)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// isDeny says whether res is a deny with reason.
func isDeny(res *Result, reason string) bool {
	return res.Decision != nil && *res.Decision == DecisionDeny && res.Reason != nil && *res.Reason == reason
}

func TestNewFromFileLoadsTheSettingsFileAsNewLoadsItsText(t *testing.T) {
	settings := `{"hooks": {"PreToolUse": [{"matcher": "Bash",
	  "hooks": [{"type": "command", "command": "echo 'no rm -rf here' >&2; exit 2"}]}]}}`
	path := writeFile(t, t.TempDir(), "settings.json", settings)
	res := fireFromFile(t, path, bashEvent(map[string]any{"tool_input": map[string]any{"command": "rm -rf /"}}))
	if !isDeny(res, "no rm -rf here") {
		t.Fatalf("result %+v, want a deny with the hook's reason", res)
	}
}

func TestNewFromFileReadsARelativePathFromTheCurrentDirectory(t *testing.T) {
	// As Python's Dispatcher.from_file and Node's Dispatcher.fromFile: the path is the
	// process's, not the project's (the content's project_dir plays no part in finding it).
	dir := t.TempDir()
	writeFile(t, dir, "settings.json", `{"hooks": {}}`)
	t.Chdir(dir)
	if res := fireFromFile(t, "settings.json", `{"hook_event_name":"Stop"}`); res.Event != "Stop" || len(res.Outcomes) != 0 {
		t.Fatalf("Fire: %+v", res)
	}
}

func TestNewFromFileResolvesSourcePathsAgainstProjectDirNotTheFilesFolder(t *testing.T) {
	// The same user-scope source file name in the settings file's folder (exit 0, nothing to
	// say) and in project_dir (a deny): the deny must be the one loaded.
	project, elsewhere := t.TempDir(), t.TempDir()
	deny := `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo from-project >&2; exit 2"}]}]}}`
	writeFile(t, project, "hooks.json", deny)
	writeFile(t, elsewhere, "hooks.json", `{"hooks": {}}`)
	path := writeFile(t, elsewhere, "envelope.json",
		`{"project_dir": "`+project+`", "sources": [{"scope": "user", "path": "hooks.json"}]}`)
	if res := fireFromFile(t, path, bashEvent(nil)); !isDeny(res, "from-project") {
		t.Fatalf("result %+v, want the deny of project_dir's hooks.json", res)
	}
}

func TestNewFromFileIOFailuresAreFSPathErrorsNamingThePath(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.json")
	cases := []struct {
		name, path string
		is         error
	}{
		{"missing", missing, fs.ErrNotExist},
		{"a directory", dir, syscall.EISDIR},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := NewFromFile(c.path)
			if d != nil {
				d.Close()
				t.Fatalf("NewFromFile(%q) gave a dispatcher", c.path)
			}
			var pe *fs.PathError
			if !errors.As(err, &pe) || pe.Path != c.path || !errors.Is(err, c.is) {
				t.Fatalf("NewFromFile(%q): %v (%T), want an *fs.PathError for that path, errors.Is %v", c.path, err, err, c.is)
			}
			var he *Error
			if errors.As(err, &he) {
				t.Errorf("an I/O failure is not an engine error: %v", he)
			}
		})
	}
}

func TestNewFromFileContentIsRefusedAsNewRefusesIt(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name, text string
		code       Code
		kind       string
		line       int
	}{
		{"bad JSON", "{\n\n  \"hooks\": ]", CodeInvalidJSON, KindInvalidJSON, 3},
		{"not UTF-8", "{\"\xe9\":1}", CodeInvalidUTF8, KindInvalidUTF8, 0},
		{"not a configuration", `[]`, CodeInvalidConfig, KindInvalidConfig, 0},
		{"empty", "", CodeInvalidJSON, KindInvalidJSON, 0},
		{"NUL byte", "{}\x00", CodeInvalidJSON, KindInvalidJSON, 1},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := writeFile(t, dir, "settings"+string(rune('a'+i))+".json", c.text)
			d, err := NewFromFile(path)
			var he *Error
			if !errors.As(err, &he) {
				if d != nil {
					d.Close()
				}
				t.Fatalf("NewFromFile: %v (%T), want *Error", err, err)
			}
			if he.Code != c.code || he.Kind != c.kind || (c.line != 0 && he.Line != c.line) {
				t.Errorf("%v: code %d kind %q line %d, want %d %q line %d", he, he.Code, he.Kind, he.Line, c.code, c.kind, c.line)
			}
			// The same error New gives for the same text.
			_, want := New([]byte(c.text))
			if want.Error() != err.Error() {
				t.Errorf("NewFromFile: %v; New of its text: %v", err, want)
			}
		})
	}
}

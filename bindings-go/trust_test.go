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

const trustSettings = `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"echo ran"}]}]}}`

// trustProject makes a project with one Stop hook in .claude/settings.json and returns the
// configuration naming it, the settings file and the store.
func trustProject(t *testing.T) (config map[string]any, settings, store string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".claude"), 0o700); err != nil {
		t.Fatal(err)
	}
	settings = filepath.Join(dir, ".claude", "settings.json")
	if err := os.WriteFile(settings, []byte(trustSettings), 0o600); err != nil {
		t.Fatal(err)
	}
	store = filepath.Join(dir, "trust.json")
	config = map[string]any{
		"project_dir": dir,
		"trust":       map[string]any{"store": store},
		"sources":     []any{map[string]any{"scope": "project", "path": ".claude/settings.json"}},
	}
	return config, settings, store
}

func stopOutcomes(t *testing.T, config any) int {
	t.Helper()
	d, err := New(config)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	r, err := d.Fire(context.Background(), map[string]any{"hook_event_name": "Stop", "cwd": "/"})
	if err != nil {
		t.Fatal(err)
	}
	return len(r.Outcomes)
}

func trustStatusOf(t *testing.T, config any) *TrustStatus {
	t.Helper()
	d, err := New(config)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	s, err := d.TrustStatus()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestRecordedProjectHooksRunAndAnEditUntrustsThem(t *testing.T) {
	config, settings, store := trustProject(t)

	if n := stopOutcomes(t, config); n != 0 {
		t.Fatalf("untrusted project hooks ran: %d outcomes", n)
	}
	before := trustStatusOf(t, config)
	if before.Store == nil || *before.Store != store {
		t.Fatalf("store = %v, want %s", before.Store, store)
	}
	if before.ProjectDir == nil || *before.ProjectDir != config["project_dir"] {
		t.Fatalf("project_dir = %v", before.ProjectDir)
	}
	if len(before.Sources) != 1 {
		t.Fatalf("sources = %+v", before.Sources)
	}
	src := before.Sources[0]
	if src.Trusted || src.Scope != "project" || src.Why == "" {
		t.Fatalf("source before recording: %+v", src)
	}
	if src.Key == nil || *src.Key != ".claude/settings.json" {
		t.Fatalf("key = %v", src.Key)
	}
	if src.Digest == nil || !strings.HasPrefix(*src.Digest, "sha256:") {
		t.Fatalf("digest = %v", src.Digest)
	}

	after, err := RecordTrust(config)
	if err != nil {
		t.Fatal(err)
	}
	if len(after.Sources) != 1 || !after.Sources[0].Trusted || *after.Sources[0].Digest != *src.Digest {
		t.Fatalf("status after recording: %+v", after.Sources)
	}
	info, err := os.Stat(store)
	if err != nil {
		t.Fatal(err)
	}
	if mode := info.Mode().Perm(); mode != 0o600 {
		t.Fatalf("store mode %o, want 600", mode)
	}
	if !trustStatusOf(t, config).Sources[0].Trusted {
		t.Fatal("a new dispatcher does not see the recorded trust")
	}
	if n := stopOutcomes(t, config); n != 1 {
		t.Fatalf("trusted project hook: %d outcomes, want 1", n)
	}

	if err := os.WriteFile(settings, []byte(strings.Replace(trustSettings, "ran", "edited", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	if n := stopOutcomes(t, config); n != 0 {
		t.Fatalf("edited file still trusted: %d outcomes", n)
	}
	if trustStatusOf(t, config).Sources[0].Trusted {
		t.Fatal("edited file reported trusted")
	}
}

func TestRecordTrustTakesJSONTextLikeNew(t *testing.T) {
	config, _, _ := trustProject(t)
	var text strings.Builder
	text.WriteString(`{"project_dir":`)
	text.WriteString(quote(config["project_dir"].(string)))
	text.WriteString(`,"trust":{"store":`)
	text.WriteString(quote(config["trust"].(map[string]any)["store"].(string)))
	text.WriteString(`},"sources":[{"scope":"project","path":".claude/settings.json"}]}`)
	s, err := RecordTrust([]byte(text.String()))
	if err != nil {
		t.Fatal(err)
	}
	if !s.Sources[0].Trusted {
		t.Fatalf("%+v", s.Sources)
	}
	if n := stopOutcomes(t, text.String()); n != 1 {
		t.Fatalf("%d outcomes, want 1", n)
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestAConfigurationWithoutProjectSourcesHasNothingToTrust(t *testing.T) {
	s := trustStatusOf(t, `{"hooks":{}}`)
	if len(s.Sources) != 0 || s.ProjectDir != nil || s.Store != nil {
		t.Fatalf("%+v", s)
	}
}

func TestRecordTrustErrorsAreErrorsWithKinds(t *testing.T) {
	config, _, _ := trustProject(t)
	dir := config["project_dir"].(string)
	cases := []struct {
		name    string
		config  any
		code    Code
		pointer string
	}{
		{"no project_dir", map[string]any{
			"sources": []any{map[string]any{"scope": "project", "settings": map[string]any{}}},
			"trust":   map[string]any{"store": filepath.Join(dir, "t.json")},
		}, CodeInvalidConfig, "/project_dir"},
		{"not JSON", "{\n ,}", CodeInvalidJSON, ""},
		{"not UTF-8", []byte("{\"x\":\"\xff\"}"), CodeInvalidUTF8, ""},
		{"not marshallable", map[string]any{"f": func() {}}, CodeInvalidConfig, ""},
	}
	for _, c := range cases {
		_, err := RecordTrust(c.config)
		var e *Error
		if !errors.As(err, &e) || e.Code != c.code || e.Pointer != c.pointer {
			t.Errorf("%s: got %v (%+v), want code %d pointer %q", c.name, err, e, c.code, c.pointer)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "t.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused configuration wrote a store: %v", err)
	}

	if err := os.WriteFile(filepath.Join(dir, "blocker"), []byte("a file"), 0o600); err != nil {
		t.Fatal(err)
	}
	config["trust"] = map[string]any{"store": filepath.Join(dir, "blocker", "trust.json")}
	_, err := RecordTrust(config)
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeInternal || e.Kind != KindInternal {
		t.Fatalf("unwritable store: %v", err)
	}
}

func TestTrustStatusOnAClosedDispatcherIsErrClosed(t *testing.T) {
	d, err := New(`{}`)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	if _, err := d.TrustStatus(); !errors.Is(err, ErrClosed) {
		t.Fatalf("closed: %v", err)
	}
	var nilD *Dispatcher
	if _, err := nilD.TrustStatus(); !errors.Is(err, ErrClosed) {
		t.Fatalf("nil: %v", err)
	}
}

package hookwireeino_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	hookwire "github.com/hookwire/hookwire/bindings-go"
	hookwireeino "github.com/hookwire/hookwire/bindings-go/eino"
)

// A project's own .claude/settings.json runs only once trusted (docs/configuration.md, "Project trust"). The
// trust decision is NewForProject's argument, and a guard skipped for want of trust is said,
// once, naming the call that trusts it.

// freshProject is a project with a Bash deny guard in .claude/settings.json, in a home and a
// config directory of its own (so neither the user's hooks nor their trust store are read).
func freshProject(t *testing.T) *project {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	p := newProject(t)
	p.hook("PreToolUse", "Bash", `
sys.stderr.write("guarded")
sys.exit(2)`)
	p.writeSettings()
	return p
}

func forProject(t *testing.T, p *project, trust hookwireeino.Trust, log *logBuffer) *hookwireeino.Hooks {
	t.Helper()
	h, err := hookwireeino.NewForProject(p.dir, trust, hookwireeino.Options{Logger: log.logger()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// runBash runs one bash call and says whether the tool ran.
func runBash(t *testing.T, h *hookwireeino.Hooks) bool {
	t.Helper()
	bash := &bashTool{}
	run := runAgent(t, h, newScriptedModel(callBash("call_1", "ls"), callBash("call_2", "pwd"), answer("done")), bash, "list", false)
	if len(run.errs) > 0 {
		t.Fatalf("run errors: %v", run.errs)
	}
	return len(bash.commands()) > 0
}

func TestAFreshProjectsUntrustedGuardIsSaidOnceAndTheToolRuns(t *testing.T) {
	p := freshProject(t)
	log := &logBuffer{}
	h := forProject(t, p, hookwireeino.TrustStore, log)
	if !runBash(t, h) {
		t.Fatal("the untrusted guard ran")
	}
	out := log.String()
	// Every fire's result carries the engine's load warning about the skipped file: the
	// adapter says it once, in its own words, and never repeats the engine's.
	if n := strings.Count(out, "settings.json"); n != 1 {
		t.Fatalf("the untrusted file is mentioned %d times, want once:\n%s", n, out)
	}
	for _, want := range []string{"kind=untrusted-hooks", "hookwire.RecordTrust(config)", "hookwire.ClaudeCodeDefaults(", "hookwireeino.TrustTrusted"} {
		if !strings.Contains(out, want) {
			t.Fatalf("the warning lacks %q:\n%s", want, out)
		}
	}
	var untrusted *hookwireeino.UntrustedHooksError
	if err := h.Untrusted(); !errors.As(err, &untrusted) || len(untrusted.Sources) != 1 ||
		untrusted.Sources[0].Label != "project .claude/settings.json" || untrusted.ProjectDir == "" {
		t.Fatalf("Untrusted() = %v", err)
	}
}

// The trusted routes deny (recorded trust, or the host vouching), the host's own choice to
// leave the project out runs the tool; none of them is warned about.
func TestTheHostsTrustDecisionIsNeverWarnedAbout(t *testing.T) {
	for _, tc := range []struct {
		name   string
		trust  hookwireeino.Trust
		record bool
		denies bool
	}{
		{"hookwire.RecordTrust makes the guard deny", hookwireeino.TrustStore, true, true},
		{"TrustTrusted runs the guard without the store", hookwireeino.TrustTrusted, false, true},
		{"TrustUntrusted skips the project", hookwireeino.TrustUntrusted, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := freshProject(t)
			if tc.record {
				envelope, err := hookwire.ClaudeCodeDefaults(p.dir)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := hookwire.RecordTrust(envelope); err != nil {
					t.Fatal(err)
				}
			}
			log := &logBuffer{}
			h := forProject(t, p, tc.trust, log)
			if ran := runBash(t, h); ran == tc.denies {
				t.Fatalf("the tool ran: %v, want %v", ran, !tc.denies)
			}
			if h.Untrusted() != nil || strings.Contains(log.String(), "trusted") {
				t.Fatalf("reported: %v\n%s", h.Untrusted(), log.String())
			}
		})
	}
}

func TestNewSaysOnceThatItsDispatcherSkipsAnUntrustedProject(t *testing.T) {
	p := freshProject(t)
	d, err := hookwire.NewFromClaudeCodeDefaults(p.dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	log := &logBuffer{}
	h, err := hookwireeino.New(d, hookwireeino.Options{Cwd: p.dir, Logger: log.logger()})
	if err != nil {
		t.Fatal(err)
	}
	if !runBash(t, h) {
		t.Fatal("the untrusted guard ran")
	}
	if n := strings.Count(log.String(), "settings.json"); n != 1 || !strings.Contains(log.String(), "the configuration the dispatcher was built from") {
		t.Fatalf("the untrusted file is mentioned %d times, want once:\n%s", n, log.String())
	}
	if h.Untrusted() == nil {
		t.Fatal("Untrusted() = nil")
	}
}

func TestAMissingProjectFileIsNoReasonToWarn(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	log := &logBuffer{}
	h, err := hookwireeino.NewForProject(t.TempDir(), hookwireeino.TrustStore, hookwireeino.Options{Logger: log.logger()})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if h.Untrusted() != nil || log.String() != "" {
		t.Fatalf("a project without settings files was reported: %v %s", h.Untrusted(), log.String())
	}
}

func TestNewForProjectRefusesAnUnknownTrust(t *testing.T) {
	if _, err := hookwireeino.NewForProject(t.TempDir(), "maybe", hookwireeino.Options{}); err == nil ||
		!strings.Contains(err.Error(), `"maybe"`) {
		t.Fatalf("err = %v", err)
	}
	if _, err := hookwireeino.NewForProject(filepath.Join(t.TempDir(), "missing"), hookwireeino.TrustStore, hookwireeino.Options{}); err == nil {
		t.Fatal("a missing project directory is an error")
	}
}

package hookwire

// Hostile hooks, untrusted configurations and wrapper misuse, from Go (issue 11). The hooks
// are the shared scripts of tests/hostile/; each test checks the outcome of protocol.md §5
// and §8 and, where processes are involved, that none survives. Wide time bounds (CONTRIBUTING.md
// rule 22).

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hostileScript is a shell-form command running tests/hostile/NAME with ARGS.
func hostileScript(t *testing.T, name string, args ...string) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "tests", "hostile"))
	if err != nil {
		t.Fatal(err)
	}
	words := []string{"sh", shQuote(filepath.Join(dir, name))}
	for _, a := range args {
		words = append(words, shQuote(a))
	}
	return strings.Join(words, " ")
}

func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// oneHandler is a PreToolUse configuration with one handler for every tool, plus envelope keys.
func oneHandler(handler map[string]any, extra map[string]any) map[string]any {
	cfg := map[string]any{"hooks": map[string]any{"PreToolUse": []any{map[string]any{"hooks": []any{handler}}}}}
	for k, v := range extra {
		cfg[k] = v
	}
	return cfg
}

func shHandler(command string, timeoutS float64) map[string]any {
	return map[string]any{"type": "command", "command": command, "timeout": timeoutS}
}

func onlyOutcome(t *testing.T, r *Result) Outcome {
	t.Helper()
	if len(r.Outcomes) != 1 {
		t.Fatalf("want one outcome, got %d: %+v", len(r.Outcomes), r)
	}
	return r.Outcomes[0]
}

// procAlive: the pid exists and is not a zombie (a reparented zombie is dead, only unreaped).
func procAlive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(stat)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(fields) > 0 && fields[0] != "Z"
}

// readPids returns the pids a hook wrote to path, waiting up to 2 s for want of them.
func readPids(t *testing.T, path string, want int) []int {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for {
		text, _ := os.ReadFile(path)
		var pids []int
		for _, f := range strings.Fields(string(text)) {
			if p, err := strconv.Atoi(f); err == nil {
				pids = append(pids, p)
			}
		}
		if len(pids) >= want || time.Now().After(deadline) {
			if len(pids) != want {
				t.Fatalf("%s: pids %v, want %d", path, pids, want)
			}
			return pids
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestHostileDenyIsKeptAndReturnedAtOnceWhileASleeperHoldsStdout(t *testing.T) {
	dir := t.TempDir()
	pidfile := filepath.Join(dir, "sleeper.pid")
	d := mustNew(t, oneHandler(shHandler(hostileScript(t, "deny-and-linger.sh", pidfile), 20), nil))
	start := time.Now()
	r, err := d.Fire(context.Background(), bashEvent(map[string]any{"cwd": dir}))
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	sleeper := readPids(t, pidfile, 1)[0]
	_ = syscall.Kill(sleeper, syscall.SIGKILL) // not ours to reap; cleanup only
	if took > 2*time.Second {
		t.Errorf("fire took %v while a sleeper held stdout", took)
	}
	if r.Decision == nil || *r.Decision != DecisionDeny || r.Reason == nil || *r.Reason != "lingering deny" {
		t.Errorf("decision %v reason %v, want deny / lingering deny", r.Decision, r.Reason)
	}
	o := onlyOutcome(t, r)
	if o.Status != StatusOK || o.ExitCode == nil || *o.ExitCode != 0 || o.TimedOut {
		t.Errorf("outcome %+v", o)
	}
}

func TestHostileHungHookIsKilledAtItsTimeoutWithNoSurvivor(t *testing.T) {
	dir := t.TempDir()
	pidfile := filepath.Join(dir, "pids")
	d := mustNew(t, oneHandler(shHandler(hostileScript(t, "hang.sh", pidfile), 1), nil))
	start := time.Now()
	r, err := d.Fire(context.Background(), bashEvent(map[string]any{"cwd": dir}))
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if took > 5*time.Second {
		t.Errorf("a 1 s timeout took %v", took)
	}
	o := onlyOutcome(t, r)
	if o.Status != StatusTimedOut || !o.TimedOut || o.ExitCode != nil || r.Decision != nil {
		t.Errorf("outcome %+v, decision %v", o, r.Decision)
	}
	pids := readPids(t, pidfile, 2)
	time.Sleep(time.Second)
	for _, p := range pids {
		if procAlive(p) {
			_ = syscall.Kill(p, syscall.SIGKILL)
			t.Errorf("pid %d (of %v) alive one second after the group kill", p, pids)
		}
	}
}

func TestHostileFloodOnBothStreamsIsCappedAndFlagged(t *testing.T) {
	const limit = 65536
	cfg := oneHandler(shHandler(hostileScript(t, "flood.sh", strconv.Itoa(20<<20)), 60),
		map[string]any{"limits": map[string]any{"max_output_bytes": limit}})
	d := mustNew(t, cfg)
	r, err := d.Fire(context.Background(), bashEvent(map[string]any{"cwd": t.TempDir()}))
	if err != nil {
		t.Fatal(err)
	}
	o := onlyOutcome(t, r)
	if o.Status != StatusOK || !o.StdoutTruncated || !o.StderrTruncated {
		t.Fatalf("outcome status %s truncated %v/%v error %v", o.Status, o.StdoutTruncated, o.StderrTruncated, o.Error)
	}
	if n := len(o.Stdout); n == 0 || n > limit || strings.Trim(o.Stdout, "o") != "" {
		t.Errorf("stdout kept %d bytes", n)
	}
	if n := len(o.Stderr); n == 0 || n > limit || strings.Trim(o.Stderr, "e") != "" {
		t.Errorf("stderr kept %d bytes", n)
	}
}

func TestHostileMissingProgramIsSpawnFailedNotAnError(t *testing.T) {
	h := map[string]any{"type": "command", "command": "/nonexistent/hookwire-missing-program", "args": []any{}}
	d := mustNew(t, oneHandler(h, nil))
	r, err := d.Fire(context.Background(), bashEvent(map[string]any{"cwd": t.TempDir()}))
	if err != nil {
		t.Fatal(err)
	}
	o := onlyOutcome(t, r)
	if o.Status != StatusSpawnFailed || o.ExitCode != nil || o.Error == nil || *o.Error == "" {
		t.Errorf("outcome %+v", o)
	}
}

func TestHostileInvalidUTF8OutputIsReplacedAndFlaggedLossy(t *testing.T) {
	d := mustNew(t, oneHandler(shHandler(hostileScript(t, "invalid-utf8.sh"), 20), nil))
	r, err := d.Fire(context.Background(), bashEvent(map[string]any{"cwd": t.TempDir()}))
	if err != nil {
		t.Fatal(err)
	}
	o := onlyOutcome(t, r)
	if o.Status != StatusOK || !o.StdoutLossy || !o.StderrLossy {
		t.Fatalf("outcome %+v", o)
	}
	if !strings.HasPrefix(o.Stdout, "a") || !strings.HasSuffix(o.Stdout, "b") || !strings.Contains(o.Stdout, "\uFFFD") {
		t.Errorf("stdout %q", o.Stdout)
	}
}

func TestUntrustedProjectAndLocalSourcesNeverRun(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "ran")
	settings := map[string]any{"hooks": map[string]any{"Stop": []any{map[string]any{
		"hooks": []any{map[string]any{"type": "command", "command": "touch " + shQuote(marker)}}}}}}
	text, _ := json.Marshal(settings)
	if err := os.MkdirAll(filepath.Join(dir, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".claude", "settings.json"), text, 0o644); err != nil {
		t.Fatal(err)
	}
	d := mustNew(t, map[string]any{
		"project_dir": dir,
		"sources": []any{
			map[string]any{"scope": "project", "settings": settings},
			map[string]any{"scope": "project", "path": ".claude/settings.json"},
			map[string]any{"scope": "local", "settings": settings},
		},
	})
	r, err := d.Fire(context.Background(), map[string]any{"hook_event_name": "Stop", "session_id": "go-trust", "cwd": dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Outcomes) != 0 {
		t.Errorf("untrusted hooks ran: %+v", r.Outcomes)
	}
	found := false
	for _, w := range r.Warnings {
		found = found || strings.Contains(w, "not trusted")
	}
	if !found {
		t.Errorf("no 'not trusted' warning in %q", r.Warnings)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the untrusted hook created its marker")
	}
}

// The wrapper's guarantees against misuse (abi.md §5): a closed, double-closed, nil or zero
// dispatcher answers ErrClosed from every fire, and never reaches the C library.
func TestMisuseFireAfterCloseNilAndZeroDispatchersGiveErrClosed(t *testing.T) {
	d, err := New(map[string]any{"hooks": map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	ctx := context.Background()
	ev := map[string]any{"hook_event_name": "Stop"}
	var nilD *Dispatcher
	for name, target := range map[string]*Dispatcher{"closed twice": d, "nil": nilD, "zero": {}} {
		if _, err := target.Fire(ctx, ev); !errors.Is(err, ErrClosed) {
			t.Errorf("%s: Fire gave %v, want ErrClosed", name, err)
		}
		if _, err := target.FireJSON(ctx, []byte(`{"hook_event_name":"Stop"}`)); !errors.Is(err, ErrClosed) {
			t.Errorf("%s: FireJSON gave %v, want ErrClosed", name, err)
		}
		if err := target.Close(); err != nil {
			t.Errorf("%s: Close gave %v", name, err)
		}
	}
}

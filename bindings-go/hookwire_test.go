package hookwire

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// shellHook is a PreToolUse configuration running one shell-form command for tool "Bash".
func shellHook(command string, timeoutS int) map[string]any {
	return map[string]any{"hooks": map[string]any{"PreToolUse": []any{
		map[string]any{"matcher": "Bash", "hooks": []any{
			map[string]any{"type": "command", "command": command, "timeout": timeoutS},
		}},
	}}}
}

func bashEvent(extra map[string]any) map[string]any {
	ev := map[string]any{
		"hook_event_name": "PreToolUse",
		"session_id":      "go-test",
		"tool_name":       "Bash",
		"tool_input":      map[string]any{"command": "ls"},
	}
	for k, v := range extra {
		ev[k] = v
	}
	return ev
}

func mustNew(t testing.TB, config any) *Dispatcher {
	t.Helper()
	d, err := New(config)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

func TestSixtyFourGoroutinesShareOneDispatcher(t *testing.T) {
	// Each hook echoes its own event back (cat), so a result that carried another fire's
	// output would show.
	d := mustNew(t, shellHook("cat", 30))
	const goroutines, fires = 64, 20
	var wg sync.WaitGroup
	errs := make(chan error, goroutines*fires)
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range fires {
				id := fmt.Sprintf("g%d-f%d", g, i)
				r, err := d.Fire(context.Background(), bashEvent(map[string]any{"fire_id": id}))
				switch {
				case err != nil:
					errs <- fmt.Errorf("%s: %w", id, err)
				case r.Event != "PreToolUse":
					errs <- fmt.Errorf("%s: event %q", id, r.Event)
				case len(r.Outcomes) != 1:
					errs <- fmt.Errorf("%s: %d outcomes, want 1", id, len(r.Outcomes))
				case r.Outcomes[0].Status != StatusOK || !strings.Contains(r.Outcomes[0].Stdout, `"`+id+`"`):
					errs <- fmt.Errorf("%s: outcome %+v does not echo its own event", id, r.Outcomes[0])
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	n := 0
	for err := range errs {
		if n < 5 {
			t.Error(err)
		}
		n++
	}
	if n > 0 {
		t.Errorf("%d of %d fires failed", n, goroutines*fires)
	}
}

func TestCloseDuringFiresWaitsAndThenRefuses(t *testing.T) {
	d, err := New(shellHook("exit 0", 30))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var ok, closed atomic.Int64
	var unexpected atomic.Value
	for range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				_, err := d.Fire(context.Background(), bashEvent(nil))
				switch {
				case err == nil:
					ok.Add(1)
				case errors.Is(err, ErrClosed):
					closed.Add(1)
					return
				default:
					unexpected.Store(err)
					return
				}
			}
		}()
	}
	time.Sleep(100 * time.Millisecond)
	var cwg sync.WaitGroup
	for range 4 { // concurrent Close calls are fine too
		cwg.Add(1)
		go func() { defer cwg.Done(); d.Close() }()
	}
	cwg.Wait()
	wg.Wait()
	if err, _ := unexpected.Load().(error); err != nil {
		t.Fatalf("a fire failed with something other than ErrClosed: %v", err)
	}
	if ok.Load() == 0 || closed.Load() != 32 {
		t.Errorf("%d fires succeeded, %d goroutines saw ErrClosed (want >0 and 32)", ok.Load(), closed.Load())
	}
	if _, err := d.Fire(context.Background(), bashEvent(nil)); !errors.Is(err, ErrClosed) {
		t.Errorf("Fire after Close: %v, want ErrClosed", err)
	}
	if _, err := d.FireJSON(context.Background(), []byte(`{"hook_event_name":"Stop"}`)); !errors.Is(err, ErrClosed) {
		t.Errorf("FireJSON after Close: %v, want ErrClosed", err)
	}
	if err := d.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestNilAndZeroDispatchersAreClosed(t *testing.T) {
	var d *Dispatcher
	if _, err := d.Fire(context.Background(), bashEvent(nil)); !errors.Is(err, ErrClosed) {
		t.Errorf("nil Fire: %v", err)
	}
	if err := d.Close(); err != nil {
		t.Errorf("nil Close: %v", err)
	}
	if _, err := new(Dispatcher).FireJSON(context.Background(), []byte(`{}`)); !errors.Is(err, ErrClosed) {
		t.Errorf("zero FireJSON: %v", err)
	}
}

// stretchFires makes every fire of the test run before its C call, while it holds the read
// lock, so the ctx and Close paths can be tested without depending on the engine's hooks.
func stretchFires(t *testing.T, before func()) {
	testHookFire = before
	t.Cleanup(func() { testHookFire = nil })
}

func TestCancelledFireReturnsAtOnceAndCloseWaitsForIt(t *testing.T) {
	d, err := New(`{}`)
	if err != nil {
		t.Fatal(err)
	}
	started := make(chan struct{})
	var finished atomic.Bool
	stretchFires(t, func() {
		close(started)
		time.Sleep(time.Second)
		finished.Store(true)
	})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-started; cancel() }()
	begin := time.Now()
	_, err = d.Fire(ctx, bashEvent(nil))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Fire: %v, want context.Canceled", err)
	}
	if el := time.Since(begin); el > 700*time.Millisecond {
		t.Errorf("Fire returned after %v, not at once", el)
	}
	if finished.Load() {
		t.Fatal("the abandoned fire finished before Fire returned: the test proves nothing")
	}
	d.Close()
	if !finished.Load() {
		t.Error("Close returned while the abandoned fire was still in flight")
	}
	if _, err := d.Fire(context.Background(), bashEvent(nil)); !errors.Is(err, ErrClosed) {
		t.Errorf("Fire after Close: %v, want ErrClosed", err)
	}
}

func TestAlreadyCancelledContextDoesNotFire(t *testing.T) {
	d := mustNew(t, `{}`)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := d.Fire(ctx, bashEvent(nil)); !errors.Is(err, context.Canceled) {
		t.Errorf("Fire: %v, want context.Canceled", err)
	}
}

func TestDeadlineReturnsPromptlyAndCancelsTheSleepingHook(t *testing.T) {
	d, err := New(shellHook("sleep 5", 30))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	begin := time.Now()
	r, err := d.Fire(ctx, bashEvent(nil))
	el := time.Since(begin)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Fire: result %+v, error %v; want context.DeadlineExceeded", r, err)
	}
	if el > 1500*time.Millisecond {
		t.Errorf("Fire returned after %v; a 200 ms deadline must end the wait promptly", el)
	}
	// Close waits for the abandoned fire, which the deadline cancelled in the engine: the
	// hook is killed, so Close returns long before the 5 s sleep would have ended.
	d.Close()
	if el := time.Since(begin); el > 4*time.Second {
		t.Errorf("Close returned %v after the fire began: the hook was not cancelled", el)
	}
}

func TestBadConfigJSONGivesLineAndColumn(t *testing.T) {
	_, err := New("{\n  \"hooks\": {\n    x\n}")
	var he *Error
	if !errors.As(err, &he) {
		t.Fatalf("New: %v (%T), want *Error", err, err)
	}
	if he.Code != CodeInvalidJSON || he.Kind != KindInvalidJSON {
		t.Errorf("code %d kind %q, want %d %q", he.Code, he.Kind, CodeInvalidJSON, KindInvalidJSON)
	}
	if he.Line != 3 || he.Column != 5 {
		t.Errorf("line %d column %d, want 3 and 5", he.Line, he.Column)
	}
	if want := "hookwire: invalid_json: "; !strings.HasPrefix(he.Error(), want) || he.Message == "" {
		t.Errorf("Error() = %q, want %q and a message", he.Error(), want)
	}
}

func TestConfigErrors(t *testing.T) {
	cases := []struct {
		name   string
		config any
		code   Code
		kind   string
	}{
		{"not an object", `[]`, CodeInvalidConfig, KindInvalidConfig},
		{"not UTF-8", []byte("{\"hooks\": \"\xff\"}"), CodeInvalidUTF8, KindInvalidUTF8},
		{"not marshallable", map[string]any{"hooks": make(chan int)}, CodeInvalidConfig, KindInvalidConfig},
		{"NUL byte", json.RawMessage("{}\x00"), CodeInvalidJSON, KindInvalidJSON},
		{"empty", "", CodeInvalidJSON, KindInvalidJSON},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := New(c.config)
			var he *Error
			if !errors.As(err, &he) {
				d.Close()
				t.Fatalf("New: %v (%T), want *Error", err, err)
			}
			if he.Code != c.code || he.Kind != c.kind {
				t.Errorf("%v: code %d kind %q, want %d %q", he, he.Code, he.Kind, c.code, c.kind)
			}
		})
	}
}

func TestConfigAcceptsTextAndValues(t *testing.T) {
	for _, c := range []any{`{}`, []byte(`{}`), json.RawMessage(`{}`), map[string]any{}, struct {
		Hooks map[string]any `json:"hooks"`
	}{Hooks: map[string]any{}}} {
		d, err := New(c)
		if err != nil {
			t.Errorf("New(%T): %v", c, err)
			continue
		}
		r, err := d.Fire(context.Background(), `{"hook_event_name":"Stop"}`)
		if err != nil || r.Event != "Stop" || len(r.Outcomes) != 0 {
			t.Errorf("New(%T) then Fire: %+v, %v", c, r, err)
		}
		d.Close()
	}
}

func TestEventErrors(t *testing.T) {
	d := mustNew(t, `{}`)
	cases := []struct {
		name  string
		event any
		code  Code
		kind  string
	}{
		{"no hook_event_name", map[string]any{"tool_name": "Bash"}, CodeInvalidEvent, KindInvalidEvent},
		{"not an object", `[1]`, CodeInvalidEvent, KindInvalidEvent},
		{"not JSON", `{"hook_event_name":`, CodeInvalidJSON, KindInvalidJSON},
		{"not UTF-8", []byte("{\"hook_event_name\":\"\xfe\"}"), CodeInvalidUTF8, KindInvalidUTF8},
		{"not marshallable", map[string]any{"f": func() {}}, CodeInvalidEvent, KindInvalidEvent},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := d.Fire(context.Background(), c.event)
			var he *Error
			if !errors.As(err, &he) {
				t.Fatalf("Fire: %+v, %v (%T), want *Error", r, err, err)
			}
			if he.Code != c.code || he.Kind != c.kind {
				t.Errorf("%v: code %d kind %q, want %d %q", he, he.Code, he.Kind, c.code, c.kind)
			}
		})
	}
	if _, err := d.FireJSON(context.Background(), []byte(`{"hook_event_name":"Stop"}`)); err != nil {
		t.Errorf("the dispatcher stopped working after event errors: %v", err)
	}
}

func TestFireJSONReturnsTheResultJSON(t *testing.T) {
	d := mustNew(t, `{}`)
	out, err := d.FireJSON(context.Background(), []byte(`{"hook_event_name":"PreToolUse","tool_name":"Read"}`))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatalf("not JSON: %s", out)
	}
	if string(m["event"]) != `"PreToolUse"` || string(m["outcomes"]) != `[]` {
		t.Errorf("unexpected result %s", out)
	}
}

func TestDenyIsReadIntoTypedResult(t *testing.T) {
	d := mustNew(t, shellHook("echo 'refusing rm -rf' >&2; exit 2", 30))
	r, err := d.Fire(context.Background(), bashEvent(nil))
	if err != nil {
		t.Fatal(err)
	}
	if r.Decision == nil || *r.Decision != DecisionDeny || r.Reason == nil || !strings.Contains(*r.Reason, "refusing rm -rf") {
		t.Fatalf("want deny with the reason, got %+v", r)
	}
	if len(r.Outcomes) != 1 {
		t.Fatalf("want one outcome, got %+v", r.Outcomes)
	}
	o := r.Outcomes[0]
	if o.ExitCode == nil || *o.ExitCode != 2 || o.Verdict.Source != SourceExitCode || !o.Verdict.Blocking {
		t.Errorf("unexpected outcome %+v", o)
	}
	if !r.Continue || r.Env == nil || r.Extra == nil || r.Warnings == nil {
		t.Errorf("empty values must decode as empty, not nil: %+v", r)
	}
}

func TestVersionIsTheCrateVersion(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "Cargo.toml"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want, section := "", ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			section = line
			continue
		}
		if section == "[workspace.package]" && strings.HasPrefix(line, "version") {
			if _, v, ok := strings.Cut(line, "="); ok {
				want = strings.Trim(strings.TrimSpace(v), `"`)
			}
		}
	}
	if want == "" {
		t.Fatal("no [workspace.package] version in ../Cargo.toml")
	}
	if got := Version(); got != want {
		t.Errorf("Version() = %q, Cargo.toml says %q", got, want)
	}
}

func TestErrorString(t *testing.T) {
	e := &Error{Code: CodeInvalidEvent, Kind: KindInvalidEvent, Message: "no hook_event_name"}
	if got := e.Error(); got != "hookwire: invalid_event: no hook_event_name" {
		t.Errorf("Error() = %q", got)
	}
}

func BenchmarkFireNoMatch(b *testing.B) {
	d := mustNew(b, shellHook("exit 0", 30))
	event := []byte(`{"hook_event_name":"PreToolUse","session_id":"bench","tool_name":"Read","tool_input":{"file_path":"/etc/hosts"}}`)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := d.FireJSON(ctx, event); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFireNoMatchWithCancelableContext(b *testing.B) {
	d := mustNew(b, shellHook("exit 0", 30))
	event := []byte(`{"hook_event_name":"PreToolUse","session_id":"bench","tool_name":"Read","tool_input":{"file_path":"/etc/hosts"}}`)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := d.FireJSON(ctx, event); err != nil {
			b.Fatal(err)
		}
	}
}

func TestForgottenDispatchersAreFreedByTheCleanup(t *testing.T) {
	// Dispatchers dropped without Close, one of them with an abandoned fire still in flight:
	// the cleanup must free them without racing the fire (run under -race to see it).
	started := make(chan struct{}, 1)
	stretchFires(t, func() {
		select {
		case started <- struct{}{}:
		default:
		}
		time.Sleep(200 * time.Millisecond)
	})
	func() {
		d, err := New(`{}`)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		go func() { <-started; cancel() }()
		if _, err := d.Fire(ctx, bashEvent(nil)); !errors.Is(err, context.Canceled) {
			t.Errorf("Fire: %v", err)
		}
	}()
	for range 50 {
		if _, err := New(`{}`); err != nil {
			t.Fatal(err)
		}
	}
	for range 5 {
		runtime.GC()
		time.Sleep(100 * time.Millisecond)
	}
}

// The event of benches/go's figure 6go-0: a map, so Fire encodes it and decodes the result.
var benchNoMatchMap = map[string]any{"hook_event_name": "Notification", "session_id": "s", "cwd": "/tmp", "message": "hi"}

func BenchmarkFireMapNoMatch(b *testing.B) {
	d := mustNew(b, `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"/bin/true","args":[]}]}]}}`)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := d.Fire(ctx, benchNoMatchMap); err != nil {
			b.Fatal(err)
		}
	}
}

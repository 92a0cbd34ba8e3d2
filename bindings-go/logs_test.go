package hookwire

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"testing"
)

// lockedBuffer is an io.Writer for a JSON handler written from several threads.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// records are the JSON lines written so far, decoded.
func (b *lockedBuffer) records(t *testing.T) []map[string]any {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(b.buf.String()), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("not JSON: %q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

const logDenyConfig = `{"hooks":{"PreToolUse":[
	{"matcher":"Write","hooks":[{"type":"command","command":"exit 0"}]},
	{"matcher":"Bash","hooks":[{"type":"command","command":"echo s3cret >&2; exit 2"}]}]}}`

const logBashEvent = `{"hook_event_name":"PreToolUse","cwd":"/","tool_name":"Bash","tool_input":{}}`

// logFire builds a dispatcher of config and fires event once.
func logFire(t *testing.T, config, event string) *Result {
	t.Helper()
	d, err := New(config)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	r, err := d.Fire(context.Background(), event)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func withEvent(records []map[string]any, event string) []map[string]any {
	var out []map[string]any
	for _, r := range records {
		if r["event"] == event {
			out = append(out, r)
		}
	}
	return out
}

func TestSetLoggerSendsEveryEventOfAFireToSlog(t *testing.T) {
	var buf lockedBuffer
	if err := SetLogger(slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))); err != nil {
		t.Fatal(err)
	}
	defer SetLogger(nil)
	r := logFire(t, logDenyConfig, logBashEvent)
	if r.Decision == nil || *r.Decision != DecisionDeny {
		t.Fatalf("decision: %v", r.Decision)
	}
	if err := SetLogger(nil); err != nil {
		t.Fatal(err)
	}
	records := buf.records(t)
	for _, event := range []string{"load.done", "fire.start", "hook.skipped", "hook.selected", "hook.spawned",
		"hook.exited", "hook.verdict", "fire.fold", "fire.done"} {
		if len(withEvent(records, event)) == 0 {
			t.Errorf("no %s record in %v", event, records)
		}
	}
	skipped := withEvent(records, "hook.skipped")[0]
	if skipped["level"] != "DEBUG" || skipped["target"] != "hookwire::hook" || skipped["skip_reason"] != "matcher" {
		t.Errorf("hook.skipped: %v", skipped)
	}
	spawned := withEvent(records, "hook.spawned")[0]
	if pid, ok := spawned["pid"].(float64); !ok || pid <= 0 {
		t.Errorf("hook.spawned pid: %v", spawned)
	}
	verdict := withEvent(records, "hook.verdict")[0]
	if verdict["status"] != "ok" || verdict["decision"] != "deny" || verdict["exit_code"] != float64(2) {
		t.Errorf("hook.verdict: %v", verdict)
	}
	done := withEvent(records, "fire.done")[0]
	if done["level"] != "INFO" || !strings.HasPrefix(done["msg"].(string), "fire PreToolUse: 1 hook(s) ran") {
		t.Errorf("fire.done: %v", done)
	}
	if strings.Contains(buf.buf.String(), "s3cret") {
		t.Errorf("hook output below trace: %s", buf.buf.String())
	}

	// Off: nothing more is written.
	before := len(records)
	logFire(t, logDenyConfig, logBashEvent)
	if after := len(buf.records(t)); after != before {
		t.Errorf("%d records after SetLogger(nil)", after-before)
	}
}

func TestTheLoggersLevelIsTheEnginesLevel(t *testing.T) {
	var buf lockedBuffer
	if err := SetLogger(slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelInfo}))); err != nil {
		t.Fatal(err)
	}
	defer SetLogger(nil)
	logFire(t, logDenyConfig, logBashEvent)
	records := buf.records(t)
	if len(records) != 1 || records[0]["event"] != "fire.done" {
		t.Errorf("at Info: %v", records)
	}

	buf = lockedBuffer{}
	if err := SetLogger(slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: LevelTrace}))); err != nil {
		t.Fatal(err)
	}
	logFire(t, logDenyConfig, logBashEvent)
	if err := SetLogger(nil); err != nil {
		t.Fatal(err)
	}
	output := withEvent(buf.records(t), "hook.output")
	if len(output) != 1 || output[0]["stderr"] != "s3cret\n" || output[0]["level"] != "DEBUG-4" {
		t.Errorf("at LevelTrace: %v", output)
	}
}

// panickingHandler fails on every record.
type panickingHandler struct{ slog.Handler }

func (panickingHandler) Handle(context.Context, slog.Record) error { panic("the handler is broken") }

func TestAPanickingHandlerNeverFailsAFire(t *testing.T) {
	h := panickingHandler{slog.NewTextHandler(&lockedBuffer{}, &slog.HandlerOptions{Level: slog.LevelDebug})}
	if err := SetLogger(slog.New(h)); err != nil {
		t.Fatal(err)
	}
	defer SetLogger(nil)
	r := logFire(t, logDenyConfig, logBashEvent)
	if r.Decision == nil || *r.Decision != DecisionDeny {
		t.Fatalf("decision: %v", r.Decision)
	}
}

package hookwire

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

const allowJSON = `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`

// allowConfig is one command hook on Bash that allows everything.
func allowConfig() map[string]any {
	return shellHook("echo '"+allowJSON+"'", 30)
}

func commandOf(t *testing.T, event json.RawMessage) string {
	t.Helper()
	var e struct {
		ToolInput struct {
			Command string `json:"command"`
		} `json:"tool_input"`
	}
	if err := json.Unmarshal(event, &e); err != nil {
		t.Errorf("the function got no event JSON: %v: %s", err, event)
	}
	return e.ToolInput.Command
}

func pidAlive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	return err == nil && !strings.Contains(string(stat), ") Z ")
}

func TestCancellingCtxKillsASleepingHook(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	cfg := map[string]any{"hooks": map[string]any{"Stop": []any{map[string]any{"hooks": []any{
		map[string]any{"type": "command", "command": "echo $$ > " + pidFile + "; exec sleep 30"},
	}}}}}
	d, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = d.Fire(ctx, map[string]any{"hook_event_name": "Stop", "cwd": "/"})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Fire: want ctx.Err(), got %v", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("Fire returned after %v", took)
	}
	// Close waits for the background fire: it returns promptly only because the fire was
	// cancelled in the engine, not left to its 30 s hook.
	d.Close()
	if took := time.Since(start); took > 10*time.Second {
		t.Fatalf("Close waited %v: the fire was not cancelled", took)
	}
	text, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("the hook never started: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(text)))
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Second)
	for pidAlive(pid) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if pidAlive(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("hook process %d survived the cancel", pid)
	}
}

func TestCancellingOneFireLeavesTheOthersAlone(t *testing.T) {
	// One token per fire: the cancelled fire's token must not reach a fire running beside it
	// on the same dispatcher.
	d := mustNew(t, shellHook("sleep 1", 30))
	other := make(chan *Result, 1)
	go func() {
		r, err := d.Fire(context.Background(), bashEvent(nil))
		if err != nil {
			t.Error(err)
		}
		other <- r
	}()
	go func() {
		r, err := d.Fire(context.WithoutCancel(context.Background()), bashEvent(nil))
		if err != nil {
			t.Error(err)
		}
		other <- r
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := d.Fire(ctx, bashEvent(nil)); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("want DeadlineExceeded, got %v", err)
	}
	for range 2 {
		r := <-other
		if r == nil || len(r.Outcomes) != 1 || r.Outcomes[0].Status != StatusOK {
			t.Fatalf("a fire beside the cancelled one: %+v", r)
		}
	}
}

func TestAGoFunctionDenyBeatsACommandAllow(t *testing.T) {
	d := mustNew(t, allowConfig())
	var calls atomic.Int32
	id, err := d.AddFunctionHook(FunctionHook{Event: "PreToolUse", Matcher: "Bash", Name: "no-rm"},
		func(ctx context.Context, event json.RawMessage) (json.RawMessage, error) {
			calls.Add(1)
			if strings.Contains(commandOf(t, event), "rm ") {
				return json.RawMessage(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm from Go"}}`), nil
			}
			return nil, nil
		})
	if err != nil {
		t.Fatal(err)
	}
	if id != "function(no-rm):PreToolUse" {
		t.Fatalf("hook id %q", id)
	}
	r, err := d.Fire(context.Background(), bashEvent(map[string]any{"tool_input": map[string]any{"command": "rm -rf /"}}))
	if err != nil {
		t.Fatal(err)
	}
	if r.Decision == nil || *r.Decision != DecisionDeny || r.Reason == nil || *r.Reason != "no rm from Go" {
		t.Fatalf("want deny from the function, got %+v", r)
	}
	if len(r.Outcomes) != 2 || r.Outcomes[1].Type != HandlerFunction || r.Outcomes[1].Hook != id {
		t.Fatalf("outcomes %+v", r.Outcomes)
	}
	r, err = d.Fire(context.Background(), bashEvent(nil))
	if err != nil || r.Decision == nil || *r.Decision != DecisionAllow {
		t.Fatalf("ls: want allow, got %v %+v", err, r)
	}
	if calls.Load() != 2 {
		t.Fatalf("the function ran %d times", calls.Load())
	}
}

func TestAFunctionRewriteBecomesUpdatedInput(t *testing.T) {
	d := mustNew(t, allowConfig())
	_, err := d.AddFunctionHook(FunctionHook{Event: "PreToolUse", Matcher: "Bash"},
		func(ctx context.Context, event json.RawMessage) (json.RawMessage, error) {
			return json.Marshal(map[string]any{"hookSpecificOutput": map[string]any{
				"hookEventName": "PreToolUse",
				"updatedInput":  map[string]any{"command": commandOf(t, event) + " -la"},
			}})
		})
	if err != nil {
		t.Fatal(err)
	}
	r, err := d.Fire(context.Background(), bashEvent(nil))
	if err != nil {
		t.Fatal(err)
	}
	if r.Decision == nil || *r.Decision != DecisionAllow || string(r.UpdatedInput) != `{"command":"ls -la"}` {
		t.Fatalf("want allow with the rewrite, got %v %s", r.Decision, r.UpdatedInput)
	}
}

func TestAFunctionErrorOrPanicIsANonBlockingError(t *testing.T) {
	d := mustNew(t, map[string]any{"hooks": map[string]any{}})
	add := func(opts FunctionHook, fn HookFunc) {
		t.Helper()
		if _, err := d.AddFunctionHook(opts, fn); err != nil {
			t.Fatal(err)
		}
	}
	add(FunctionHook{Event: "PreToolUse"}, func(context.Context, json.RawMessage) (json.RawMessage, error) {
		return nil, errors.New("checker crashed")
	})
	add(FunctionHook{Event: "PreToolUse"}, func(context.Context, json.RawMessage) (json.RawMessage, error) {
		panic("checker panicked")
	})
	r, err := d.Fire(context.Background(), bashEvent(nil))
	if err != nil {
		t.Fatalf("a failing function must not fail the fire: %v", err)
	}
	if r.Decision != nil {
		t.Fatalf("a failing function must not decide: %v", *r.Decision)
	}
	for i, want := range []string{"checker crashed", "checker panicked"} {
		o := r.Outcomes[i]
		if o.Status != StatusError || o.Error == nil || !strings.Contains(*o.Error, want) {
			t.Fatalf("outcome %d: want error %q, got %+v", i, want, o)
		}
	}
	add(FunctionHook{Event: "PreToolUse", FailClosed: true}, func(context.Context, json.RawMessage) (json.RawMessage, error) {
		return nil, errors.New("strict checker crashed")
	})
	r, err = d.Fire(context.Background(), bashEvent(nil))
	if err != nil || r.Decision == nil || *r.Decision != DecisionDeny {
		t.Fatalf("fail-closed: want deny, got %v %+v", err, r)
	}
}

func TestAFunctionPastItsTimeoutSeesItsCtxEnd(t *testing.T) {
	d := mustNew(t, map[string]any{"hooks": map[string]any{}})
	ended := make(chan error, 1)
	_, err := d.AddFunctionHook(FunctionHook{Event: "PreToolUse", Timeout: 300 * time.Millisecond},
		func(ctx context.Context, _ json.RawMessage) (json.RawMessage, error) {
			<-ctx.Done()
			ended <- ctx.Err()
			return nil, ctx.Err()
		})
	if err != nil {
		t.Fatal(err)
	}
	r, err := d.Fire(context.Background(), bashEvent(nil))
	if err != nil || r.Outcomes[0].Status != StatusTimedOut {
		t.Fatalf("want timed_out, got %v %+v", err, r)
	}
	select {
	case err := <-ended:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("ctx ended with %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the function's ctx never ended")
	}
}

func TestRegistrationErrors(t *testing.T) {
	d := mustNew(t, map[string]any{"hooks": map[string]any{}})
	noop := func(context.Context, json.RawMessage) (json.RawMessage, error) { return nil, nil }
	var e *Error
	if _, err := d.AddFunctionHook(FunctionHook{Event: "NoSuchEvent"}, noop); !errors.As(err, &e) || e.Kind != KindInvalidConfig {
		t.Fatalf("unknown event: %v", err)
	}
	if err := d.SetHostCallback("command", noop); !errors.As(err, &e) || e.Kind != KindInvalidConfig {
		t.Fatalf("callback for command: %v", err)
	}
	d.Close()
	if _, err := d.AddFunctionHook(FunctionHook{Event: "PreToolUse"}, noop); !errors.Is(err, ErrClosed) {
		t.Fatalf("after Close: %v", err)
	}
	if err := d.SetHostCallback("prompt", noop); !errors.Is(err, ErrClosed) {
		t.Fatalf("after Close: %v", err)
	}
}

func TestAHostCallbackAnswersPromptHandlers(t *testing.T) {
	cfg := map[string]any{"hooks": map[string]any{"PreToolUse": []any{map[string]any{"hooks": []any{
		map[string]any{"type": "prompt", "prompt": "is it safe?", "timeout": 5},
	}}}}}
	d := mustNew(t, cfg)
	var seen struct {
		Type     string  `json:"type"`
		TimeoutS float64 `json:"timeout_s"`
		Handler  struct {
			Prompt string `json:"prompt"`
		} `json:"handler"`
	}
	var deadline time.Duration
	err := d.SetHostCallback("prompt", func(ctx context.Context, request json.RawMessage) (json.RawMessage, error) {
		if err := json.Unmarshal(request, &seen); err != nil {
			return nil, err
		}
		if dl, ok := ctx.Deadline(); ok {
			deadline = time.Until(dl)
		}
		return json.RawMessage(`{"ok":false,"reason":"the model says no"}`), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	r, err := d.Fire(context.Background(), bashEvent(nil))
	if err != nil {
		t.Fatal(err)
	}
	if r.Decision == nil || *r.Decision != DecisionDeny || *r.Reason != "the model says no" {
		t.Fatalf("want deny from the callback, got %+v", r)
	}
	if seen.Type != "prompt" || seen.Handler.Prompt != "is it safe?" || seen.TimeoutS != 5 {
		t.Fatalf("request %+v", seen)
	}
	if deadline <= 0 || deadline > 5*time.Second {
		t.Fatalf("the callback's ctx deadline was %v, want the handler's 5 s", deadline)
	}
}

func TestSixtyFourGoroutinesFireWithAFunctionHook(t *testing.T) {
	d := mustNew(t, shellHook("cat >/dev/null", 30))
	var calls atomic.Int64
	_, err := d.AddFunctionHook(FunctionHook{Event: "PreToolUse", Matcher: "Bash"},
		func(ctx context.Context, event json.RawMessage) (json.RawMessage, error) {
			calls.Add(1)
			var e struct {
				SessionID string `json:"session_id"`
			}
			if err := json.Unmarshal(event, &e); err != nil {
				return nil, err
			}
			return json.Marshal(map[string]any{"hookSpecificOutput": map[string]any{
				"hookEventName": "PreToolUse", "additionalContext": "session " + e.SessionID,
			}})
		})
	if err != nil {
		t.Fatal(err)
	}
	const goroutines, fires = 64, 5
	var wg sync.WaitGroup
	errs := make(chan error, goroutines*fires)
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range fires {
				session := fmt.Sprintf("g%d-%d", g, i)
				r, err := d.Fire(context.Background(), bashEvent(map[string]any{"session_id": session}))
				if err != nil {
					errs <- err
					continue
				}
				if r.AdditionalContext == nil || *r.AdditionalContext != "session "+session {
					errs <- fmt.Errorf("%s: context %v", session, r.AdditionalContext)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := calls.Load(); n != goroutines*fires {
		t.Fatalf("the function ran %d times, want %d", n, goroutines*fires)
	}
}

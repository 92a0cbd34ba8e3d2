package hookwire

// Load from goroutines on one dispatcher: 16 goroutines x 250 fires of a mixed configuration
// (allow by JSON, deny by exit 2, exec-form /bin/true, no match), then 1000 fires one after
// the other. Every fire gives exactly its verdict, and the process ends with the descriptors
// it started with and no child process (zombie or alive).

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

const (
	stressGoroutines     = 16
	stressFiresPerWorker = 250
	stressSequential     = 1000
)

const stressAllow = `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"fine"}}`

func stressConfig() map[string]any {
	sh := func(c string) map[string]any { return map[string]any{"type": "command", "command": c, "timeout": 30} }
	return map[string]any{"hooks": map[string]any{"PreToolUse": []any{
		map[string]any{"matcher": "Bash", "hooks": []any{sh("exit 0"), sh("printf '%s' '" + stressAllow + "'")}},
		map[string]any{"matcher": "Write", "hooks": []any{sh("echo no >&2; exit 2"), sh("exit 0")}},
		map[string]any{"matcher": "Edit", "hooks": []any{map[string]any{"type": "command", "command": "/bin/true", "args": []any{}}}},
	}}}
}

var stressTools = []string{"Bash", "Write", "Edit", "Read"}

// stressFire fires one event for tool and checks the verdict the mix implies; it returns the
// number of hooks run, or an error describing the mismatch.
func stressFire(d *Dispatcher, tool, session string) (int, error) {
	r, err := d.Fire(context.Background(), map[string]any{
		"hook_event_name": "PreToolUse", "session_id": session, "cwd": "/",
		"tool_name": tool, "tool_input": map[string]any{"command": "ls"},
	})
	if err != nil {
		return 0, err
	}
	want := map[string]struct {
		decision, reason string
		n                int
	}{"Bash": {"allow", "fine", 2}, "Write": {"deny", "no", 2}, "Edit": {"", "", 1}, "Read": {"", "", 0}}[tool]
	decision, reason := "", ""
	if r.Decision != nil {
		decision = string(*r.Decision)
	}
	if r.Reason != nil {
		reason = *r.Reason
	}
	if decision != want.decision || reason != want.reason || len(r.Outcomes) != want.n {
		return 0, fmt.Errorf("%s: decision %q reason %q outcomes %d", tool, decision, reason, len(r.Outcomes))
	}
	for _, o := range r.Outcomes {
		if o.Status != StatusOK {
			return 0, fmt.Errorf("%s: outcome %+v", tool, o)
		}
	}
	return len(r.Outcomes), nil
}

// openFds counts open descriptors after a GC, so that a dispatcher an earlier test forgot
// (freed by its cleanup, holding a descriptor until then) cannot make the count shrink mid-test.
func openFds(t *testing.T) int {
	runtime.GC()
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(entries)
}

// childProcesses lists "pid:state" of every process whose parent is this one, waiting up to
// 2 s for exiting ones to be reaped.
func childProcesses() []string {
	deadline := time.Now().Add(2 * time.Second)
	me := strconv.Itoa(os.Getpid())
	for {
		var out []string
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			if _, err := strconv.Atoi(e.Name()); err != nil {
				continue
			}
			stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
			if err != nil {
				continue
			}
			s := string(stat)
			f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
			if len(f) >= 2 && f[1] == me {
				out = append(out, e.Name()+":"+f[0])
			}
		}
		if len(out) == 0 || time.Now().After(deadline) {
			return out
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func warmUpStress(t *testing.T, d *Dispatcher) {
	for _, tool := range stressTools {
		if _, err := stressFire(d, tool, "warm-up"); err != nil {
			t.Fatal(err)
		}
	}
}

func TestStressSixteenGoroutinesLoseNoVerdictAndLeakNothing(t *testing.T) {
	d := mustNew(t, stressConfig())
	warmUpStress(t, d)
	fdsBefore := openFds(t)
	start := time.Now()
	var wg sync.WaitGroup
	hooks := make([]int, stressGoroutines)
	errs := make(chan error, stressGoroutines)
	for g := range stressGoroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range stressFiresPerWorker {
				n, err := stressFire(d, stressTools[(g+i)%len(stressTools)], "go-worker-"+strconv.Itoa(g))
				if err != nil {
					errs <- err
					return
				}
				hooks[g] += n
			}
		}()
	}
	wg.Wait()
	took := time.Since(start)
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	left := childProcesses()
	fdsAfter := openFds(t)
	total := 0
	for _, n := range hooks {
		total += n
	}
	t.Logf("stress(go): %d goroutines x %d fires, %d hooks, %.1f s; descriptors before %d after %d; children after %d",
		stressGoroutines, stressFiresPerWorker, total, took.Seconds(), fdsBefore, fdsAfter, len(left))
	if fdsAfter > fdsBefore {
		t.Errorf("descriptors grew: before %d, after %d", fdsBefore, fdsAfter)
	}
	if len(left) != 0 {
		t.Errorf("children left (pid:state): %v", left)
	}
	if took > 20*time.Second {
		t.Errorf("took %v", took)
	}
}

func TestStressSequentialFiresMixingHooksAndNoMatchLeakNothing(t *testing.T) {
	d := mustNew(t, stressConfig())
	warmUpStress(t, d)
	fdsBefore := openFds(t)
	for i := range stressSequential {
		tool := "Read"
		if i%2 == 1 {
			tool = stressTools[(i/2)%3]
		}
		if _, err := stressFire(d, tool, "go-sequential"); err != nil {
			t.Fatal(err)
		}
	}
	if left := childProcesses(); len(left) != 0 {
		t.Errorf("children left (pid:state): %v", left)
	}
	if fdsAfter := openFds(t); fdsAfter > fdsBefore {
		t.Errorf("descriptors grew: before %d, after %d", fdsBefore, fdsAfter)
	}
}

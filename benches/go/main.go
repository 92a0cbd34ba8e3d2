// Go binding vs what Go users would write instead (issue 10, figure 6). Prints one JSON object
// per line (the format of benches/spawn/spawn.c); each pair is measured in this process,
// interleaved round by round. Build the library first: cargo build --release -p hookwire-ffi,
// then bash dist/go-prebuilt (benches/run does both).
//
//	go run . [--quick]
package main

/*
#cgo CFLAGS: -I${SRCDIR}/../../include
// No LDFLAGS of its own: the symbols come from the archive bindings-go links
// (bindings-go/prebuilt/<goos>_<goarch>/libhookwire.a), the same library the binding calls.
#include <stdlib.h>
#include "hookwire.h"

// One no-match fire straight through the C ABI, the binding's floor.
static int32_t c_fire(const HooksDispatcher *d, const char *ev) {
	char *out = NULL;
	int32_t rc = hooks_fire(d, ev, &out);
	hooks_free(out);
	return rc;
}
*/
import "C"

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"sort"
	"time"
	"unsafe"

	hookwire "github.com/hookwire/hookwire/bindings-go"
)

var event = map[string]any{"hook_event_name": "PreToolUse", "session_id": "s", "cwd": "/tmp",
	"tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}}
var noMatch = map[string]any{"hook_event_name": "Notification", "session_id": "s", "cwd": "/tmp", "message": "hi"}

const config = `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"/bin/true","args":[]}]}]}}`

func q(xs []float64, p float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	k := int(math.Ceil(p*float64(len(s)))) - 1
	return s[max(0, min(len(s)-1, k))]
}

func row(figure, name, baseline string, hw, base []float64) {
	r := map[string]any{"figure": figure, "name": name, "baseline": baseline, "unit": "s", "n": len(hw),
		"median": q(hw, 0.5), "p90": q(hw, 0.9), "base_median": q(base, 0.5), "base_p90": q(base, 0.9)}
	r["ratio_median"] = q(hw, 0.5) / q(base, 0.5)
	r["ratio_p90"] = q(hw, 0.9) / q(base, 0.9)
	b, _ := json.Marshal(r)
	fmt.Println(string(b))
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "go bench:", err)
		os.Exit(1)
	}
}

func timed(f func()) float64 {
	t0 := time.Now()
	f()
	return time.Since(t0).Seconds()
}

func main() {
	quick := len(os.Args) > 1 && os.Args[1] == "--quick"
	ctx := context.Background()
	d, err := hookwire.New(config)
	must(err)
	defer d.Close()

	res, err := d.Fire(ctx, event)
	must(err)
	if len(res.Outcomes) != 1 {
		must(fmt.Errorf("expected one outcome, got %d", len(res.Outcomes)))
	}
	// What a Go agent writes by hand for one hook.
	user := func() {
		in, err := json.Marshal(event)
		must(err)
		cctx, cancel := context.WithTimeout(ctx, 60*time.Second)
		defer cancel()
		cmd := exec.CommandContext(cctx, "/bin/true")
		cmd.Stdin = bytes.NewReader(in)
		_, err = cmd.Output()
		must(err)
	}
	n := 40
	if quick {
		n = 5
	}
	var hw, base []float64
	for range n {
		hw = append(hw, timed(func() { _, err := d.Fire(ctx, event); must(err) }))
		base = append(base, timed(user))
	}
	row("6go-1", "Go Fire, 1 hook /bin/true", "exec.CommandContext(...).Output()", hw, base)

	cfg := C.CString(config)
	defer C.free(unsafe.Pointer(cfg))
	cd := C.hooks_dispatcher_new(cfg, nil)
	if cd == nil {
		must(fmt.Errorf("hooks_dispatcher_new failed"))
	}
	defer C.hooks_dispatcher_free(cd)
	ev, err := json.Marshal(noMatch)
	must(err)
	cev := C.CString(string(ev))
	defer C.free(unsafe.Pointer(cev))
	if C.c_fire(cd, cev) != 0 {
		must(fmt.Errorf("C no-match fire failed"))
	}
	m := 20000
	if quick {
		m = 500
	}
	hw, base = hw[:0], base[:0]
	for range m {
		hw = append(hw, timed(func() { _, err := d.Fire(ctx, noMatch); must(err) }))
		base = append(base, timed(func() { C.c_fire(cd, cev) }))
	}
	row("6go-0", "Go Fire(map), no match", "C ABI hooks_fire+hooks_free via cgo (bytes in)", hw, base)
}

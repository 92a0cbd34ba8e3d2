package hookwire

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// A configuration whose unknown event name puts a warning in every result, so a no-match
// result has a slice element to change.
const warnedConfig = `{"hooks":{"NoSuchEvent":[{"hooks":[{"type":"command","command":"exit 0"}]}],
	"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"exit 0"}]}]}}`

func readEvent() map[string]any {
	return map[string]any{"hook_event_name": "PreToolUse", "session_id": "cache", "tool_name": "Read",
		"tool_input": map[string]any{"file_path": "/etc/hosts"}}
}

// decoded is what Fire promised before the cache: json.Unmarshal of the result JSON.
func decoded(t *testing.T, d *Dispatcher, event any) *Result {
	t.Helper()
	text, err := encode(event, CodeInvalidEvent, KindInvalidEvent)
	if err != nil {
		t.Fatal(err)
	}
	out, err := d.FireJSON(context.Background(), []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	var r Result
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

func TestACachedNoMatchResultIsWhatDecodingTheResultJSONGives(t *testing.T) {
	d := mustNew(t, warnedConfig)
	want := decoded(t, d, readEvent())
	if len(want.Warnings) == 0 || want.Outcomes == nil || len(want.Outcomes) != 0 {
		t.Fatalf("the test needs a warned no-match result, got %+v", want)
	}
	for i := range 3 { // the first decodes, the others come from the cache
		got, err := d.Fire(context.Background(), readEvent())
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) { // DeepEqual tells nil from empty, too
			t.Errorf("fire %d: %+v, want %+v", i, got, want)
		}
	}
}

func TestACachedNoMatchResultHandedOutTwiceIsTwoIndependentValues(t *testing.T) {
	d := mustNew(t, warnedConfig)
	want := decoded(t, d, readEvent())
	first, err := d.Fire(context.Background(), readEvent())
	if err != nil {
		t.Fatal(err)
	}
	// Change everything a caller can reach.
	first.Warnings[0] = "changed"
	first.Env["K"] = "v"
	first.Extra["k"] = json.RawMessage(`1`)
	first.Outcomes = append(first.Outcomes, Outcome{Hook: "x"})
	allow := DecisionAllow
	first.Decision = &allow
	second, err := d.Fire(context.Background(), readEvent())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(second, want) {
		t.Errorf("the next fire saw the change: %+v, want %+v", second, want)
	}
	second.Warnings[0] = "changed again"
	if first.Warnings[0] != "changed" {
		t.Errorf("two results share their warnings")
	}
}

func TestFiresThatRunHooksAndBadEventsBypassTheCache(t *testing.T) {
	d := mustNew(t, shellHook("echo ran", 30))
	for range 2 {
		r, err := d.Fire(context.Background(), bashEvent(nil))
		if err != nil || len(r.Outcomes) != 1 || r.Outcomes[0].Stdout != "ran\n" {
			t.Fatalf("%+v, %v", r, err)
		}
	}
	if m := d.h.results.m.Load(); m != nil && len(*m) != 0 {
		t.Errorf("results with outcomes were cached: %d", len(*m))
	}
	// A no-match fire, then events the engine refuses: each still gets its precise error.
	if _, err := d.Fire(context.Background(), readEvent()); err != nil {
		t.Fatal(err)
	}
	for event, kind := range map[string]string{
		`{"hook_event_name":"PreToolUse","tool_name":5}`: KindInvalidEvent,
		`{"hook_event_name":"PreToolUse"`:                KindInvalidJSON,
		"{\"hook_event_name\":\"PreToolUse\x00\"}":       KindInvalidJSON,
		`["PreToolUse"]`: KindInvalidEvent,
	} {
		var e *Error
		if _, err := d.Fire(context.Background(), event); !errors.As(err, &e) || e.Kind != kind {
			t.Errorf("%q: %v, want kind %s", event, err, kind)
		}
	}
}

func TestAResultLargerThanTheFireBufferIsReadWhole(t *testing.T) {
	d := mustNew(t, shellHook(fmt.Sprintf("head -c %d /dev/zero | tr '\\0' x", 3*fireBufOut), 30))
	r, err := d.Fire(context.Background(), bashEvent(nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Outcomes) != 1 || r.Outcomes[0].Stdout != strings.Repeat("x", 3*fireBufOut) {
		t.Errorf("stdout of %d bytes, want %d", len(r.Outcomes[0].Stdout), 3*fireBufOut)
	}
}

func TestTheResultCacheKeepsAtMostMaxCachedResultsTexts(t *testing.T) {
	var c resultCache
	for i := range 3 * maxCachedResults {
		text := fmt.Sprintf(`{"event":"E%d","continue":true,"outcomes":[],"async_outcomes":[]}`, i)
		r, err := c.decode([]byte(text))
		if err != nil || r.Event != fmt.Sprintf("E%d", i) {
			t.Fatalf("%s: %+v, %v", text, r, err)
		}
		if n := len(*c.m.Load()); n > maxCachedResults {
			t.Fatalf("%d texts cached", n)
		}
	}
}

// fill sets every field reachable from v to a non-zero value (one element per slice and map),
// so that clone is checked on fields added after it was written too.
func fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem())
	case reflect.Struct:
		for i := range v.NumField() {
			fill(v.Field(i))
		}
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(v.Index(0))
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(k)
		fill(e)
		v.SetMapIndex(k, e)
	case reflect.String:
		v.SetString("s")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64:
		v.SetInt(1)
	case reflect.Uint8:
		v.SetUint('1')
	case reflect.Float64:
		v.SetFloat(1)
	default:
		panic("fill: add " + v.Kind().String())
	}
}

// shared reports the first path at which a and b (equal in value) hold the same memory.
func shared(a, b reflect.Value, path string) string {
	switch a.Kind() {
	case reflect.Pointer:
		if a.Pointer() == b.Pointer() {
			return path
		}
		return shared(a.Elem(), b.Elem(), path)
	case reflect.Struct:
		for i := range a.NumField() {
			if p := shared(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); p != "" {
				return p
			}
		}
	case reflect.Slice:
		if a.Pointer() == b.Pointer() {
			return path
		}
		for i := range a.Len() {
			if p := shared(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)); p != "" {
				return p
			}
		}
	case reflect.Map:
		if a.Pointer() == b.Pointer() {
			return path
		}
		for _, k := range a.MapKeys() {
			if p := shared(a.MapIndex(k), b.MapIndex(k), fmt.Sprintf("%s[%v]", path, k)); p != "" {
				return p
			}
		}
	}
	return ""
}

func TestACloneOfAResultSharesNothingAndEqualsIt(t *testing.T) {
	var r Result
	fill(reflect.ValueOf(&r).Elem())
	c := r.clone()
	if !reflect.DeepEqual(c, &r) {
		t.Fatalf("clone differs:\n%+v\n%+v", c, &r)
	}
	if p := shared(reflect.ValueOf(&r).Elem(), reflect.ValueOf(c).Elem(), "Result"); p != "" {
		t.Errorf("the clone shares %s with the original", p)
	}
	var empty Result
	empty.Outcomes, empty.Warnings, empty.Env = []Outcome{}, []string{}, map[string]string{}
	if c := empty.clone(); !reflect.DeepEqual(c, &empty) || c.Outcomes == nil || c.Warnings == nil || c.Env == nil {
		t.Errorf("empty became nil: %+v", c)
	}
}

func TestANoMatchFireWithACtxThatCanEndAnswersAsTheFireDoes(t *testing.T) {
	d := mustNew(t, warnedConfig)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	text, err := encode(readEvent(), CodeInvalidEvent, KindInvalidEvent)
	if err != nil {
		t.Fatal(err)
	}
	fired, err := d.FireJSON(context.Background(), []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	answered, err := d.FireJSON(ctx, []byte(text))
	if err != nil || string(answered) != string(fired) {
		t.Errorf("%s, %v; the fire gives %s", answered, err, fired)
	}
	if r, err := d.Fire(ctx, readEvent()); err != nil || !reflect.DeepEqual(r, decoded(t, d, readEvent())) {
		t.Errorf("%+v, %v", r, err)
	}
	var e *Error
	if _, err := d.Fire(ctx, `{"hook_event_name":"PreToolUse","tool_name":5}`); !errors.As(err, &e) || e.Kind != KindInvalidEvent {
		t.Errorf("a bad event: %v", err)
	}
	// A fire that runs a hook still goes to the engine, cancellable.
	h := mustNew(t, shellHook("echo ran", 30))
	if r, err := h.Fire(ctx, bashEvent(nil)); err != nil || len(r.Outcomes) != 1 || r.Outcomes[0].Stdout != "ran\n" {
		t.Errorf("%+v, %v", r, err)
	}
}

package hookwire

// The Go runner of the shared conformance corpus, tests/vectors/*.json, implementing the
// format and matching rules of tests/README.md. Adding a vector needs no code here.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

// fireTimeout bounds one fire of the runner, so that a hung hook fails its vector instead of
// the whole test binary.
const fireTimeout = 120 * time.Second

func TestVectors(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "tests", "vectors", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no vectors found in ../tests/vectors/*.json: a run that collects nothing is a failure")
	}
	sort.Strings(files)
	hooksDir, err := filepath.Abs(filepath.Join("..", "tests", "hooks"))
	if err != nil {
		t.Fatal(err)
	}
	workers := vectorWorkers(t)
	// The counts are shared by subtests that run in parallel: mu guards them. The summary is a
	// cleanup of the parent, which runs once every subtest, parallel ones included, has ended.
	var mu sync.Mutex
	var failed []string
	ran, skipped := 0, 0
	t.Cleanup(func() {
		t.Logf("%d vectors: %d run, %d skipped, %d failed", len(files), ran, skipped, len(failed))
		if ran == 0 {
			t.Error("every vector was skipped: a run that checks nothing is a failure")
		}
		if len(failed) > 0 {
			sort.Strings(failed)
			t.Errorf("%d of %d vectors failed: %s", len(failed), ran, strings.Join(failed, ", "))
		}
	})
	// Serial vectors (tests/README.md: "serial": true, or host_env, which t.Setenv refuses in a
	// parallel test) run here, in order, one at a time; the others call t.Parallel, so they
	// wait until this loop has ended and then run together, at most `go test -parallel` of
	// them at once (.ci/go.sh passes HOOKWIRE_VECTOR_WORKERS; 1 here runs every one in order).
	for _, file := range files {
		name := filepath.Base(file)
		parallel := workers > 1 && !vectorIsSerial(file)
		t.Run(strings.TrimSuffix(name, ".json"), func(t *testing.T) {
			if parallel {
				t.Parallel()
			}
			fails, skip := runVector(t, file, hooksDir)
			mu.Lock()
			defer mu.Unlock()
			if skip != "" {
				skipped++
				t.Skip(skip)
			}
			ran++
			for _, f := range fails {
				t.Errorf("%s: %s", name, f)
			}
			if len(fails) > 0 {
				failed = append(failed, name)
			}
		})
	}
}

// vectorWorkers is HOOKWIRE_VECTOR_WORKERS (default 4): 1 runs every vector one after another.
func vectorWorkers(t *testing.T) int {
	w := os.Getenv("HOOKWIRE_VECTOR_WORKERS")
	if w == "" {
		return 4
	}
	n, err := strconv.Atoi(strings.TrimSpace(w))
	if err != nil || n < 1 {
		t.Fatalf("HOOKWIRE_VECTOR_WORKERS=%q: expected a whole number >= 1", w)
	}
	return n
}

// vectorIsSerial: the vector says "serial": true or sets host_env (process-wide). A file that
// does not parse is not serial; runVector reports why.
func vectorIsSerial(file string) bool {
	raw, err := os.ReadFile(file)
	if err != nil {
		return false
	}
	var v map[string]json.RawMessage
	if json.Unmarshal(raw, &v) != nil {
		return false
	}
	_, env := v["host_env"]
	return string(bytes.TrimSpace(v["serial"])) == "true" || env
}

// vectorKeys and expectKeys are the keys tests/README.md defines; anything else is reported,
// so that a misspelt key cannot silently turn a check off.
var (
	vectorKeys = map[string]bool{"description": true, "checklist": true, "config": true, "event": true,
		"event_text": true, "expect": true, "fires": true, "host_env": true, "skip": true, "skip_reason": true, "pad_bytes": true,
		"serial": true}
	fireKeys   = map[string]bool{"event": true, "event_text": true, "expect": true, "sleep_ms": true, "pad_bytes": true}
	expectKeys = map[string]bool{"result": true, "outcomes": true, "async_outcomes": true, "warnings": true,
		"max_ms": true, "min_ms": true, "files_absent": true, "files_present": true, "error": true,
		"config_error": true}
)

type vectorStep struct {
	where  string // "" for a single fire, "fires[i]." otherwise
	event  any    // the event value, or nil
	text   *string
	expect *object
	sleep  time.Duration
}

// runVector runs one vector file and returns its failures (each "path: message"), or a
// non-empty skip reason.
func runVector(t *testing.T, file, hooksDir string) (fails []string, skip string) {
	failf := func(path, format string, args ...any) {
		fails = append(fails, path+": "+fmt.Sprintf(format, args...))
	}
	raw, err := os.ReadFile(file)
	if err != nil {
		return []string{err.Error()}, ""
	}
	doc, err := decodeOrdered(raw)
	if err != nil {
		return []string{"not JSON: " + err.Error()}, ""
	}
	v, ok := doc.(*object)
	if !ok {
		return []string{"a vector must be a JSON object"}, ""
	}
	for _, k := range v.keys {
		if !vectorKeys[k] {
			failf(k, "unknown vector key")
		}
	}
	if s, ok := v.get("skip"); ok {
		langs, _ := s.([]any)
		for _, l := range langs {
			if l == "go" {
				reason, _ := v.get("skip_reason")
				return nil, fmt.Sprintf("skipped for go: %v", reason)
			}
		}
	}

	tmp, err := os.MkdirTemp("", "hookwire-vector-")
	if err != nil {
		return []string{err.Error()}, ""
	}
	// Errors are ignored: a hook left running in the background may still hold the directory.
	defer os.RemoveAll(tmp)
	repl := strings.NewReplacer("${HOOKS}", hooksDir, "${TMP}", tmp)
	sub := func(key string, val any) any {
		if key == "host_env" || key == "config" || key == "event" || key == "event_text" || key == "expect" {
			return substitute(val, repl)
		}
		return val
	}

	if env, ok := v.get("host_env"); ok {
		obj, ok := sub("host_env", env).(*object)
		if !ok {
			failf("host_env", "must be an object of strings")
		} else {
			for i, k := range obj.keys {
				s, ok := obj.vals[i].(string)
				if !ok {
					failf("host_env."+k, "must be a string")
					continue
				}
				t.Setenv(k, s) // restored when the vector's subtest ends
			}
		}
	}

	// The fires of the vector: one (event/event_text + expect) or several (fires).
	var steps []vectorStep
	readStep := func(o *object, where string) {
		st := vectorStep{where: where}
		if e, ok := o.get("event"); ok {
			st.event = sub("event", e)
		}
		if e, ok := o.get("event_text"); ok {
			s, ok := sub("event_text", e).(string)
			if !ok {
				failf(where+"event_text", "must be a string")
			}
			st.text = &s
		}
		if e, ok := o.get("expect"); ok {
			if st.expect, ok = sub("expect", e).(*object); !ok {
				failf(where+"expect", "must be an object")
			}
		}
		if st.expect == nil {
			failf(where+"expect", "missing")
			st.expect = &object{}
		}
		for _, k := range st.expect.keys {
			if !expectKeys[k] {
				failf(where+"expect."+k, "unknown expect key")
			}
		}
		if pad, ok := o.get("pad_bytes"); ok {
			n, isNum := number(pad)
			ev, isObj := st.event.(*object)
			switch {
			case !isNum || n < 0 || n != float64(int(n)):
				failf(where+"pad_bytes", "must be a non-negative integer")
			case !isObj:
				failf(where+"pad_bytes", "only with an event object")
			default:
				st.event = withField(ev, "padding", strings.Repeat("x", int(n)))
			}
		}
		if ms, ok := o.get("sleep_ms"); ok {
			n, ok := number(ms)
			if !ok {
				failf(where+"sleep_ms", "must be a number")
			}
			st.sleep = time.Duration(n * float64(time.Millisecond))
		}
		steps = append(steps, st)
	}
	if fires, ok := v.get("fires"); ok {
		arr, ok := fires.([]any)
		if !ok || len(arr) == 0 {
			failf("fires", "must be a non-empty array")
		}
		for i, f := range arr {
			o, ok := f.(*object)
			if !ok {
				failf(fmt.Sprintf("fires[%d]", i), "must be an object")
				continue
			}
			where := fmt.Sprintf("fires[%d].", i)
			for _, k := range o.keys {
				if !fireKeys[k] {
					failf(where+k, "unknown key in a fire")
				}
			}
			readStep(o, where)
		}
	} else {
		readStep(v, "")
	}
	if len(steps) == 0 {
		return fails, ""
	}

	config, ok := v.get("config")
	if !ok {
		failf("config", "missing")
		return fails, ""
	}
	d, err := New(encodeOrdered(sub("config", config)))
	if err != nil {
		// A refused configuration: the first fire's expectation says how (config_error, or
		// error for a vector whose config is refused).
		want, wantKey := steps[0].expect.get("config_error")
		key := "config_error"
		if !wantKey {
			want, wantKey = steps[0].expect.get("error")
			key = "error"
		}
		if !wantKey {
			failf("config", "the dispatcher build failed: %v", err)
			return fails, ""
		}
		got, gerr := errorObject(err)
		if gerr != nil {
			failf("config", "%v", gerr)
			return fails, ""
		}
		m := &matcher{}
		m.match(steps[0].where+"expect."+key, got, true, want)
		return append(fails, m.fails...), ""
	}
	defer d.Close()

	for _, st := range steps {
		exp := st.expect
		at := st.where + "expect"
		if _, ok := exp.get("config_error"); ok {
			failf(at+".config_error", "the dispatcher was built, but its build was expected to fail")
			continue
		}
		var text string
		switch {
		case st.text != nil:
			text = *st.text
		case st.event != nil:
			text = string(encodeOrdered(st.event))
		default:
			failf(st.where+"event", "neither event nor event_text is given")
			continue
		}
		if st.sleep > 0 {
			time.Sleep(st.sleep)
		}
		ctx, cancel := context.WithTimeout(context.Background(), fireTimeout)
		start := time.Now()
		out, ferr := d.FireJSON(ctx, []byte(text))
		elapsed := float64(time.Since(start)) / float64(time.Millisecond)
		cancel()

		m := &matcher{}
		if want, ok := exp.get("error"); ok {
			if ferr == nil {
				failf(at+".error", "the fire succeeded, an error was expected; result: %s", clip(string(out)))
			} else if got, gerr := errorObject(ferr); gerr != nil {
				failf(at+".error", "%v", gerr)
			} else {
				m.match(at+".error", got, true, want)
			}
		} else if ferr != nil {
			failf(at, "the fire failed: %v", ferr)
		} else {
			var typed Result
			if err := json.Unmarshal(out, &typed); err != nil {
				failf(at, "the result JSON does not decode into hookwire.Result: %v", err)
			}
			res, err := decodeOrdered(out)
			if err != nil {
				failf(at, "the result is not JSON: %v", err)
				continue
			}
			robj, ok := res.(*object)
			if !ok {
				failf(at, "the result is not an object: %s", clip(string(out)))
				continue
			}
			if want, ok := exp.get("result"); ok {
				m.match(at+".result", robj, true, want)
			}
			for _, key := range []string{"outcomes", "async_outcomes", "warnings"} {
				if want, ok := exp.get(key); ok {
					got, present := robj.get(key)
					m.match(at+"."+key, got, present, want)
				}
			}
		}
		fails = append(fails, m.fails...)
		if lim, ok := exp.get("max_ms"); ok {
			if n, ok := number(lim); !ok {
				failf(at+".max_ms", "must be a number")
			} else if elapsed >= n {
				failf(at+".max_ms", "the fire took %.1f ms, expected below %v ms", elapsed, n)
			}
		}
		if lim, ok := exp.get("min_ms"); ok {
			if n, ok := number(lim); !ok {
				failf(at+".min_ms", "must be a number")
			} else if elapsed < n {
				failf(at+".min_ms", "the fire took %.1f ms, expected at least %v ms", elapsed, n)
			}
		}
		for _, key := range []string{"files_absent", "files_present"} {
			list, ok := exp.get(key)
			if !ok {
				continue
			}
			paths, ok := list.([]any)
			if !ok {
				failf(at+"."+key, "must be an array of paths")
				continue
			}
			for i, p := range paths {
				path, ok := p.(string)
				if !ok {
					failf(fmt.Sprintf("%s.%s[%d]", at, key, i), "must be a string")
					continue
				}
				_, err := os.Lstat(path)
				exists := err == nil
				if key == "files_absent" && exists {
					failf(fmt.Sprintf("%s.%s[%d]", at, key, i), "%s exists", path)
				}
				if key == "files_present" && !exists {
					failf(fmt.Sprintf("%s.%s[%d]", at, key, i), "%s does not exist", path)
				}
			}
		}
	}
	return fails, ""
}

// errorObject gives the error JSON's "error" object of an engine error, for matching.
func errorObject(err error) (any, error) {
	var he *Error
	if !errors.As(err, &he) {
		return nil, fmt.Errorf("expected an engine error (*hookwire.Error), got %T: %v", err, err)
	}
	obj, derr := decodeOrdered(he.raw)
	if derr != nil {
		return nil, fmt.Errorf("the error object is not JSON: %v", derr)
	}
	return obj, nil
}

// ---- matching (tests/README.md, "Matching rules") ----

type matcher struct{ fails []string }

func (m *matcher) failf(path, format string, args ...any) {
	m.fails = append(m.fails, path+": "+fmt.Sprintf(format, args...))
}

// operator reports whether exp is an operator: an object with exactly one key starting "$".
func operator(exp any) (op string, arg any, ok bool) {
	o, isObj := exp.(*object)
	if !isObj || len(o.keys) != 1 || !strings.HasPrefix(o.keys[0], "$") {
		return "", nil, false
	}
	return o.keys[0], o.vals[0], true
}

// match checks actual (present says whether its key exists at all) against exp.
func (m *matcher) match(path string, actual any, present bool, exp any) {
	op, arg, isOp := operator(exp)
	if !present {
		m.failf(path, "missing, expected %s", show(exp))
		return
	}
	if isOp {
		m.matchOperator(path, actual, op, arg)
		return
	}
	switch e := exp.(type) {
	case *object:
		a, ok := actual.(*object)
		if !ok {
			m.failf(path, "expected an object matching %s, got %s", show(exp), show(actual))
			return
		}
		for i, k := range e.keys {
			av, ok := a.get(k)
			m.match(path+"."+k, av, ok, e.vals[i])
		}
	case []any:
		a, ok := actual.([]any)
		if !ok {
			m.failf(path, "expected an array, got %s", show(actual))
			return
		}
		if len(a) != len(e) {
			m.failf(path, "expected %d elements, got %d: %s", len(e), len(a), show(actual))
			return
		}
		for i := range e {
			m.match(fmt.Sprintf("%s[%d]", path, i), a[i], true, e[i])
		}
	default:
		if !scalarEqual(actual, exp) {
			m.failf(path, "expected %s, got %s", show(exp), show(actual))
		}
	}
}

func (m *matcher) matchOperator(path string, actual any, op string, arg any) {
	str := func() (string, bool) {
		s, ok := arg.(string)
		if !ok {
			m.failf(path, "%s needs a string argument, got %s", op, show(arg))
		}
		return s, ok
	}
	switch op {
	case "$eq":
		if !deepEqual(actual, arg) {
			m.failf(path, "expected exactly %s, got %s", show(arg), show(actual))
		}
	case "$contains", "$not_contains":
		s, ok := str()
		if !ok {
			return
		}
		a, isStr := actual.(string)
		switch {
		case !isStr:
			m.failf(path, "%s %q: expected a string, got %s", op, s, show(actual))
		case op == "$contains" && !strings.Contains(a, s):
			m.failf(path, "expected a string containing %q, got %s", s, show(actual))
		case op == "$not_contains" && strings.Contains(a, s):
			m.failf(path, "expected a string not containing %q, got %s", s, show(actual))
		}
	case "$some_contains", "$none_contains":
		s, ok := str()
		if !ok {
			return
		}
		a, isArr := actual.([]any)
		if !isArr {
			m.failf(path, "%s %q: expected an array, got %s", op, s, show(actual))
			return
		}
		found := false
		for _, el := range a {
			if es, ok := el.(string); ok && strings.Contains(es, s) {
				found = true
				break
			}
		}
		if op == "$some_contains" && !found {
			m.failf(path, "expected some string element containing %q, got %s", s, show(actual))
		}
		if op == "$none_contains" && found {
			m.failf(path, "expected no string element containing %q, got %s", s, show(actual))
		}
	case "$lt", "$gt":
		n, ok := number(arg)
		if !ok {
			m.failf(path, "%s needs a number argument, got %s", op, show(arg))
			return
		}
		a, ok := number(actual)
		switch {
		case !ok:
			m.failf(path, "%s %v: expected a number, got %s", op, n, show(actual))
		case op == "$lt" && !(a < n):
			m.failf(path, "expected a number below %v, got %v", n, a)
		case op == "$gt" && !(a > n):
			m.failf(path, "expected a number above %v, got %v", n, a)
		}
	case "$len":
		n, ok := number(arg)
		if !ok {
			m.failf(path, "$len needs a number argument, got %s", show(arg))
			return
		}
		var l int
		switch a := actual.(type) {
		case []any:
			l = len(a)
		case string:
			l = utf8.RuneCountInString(a)
		default:
			m.failf(path, "$len %v: expected an array or a string, got %s", n, show(actual))
			return
		}
		if float64(l) != n {
			m.failf(path, "expected length %v, got %d: %s", n, l, show(actual))
		}
	case "$any":
		// present, whatever its value: checked by the caller
	default:
		m.failf(path, "unknown operator %s", op)
	}
}

func number(v any) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil
}

func scalarEqual(a, b any) bool {
	if an, ok := a.(json.Number); ok {
		bn, ok := b.(json.Number)
		if !ok {
			return false
		}
		if an == bn {
			return true
		}
		af, aerr := an.Float64()
		bf, berr := bn.Float64()
		return aerr == nil && berr == nil && af == bf
	}
	switch a.(type) {
	case string, bool, nil:
		return a == b
	}
	return false
}

func deepEqual(a, b any) bool {
	switch bv := b.(type) {
	case *object:
		av, ok := a.(*object)
		if !ok || len(av.keys) != len(bv.keys) {
			return false
		}
		for i, k := range bv.keys {
			x, ok := av.get(k)
			if !ok || !deepEqual(x, bv.vals[i]) {
				return false
			}
		}
		return true
	case []any:
		av, ok := a.([]any)
		if !ok || len(av) != len(bv) {
			return false
		}
		for i := range bv {
			if !deepEqual(av[i], bv[i]) {
				return false
			}
		}
		return true
	default:
		return scalarEqual(a, b)
	}
}

func show(v any) string { return clip(string(encodeOrdered(v))) }

func clip(s string) string {
	const max = 400
	if len(s) > max {
		return s[:max] + "…"
	}
	return s
}

// ---- an order-preserving JSON tree ----
//
// Vectors are decoded into this tree, not into map[string]any, so that a configuration or an
// event reaches the engine with its keys in the order the vector wrote them, and numbers
// keep their literal text (json.Number).

type object struct {
	keys []string
	vals []any
}

func (o *object) get(k string) (any, bool) {
	for i, key := range o.keys {
		if key == k {
			return o.vals[i], true
		}
	}
	return nil, false
}

// decodeOrdered decodes one JSON document into *object, []any, string, json.Number, bool
// and nil.
func decodeOrdered(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data after the JSON value")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return tok, nil
	}
	switch d {
	case '{':
		o := &object{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			k, _ := kt.(string)
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			o.keys = append(o.keys, k)
			o.vals = append(o.vals, v)
		}
		_, err := dec.Token() // '}'
		return o, err
	case '[':
		arr := []any{}
		for dec.More() {
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		_, err := dec.Token() // ']'
		return arr, err
	}
	return nil, fmt.Errorf("unexpected %v", d)
}

// encodeOrdered writes the tree back as compact JSON text, keys in their order, strings
// without HTML escaping.
func encodeOrdered(v any) []byte {
	var buf bytes.Buffer
	writeOrdered(&buf, v)
	return buf.Bytes()
}

func writeOrdered(buf *bytes.Buffer, v any) {
	switch t := v.(type) {
	case *object:
		buf.WriteByte('{')
		for i, k := range t.keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			writeString(buf, k)
			buf.WriteByte(':')
			writeOrdered(buf, t.vals[i])
		}
		buf.WriteByte('}')
	case []any:
		buf.WriteByte('[')
		for i, el := range t {
			if i > 0 {
				buf.WriteByte(',')
			}
			writeOrdered(buf, el)
		}
		buf.WriteByte(']')
	case string:
		writeString(buf, t)
	case json.Number:
		buf.WriteString(string(t))
	case bool:
		buf.WriteString(strconv.FormatBool(t))
	case nil:
		buf.WriteString("null")
	default:
		panic(fmt.Sprintf("unexpected %T in a JSON tree", v))
	}
}

func writeString(buf *bytes.Buffer, s string) {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	buf.Truncate(buf.Len() - 1)
}

// withField returns a copy of o with key set to v: replaced in place when present, else
// added last.
func withField(o *object, key string, v any) *object {
	c := &object{keys: append([]string(nil), o.keys...), vals: append([]any(nil), o.vals...)}
	for i, k := range c.keys {
		if k == key {
			c.vals[i] = v
			return c
		}
	}
	c.keys = append(c.keys, key)
	c.vals = append(c.vals, v)
	return c
}

// substitute replaces ${HOOKS} and ${TMP} in every string value, recursively, never in keys.
func substitute(v any, r *strings.Replacer) any {
	switch t := v.(type) {
	case *object:
		o := &object{keys: t.keys, vals: make([]any, len(t.vals))}
		for i, el := range t.vals {
			o.vals[i] = substitute(el, r)
		}
		return o
	case []any:
		arr := make([]any, len(t))
		for i, el := range t {
			arr[i] = substitute(el, r)
		}
		return arr
	case string:
		return r.Replace(t)
	default:
		return v
	}
}

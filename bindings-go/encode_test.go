package hookwire

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
)

// reference is what encode promises: json.Marshal without HTML escaping.
func reference(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

type namedMap map[string]any

type marshals struct{}

func (marshals) MarshalJSON() ([]byte, error) { return []byte(`"custom"`), nil }

func encodeCases() []any {
	strs := []string{
		"", "plain", "a && b <c> 'q'", `quote " backslash \ slash /`, "line\nfeed\rreturn\ttab",
		"\b\f\x00\x01\x1f\x7f", "é ü 日本 🎉", "\u2028 and \u2029", "bad \xff utf-8 \xc3", "\ufffd",
		strings.Repeat("long ", 400),
	}
	floats := []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 1.5, 3, 1e-6, 1e-7, 123456789.125,
		1e20, 1e21, -1e21, 5e-324, math.MaxFloat64, math.NaN(), math.Inf(1)}
	var cases []any
	for _, s := range strs {
		cases = append(cases, s, map[string]any{s: s}, []any{s}, map[string]string{s: s}, []string{s})
	}
	for _, f := range floats {
		cases = append(cases, f, map[string]any{"f": f})
	}
	deep := any("bottom")
	for range 100 {
		deep = map[string]any{"d": []any{deep}}
	}
	cycle := map[string]any{}
	cycle["self"] = cycle
	cases = append(cases,
		nil, true, false, int(-7), int64(math.MinInt64), int32(5), uint64(math.MaxUint64), uint32(9),
		int8(3), uint(4), float32(0.1), json.Number("12"), json.RawMessage(`{"b":1, "a":2}`),
		map[string]any(nil), []any(nil), map[string]string(nil), []string(nil),
		map[string]any{}, []any{}, namedMap{"x": 1}, marshals{}, map[string]any{"m": marshals{}},
		map[int]any{2: "two", 1: "one"}, struct{ A int }{1}, map[string]any{"raw": json.RawMessage(`[1, 2]`)},
		map[string]any{"z": 1, "a": map[string]any{"y": []any{1.5, "x", nil, true}}, "é": 2, "A": 3, "": 4},
		map[string]any{"hook_event_name": "PreToolUse", "tool_input": map[string]any{"command": "ls -la | grep \"x\" && echo ok\n"}},
		deep, cycle, map[string]any{"c": make(chan int)},
	)
	return cases
}

func TestEncodingIsByteForByteJSONMarshalWithoutHTMLEscaping(t *testing.T) {
	for i, c := range encodeCases() {
		values := []any{map[string]any{"v": c}, []any{c}}
		switch c.(type) {
		case string, []byte, json.RawMessage: // text, taken as is at the top
		default:
			values = append(values, c)
		}
		for _, v := range values {
			want, wantErr := reference(v)
			got, err := appendEncoded([]byte("prefix:"), v, CodeInvalidEvent, KindInvalidEvent)
			if (err != nil) != (wantErr != nil) {
				t.Errorf("case %d (%T): error %v, encoding/json's %v", i, v, err, wantErr)
				continue
			}
			if err != nil {
				var e *Error
				if !errors.As(err, &e) || e.Kind != KindInvalidEvent || !strings.Contains(e.Message, wantErr.Error()) {
					t.Errorf("case %d (%T): error %v does not carry encoding/json's %v", i, v, err, wantErr)
				}
				continue
			}
			if !bytes.Equal(got, append([]byte("prefix:"), want...)) {
				t.Errorf("case %d (%T):\n got %q\nwant %q", i, v, got, "prefix:"+string(want))
			}
		}
	}
}

func TestTextIsTakenAsIsNotEncoded(t *testing.T) {
	for _, v := range []any{`{"a": 1}`, []byte(`{"a": 1}`), json.RawMessage(`{"a": 1}`)} {
		if got, err := encode(v, CodeInvalidEvent, KindInvalidEvent); err != nil || got != `{"a": 1}` {
			t.Errorf("%T: %q, %v", v, got, err)
		}
	}
}

// The fast path against encoding/json on strings and numbers the fuzzer makes up; `go test`
// runs the seeds, `go test -fuzz FuzzEncoding` explores.
func FuzzEncodingMatchesJSONMarshal(f *testing.F) {
	f.Add("ls -la", "key", 1.5, int64(3))
	f.Add("\u2028\xff\x00\"\\<>&\n", "é", 1e-7, int64(-1))
	f.Fuzz(func(t *testing.T, s, k string, x float64, n int64) {
		v := map[string]any{k: s, "n": n, "list": []any{s, x, map[string]string{s: k}}, "x": x}
		want, wantErr := reference(v)
		got, err := appendEncoded(nil, v, CodeInvalidEvent, KindInvalidEvent)
		if (err != nil) != (wantErr != nil) || err == nil && !bytes.Equal(got, want) {
			t.Fatalf("got %q (%v), encoding/json %q (%v)", got, err, want, wantErr)
		}
	})
}

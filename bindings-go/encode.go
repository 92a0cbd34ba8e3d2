package hookwire

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// The JSON text of the values a caller passes (events, configurations, options, results).
//
// Hooks see these bytes on stdin, so they must be exactly what json.Marshal writes with HTML
// escaping off. encoding/json gets there by reflection, sorting reflect.Values and pooling
// encoder state, which was a quarter of a no-match Fire(map) (BENCHMARKS.md, figure 6go-0).
// appendFast writes the shapes events are made of (map[string]any, []any, strings, bools,
// nil, integers and plainly formatted float64s) directly and declines everything else, which
// then goes to encoding/json whole: a named type (which may have a MarshalJSON method), a
// struct, json.Number, json.RawMessage, a float written with an exponent or that is not
// finite, a string holding a control character other than \n, \r and \t, invalid UTF-8 or
// U+2028/U+2029, and nesting deeper than maxFastDepth (which also sends cycles to encoding/json's
// own error). The fast path is hand-written because the one module that would do it (a
// faster encoding/json) would be a dependency of every user's build; encode_test.go checks
// it byte for byte against encoding/json.

// maxFastDepth bounds the nesting appendFast follows before it declines.
const maxFastDepth = 64

// appendEncoded appends the JSON text of v to buf: []byte, json.RawMessage and string are
// text taken as is; anything else is encoded like json.Marshal without HTML escaping, so that
// hooks see "&&" rather than "\u0026\u0026". A value that cannot be encoded gives an *Error
// with code and kind.
func appendEncoded(buf []byte, v any, code Code, kind string) ([]byte, error) {
	switch t := v.(type) {
	case string:
		return append(buf, t...), nil
	case []byte:
		return append(buf, t...), nil
	case json.RawMessage:
		return append(buf, t...), nil
	}
	if out, ok := appendFast(buf, v, 0); ok {
		return out, nil
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return buf, newError(code, kind, "cannot encode as JSON: "+err.Error(), 0, 0)
	}
	return append(buf, bytes.TrimSuffix(b.Bytes(), []byte("\n"))...), nil
}

// encode is appendEncoded into a new string.
func encode(v any, code Code, kind string) (string, error) {
	switch t := v.(type) {
	case string:
		return t, nil
	}
	b, err := appendEncoded(nil, v, code, kind)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// appendFast appends v as encoding/json would, or reports false (with buf's contents past
// its length unspecified) when v is not a shape it writes itself.
func appendFast(buf []byte, v any, depth int) ([]byte, bool) {
	if depth > maxFastDepth {
		return buf, false
	}
	switch t := v.(type) {
	case nil:
		return append(buf, "null"...), true
	case string:
		return appendFastString(buf, t)
	case bool:
		return strconv.AppendBool(buf, t), true
	case float64:
		return appendFastFloat(buf, t)
	case int:
		return strconv.AppendInt(buf, int64(t), 10), true
	case int64:
		return strconv.AppendInt(buf, t, 10), true
	case int32:
		return strconv.AppendInt(buf, int64(t), 10), true
	case uint64:
		return strconv.AppendUint(buf, t, 10), true
	case uint32:
		return strconv.AppendUint(buf, uint64(t), 10), true
	case map[string]any:
		return appendFastObject(buf, t, depth)
	case map[string]string:
		return appendFastObject(buf, t, depth)
	case []any:
		return appendFastArray(buf, t, depth)
	case []string:
		return appendFastArray(buf, t, depth)
	}
	return buf, false
}

// appendFastObject writes a map with its keys in byte order, as encoding/json sorts them (a
// nil map is null).
func appendFastObject[V any](buf []byte, m map[string]V, depth int) ([]byte, bool) {
	if m == nil {
		return append(buf, "null"...), true
	}
	var small [16]string
	keys := small[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	buf = append(buf, '{')
	for i, k := range keys {
		if i > 0 {
			buf = append(buf, ',')
		}
		var ok bool
		if buf, ok = appendFastString(buf, k); !ok {
			return buf, false
		}
		buf = append(buf, ':')
		if buf, ok = appendFast(buf, any(m[k]), depth+1); !ok {
			return buf, false
		}
	}
	return append(buf, '}'), true
}

// appendFastArray writes a slice as encoding/json does (a nil slice is null).
func appendFastArray[E any](buf []byte, a []E, depth int) ([]byte, bool) {
	if a == nil {
		return append(buf, "null"...), true
	}
	buf = append(buf, '[')
	for i, e := range a {
		if i > 0 {
			buf = append(buf, ',')
		}
		var ok bool
		if buf, ok = appendFast(buf, any(e), depth+1); !ok {
			return buf, false
		}
	}
	return append(buf, ']'), true
}

// appendFastString quotes s as encoding/json does with HTML escaping off, for the characters
// whose escape has never changed; it declines the rest (see the top of this file).
func appendFastString(buf []byte, s string) ([]byte, bool) {
	buf = append(buf, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < utf8.RuneSelf && c != '"' && c != '\\' {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
				return buf, false
			}
			i += size
			continue
		}
		var esc string
		switch c {
		case '"':
			esc = `\"`
		case '\\':
			esc = `\\`
		case '\n':
			esc = `\n`
		case '\r':
			esc = `\r`
		case '\t':
			esc = `\t`
		default:
			return buf, false
		}
		buf = append(buf, s[start:i]...)
		buf = append(buf, esc...)
		i++
		start = i
	}
	buf = append(buf, s[start:]...)
	return append(buf, '"'), true
}

// appendFastFloat writes f as encoding/json does when it uses plain notation ('f', shortest
// digits): a finite f that is zero or within [1e-6, 1e21) in magnitude.
func appendFastFloat(buf []byte, f float64) ([]byte, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return buf, false
	}
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		return buf, false
	}
	return strconv.AppendFloat(buf, f, 'f', -1, 64), true
}

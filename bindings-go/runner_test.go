package hookwire

// Tests of the conformance runner itself (vectors_test.go), so that a runner bug cannot pass
// vectors that should fail. They need no hook to run.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMatchingRules(t *testing.T) {
	cases := []struct {
		actual, expected string
		ok               bool
	}{
		{`{"a":1,"b":2}`, `{"a":1}`, true},
		{`{"a":1,"b":2}`, `{"a":1.0}`, true},
		{`{"a":1}`, `{"c":1}`, false},
		{`{"a":{"x":1,"y":2}}`, `{"a":{"$eq":{"x":1,"y":2}}}`, true},
		{`{"a":{"x":1,"y":2}}`, `{"a":{"$eq":{"x":1}}}`, false},
		{`{"a":{"x":1,"y":2}}`, `{"a":{"x":1}}`, true},
		{`{"a":"hello"}`, `{"a":{"$contains":"ell"}}`, true},
		{`{"a":"hello"}`, `{"a":{"$contains":"z"}}`, false},
		{`{"a":null}`, `{"a":{"$contains":"z"}}`, false},
		{`{"a":"hello"}`, `{"a":{"$not_contains":"z"}}`, true},
		{`{"a":"hello"}`, `{"a":{"$not_contains":"h"}}`, false},
		{`{"a":["x1","y2"]}`, `{"a":{"$some_contains":"y"}}`, true},
		{`{"a":["x1","y2"]}`, `{"a":{"$some_contains":"z"}}`, false},
		{`{"a":["x1","y2"]}`, `{"a":{"$none_contains":"z"}}`, true},
		{`{"a":["x1","y2"]}`, `{"a":{"$none_contains":"x"}}`, false},
		{`{"a":3.5}`, `{"a":{"$lt":4}}`, true},
		{`{"a":4}`, `{"a":{"$lt":4}}`, false},
		{`{"a":4}`, `{"a":{"$gt":3}}`, true},
		{`{"a":"4"}`, `{"a":{"$gt":3}}`, false},
		{`{"a":[1,2]}`, `{"a":{"$len":2}}`, true},
		{`{"a":"héllo"}`, `{"a":{"$len":5}}`, true},
		{`{"a":"héllo"}`, `{"a":{"$len":6}}`, false},
		{`{"a":null}`, `{"a":{"$any":true}}`, true},
		{`{}`, `{"a":{"$any":true}}`, false},
		{`{"a":1}`, `{"a":{"$nope":1}}`, false},
		{`[1,2]`, `[1,2]`, true},
		{`[1,2]`, `[1]`, false},
		{`[{"a":1,"b":2}]`, `[{"b":2}]`, true},
		{`{"a":null}`, `{"a":null}`, true},
		{`{}`, `{"a":null}`, false},
		{`{"a":false}`, `{"a":null}`, false},
		{`{"a":true}`, `{"a":true}`, true},
		{`{"a":{"$x":1,"y":2}}`, `{"a":{"$x":1,"y":2}}`, true}, // two keys: not an operator
	}
	for _, c := range cases {
		actual, err := decodeOrdered([]byte(c.actual))
		if err != nil {
			t.Fatal(err)
		}
		expected, err := decodeOrdered([]byte(c.expected))
		if err != nil {
			t.Fatal(err)
		}
		m := &matcher{}
		m.match("$", actual, true, expected)
		if ok := len(m.fails) == 0; ok != c.ok {
			t.Errorf("%s against %s: matched=%v, want %v (%v)", c.actual, c.expected, ok, c.ok, m.fails)
		}
	}
}

func TestOrderedJSONKeepsKeyOrderAndSubstitutesValuesOnly(t *testing.T) {
	in := `{"z":"${TMP}/a","a":[1.50,"${HOOKS}",{"${TMP}":"&&"}],"m":null}`
	v, err := decodeOrdered([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	out := string(encodeOrdered(substitute(v, strings.NewReplacer("${HOOKS}", "/h", "${TMP}", "/t"))))
	if want := `{"z":"/t/a","a":[1.50,"/h",{"${TMP}":"&&"}],"m":null}`; out != want {
		t.Errorf("got %s, want %s", out, want)
	}
}

// writeVector puts one vector in a temporary directory and runs it as TestVectors would.
func runSyntheticVector(t *testing.T, text string) ([]string, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "000-synthetic.json")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return runVector(t, path, "/hooks-dir")
}

func TestRunnerPassesMatchingVectors(t *testing.T) {
	for name, text := range map[string]string{
		"config_error": `{"description":"d","config":[],"event":{"hook_event_name":"Stop"},
			"expect":{"config_error":{"kind":"invalid_config"}}}`,
		"fire error": `{"config":{},"event":{"tool_name":"Bash"},
			"expect":{"error":{"kind":"invalid_event","message":{"$contains":"hook_event_name"}}}}`,
		"event_text verbatim": `{"config":{},"event_text":"{\"hook_event_name\":\"Stop\"}",
			"expect":{"result":{"event":"Stop","outcomes":{"$len":0}},"files_absent":["${TMP}/nothing"],"max_ms":10000}}`,
		"fires": `{"config":{"hooks":{}},"fires":[
			{"event":{"hook_event_name":"Stop"},"expect":{"outcomes":[]}},
			{"event":{"hook_event_name":"Stop","padding":1},"pad_bytes":3,"expect":{"outcomes":[]}},
			{"sleep_ms":10,"event_text":"nope","expect":{"error":{"kind":"invalid_json","line":{"$any":true}}}}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			fails, skip := runSyntheticVector(t, text)
			if len(fails) > 0 || skip != "" {
				t.Errorf("failures %q, skip %q", fails, skip)
			}
		})
	}
}

func TestPadBytesAddsPaddingLast(t *testing.T) {
	ev, _ := decodeOrdered([]byte(`{"hook_event_name":"Stop","b":1}`))
	got := string(encodeOrdered(withField(ev.(*object), "padding", strings.Repeat("x", 3))))
	if want := `{"hook_event_name":"Stop","b":1,"padding":"xxx"}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestRunnerReportsEveryFailureWithItsPath(t *testing.T) {
	fails, _ := runSyntheticVector(t, `{"config":{},"event":{"hook_event_name":"Stop"},"expect":{
		"result":{"event":"Nope"},"outcomes":[{}],"warnings":{"$some_contains":"x"},
		"files_present":["${TMP}/nothing"],"min_ms":60000,"typo":1}}`)
	for _, want := range []string{"expect.typo:", "expect.result.event:", "expect.outcomes:",
		"expect.warnings:", "expect.files_present[0]:", "expect.min_ms:"} {
		found := false
		for _, f := range fails {
			found = found || strings.HasPrefix(f, want)
		}
		if !found {
			t.Errorf("no failure at %s in %q", want, fails)
		}
	}
}

func TestRunnerSkipsGoAndSetsHostEnv(t *testing.T) {
	_, skip := runSyntheticVector(t, `{"skip":["python","go"],"skip_reason":"why","config":{},"event":{"hook_event_name":"Stop"},"expect":{}}`)
	if !strings.Contains(skip, "why") {
		t.Errorf("skip = %q", skip)
	}
	const name = "HOOKWIRE_GO_RUNNER_TEST_VAR"
	t.Run("host_env", func(t *testing.T) {
		fails, _ := runSyntheticVector(t, `{"host_env":{"`+name+`":"${HOOKS}/x"},"config":{},"event":{"hook_event_name":"Stop"},"expect":{}}`)
		if len(fails) > 0 {
			t.Error(fails)
		}
		if got := os.Getenv(name); got != "/hooks-dir/x" {
			t.Errorf("during the vector %s = %q", name, got)
		}
	})
	if _, set := os.LookupEnv(name); set {
		t.Errorf("%s is still set after the vector", name)
	}
}

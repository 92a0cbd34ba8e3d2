package hookwireeino_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	hookwire "github.com/hookwire/hookwire/bindings-go"
	hookwireeino "github.com/hookwire/hookwire/bindings-go/eino"
)

// The adapter builds no event itself: each is hookwire.HostEvent of the facts eino knows, so
// a hook reads, byte for byte, what the core's rule makes of them.

func ptr[T any](v T) *T { return &v }

// stdinOf is a command hook that keeps what it reads on stdin in <name>.json.
func (p *project) stdinOf(event, matcher, name string) string {
	file := filepath.Join(p.dir, name+".json")
	p.command(event, matcher, "cat > "+file)
	return file
}

func readFile(t *testing.T, file string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func hostEvent(t *testing.T, facts hookwire.HostFacts) string {
	t.Helper()
	ev, err := hookwire.HostEvent(facts)
	if err != nil {
		t.Fatal(err)
	}
	return string(ev)
}

func TestTheFiredEventsAreTheCoresHostEvents(t *testing.T) {
	p := newProject(t)
	pre := p.stdinOf("PreToolUse", "Bash", "pre")
	post := p.stdinOf("PostToolUse", "Bash", "post")
	prompt := p.stdinOf("UserPromptSubmit", "", "prompt")
	stop := p.stdinOf("Stop", "", "stop")
	start := p.stdinOf("SessionStart", "", "start")
	h := newHooks(t, p, nil, nil)
	run := runAgent(t, h, newScriptedModel(callBash("call_1", "ls -l"), answer("listed")), &bashTool{}, "list the files", false)
	if len(run.errs) > 0 {
		t.Fatalf("run errors: %v", run.errs)
	}

	common := hookwire.HostFacts{SessionID: h.SessionID(), Cwd: p.dir}
	with := func(event string, set func(*hookwire.HostFacts)) string {
		f := common
		f.Event = event
		if set != nil {
			set(&f)
		}
		return hostEvent(t, f)
	}
	tool := func(f *hookwire.HostFacts) {
		f.ToolName, f.ToolNames = ptr("bash"), hookwireeino.DefaultToolNames()
		f.ToolInput, f.ToolUseID = json.RawMessage(`{"command":"ls -l"}`), ptr("call_1")
	}
	for _, tc := range []struct{ file, want string }{
		{start, with("SessionStart", nil)},
		{prompt, with("UserPromptSubmit", func(f *hookwire.HostFacts) { f.Prompt = ptr("list the files") })},
		{pre, with("PreToolUse", tool)},
		{post, with("PostToolUse", func(f *hookwire.HostFacts) { tool(f); f.ToolResponse = "ran: ls -l" })},
		{stop, with("Stop", func(f *hookwire.HostFacts) {
			f.StopHookActive, f.LastAssistantMessage = ptr(false), ptr("listed")
		})},
	} {
		got := readFile(t, tc.file)
		if got != tc.want {
			t.Errorf("%s: the hook read\n%s\nhookwire.HostEvent gives\n%s", filepath.Base(tc.file), got, tc.want)
		}
		var ev map[string]any
		if err := json.Unmarshal([]byte(got), &ev); err != nil {
			t.Fatal(err)
		}
		if _, ok := ev["transcript_path"]; ok || ev["permission_mode"] != "default" {
			t.Errorf("%s: transcript_path must be absent and permission_mode \"default\": %s", filepath.Base(tc.file), got)
		}
	}
	var ev map[string]any
	if err := json.Unmarshal([]byte(readFile(t, pre)), &ev); err != nil || ev["tool_name"] != "Bash" {
		t.Fatalf("the bash tool reaches hooks as Bash through the default map: %v %v", ev, err)
	}
}

func TestSessionOptionsAreFactsOfEveryEvent(t *testing.T) {
	p := newProject(t)
	start := p.stdinOf("SessionStart", "", "start")
	h, err := hookwireeino.New(p.dispatcher(nil), hookwireeino.Options{
		SessionID: "conv-7", Cwd: p.dir, TranscriptPath: "/tmp/t.jsonl", PermissionMode: "plan",
	})
	if err != nil {
		t.Fatal(err)
	}
	runAgent(t, h, newScriptedModel(answer("hi")), &bashTool{}, "hi", false)
	want := hostEvent(t, hookwire.HostFacts{Event: "SessionStart", SessionID: "conv-7", Cwd: p.dir,
		TranscriptPath: ptr("/tmp/t.jsonl"), PermissionMode: ptr("plan")})
	if got := readFile(t, start); got != want {
		t.Fatalf("the hook read\n%s\nwant\n%s", got, want)
	}
}

func TestABashToolIsDeniedByABashGuardThroughTheDefaultMap(t *testing.T) {
	p := newProject(t)
	p.hook("PreToolUse", "Bash", `
sys.stderr.write("no shell")
sys.exit(2)`)
	log := &logBuffer{}
	h, err := hookwireeino.New(p.dispatcher(nil), hookwireeino.Options{Cwd: p.dir, Logger: log.logger()})
	if err != nil {
		t.Fatal(err)
	}
	m := newScriptedModel(callBash("call_1", "ls"), answer("ok"))
	bash := &bashTool{}
	run := runAgent(t, h, m, bash, "list", false)
	if len(run.errs) > 0 || len(bash.commands()) != 0 {
		t.Fatalf("run errors %v, the guarded tool ran %v", run.errs, bash.commands())
	}
	if results := toolMessages(lastCall(t, m)); len(results) != 1 || results[0].Content != "no shell" {
		t.Fatalf("tool results: %+v", results)
	}
	if strings.Contains(log.String(), "unreached-tool") {
		t.Fatalf("a mapped tool got the unreached-tool warning: %s", log.String())
	}
}

func TestAnUnmappedToolNoMatcherReachesIsSaidOncePerTool(t *testing.T) {
	p := newProject(t)
	p.hook("PreToolUse", "Bash", `sys.exit(2)`)
	log := &logBuffer{}
	h, err := hookwireeino.New(p.dispatcher(nil), hookwireeino.Options{Cwd: p.dir, Logger: log.logger()})
	if err != nil {
		t.Fatal(err)
	}
	runIt := &bashTool{name: "run_it"}
	m := newScriptedModel(callTool("call_1", "run_it", "ls"), callTool("call_2", "run_it", "pwd"), answer("done"))
	run := runAgent(t, h, m, runIt, "go", false)
	if len(run.errs) > 0 {
		t.Fatalf("run errors: %v", run.errs)
	}
	if got := runIt.commands(); len(got) != 2 {
		t.Fatalf("no hook reaches run_it, so both calls run: %v", got)
	}
	out := log.String()
	if n := strings.Count(out, "kind=unreached-tool"); n != 1 || !strings.Contains(out, `\"run_it\"`) || !strings.Contains(out, "Bash") || !strings.Contains(out, "tool=run_it") {
		t.Fatalf("want one unreached-tool warning naming run_it and the Bash matcher, got %d:\n%s", n, out)
	}
}

func TestToolNamesOverrideAndDisableTheDefaults(t *testing.T) {
	for _, tc := range []struct {
		name   string
		opts   hookwireeino.Options
		tool   string
		denied bool
	}{
		{"a user entry maps a tool the defaults do not", hookwireeino.Options{ToolNames: map[string]string{"run_it": "Bash"}}, "run_it", true},
		{"an entry mapped to empty keeps the eino name", hookwireeino.Options{ToolNames: map[string]string{"bash": ""}}, "bash", false},
		{"NoDefaultToolNames leaves the defaults out", hookwireeino.Options{NoDefaultToolNames: true}, "bash", false},
		{"a user entry wins over a default", hookwireeino.Options{ToolNames: map[string]string{"bash": "Shell"}}, "bash", false},
		{"the defaults map execute, eino's filesystem shell", hookwireeino.Options{}, "execute", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newProject(t)
			p.hook("PreToolUse", "Bash", `sys.exit(2)`)
			opts := tc.opts
			opts.Cwd, opts.Logger = p.dir, (&logBuffer{}).logger()
			h, err := hookwireeino.New(p.dispatcher(nil), opts)
			if err != nil {
				t.Fatal(err)
			}
			tool := &bashTool{name: tc.tool}
			runAgent(t, h, newScriptedModel(callTool("call_1", tc.tool, "ls"), answer("ok")), tool, "go", false)
			if denied := len(tool.commands()) == 0; denied != tc.denied {
				t.Fatalf("denied = %v, want %v", denied, tc.denied)
			}
		})
	}
}

func TestDefaultToolNamesIsAFreshMapEachCall(t *testing.T) {
	m := hookwireeino.DefaultToolNames()
	if m["bash"] != "Bash" || m["read_file"] != "Read" || m["edit_file"] != "Edit" || m["web_search"] != "WebSearch" {
		t.Fatalf("DefaultToolNames() = %v", m)
	}
	m["bash"] = "changed"
	if hookwireeino.DefaultToolNames()["bash"] != "Bash" {
		t.Fatal("a caller's change reached the defaults")
	}
}

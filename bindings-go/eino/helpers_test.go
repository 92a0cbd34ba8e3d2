package hookwireeino_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"

	hookwire "github.com/hookwire/hookwire/bindings-go"
	hookwireeino "github.com/hookwire/hookwire/bindings-go/eino"
)

// scriptedModel is a model.ToolCallingChatModel that answers from a script, one message per
// call (the last one again once the script is used up), and records what it received.
type scriptedModel struct {
	mu     sync.Mutex
	script []*schema.Message
	calls  [][]*schema.Message
}

func newScriptedModel(script ...*schema.Message) *scriptedModel {
	return &scriptedModel{script: script}
}

func (m *scriptedModel) Generate(_ context.Context, in []*schema.Message, _ ...model.Option) (*schema.Message, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	seen := make([]*schema.Message, len(in))
	for i, msg := range in {
		c := *msg
		seen[i] = &c
	}
	m.calls = append(m.calls, seen)
	i := len(m.calls) - 1
	if i >= len(m.script) {
		i = len(m.script) - 1
	}
	out := *m.script[i]
	return &out, nil
}

func (m *scriptedModel) Stream(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	msg, err := m.Generate(ctx, in, opts...)
	if err != nil {
		return nil, err
	}
	return schema.StreamReaderFromArray([]*schema.Message{msg}), nil
}

func (m *scriptedModel) WithTools([]*schema.ToolInfo) (model.ToolCallingChatModel, error) {
	return m, nil
}

// received returns the messages of every call so far.
func (m *scriptedModel) received() [][]*schema.Message {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([][]*schema.Message(nil), m.calls...)
}

// callBash is the model asking for the bash tool.
func callBash(id, command string) *schema.Message { return callTool(id, "bash", command) }

// callTool is the model asking for a bashTool named name.
func callTool(id, name, command string) *schema.Message {
	args, _ := json.Marshal(map[string]string{"command": command})
	return schema.AssistantMessage("", []schema.ToolCall{{
		ID: id, Type: "function", Function: schema.FunctionCall{Name: name, Arguments: string(args)},
	}})
}

func answer(text string) *schema.Message { return schema.AssistantMessage(text, nil) }

// bashTool is a Bash-style tool that records the commands it was asked to run and answers
// with a fixed line per command (it runs nothing: the tests look at what reached it). Its
// name is "bash" unless name says otherwise.
type bashTool struct {
	name string
	mu   sync.Mutex
	ran  []string
}

func (t *bashTool) Info(context.Context) (*schema.ToolInfo, error) {
	name := t.name
	if name == "" {
		name = "bash"
	}
	return &schema.ToolInfo{
		Name: name, Desc: "runs a shell command",
		ParamsOneOf: schema.NewParamsOneOfByParams(map[string]*schema.ParameterInfo{
			"command": {Type: schema.String, Desc: "the command", Required: true},
		}),
	}, nil
}

func (t *bashTool) InvokableRun(_ context.Context, args string, _ ...tool.Option) (string, error) {
	var in struct {
		Command string `json:"command"`
	}
	if err := json.Unmarshal([]byte(args), &in); err != nil {
		return "", err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.ran = append(t.ran, in.Command)
	return "ran: " + in.Command, nil
}

func (t *bashTool) commands() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.ran...)
}

// project is a temporary project with a .claude/settings.json of command hooks, most of
// them python3 scripts written into the project.
type project struct {
	t   *testing.T
	dir string
	// hooks: event → matcher → command
	hooks map[string]map[string]string
	n     int
}

func newProject(t *testing.T) *project {
	t.Helper()
	return &project{t: t, dir: t.TempDir(), hooks: map[string]map[string]string{}}
}

// hook adds a python3 command hook for event (matcher "" = every occurrence). The script
// reads the event from stdin as `event` (a dict) and also appends it to <event>.log.
func (p *project) hook(event, matcher, body string) {
	p.t.Helper()
	p.n++
	name := fmt.Sprintf("hook%d.py", p.n)
	script := "import json, sys\nevent = json.load(sys.stdin)\n" +
		"open(" + pyString(filepath.Join(p.dir, event+".log")) + ", 'a').write(json.dumps(event) + '\\n')\n" + body + "\n"
	if err := os.WriteFile(filepath.Join(p.dir, name), []byte(script), 0o644); err != nil {
		p.t.Fatal(err)
	}
	p.command(event, matcher, "python3 "+filepath.Join(p.dir, name))
}

// command adds a command hook for event (matcher "" = every occurrence).
func (p *project) command(event, matcher, command string) {
	if p.hooks[event] == nil {
		p.hooks[event] = map[string]string{}
	}
	p.hooks[event][matcher] = command
}

func pyString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// writeSettings writes the hooks into the project's .claude/settings.json.
func (p *project) writeSettings() {
	p.t.Helper()
	groups := map[string][]any{}
	for event, byMatcher := range p.hooks {
		for matcher, command := range byMatcher {
			groups[event] = append(groups[event], map[string]any{
				"matcher": matcher,
				"hooks":   []any{map[string]any{"type": "command", "command": command, "timeout": 20}},
			})
		}
	}
	settings, _ := json.MarshalIndent(map[string]any{"hooks": groups}, "", "  ")
	if err := os.MkdirAll(filepath.Join(p.dir, ".claude"), 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(p.dir, ".claude", "settings.json"), settings, 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// dispatcher writes the settings file and loads it as Claude Code would load a trusted
// project's .claude/settings.json.
func (p *project) dispatcher(limits map[string]any) *hookwire.Dispatcher {
	p.t.Helper()
	p.writeSettings()
	envelope := map[string]any{
		"project_dir": p.dir,
		"sources":     []any{map[string]any{"scope": "project", "path": ".claude/settings.json", "trusted": true}},
	}
	if limits != nil {
		envelope["limits"] = limits
	}
	d, err := hookwire.New(envelope)
	if err != nil {
		p.t.Fatal(err)
	}
	p.t.Cleanup(func() { d.Close() })
	return d
}

// events returns the events the hooks of one event name received, in order.
func (p *project) events(event string) []map[string]any {
	p.t.Helper()
	data, err := os.ReadFile(filepath.Join(p.dir, event+".log"))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		p.t.Fatal(err)
	}
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var ev map[string]any
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			p.t.Fatal(err)
		}
		out = append(out, ev)
	}
	return out
}

// logBuffer is a slog logger whose records the test can read.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(b)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func (l *logBuffer) logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(l, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// agentRun is one run's outcome: the events' messages and errors.
type agentRun struct {
	messages   []*schema.Message
	errs       []error
	interrupts []*adk.InterruptInfo // an event's Action.Interrupted: a tool asked a human
}

// runAgent builds a ChatModelAgent with the bash tool and the hooks, runs one prompt through
// an adk.Runner and collects what came out.
func runAgent(t *testing.T, h *hookwireeino.Hooks, m *scriptedModel, bash tool.BaseTool, prompt string, streaming bool) agentRun {
	t.Helper()
	ctx := context.Background()
	agent, err := adk.NewChatModelAgent(ctx, &adk.ChatModelAgentConfig{
		Name: "coder", Description: "writes code", Instruction: "You are a coding agent.",
		Model: m,
		ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{
			Tools: []tool.BaseTool{bash},
		}},
		Middlewares: []adk.AgentMiddleware{h.Middleware()},
	})
	if err != nil {
		t.Fatal(err)
	}
	runner := adk.NewRunner(ctx, adk.RunnerConfig{Agent: h.Wrap(agent), EnableStreaming: streaming})
	return drain(t, runner.Query(ctx, prompt))
}

func drain(t *testing.T, iter *adk.AsyncIterator[*adk.AgentEvent]) agentRun {
	t.Helper()
	var run agentRun
	for {
		ev, ok := iter.Next()
		if !ok {
			return run
		}
		if ev.Err != nil {
			run.errs = append(run.errs, ev.Err)
			continue
		}
		if ev.Action != nil && ev.Action.Interrupted != nil {
			run.interrupts = append(run.interrupts, ev.Action.Interrupted)
		}
		if ev.Output != nil && ev.Output.MessageOutput != nil {
			msg, err := ev.Output.MessageOutput.GetMessage()
			if err != nil {
				t.Fatal(err)
			}
			run.messages = append(run.messages, msg)
		}
	}
}

// toolMessages are the tool results among msgs.
func toolMessages(msgs []*schema.Message) []*schema.Message {
	var out []*schema.Message
	for _, m := range msgs {
		if m.Role == schema.Tool {
			out = append(out, m)
		}
	}
	return out
}

package hookwireeino_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// readmeDriver runs the documented eino snippet (docs/frameworks.md) (package agent, func NewRunner) as an agent would:
// a scripted model asks for `bash rm -rf /`, a PreToolUse command hook from the project's
// .claude/settings.json, trusted with hookwire.RecordTrust, denies it through the default
// tool-name map, and the test checks that the tool did not run and the model got the reason.
const readmeDriver = `package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"
	hookwire "github.com/hookwire/hookwire/bindings-go"
)

type scripted struct {
	mu    sync.Mutex
	calls [][]*schema.Message
}

func (m *scripted) Generate(_ context.Context, in []*schema.Message, _ ...model.Option) (*schema.Message, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.calls = append(m.calls, in)
	if len(m.calls) == 1 {
		return schema.AssistantMessage("", []schema.ToolCall{{ID: "c1", Type: "function",
			Function: schema.FunctionCall{Name: "bash", Arguments: ` + "`" + `{"command": "rm -rf /"}` + "`" + `}}}), nil
	}
	return schema.AssistantMessage("understood", nil), nil
}

func (m *scripted) Stream(ctx context.Context, in []*schema.Message, o ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	msg, err := m.Generate(ctx, in, o...)
	return schema.StreamReaderFromArray([]*schema.Message{msg}), err
}

func (m *scripted) WithTools([]*schema.ToolInfo) (model.ToolCallingChatModel, error) { return m, nil }

type bash struct{ ran []string }

func (b *bash) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{Name: "bash", Desc: "runs a command"}, nil
}

func (b *bash) InvokableRun(_ context.Context, args string, _ ...tool.Option) (string, error) {
	b.ran = append(b.ran, args)
	return "ran", nil
}

func TestReadmeSnippet(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := t.TempDir()
	settings := ` + "`" + `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
		"command": "grep -q 'rm -rf' && { echo 'no rm -rf here' >&2; exit 2; }; exit 0"}]}]}}` + "`" + `
	if err := os.MkdirAll(filepath.Join(dir, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".claude", "settings.json"), []byte(settings), 0o644); err != nil {
		t.Fatal(err)
	}
	// The user reviewed the project's hooks and trusted them.
	envelope, err := hookwire.ClaudeCodeDefaults(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := hookwire.RecordTrust(envelope); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	llm, b := &scripted{}, &bash{}
	runner, hooks, err := NewRunner(ctx, dir, llm, []tool.BaseTool{b})
	if err != nil {
		t.Fatal(err)
	}
	defer hooks.Close()
	if err := hooks.Untrusted(); err != nil {
		t.Fatal(err)
	}
	iter := runner.Query(ctx, "clean up")
	for ev, ok := iter.Next(); ok; ev, ok = iter.Next() {
		if ev.Err != nil {
			t.Fatal(ev.Err)
		}
	}
	if len(b.ran) != 0 || len(llm.calls) != 2 {
		t.Fatalf("tool ran %v, model calls %d", b.ran, len(llm.calls))
	}
	last := llm.calls[1][len(llm.calls[1])-1]
	if last.Role != schema.Tool || !strings.Contains(last.Content, "no rm -rf here") {
		t.Fatalf("the model got %+v", last)
	}
}
`

// TestReadmeSnippetRuns extracts docs/frameworks.md's go-adapter-eino snippet with .ci/readme-snippet,
// compiles it into a scratch package of this module with readmeDriver, and runs it, so the
// the documented lines cannot rot.
func TestReadmeSnippetRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles a package: not in -short")
	}
	snippet, err := exec.Command("python3", "../../.ci/readme-snippet", "go-adapter-eino").Output()
	if err != nil {
		t.Fatalf("readme-snippet: %v", err)
	}
	// A directory whose name starts with "_" is left out of ./... patterns, so a concurrent
	// `go vet ./...` never sees it.
	dir, err := os.MkdirTemp(".", "_readme-snippet-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.WriteFile(filepath.Join(dir, "agent.go"), snippet, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "driver_test.go"), []byte(readmeDriver), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "test", "-count=1", "-v", "-run", "^TestReadmeSnippet$", "./"+filepath.Base(dir))
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestReadmeSnippet") {
		t.Fatalf("README snippet test failed: %v\n%s", err, out)
	}
}

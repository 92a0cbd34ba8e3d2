package hookwireeino

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"

	hookwire "github.com/hookwire/hookwire/bindings-go"
)

// Options are the session facts the hooks' events carry, and where the adapter reports.
// Every field is optional.
type Options struct {
	// SessionID is the events' session_id, the key of the engine's Stop-loop cap. Default: a
	// random id per Hooks, so one Hooks is one conversation.
	SessionID string
	// Cwd is the events' cwd, where the hooks run. Default: the project directory with
	// NewForProject, else the process's working directory when New is called.
	Cwd string
	// TranscriptPath is the events' transcript_path. eino keeps no transcript file, so by
	// default the events have no transcript_path key.
	TranscriptPath string
	// PermissionMode is the events' permission_mode. Default "default", the engine's
	// (hookwire.HostEvent): what Claude Code sends when the user chose no mode.
	PermissionMode string
	// ToolNames maps an eino tool name to the tool_name the hooks see, so that hooks written
	// for Claude Code's tools match an eino tool doing the same job. Its entries are laid
	// over DefaultToolNames (an entry wins; an entry mapped to "" keeps that tool's eino
	// name); a tool in neither keeps its eino name. The first call of a tool that no hook
	// on a tool event can match is said once per tool in a Logger warning (kind
	// "unreached-tool"), naming the matchers it missed.
	ToolNames map[string]string
	// NoDefaultToolNames leaves DefaultToolNames out: only ToolNames maps names.
	NoDefaultToolNames bool
	// NeedsPermission names the tool calls that need permission (toolName as the hooks see
	// it, toolInput as PreToolUse left it). eino's ADK has no approval mechanism of its own
	// (an approval is an interrupt a tool raises itself), so nobody is asked: for such a
	// call PermissionRequest fires after PreToolUse, unless a PreToolUse hook allowed the
	// call (HostStep.Approved, as Claude Code skips its permission prompt then). A hook's
	// allow runs the tool (with its updatedInput if any); a deny, or no decision, does not
	// run it: the model gets the step's message as the tool result and OnUserMessage gets
	// it too. Default nil: no call needs permission, PermissionRequest never fires.
	NeedsPermission func(toolName string, toolInput json.RawMessage) bool
	// Logger gets the adapter's warnings (what eino cannot express, once per Hooks and kind;
	// untrusted project hooks; a tool no hook can match; each distinct warning of the
	// engine's results once) and, without OnUserMessage, the hooks' messages for the user.
	// Default slog.Default().
	Logger *slog.Logger
	// OnUserMessage gets the text hooks address to the user, never to the model: a blocked
	// prompt's reason, a system message, a stop reason, a PermissionRequest denial. event is
	// the hook event's name. Default: logged at Info level by Logger.
	OnUserMessage func(ctx context.Context, event, text string)
}

// DefaultToolNames returns the tool-name map every Hooks starts from (Options.ToolNames is
// laid over it; Options.NoDefaultToolNames leaves it out): the tools of eino's own
// filesystem middleware (adk/middlewares/filesystem: execute, read_file, write_file,
// edit_file, glob, grep, whose arguments are Claude Code's), and the names agents commonly
// give a shell, fetch or search tool. eino-ext's str_replace_editor (view, create and edit in
// one tool) and python_execute have no one Claude Code tool and are not mapped. A new map
// each call.
func DefaultToolNames() map[string]string {
	return map[string]string{
		"execute": "Bash", "bash": "Bash", "shell": "Bash", "run_shell_command": "Bash",
		"read_file": "Read", "write_file": "Write", "edit_file": "Edit",
		"glob": "Glob", "grep": "Grep",
		"web_fetch": "WebFetch", "fetch": "WebFetch", "web_search": "WebSearch",
	}
}

// Hooks fires one Dispatcher's hooks for the agent runs of one conversation. Build it with
// New or NewForProject, then install Middleware in the ChatModelAgent and give Wrap(agent)
// to the Runner. A *Hooks is safe for concurrent use; the runs it sees share its session id.
type Hooks struct {
	d         *hookwire.Dispatcher
	ownsD     bool // NewForProject built d: Close closes it
	opts      Options
	toolNames map[string]string // DefaultToolNames and Options.ToolNames, "" entries removed

	warned sync.Map // warning key → struct{}: each is said once per Hooks
	seen   sync.Map // eino tool name → struct{}: tools whose reach was checked

	skipped   []hookwire.TrustSource // project and local files skipped for want of trust
	untrusted *UntrustedHooksError   // what was said of them; nil if none, or the host's choice

	mu             sync.Mutex
	sessionStarted bool
	sessionEnded   bool
	sessionContext *string // SessionStart's context, given to the model on every run
}

// New returns the hooks of d for one conversation. d stays the caller's: Hooks never closes
// it. A nil d is an error. When d skips project or local hooks for want of trust (its
// TrustStatus lists an existing file as untrusted), New says so once in a Logger warning and
// Untrusted returns it as an error.
func New(d *hookwire.Dispatcher, opts Options) (*Hooks, error) {
	if d == nil {
		return nil, errors.New("hookwireeino: New needs a *hookwire.Dispatcher")
	}
	return newHooks(d, opts, "", true)
}

// newHooks is New, with the project directory the trust warning names ("" when the caller
// built d) and whether to warn of untrusted files (not when the host chose TrustUntrusted).
func newHooks(d *hookwire.Dispatcher, opts Options, projectDir string, warnUntrusted bool) (*Hooks, error) {
	if opts.SessionID == "" {
		var b [16]byte
		if _, err := rand.Read(b[:]); err != nil {
			return nil, fmt.Errorf("hookwireeino: session id: %w", err)
		}
		opts.SessionID = hex.EncodeToString(b[:])
	}
	if opts.Cwd == "" {
		if wd, err := os.Getwd(); err == nil {
			opts.Cwd = wd
		}
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	names := map[string]string{}
	if !opts.NoDefaultToolNames {
		names = DefaultToolNames()
	}
	for from, to := range opts.ToolNames {
		names[from] = to
		if to == "" {
			delete(names, from)
		}
	}
	h := &Hooks{d: d, opts: opts, toolNames: names}
	if err := h.checkTrust(projectDir, warnUntrusted); err != nil {
		return nil, err
	}
	return h, nil
}

// Close closes the dispatcher NewForProject built; for Hooks of New (whose dispatcher is the
// caller's) it does nothing. Call EndSession first if the session should end.
func (h *Hooks) Close() error {
	if !h.ownsD {
		return nil
	}
	return h.d.Close()
}

// SessionID is the session_id of every event these hooks fire.
func (h *Hooks) SessionID() string { return h.opts.SessionID }

// fire builds one event from the facts, with the session's facts added, by the engine's
// rule (hookwire.HostEvent), fires it and returns the host step of its result. An error here
// (the dispatcher closed, ctx ended, facts the engine refuses) is the caller's error: a
// hook's own failure is not.
func (h *Hooks) fire(ctx context.Context, facts hookwire.HostFacts) (*step, error) {
	event := facts.Event
	facts.SessionID = h.opts.SessionID
	facts.Cwd = h.opts.Cwd
	if h.opts.TranscriptPath != "" {
		facts.TranscriptPath = &h.opts.TranscriptPath
	}
	if h.opts.PermissionMode != "" {
		facts.PermissionMode = &h.opts.PermissionMode
	}
	if facts.ToolName != nil && len(h.toolNames) > 0 {
		facts.ToolNames = h.toolNames
	}
	ev, err := hookwire.HostEvent(facts)
	if err != nil {
		return nil, fmt.Errorf("hookwire: %s event: %w", event, err)
	}
	res, err := h.d.Fire(ctx, ev)
	if err != nil {
		return nil, fmt.Errorf("hookwire: %s hooks: %w", event, err)
	}
	h.resultWarnings(ctx, event, res.Warnings)
	st, err := hostStep(res)
	if err != nil {
		return nil, fmt.Errorf("hookwire: %s host step: %w", event, err)
	}
	// The step says who sees each text (Claude Code 2.1.332 shows an ask turned deny, and a
	// PermissionRequest denial, to the user as well): never guessed here.
	for _, text := range st.UserTexts() {
		h.tellUser(ctx, event, text)
	}
	return st, nil
}

// resultWarnings logs the warnings of a result, each distinct text once per Hooks: a load
// warning (an invalid matcher, an untrusted source) is carried by every result, and was
// logged on every fire. The engine's warning about a project source skipped for want of
// trust is left out: the adapter said it in its own words (Untrusted), or the host chose it.
func (h *Hooks) resultWarnings(ctx context.Context, event string, warnings []string) {
	for _, w := range warnings {
		if h.aboutSkipped(w) {
			continue
		}
		if _, seen := h.warned.LoadOrStore("result\x00"+w, struct{}{}); seen {
			continue
		}
		h.opts.Logger.WarnContext(ctx, "hookwire: "+w, "event", event)
	}
}

// tellUser surfaces text meant for the user, never for the model.
func (h *Hooks) tellUser(ctx context.Context, event, text string) {
	if h.opts.OnUserMessage != nil {
		h.opts.OnUserMessage(ctx, event, text)
		return
	}
	h.opts.Logger.InfoContext(ctx, "hookwire: message for the user", "event", event, "text", text)
}

// warnOnce says what eino cannot express, once per Hooks and kind, so that a result is never
// dropped silently and a long run is not flooded.
func (h *Hooks) warnOnce(ctx context.Context, kind, text string, args ...any) {
	h.warnOnceKey(ctx, kind, kind, text, args...)
}

// warnOnceKey is warnOnce for a kind said once per key (a tool, a source).
func (h *Hooks) warnOnceKey(ctx context.Context, key, kind, text string, args ...any) {
	if _, seen := h.warned.LoadOrStore(key, struct{}{}); seen {
		return
	}
	h.opts.Logger.WarnContext(ctx, "hookwire eino adapter: "+text, append([]any{"kind", kind}, args...)...)
}

// hookName is the tool_name hooks see for an eino tool: the rule hookwire.HostEvent applies
// to the same map.
func (h *Hooks) hookName(einoName string) string {
	if n, ok := h.toolNames[einoName]; ok {
		return n
	}
	return einoName
}

// checkReach asks the dispatcher, the first time an eino tool is called, whether any hook on
// a tool event can match it (hookwire.Dispatcher.ToolReach, on the mapped name) and warns once
// per tool when none can: a user's Bash guard silently never running is what it prevents.
func (h *Hooks) checkReach(ctx context.Context, einoName string) {
	if _, seen := h.seen.LoadOrStore(einoName, struct{}{}); seen {
		return
	}
	r, err := h.d.ToolReach(h.hookName(einoName))
	if err != nil || r.Warning == nil {
		return // a closed dispatcher fails the fire that follows
	}
	h.warnOnceKey(ctx, "unreached-tool\x00"+einoName, "unreached-tool", *r.Warning+
		" (hookwireeino.Options.ToolNames)", "tool", einoName)
}

// startSession fires SessionStart once per Hooks, before the first run's first model call,
// and keeps its context for every run's model input (Claude Code keeps it in the transcript
// for the whole session; an eino agent gets its history anew on each run).
func (h *Hooks) startSession(ctx context.Context) (*string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.sessionStarted {
		return h.sessionContext, nil
	}
	st, err := h.fire(ctx, hookwire.HostFacts{Event: "SessionStart"})
	if err != nil {
		return nil, err
	}
	h.sessionStarted = true
	h.sessionContext = st.Context
	return h.sessionContext, nil
}

// EndSession fires SessionEnd (reason: Claude Code's "clear", "logout", "prompt_input_exit"
// or "other"; "" is "other") if the session started and has not ended. Call it when the
// conversation is over; the Dispatcher stays open.
func (h *Hooks) EndSession(ctx context.Context, reason string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.sessionStarted || h.sessionEnded {
		return nil
	}
	facts := hookwire.HostFacts{Event: "SessionEnd"}
	if reason != "" {
		facts.Reason = &reason
	}
	h.sessionEnded = true
	_, err := h.fire(ctx, facts)
	return err
}

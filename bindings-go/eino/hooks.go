package hookwireeino

import (
	"context"
	"crypto/rand"
	"encoding/hex"
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
	// Cwd is the events' cwd, where the hooks run. Default: the process's working directory
	// when New is called.
	Cwd string
	// TranscriptPath is the events' transcript_path. eino keeps no transcript file, so the
	// default is none (null).
	TranscriptPath string
	// PermissionMode is the events' permission_mode. Default "bypassPermissions": an eino
	// agent runs every tool call it makes without asking anyone, which is what that mode
	// means to a hook.
	PermissionMode string
	// ToolNames maps an eino tool name to the tool_name the hooks see, so that hooks written
	// for Claude Code's tools match an eino tool doing the same job: {"bash": "Bash"}. A tool
	// not in the map keeps its eino name.
	ToolNames map[string]string
	// Logger gets the adapter's warnings (what eino cannot express, once per Hooks and kind)
	// and, without OnUserMessage, the hooks' messages for the user. Default slog.Default().
	Logger *slog.Logger
	// OnUserMessage gets the text hooks address to the user, never to the model: a blocked
	// prompt's reason, a system message, a stop reason. event is the hook event's name.
	// Default: logged at Info level by Logger.
	OnUserMessage func(ctx context.Context, event, text string)
}

// Hooks fires one Dispatcher's hooks for the agent runs of one conversation. Build it with
// New, then install Middleware in the ChatModelAgent and give Wrap(agent) to the Runner.
// A *Hooks is safe for concurrent use; the runs it sees share its session id.
type Hooks struct {
	d    *hookwire.Dispatcher
	opts Options

	warned sync.Map // warning kind → struct{}: each kind is said once per Hooks

	mu             sync.Mutex
	sessionStarted bool
	sessionEnded   bool
	sessionContext *string // SessionStart's context, given to the model on every run
}

// New returns the hooks of d for one conversation. d stays the caller's: Hooks never closes
// it. A nil d is an error.
func New(d *hookwire.Dispatcher, opts Options) (*Hooks, error) {
	if d == nil {
		return nil, errors.New("hookwireeino: New needs a *hookwire.Dispatcher")
	}
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
	if opts.PermissionMode == "" {
		opts.PermissionMode = "bypassPermissions"
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	return &Hooks{d: d, opts: opts}, nil
}

// SessionID is the session_id of every event these hooks fire.
func (h *Hooks) SessionID() string { return h.opts.SessionID }

// fire sends one event, with the session's common fields added, and returns the host step of
// its result. fields are the event's own fields. An error here (the dispatcher closed, ctx
// ended, an event the engine refuses) is the caller's error: a hook's own failure is not.
func (h *Hooks) fire(ctx context.Context, event string, fields map[string]any) (*step, error) {
	ev := map[string]any{
		"hook_event_name": event,
		"session_id":      h.opts.SessionID,
		"permission_mode": h.opts.PermissionMode,
	}
	if h.opts.Cwd != "" {
		ev["cwd"] = h.opts.Cwd
	}
	if h.opts.TranscriptPath != "" {
		ev["transcript_path"] = h.opts.TranscriptPath
	}
	for k, v := range fields {
		ev[k] = v
	}
	res, err := h.d.Fire(ctx, ev)
	if err != nil {
		return nil, fmt.Errorf("hookwire: %s hooks: %w", event, err)
	}
	for _, w := range res.Warnings {
		h.opts.Logger.WarnContext(ctx, "hookwire: "+w, "event", event)
	}
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
func (h *Hooks) warnOnce(ctx context.Context, kind, text string) {
	if _, seen := h.warned.LoadOrStore(kind, struct{}{}); seen {
		return
	}
	h.opts.Logger.WarnContext(ctx, "hookwire eino adapter: "+text, "kind", kind)
}

// toolName is the tool_name hooks see for an eino tool.
func (h *Hooks) toolName(einoName string) string {
	if n, ok := h.opts.ToolNames[einoName]; ok && n != "" {
		return n
	}
	return einoName
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
	st, err := h.fire(ctx, "SessionStart", map[string]any{"source": "startup"})
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
	if reason == "" {
		reason = "other"
	}
	h.sessionEnded = true
	_, err := h.fire(ctx, "SessionEnd", map[string]any{"reason": reason})
	return err
}

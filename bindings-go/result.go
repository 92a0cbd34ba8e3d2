package hookwire

import "encoding/json"

// Decision is the folded decision of a fire, or one hook's decision (protocol.md §7). Which
// values an event can produce is in protocol.md §3.2; "no decision" is a nil *Decision.
type Decision string

// The decisions of protocol.md §8.
const (
	DecisionAllow Decision = "allow"
	DecisionDeny  Decision = "deny"
	DecisionAsk   Decision = "ask"
	DecisionDefer Decision = "defer"
	DecisionBlock Decision = "block"
)

// Status says how one hook ended (protocol.md §5, §6). A hook's failure is a Status, never an
// error of Fire.
type Status string

// The statuses of protocol.md §8.
const (
	StatusOK          Status = "ok"
	StatusError       Status = "error"
	StatusTimedOut    Status = "timed_out"
	StatusSpawnFailed Status = "spawn_failed"
	StatusAsync       Status = "async"
	StatusCancelled   Status = "cancelled" // the fire was cancelled (Fire's ctx ended)
	StatusDeferred    Status = "deferred"  // runs at the session's turn end (its next Stop)
)

// HandlerType is the type of the handler that produced an outcome.
type HandlerType string

// The handler types of protocol.md §2.4.
const (
	HandlerCommand  HandlerType = "command"
	HandlerHTTP     HandlerType = "http"
	HandlerPrompt   HandlerType = "prompt"
	HandlerAgent    HandlerType = "agent"
	HandlerMCPTool  HandlerType = "mcp_tool"
	HandlerFunction HandlerType = "function" // a function registered with AddFunctionHook
)

// VerdictSource says where a hook's verdict was read from (protocol.md §6.7).
type VerdictSource string

// The verdict sources of protocol.md §6.7.
const (
	SourceJSON     VerdictSource = "json"      // a JSON object on stdout
	SourceText     VerdictSource = "text"      // plain stdout text
	SourceExitCode VerdictSource = "exit_code" // the exit code (and stderr)
	SourceFailure  VerdictSource = "failure"   // a fail-closed block (onFailure: "block")
	SourceNone     VerdictSource = "none"      // the hook contributed nothing
)

// Result is the result JSON of one fire (protocol.md §8): the folded decision, the text for
// the model and the user, and one Outcome per hook. The json tags are the result JSON's keys,
// so json.Marshal of a Result gives the same keys the C ABI returns. Nullable values are
// pointers (nil for JSON null); free-form values are json.RawMessage (nil or "null" when
// JSON null). Keys added by newer libraries are ignored.
//
// A Result is a plain value owned by the caller; it holds no reference to the dispatcher.
type Result struct {
	Event             string                     `json:"event"`
	Decision          *Decision                  `json:"decision"`
	Reason            *string                    `json:"reason"`
	Continue          bool                       `json:"continue"`
	StopReason        *string                    `json:"stop_reason"`
	UpdatedInput      json.RawMessage            `json:"updated_input"`
	UpdatedToolOutput json.RawMessage            `json:"updated_tool_output"`
	AdditionalContext *string                    `json:"additional_context"`
	SystemMessage     *string                    `json:"system_message"`
	SuppressOutput    bool                       `json:"suppress_output"`
	Env               map[string]string          `json:"env"`
	Extra             map[string]json.RawMessage `json:"extra"`
	PendingContext    *string                    `json:"pending_context"`
	Warnings          []string                   `json:"warnings"`
	Outcomes          []Outcome                  `json:"outcomes"`
	AsyncOutcomes     []Outcome                  `json:"async_outcomes"`
}

// Outcome is what happened to one hook of a fire (protocol.md §8, "Outcome keys").
// A plain value, safe to share once the fire has returned.
type Outcome struct {
	Hook            string      `json:"hook"`
	Type            HandlerType `json:"type"`
	Command         string      `json:"command"`
	Status          Status      `json:"status"`
	ExitCode        *int        `json:"exit_code"`
	Signal          *int        `json:"signal"`
	HTTPStatus      *int        `json:"http_status"`
	TimedOut        bool        `json:"timed_out"`
	DurationMS      float64     `json:"duration_ms"`
	Stdout          string      `json:"stdout"`
	Stderr          string      `json:"stderr"`
	StdoutTruncated bool        `json:"stdout_truncated"`
	StderrTruncated bool        `json:"stderr_truncated"`
	StdoutLossy     bool        `json:"stdout_lossy"`
	StderrLossy     bool        `json:"stderr_lossy"`
	StatusMessage   *string     `json:"status_message"`
	// Rewake (async outcomes only) is set when an asyncRewake hook exited 2: the texts its
	// handler configured (rewakeMessage, rewakeSummary) for waking the agent.
	Rewake  *Rewake `json:"rewake"`
	Verdict Verdict `json:"verdict"`
	Error   *string `json:"error"`
}

// Rewake is what an asyncRewake hook that exited 2 shows: Message prefixes the model's
// reminder (nil: the hook's output alone), Summary is the user's one line.
type Rewake struct {
	Message *string `json:"message"`
	Summary string  `json:"summary"`
}

// Verdict is one hook's exit status and output read as a decision (protocol.md §6.7). An
// outcome that contributes nothing has Source SourceNone, nil pointers, Continue true.
// A plain value, safe to share.
type Verdict struct {
	Source            VerdictSource              `json:"source"`
	Decision          *Decision                  `json:"decision"`
	Reason            *string                    `json:"reason"`
	Blocking          bool                       `json:"blocking"`
	Continue          bool                       `json:"continue"`
	StopReason        *string                    `json:"stop_reason"`
	AdditionalContext *string                    `json:"additional_context"`
	SystemMessage     *string                    `json:"system_message"`
	UpdatedInput      json.RawMessage            `json:"updated_input"`
	UpdatedToolOutput json.RawMessage            `json:"updated_tool_output"`
	SuppressOutput    bool                       `json:"suppress_output"`
	Extra             map[string]json.RawMessage `json:"extra"`
}

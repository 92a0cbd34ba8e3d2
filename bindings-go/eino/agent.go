package hookwireeino

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/schema"

	hookwire "github.com/hookwire/hookwire/bindings-go"
)

// Wrap returns agent with the run-level hooks: give it to adk.NewRunner (or run it) instead
// of agent. Each run fires SessionStart the first time (its context goes to the model on
// every run), UserPromptSubmit on the last user message of the input (a block ends the run
// with a *PromptBlockedError and no model call), and Stop when the agent has answered (a
// block runs agent once more, with the whole conversation so far and the hook's feedback as
// the next user message). agent should carry Hooks.Middleware for the tool hooks.
//
// The wrapper is an adk.ResumableAgent: Resume goes to agent's own Resume (tool hooks apply;
// UserPromptSubmit and Stop do not fire on a resumed run, which has no prompt and whose
// input eino keeps in its checkpoint).
func (h *Hooks) Wrap(agent adk.Agent) adk.ResumableAgent {
	return &hookedAgent{h: h, inner: agent}
}

type hookedAgent struct {
	h     *Hooks
	inner adk.Agent
}

func (a *hookedAgent) Name(ctx context.Context) string        { return a.inner.Name(ctx) }
func (a *hookedAgent) Description(ctx context.Context) string { return a.inner.Description(ctx) }

// The sub-agent calls go to the wrapped agent, so a wrapped ChatModelAgent can still transfer.
func (a *hookedAgent) OnSetSubAgents(ctx context.Context, subAgents []adk.Agent) error {
	if o, ok := a.inner.(adk.OnSubAgents); ok {
		return o.OnSetSubAgents(ctx, subAgents)
	}
	return nil
}

func (a *hookedAgent) OnSetAsSubAgent(ctx context.Context, parent adk.Agent) error {
	if o, ok := a.inner.(adk.OnSubAgents); ok {
		return o.OnSetAsSubAgent(ctx, parent)
	}
	return nil
}

func (a *hookedAgent) OnDisallowTransferToParent(ctx context.Context) error {
	if o, ok := a.inner.(adk.OnSubAgents); ok {
		return o.OnDisallowTransferToParent(ctx)
	}
	return nil
}

func (a *hookedAgent) Run(ctx context.Context, input *adk.AgentInput, opts ...adk.AgentRunOption) *adk.AsyncIterator[*adk.AgentEvent] {
	iter, gen := adk.NewAsyncIteratorPair[*adk.AgentEvent]()
	go func() {
		defer closeRecovering(gen)
		a.run(ctx, input, opts, gen)
	}()
	return iter
}

func (a *hookedAgent) Resume(ctx context.Context, info *adk.ResumeInfo, opts ...adk.AgentRunOption) *adk.AsyncIterator[*adk.AgentEvent] {
	iter, gen := adk.NewAsyncIteratorPair[*adk.AgentEvent]()
	go func() {
		defer closeRecovering(gen)
		ra, ok := a.inner.(adk.ResumableAgent)
		if !ok {
			gen.Send(&adk.AgentEvent{Err: fmt.Errorf("hookwire: the wrapped agent %q cannot resume", a.inner.Name(ctx))})
			return
		}
		rs := &runState{}
		rctx := withRunState(ctx, rs)
		a.forward(rs, ra.Resume(rctx, info, opts...), gen)
	}()
	return iter
}

// closeRecovering closes the run's event stream, turning a panic of the run into an error
// event as eino's own agents do.
func closeRecovering(gen *adk.AsyncGenerator[*adk.AgentEvent]) {
	if p := recover(); p != nil {
		gen.Send(&adk.AgentEvent{Err: fmt.Errorf("hookwire: panic in the eino adapter: %v\n%s", p, debug.Stack())})
	}
	gen.Close()
}

// run is one run of the wrapped agent with its run-level hooks.
func (a *hookedAgent) run(ctx context.Context, input *adk.AgentInput, opts []adk.AgentRunOption, gen *adk.AsyncGenerator[*adk.AgentEvent]) {
	h := a.h
	if input == nil {
		input = &adk.AgentInput{}
	}
	sessionContext, err := h.startSession(ctx)
	if err != nil {
		gen.Send(&adk.AgentEvent{Err: err})
		return
	}
	msgs, err := h.submitPrompt(ctx, input.Messages)
	if err != nil {
		gen.Send(&adk.AgentEvent{Err: err})
		return
	}
	if sessionContext != nil {
		msgs = append([]adk.Message{schema.SystemMessage(*sessionContext)}, msgs...)
	}
	stopHookActive := false
	for continuations := 0; ; continuations++ {
		rs := &runState{}
		rctx := withRunState(ctx, rs)
		in := &adk.AgentInput{Messages: msgs, EnableStreaming: input.EnableStreaming}
		out := a.forward(rs, a.inner.Run(rctx, in, opts...), gen)
		if !out.answered {
			return
		}
		active := stopHookActive
		st, err := h.fire(ctx, hookwire.HostFacts{
			Event: "Stop", StopHookActive: &active, LastAssistantMessage: out.lastAssistantText(),
		})
		if err != nil {
			gen.Send(&adk.AgentEvent{Err: err})
			return
		}
		if st.Action != actionContinueTurn || st.Stop {
			return
		}
		// The engine's cap (limits.stop_block_cap, default 8) ends a block loop first; the
		// core's bound holds when a configuration turns that cap off (0).
		if continuations+1 > hookwire.MaxStopContinuations {
			h.warnOnce(ctx, "stop-loop", fmt.Sprintf("Stop hooks blocked %d consecutive times; the adapter lets the run end", hookwire.MaxStopContinuations+1))
			return
		}
		msgs = append(append(msgs[:len(msgs):len(msgs)], out.messages...), schema.UserMessage(textOr(st.Message, "Blocked by hook")))
		stopHookActive = true
	}
}

// submitPrompt fires UserPromptSubmit on the input's last message, when it is the user's,
// and returns the model input it asks for: the prompt rewritten, the hooks' context as a
// system message before it. A block is a *PromptBlockedError (no model call).
func (h *Hooks) submitPrompt(ctx context.Context, in []adk.Message) ([]adk.Message, error) {
	msgs := append([]adk.Message(nil), in...)
	i := len(msgs) - 1
	if i < 0 || msgs[i] == nil || msgs[i].Role != schema.User {
		return msgs, nil
	}
	prompt := promptText(msgs[i])
	st, err := h.fire(ctx, hookwire.HostFacts{Event: "UserPromptSubmit", Prompt: &prompt})
	if err != nil {
		return nil, err
	}
	switch {
	case st.Action == actionBlockPrompt:
		return nil, &PromptBlockedError{Message: textOr(st.UserMessage, "")}
	case st.Action != actionCallModel:
		return nil, fmt.Errorf("hookwire: UserPromptSubmit host step with unexpected action %q", st.Action)
	case st.Stop:
		return nil, &StoppedError{Event: "UserPromptSubmit"}
	}
	if st.Prompt != nil {
		msgs[i] = withPrompt(msgs[i], *st.Prompt)
	}
	if st.Context != nil {
		msgs = append(msgs[:i], append([]adk.Message{schema.SystemMessage(*st.Context)}, msgs[i:]...)...)
	}
	return msgs, nil
}

// runOutput is what one run of the wrapped agent produced.
type runOutput struct {
	messages []adk.Message // the assistant and tool messages, in order, for a continuation
	answered bool          // the run ended with the model's answer: no error, action or stop
}

func (o runOutput) lastAssistantText() *string {
	for i := len(o.messages) - 1; i >= 0; i-- {
		if m := o.messages[i]; m != nil && m.Role == schema.Assistant {
			return &m.Content
		}
	}
	return nil
}

// forward passes the wrapped agent's events on, keeping a copy of each message (a streamed
// one is copied with StreamReader.Copy and read once the run is over), and translates the
// error of a run a hook ended into the adapter's error types.
func (a *hookedAgent) forward(rs *runState, iter *adk.AsyncIterator[*adk.AgentEvent], gen *adk.AsyncGenerator[*adk.AgentEvent]) runOutput {
	type slot struct {
		msg    adk.Message
		stream *schema.StreamReader[adk.Message]
	}
	var slots []slot
	out := runOutput{answered: true}
	sawTool := false
	for {
		ev, ok := iter.Next()
		if !ok {
			break
		}
		if ev.Err != nil {
			ev.Err = hookError(rs, ev.Err)
			out.answered = false
		}
		if ev.Action != nil {
			out.answered = false // exit, transfer, interrupt, break: the run did not just answer
		}
		if ev.Output != nil && ev.Output.MessageOutput != nil {
			mv := ev.Output.MessageOutput
			sawTool = sawTool || mv.Role == schema.Tool
			switch {
			case mv.IsStreaming && mv.MessageStream != nil:
				copies := mv.MessageStream.Copy(2)
				mv.MessageStream = copies[0]
				slots = append(slots, slot{stream: copies[1]})
			case mv.Message != nil:
				m := *mv.Message // the consumer may change the event's message
				slots = append(slots, slot{msg: &m})
			}
		}
		gen.Send(ev)
	}
	if sawTool && rs.fires() == 0 {
		a.h.warnOnce(context.Background(), "no-middleware", "the agent ran tools without Hooks.Middleware: "+
			"add it to ChatModelAgentConfig.Middlewares, or no tool hook fires")
	}
	if rs.stoppedBy() != "" {
		out.answered = false
	}
	for _, s := range slots {
		m := s.msg
		if s.stream != nil {
			var err error
			if m, err = schema.ConcatMessageStream(s.stream); err != nil {
				out.answered = false // an incomplete message cannot be replayed
				continue
			}
		}
		out.messages = append(out.messages, m)
	}
	return out
}

// hookError is the error a run ended with, as the caller should see it: the deferred call or
// the stop a hook asked for, else err unchanged.
func hookError(rs *runState, err error) error {
	var d *DeferredToolCall
	if errors.As(err, &d) {
		return d
	}
	if d := rs.deferredCall(); d != nil {
		return d
	}
	if ev := rs.stoppedBy(); ev != "" && errors.Is(err, errRunStopped) {
		return &StoppedError{Event: ev}
	}
	return err
}

// promptText is the text of a user message: Content, else its text parts.
func promptText(m adk.Message) string {
	if m.Content != "" {
		return m.Content
	}
	var text string
	for _, p := range m.UserInputMultiContent {
		if p.Type == schema.ChatMessagePartTypeText {
			text += p.Text
		}
	}
	for _, p := range m.MultiContent {
		if p.Type == schema.ChatMessagePartTypeText {
			text += p.Text
		}
	}
	return text
}

// withPrompt is m with its text replaced by a hook's rewritten prompt; its other parts
// (images, files) stay.
func withPrompt(m adk.Message, prompt string) adk.Message {
	c := *m
	c.Content = prompt
	c.UserInputMultiContent = nil
	for _, p := range m.UserInputMultiContent {
		if p.Type != schema.ChatMessagePartTypeText {
			c.UserInputMultiContent = append(c.UserInputMultiContent, p)
		}
	}
	c.MultiContent = nil
	for _, p := range m.MultiContent {
		if p.Type != schema.ChatMessagePartTypeText {
			c.MultiContent = append(c.MultiContent, p)
		}
	}
	if len(c.UserInputMultiContent) > 0 {
		c.UserInputMultiContent = append([]schema.MessageInputPart{{Type: schema.ChatMessagePartTypeText, Text: prompt}}, c.UserInputMultiContent...)
	}
	if len(c.MultiContent) > 0 {
		c.MultiContent = append([]schema.ChatMessagePart{{Type: schema.ChatMessagePartTypeText, Text: prompt}}, c.MultiContent...)
	}
	if len(c.UserInputMultiContent) > 0 || len(c.MultiContent) > 0 {
		c.Content = "" // the parts carry the prompt; models read them instead of Content
	}
	return &c
}

package hookwireeino

import (
	"context"
	"errors"
	"sync"
)

// runState is what the tool middleware tells the agent wrapper about one run. Wrap puts one
// into the ctx of each run; the middleware finds it there, because eino passes the run's ctx
// down to the model and tool nodes. Tool calls of one model turn may run in parallel, hence
// the mutex.
type runState struct {
	mu        sync.Mutex
	toolFires int    // PreToolUse fires made by the middleware in this run
	stopEvent string // the event whose hook stopped the run ("" = none)
	deferred  *DeferredToolCall
}

type runStateKey struct{}

func withRunState(ctx context.Context, rs *runState) context.Context {
	return context.WithValue(ctx, runStateKey{}, rs)
}

func runStateOf(ctx context.Context) *runState {
	rs, _ := ctx.Value(runStateKey{}).(*runState)
	return rs
}

func (rs *runState) countToolFire() {
	rs.mu.Lock()
	rs.toolFires++
	rs.mu.Unlock()
}

func (rs *runState) fires() int {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.toolFires
}

// requestStop records that a hook of event ended the run after the current tool call.
func (rs *runState) requestStop(event string) {
	rs.mu.Lock()
	if rs.stopEvent == "" {
		rs.stopEvent = event
	}
	rs.mu.Unlock()
}

func (rs *runState) stoppedBy() string {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.stopEvent
}

func (rs *runState) setDeferred(d *DeferredToolCall) {
	rs.mu.Lock()
	if rs.deferred == nil {
		rs.deferred = d
	}
	rs.mu.Unlock()
}

func (rs *runState) deferredCall() *DeferredToolCall {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.deferred
}

// errRunStopped is what BeforeChatModel returns to keep the model from being called after a
// hook stopped the run; the wrapper turns the run's error into a *StoppedError.
var errRunStopped = errors.New("hookwire: run stopped by a hook")

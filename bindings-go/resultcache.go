package hookwire

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
)

// resultCache decodes result texts into *Result, reusing the decoding of texts seen before.
//
// A fire that runs nothing gets the same prepared text every time for its event (protocol.md
// §8, the engine's no-match answer), and json.Unmarshal of that text was 60% of a no-match
// Fire(map) (figure 6go-0). The cache keeps the decoded Result of texts without outcomes,
// keyed by the whole text, so a hit can only ever give what decoding would; each hit is a
// deep copy, so callers may change what they get. Results with outcomes carry durations and
// output and never repeat, so they are not kept. At most maxCachedResults texts are kept: a
// new one past that starts the cache afresh, so odd texts cannot crowd out the common ones
// for good.
//
// Reads are one atomic load of an immutable map; writes copy it under mu.
type resultCache struct {
	m  atomic.Pointer[map[string]*Result]
	mu sync.Mutex
}

// maxCachedResults is more than the event names of protocol.md §3, the texts a dispatcher's
// no-match fires can produce.
const maxCachedResults = 64

// decode returns the Result of a result text, which the caller may keep using afterwards.
func (c *resultCache) decode(text []byte) (*Result, error) {
	if m := c.m.Load(); m != nil {
		if r, ok := (*m)[string(text)]; ok {
			return r.clone(), nil
		}
	}
	var r Result
	if err := json.Unmarshal(text, &r); err != nil {
		return nil, newError(CodeInternal, KindInternal, "result JSON could not be decoded: "+err.Error(), 0, 0)
	}
	if len(r.Outcomes) == 0 && len(r.AsyncOutcomes) == 0 {
		c.store(string(text), r.clone())
	}
	return &r, nil
}

func (c *resultCache) store(text string, r *Result) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var next map[string]*Result
	if old := c.m.Load(); old != nil && len(*old) < maxCachedResults {
		next = maps.Clone(*old)
	} else {
		next = make(map[string]*Result, 1)
	}
	next[text] = r
	c.m.Store(&next)
}

// clone is a deep copy of r: nothing the copy holds (pointer, slice, map, raw JSON) is shared
// with r, and nil stays nil while empty stays empty, as decoding would have left them.
func (r *Result) clone() *Result {
	c := *r
	c.Decision = clonePtr(r.Decision)
	c.Reason = clonePtr(r.Reason)
	c.StopReason = clonePtr(r.StopReason)
	c.UpdatedInput = bytes.Clone(r.UpdatedInput)
	c.UpdatedToolOutput = bytes.Clone(r.UpdatedToolOutput)
	c.AdditionalContext = clonePtr(r.AdditionalContext)
	c.SystemMessage = clonePtr(r.SystemMessage)
	c.Env = maps.Clone(r.Env)
	c.Extra = cloneRawMap(r.Extra)
	c.PendingContext = clonePtr(r.PendingContext)
	c.Warnings = slices.Clone(r.Warnings)
	c.Outcomes = cloneOutcomes(r.Outcomes)
	c.AsyncOutcomes = cloneOutcomes(r.AsyncOutcomes)
	return &c
}

func cloneOutcomes(os []Outcome) []Outcome {
	if os == nil {
		return nil
	}
	c := make([]Outcome, len(os))
	for i, o := range os {
		o.ExitCode = clonePtr(o.ExitCode)
		o.Signal = clonePtr(o.Signal)
		o.HTTPStatus = clonePtr(o.HTTPStatus)
		o.StatusMessage = clonePtr(o.StatusMessage)
		if o.Rewake != nil {
			r := *o.Rewake
			r.Message = clonePtr(r.Message)
			o.Rewake = &r
		}
		o.Error = clonePtr(o.Error)
		v := &o.Verdict
		v.Decision = clonePtr(v.Decision)
		v.Reason = clonePtr(v.Reason)
		v.StopReason = clonePtr(v.StopReason)
		v.AdditionalContext = clonePtr(v.AdditionalContext)
		v.SystemMessage = clonePtr(v.SystemMessage)
		v.UpdatedInput = bytes.Clone(v.UpdatedInput)
		v.UpdatedToolOutput = bytes.Clone(v.UpdatedToolOutput)
		v.Extra = cloneRawMap(v.Extra)
		c[i] = o
	}
	return c
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func cloneRawMap(m map[string]json.RawMessage) map[string]json.RawMessage {
	if m == nil {
		return nil
	}
	c := make(map[string]json.RawMessage, len(m))
	for k, v := range m {
		c[k] = bytes.Clone(v)
	}
	return c
}

package hookwireeino

import hookwire "github.com/hookwire/hookwire/bindings-go"

// The core's host step says what every result means for the loop (agents.md §5); this
// package only translates it into eino's terms. These names keep the one call below the
// only place that knows where it comes from.
type step = hookwire.HostStep

const (
	actionRunTool      = hookwire.ActionRunTool
	actionDenyTool     = hookwire.ActionDenyTool
	actionDeferTool    = hookwire.ActionDeferTool
	actionCallModel    = hookwire.ActionCallModel
	actionBlockPrompt  = hookwire.ActionBlockPrompt
	actionContinueTurn = hookwire.ActionContinueTurn
)

// hostStep is the host step of one fire's result.
func hostStep(r *hookwire.Result) (*step, error) { return hookwire.HostStepOf(r) }

package hookwireeino

import (
	"encoding/json"
	"fmt"
	"strings"

	hookwire "github.com/hookwire/hookwire/bindings-go"
)

// Trust is the host's decision about a project's own hook files (.claude/settings.json and
// .claude/settings.local.json), which anyone who can push to the repository can write
// (docs/configuration.md, "Project trust").
type Trust string

const (
	// TrustStore runs the project's hook files once the user trusted them, as recorded in the
	// default trust store by hookwire.RecordTrust (the files as they are now: an edit
	// untrusts them). The default ("" is TrustStore).
	TrustStore Trust = "store"
	// TrustTrusted: the host vouches for the project's files (a non-interactive run on a
	// repository it controls); they run without a record in the store.
	TrustTrusted Trust = "trusted"
	// TrustUntrusted skips the project's files; only the user's ~/.claude/settings.json runs.
	// The host chose it, so no warning says so (nor the engine's, which the adapter does not
	// log then).
	TrustUntrusted Trust = "untrusted"
)

// NewForProject returns the hooks Claude Code itself would run for the project at projectDir
// (hookwire.ClaudeCodeDefaults: the user's ~/.claude/settings.json, then the project's
// .claude/settings.json and .claude/settings.local.json), the project's files trusted as
// trust says. Options.Cwd defaults to the project directory. The Hooks owns the dispatcher it
// built: Close closes it.
//
// With TrustStore, a project whose hook files are not recorded in the trust store runs
// without them: NewForProject says so once in a Logger warning, naming the call that trusts
// them, and Untrusted returns that as an error, for a host that would rather refuse to run.
func NewForProject(projectDir string, trust Trust, opts Options) (*Hooks, error) {
	if trust == "" {
		trust = TrustStore
	}
	switch trust {
	case TrustStore, TrustTrusted, TrustUntrusted:
	default:
		return nil, fmt.Errorf("hookwireeino: trust %q is not %q, %q or %q", trust, TrustStore, TrustTrusted, TrustUntrusted)
	}
	envelope, err := hookwire.ClaudeCodeDefaults(projectDir)
	if err != nil {
		return nil, err
	}
	var config map[string]any
	if err := json.Unmarshal(envelope, &config); err != nil {
		return nil, fmt.Errorf("hookwireeino: the Claude Code defaults: %w", err)
	}
	trustKeys, _ := config["trust"].(map[string]any)
	if trustKeys == nil {
		trustKeys = map[string]any{}
	}
	trustKeys["project"] = string(trust)
	config["trust"] = trustKeys
	resolved, _ := config["project_dir"].(string)
	if opts.Cwd == "" {
		opts.Cwd = resolved
	}
	d, err := hookwire.New(config)
	if err != nil {
		return nil, err
	}
	h, err := newHooks(d, opts, resolved, trust != TrustUntrusted)
	if err != nil {
		d.Close()
		return nil, err
	}
	h.ownsD = true
	return h, nil
}

// UntrustedHooksError says that a project's own hook files exist but their hooks do not run,
// for want of trust: a tool they would guard runs unguarded. Untrusted returns it; the
// adapter also logs its text once when the Hooks is built.
type UntrustedHooksError struct {
	// ProjectDir is the project NewForProject loaded; "" for a Hooks of New.
	ProjectDir string
	// Sources are the skipped files, as the dispatcher's TrustStatus lists them.
	Sources []hookwire.TrustSource
}

func (e *UntrustedHooksError) Error() string {
	var files []string
	for _, s := range e.Sources {
		files = append(files, s.Label)
	}
	config := "the configuration the dispatcher was built from"
	if e.ProjectDir != "" {
		config = fmt.Sprintf("hookwire.ClaudeCodeDefaults(%q)", e.ProjectDir)
	}
	return fmt.Sprintf("hookwireeino: the hooks of %s are not trusted, so they do not run and the tools they guard run unguarded; "+
		"after reviewing them, trust them with hookwire.RecordTrust(config), config being %s, "+
		"or, when the host vouches for the project, build the hooks with hookwireeino.NewForProject(dir, hookwireeino.TrustTrusted, opts)",
		strings.Join(files, " and "), config)
}

// aboutSkipped says whether a result's warning is the engine's own about a source skipped for
// want of trust (its text starts with the source's label), which the adapter does not
// repeat: it said so itself, or the host chose to leave the project out.
func (h *Hooks) aboutSkipped(warning string) bool {
	for _, s := range h.skipped {
		if strings.HasPrefix(warning, s.Label+": ") && strings.Contains(warning, "not trusted") {
			return true
		}
	}
	return false
}

// Untrusted returns an *UntrustedHooksError when the dispatcher skips project or local hook
// files for want of trust, nil otherwise (and always nil for NewForProject with
// TrustUntrusted, the host's own choice). A host that must not run with its project's
// guards off returns it instead of running the agent.
func (h *Hooks) Untrusted() error {
	if h.untrusted == nil {
		return nil
	}
	return h.untrusted
}

// checkTrust finds the project and local files the dispatcher skips for want of trust and,
// unless the host chose that (warn false), says so once. A missing file is not listed by
// TrustStatus, so it is never a reason.
func (h *Hooks) checkTrust(projectDir string, warn bool) error {
	status, err := h.d.TrustStatus()
	if err != nil {
		return fmt.Errorf("hookwireeino: trust status: %w", err)
	}
	var skipped []hookwire.TrustSource
	for _, s := range status.Sources {
		if !s.Trusted && (s.Scope == "project" || s.Scope == "local") {
			skipped = append(skipped, s)
		}
	}
	h.skipped = skipped
	if len(skipped) == 0 || !warn {
		return nil
	}
	h.untrusted = &UntrustedHooksError{ProjectDir: projectDir, Sources: skipped}
	h.opts.Logger.Warn(h.untrusted.Error(), "kind", "untrusted-hooks")
	return nil
}

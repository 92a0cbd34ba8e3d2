package hookwire

/*
#include <stdlib.h>
#include "hookwire.h"
*/
import "C"

import (
	"encoding/json"
	"unsafe"
)

// ClaudeCodeDefaults returns the configuration Claude Code itself would load for the project
// at projectDir: an envelope with the user file ~/.claude/settings.json, then the project's
// .claude/settings.json and .claude/settings.local.json, the project ones gated on the
// default trust store ($XDG_CONFIG_HOME/hookwire/trust.json, else
// ~/.config/hookwire/trust.json). projectDir is resolved to its canonical path; one that
// cannot be resolved gives an *Error of kind invalid_config with Pointer "/project_dir".
// Pass the envelope to New, or use NewFromClaudeCodeDefaults.
func ClaudeCodeDefaults(projectDir string) (json.RawMessage, error) {
	cDir, err := cString(projectDir)
	if err != nil {
		return nil, err
	}
	defer C.free(unsafe.Pointer(cDir))
	var cOut *C.char
	rc := C.hooks_claude_code_defaults(cDir, &cOut)
	envelope, err := decodeReply[json.RawMessage](rc, cOut, "hooks_claude_code_defaults", "configuration")
	if err != nil {
		return nil, err
	}
	return *envelope, nil
}

// NewFromClaudeCodeDefaults builds a dispatcher of the hooks Claude Code itself would run for
// the project at projectDir (ClaudeCodeDefaults): user settings always, the project's and
// local settings once the user trusted them (TrustStatus, RecordTrust).
func NewFromClaudeCodeDefaults(projectDir string) (*Dispatcher, error) {
	envelope, err := ClaudeCodeDefaults(projectDir)
	if err != nil {
		return nil, err
	}
	return New(envelope)
}

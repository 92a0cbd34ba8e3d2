package hookwire

// Logs (issue 16, docs/logging.md): the engine's one process-wide log callback feeds a
// *slog.Logger. The callback is the exported hookwireGoLog of export.go; it reads the current
// logger from an atomic pointer, so the C side needs no user_data and no handle to free.

/*
#include <stdint.h>
#include <stdlib.h>
#include "hookwire.h"

extern void hookwireGoLog(void *user_data, int32_t level, char *record_json);

// The exported Go function takes char *, the typedef const char *: this shim bridges the two.
static void hookwire_log(void *user_data, int32_t level, const char *record_json) {
	hookwireGoLog(user_data, level, (char *)record_json);
}
static int32_t hookwire_set_go_log_callback(int on, int32_t level, char **error_json) {
	return hooks_set_log_callback(on ? hookwire_log : NULL, NULL, level, error_json);
}
*/
import "C"

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// LevelTrace is the slog level of the records hookwire logs below Debug: each hook's stdin
// payload, stdout and stderr, which may hold secrets. A handler whose level is LevelTrace or
// lower receives them.
const LevelTrace = slog.LevelDebug - 4

var (
	// logger is the *slog.Logger records go to; nil when logging is off.
	logger atomic.Pointer[slog.Logger]
	// setLogger serialises SetLogger calls, so the logger and the engine's level agree.
	setLogger sync.Mutex
)

// SetLogger sends hookwire's events (docs/logging.md) to l, or stops them with nil (the
// default; logging off costs nothing). It is process-wide: every Dispatcher's events go to
// the last logger set, whichever goroutine set it.
//
// Each event becomes an slog.Record: its message, its level (Error, Warn, Info, Debug or
// LevelTrace) and its fields as attributes, "target" ("hookwire::fire", "hookwire::hook" or
// "hookwire::load") and "event" ("hook.spawned", ...) first. The engine asks l, now, which
// levels it wants (l.Enabled) and builds no record below them: call SetLogger again after
// changing a handler's level.
//
// Records are handled on the thread that emitted them, a hookwire thread or the one running
// a Fire, possibly several at once: l's handler must be safe for concurrent use, and quick,
// because the fire waits for it. A panic in the handler is recovered and the record dropped.
// A handler must not call SetLogger. When SetLogger returns, the previous logger is no longer
// in use on any thread.
func SetLogger(l *slog.Logger) error {
	setLogger.Lock()
	defer setLogger.Unlock()
	level := C.int32_t(C.HOOKS_LOG_OFF)
	if l != nil {
		level = engineLevel(l)
	}
	on := C.int(0)
	old := logger.Load()
	if level != C.HOOKS_LOG_OFF {
		on = 1
		logger.Store(l)
	}
	var cErr *C.char
	if code := C.hookwire_set_go_log_callback(on, level, &cErr); code != C.HOOKS_OK {
		logger.Store(old)
		defer C.hooks_free(cErr)
		return parseError(Code(code), goBytes(cErr))
	}
	if on == 0 {
		// Only now: calls already running finished before the engine returned.
		logger.Store(nil)
	}
	return nil
}

// engineLevel is the least severe engine level l wants (HOOKS_LOG_OFF when none).
func engineLevel(l *slog.Logger) C.int32_t {
	ctx := context.Background()
	for _, lv := range []struct {
		slog   slog.Level
		engine C.int32_t
	}{
		{LevelTrace, C.HOOKS_LOG_TRACE},
		{slog.LevelDebug, C.HOOKS_LOG_DEBUG},
		{slog.LevelInfo, C.HOOKS_LOG_INFO},
		{slog.LevelWarn, C.HOOKS_LOG_WARN},
		{slog.LevelError, C.HOOKS_LOG_ERROR},
	} {
		if l.Enabled(ctx, lv.slog) {
			return lv.engine
		}
	}
	return C.HOOKS_LOG_OFF
}

// slogLevels maps the engine's levels (HOOKS_LOG_ERROR 1 ... HOOKS_LOG_TRACE 5) to slog's.
var slogLevels = [...]slog.Level{1: slog.LevelError, 2: slog.LevelWarn, 3: slog.LevelInfo, 4: slog.LevelDebug, 5: LevelTrace}

// logRecord hands one record (the engine's flat JSON) to the current logger. It never panics.
func logRecord(level int, text []byte) {
	defer func() { _ = recover() }()
	l := logger.Load()
	if l == nil || level < 1 || level >= len(slogLevels) {
		return
	}
	ctx := context.Background()
	lv := slogLevels[level]
	h := l.Handler()
	if !h.Enabled(ctx, lv) {
		return
	}
	var rec struct {
		Target  string          `json:"target"`
		Message string          `json:"message"`
		Fields  json.RawMessage `json:"fields"`
	}
	if json.Unmarshal(text, &rec) != nil {
		return
	}
	r := slog.NewRecord(time.Now(), lv, rec.Message, 0)
	r.AddAttrs(slog.String("target", rec.Target))
	r.AddAttrs(fieldAttrs(rec.Fields)...)
	_ = h.Handle(ctx, r)
}

// fieldAttrs turns the record's fields into attributes in the engine's order: whole numbers as
// int64, other numbers as float64, strings, booleans.
func fieldAttrs(fields json.RawMessage) []slog.Attr {
	dec := json.NewDecoder(bytes.NewReader(fields))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var attrs []slog.Attr
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return attrs
		}
		var v any
		if dec.Decode(&v) != nil {
			return attrs
		}
		name, _ := key.(string)
		switch x := v.(type) {
		case json.Number:
			if i, err := x.Int64(); err == nil {
				attrs = append(attrs, slog.Int64(name, i))
			} else if f, err := x.Float64(); err == nil {
				attrs = append(attrs, slog.Float64(name, f))
			}
		default:
			attrs = append(attrs, slog.Any(name, x))
		}
	}
	return attrs
}

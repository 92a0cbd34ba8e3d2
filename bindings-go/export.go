package hookwire

// The functions hookwire calls back from its own threads. They live in this file because a
// cgo file with //export may only declare C functions, not define them; the C shims that
// pass them to the library are in handlers.go and logs.go.

/*
#include <stdint.h>
#include <string.h>
#include "hookwire.h"
*/
import "C"

import "unsafe"

// hookwireGoFunctionHook is the C side of every Go function hook (HooksFunctionHook).
//
//export hookwireGoFunctionHook
func hookwireGoFunctionHook(userData unsafe.Pointer, event *C.char, answer **C.char) C.int32_t {
	return callRegistered(userData, event, answer)
}

// hookwireGoHostCallback is the C side of every Go host callback (HooksHostCallback).
//
//export hookwireGoHostCallback
func hookwireGoHostCallback(userData unsafe.Pointer, request *C.char, reply **C.char) C.int32_t {
	return callRegistered(userData, request, reply)
}

// hookwireGoLog is the C side of the log callback (HooksLogCallback); see SetLogger.
//
//export hookwireGoLog
func hookwireGoLog(userData unsafe.Pointer, level C.int32_t, record *C.char) {
	logRecord(int(level), C.GoBytes(unsafe.Pointer(record), C.int(C.strlen(record))))
}

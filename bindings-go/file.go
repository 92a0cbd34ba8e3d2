package hookwire

import "os"

// NewFromFile builds a dispatcher from a settings file: its bytes are loaded exactly as New
// loads []byte, as Python's Dispatcher.from_file and Node's Dispatcher.fromFile do.
//
// A relative path is the process's (against the current directory), like any os.ReadFile
// path; the file's own directory plays no part in what it loads: relative source paths in it
// are resolved against its project_dir, else the current directory (protocol.md §2).
//
// A file that cannot be read gives os.ReadFile's *fs.PathError, which names the path and
// matches fs.ErrNotExist, fs.ErrPermission or the syscall.Errno with errors.Is. Content New
// refuses gives the *Error New would (invalid_json with Line and Column, invalid_utf8,
// invalid_config with Pointer).
func NewFromFile(path string) (*Dispatcher, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return New(text)
}

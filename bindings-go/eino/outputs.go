package hookwireeino

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"

	"github.com/cloudwego/eino/schema"
)

// outputKind is how the tool guard reads and changes one kind of eino tool output: the text
// of an InvokableTool, or the multimodal *schema.ToolResult of an EnhancedInvokableTool.
// Streamed outputs are drained into one of these first (drainText, drainToolResult).
type outputKind[O any] struct {
	// response is the output as the hooks' tool_response.
	response func(O) any
	// fromText is a result made of text only: what the model gets for a denied call.
	fromText func(string) O
	// appendText adds text for the model after the output.
	appendText func(O, string) O
	// replace is the output a hook's updated_tool_output asks for, when it has the shape of
	// what the tool returns (ok false: keep the original).
	replace func(raw json.RawMessage) (O, bool)
}

// textOutput is the kind of InvokableTool and StreamableTool outputs: a string.
var textOutput = outputKind[string]{
	response: func(s string) any { return s },
	fromText: func(s string) string { return s },
	appendText: func(s, text string) string {
		if s == "" {
			return text
		}
		return s + "\n\n" + text
	},
	replace: func(raw json.RawMessage) (string, bool) {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return "", false
		}
		return s, true
	},
}

// toolResultOutput is the kind of EnhancedInvokableTool and EnhancedStreamableTool outputs.
var toolResultOutput = outputKind[*schema.ToolResult]{
	response: func(r *schema.ToolResult) any {
		if r == nil {
			return map[string]any{"parts": []any{}}
		}
		return r
	},
	fromText: func(s string) *schema.ToolResult {
		return &schema.ToolResult{Parts: []schema.ToolOutputPart{{Type: schema.ToolPartTypeText, Text: s}}}
	},
	appendText: func(r *schema.ToolResult, text string) *schema.ToolResult {
		out := &schema.ToolResult{}
		if r != nil {
			out.Parts = append(out.Parts, r.Parts...)
		}
		out.Parts = append(out.Parts, schema.ToolOutputPart{Type: schema.ToolPartTypeText, Text: text})
		return out
	},
	replace: func(raw json.RawMessage) (*schema.ToolResult, bool) {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		var probe struct {
			Parts *[]schema.ToolOutputPart `json:"parts"`
		}
		if dec.Decode(&probe) != nil || probe.Parts == nil {
			return nil, false
		}
		return &schema.ToolResult{Parts: *probe.Parts}, true
	},
}

// drainText reads a streamed text output to its end, so that PostToolUse sees all of it.
func drainText(sr *schema.StreamReader[string]) (string, error) {
	if sr == nil {
		return "", nil
	}
	defer sr.Close()
	var b bytes.Buffer
	for {
		chunk, err := sr.Recv()
		if errors.Is(err, io.EOF) {
			return b.String(), nil
		}
		if err != nil {
			return "", err
		}
		b.WriteString(chunk)
	}
}

// drainToolResult reads a streamed multimodal output to its end, joining consecutive text
// parts (a stream sends text in pieces).
func drainToolResult(sr *schema.StreamReader[*schema.ToolResult]) (*schema.ToolResult, error) {
	out := &schema.ToolResult{}
	if sr == nil {
		return out, nil
	}
	defer sr.Close()
	for {
		chunk, err := sr.Recv()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if chunk == nil {
			continue
		}
		for _, p := range chunk.Parts {
			n := len(out.Parts)
			if p.Type == schema.ToolPartTypeText && n > 0 && out.Parts[n-1].Type == schema.ToolPartTypeText {
				out.Parts[n-1].Text += p.Text
				continue
			}
			out.Parts = append(out.Parts, p)
		}
	}
}

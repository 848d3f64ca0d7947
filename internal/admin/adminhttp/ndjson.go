package adminhttp

import (
	"encoding/json"
	"net/http"

	"github.com/platform/platform/internal/admin"
)

// NextCursorHeader carries the cursor an export answer resumes from: the
// ?after= of the next request (D-audit-stream).
const NextCursorHeader = "X-Next-Cursor"

// streamed is a body that writes itself rather than being answered as
// one JSON value.
type streamed interface {
	writeTo(w http.ResponseWriter, status int)
}

// ndjson is an answer of the audit log's export: one event per line
// (application/x-ndjson), the cursor to resume from in NextCursorHeader,
// so a line is always an event. An answer shorter than the limit asked
// for has read everything there was to read.
type ndjson struct{ x *admin.Export }

func (b ndjson) writeTo(w http.ResponseWriter, status int) {
	h := w.Header()
	h.Set("Content-Type", "application/x-ndjson")
	h.Set("Cache-Control", "no-store")
	h.Set(NextCursorHeader, b.x.Next)
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	for i := range b.x.Events {
		if err := enc.Encode(&b.x.Events[i]); err != nil {
			return // the client went away
		}
	}
}

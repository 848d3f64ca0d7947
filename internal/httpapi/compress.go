package httpapi

import (
	"net/http"

	"github.com/klauspost/compress/gzhttp"
)

// CompressMinSize is the smallest answer Compress compresses: below it
// gzip's framing outweighs what it saves.
const CompressMinSize = 1024

// Compress gzip-compresses answers of at least CompressMinSize bytes for
// clients that accept gzip (D-compression): the JSON of the REST and
// GraphQL APIs, and pages. An answer that is already encoded (the console
// app's assets, compressed once at start) passes as it is; a Flush sends
// what is buffered, compressed as far as it goes, so a streamed answer
// streams. Each compressed answer carries a few random bytes of padding,
// so its length does not tell a BREACH-style observer how well a secret in
// it compressed against text the observer chose.
func Compress() func(http.Handler) http.Handler {
	wrap, err := gzhttp.NewWrapper(gzhttp.MinSize(CompressMinSize), gzhttp.EnableZstd(false), gzhttp.RandomJitter(32, -1, false))
	if err != nil {
		panic(err) // the options are constants
	}
	return func(h http.Handler) http.Handler { return wrap(h) }
}

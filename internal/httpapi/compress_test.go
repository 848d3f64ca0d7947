package httpapi

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// get asks url with acceptEncoding through a client that leaves the answer
// as sent (no transparent decompression).
func get(t *testing.T, url, acceptEncoding string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	if acceptEncoding != "" {
		req.Header.Set("Accept-Encoding", acceptEncoding)
	}
	resp, err := (&http.Client{Transport: &http.Transport{DisableCompression: true}}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// TestCompress: an answer of at least CompressMinSize bytes is gzipped for
// a client that accepts gzip and decompresses to what the handler wrote; a
// small one, one for a client that does not accept gzip, and one the
// handler encoded itself pass as they are.
func TestCompress(t *testing.T) {
	t.Parallel()
	big := `{"items":[` + strings.Repeat(`{"id":"tenant","name":"Harbor Campus"},`, 100) + `{}]}`
	mux := http.NewServeMux()
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, big)
	})
	mux.HandleFunc("/small", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"ok":true}`)
	})
	mux.HandleFunc("/encoded", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/javascript")
		w.Header().Set("Content-Encoding", "gzip")
		_, _ = w.Write(gzipped(t, big))
	})
	srv := httptest.NewServer(Compress()(mux))
	t.Cleanup(srv.Close)

	resp := get(t, srv.URL+"/big", "gzip, deflate, br, zstd")
	if resp.Header.Get("Content-Encoding") != "gzip" || !strings.Contains(resp.Header.Get("Vary"), "Accept-Encoding") {
		t.Fatalf("big answer: Content-Encoding %q, Vary %q", resp.Header.Get("Content-Encoding"), resp.Header.Get("Vary"))
	}
	if got := gunzip(t, resp.Body); got != big {
		t.Errorf("decompressed %d bytes, want the %d written", len(got), len(big))
	}
	for path, enc := range map[string]string{"/small": "gzip", "/big": ""} {
		resp := get(t, srv.URL+path, enc)
		if b, _ := io.ReadAll(resp.Body); resp.Header.Get("Content-Encoding") != "" || !strings.HasPrefix(string(b), `{"`) {
			t.Errorf("%s with Accept-Encoding %q: Content-Encoding %q", path, enc, resp.Header.Get("Content-Encoding"))
		}
	}
	resp = get(t, srv.URL+"/encoded", "gzip")
	if resp.Header.Get("Content-Encoding") != "gzip" || gunzip(t, resp.Body) != big {
		t.Errorf("an answer encoded by its handler was encoded again")
	}
}

// TestCompressStreams: a handler that flushes part of its answer has that
// part reach the client, compressed, while it is still writing.
func TestCompressStreams(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // a bound against hanging
	defer cancel()
	read := make(chan struct{})
	srv := httptest.NewServer(Compress()(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-ndjson")
		_, _ = io.WriteString(w, `{"line":1,"pad":"`+strings.Repeat("x", 2000)+`"}`+"\n")
		http.NewResponseController(w).Flush()
		select {
		case <-read:
		case <-ctx.Done():
		}
		_, _ = io.WriteString(w, `{"line":2}`+"\n")
	})))
	t.Cleanup(srv.Close)
	resp := get(t, srv.URL, "gzip")
	if resp.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("Content-Encoding %q", resp.Header.Get("Content-Encoding"))
	}
	zr, err := gzip.NewReader(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewReader(zr)
	first, err := lines.ReadString('\n')
	if err != nil || !strings.HasPrefix(first, `{"line":1`) {
		t.Fatalf("first line: %q %v", first, err)
	}
	close(read) // the handler goes on only once the first line arrived
	if second, err := lines.ReadString('\n'); err != nil || second != `{"line":2}`+"\n" {
		t.Errorf("second line: %q %v", second, err)
	}
}

func gzipped(t *testing.T, s string) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	_, _ = zw.Write([]byte(s))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func gunzip(t *testing.T, r io.Reader) string {
	t.Helper()
	zr, err := gzip.NewReader(r)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

package httpapi

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestDecodeJSON sends bodies to a route behind LimitBody that decodes
// with DecodeJSON and answers what it got: each refusal is the 7.1 object
// with its status and a message naming the problem, and the handler never
// sees a refused body.
func TestDecodeJSON(t *testing.T) {
	const limit = 64
	var decoded int
	srv := httptest.NewServer(LimitBody(limit)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Name string `json:"name"`
		}
		if err := DecodeJSON(r, &in); err != nil {
			WriteError(w, r, err)
			return
		}
		decoded++
		WriteJSON(w, http.StatusOK, in)
	})))
	t.Cleanup(srv.Close)
	post := func(ct string, body io.Reader) (int, ErrorObject) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/x", body)
		if ct != "" {
			req.Header.Set("Content-Type", ct)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out ErrorObject
		_ = json.NewDecoder(resp.Body).Decode(&out)
		return resp.StatusCode, out
	}
	for _, tc := range []struct {
		name, ct, body string
		chunked        bool
		status         int
		detail         string
	}{
		{"OK", "application/json", `{"name":"a"}`, false, 200, ""},
		{"OKWithCharset", "Application/JSON; charset=utf-8", `{"name":"a"}` + "\n", false, 200, ""},
		{"ErrNoContentType", "", `{"name":"a"}`, false, 415, "the body must be JSON (Content-Type: application/json)"},
		{"ErrForm", "application/x-www-form-urlencoded", `name=a`, false, 415, "Content-Type: application/json"},
		{"ErrTextPlain", "text/plain", `{"name":"a"}`, false, 415, "Content-Type: application/json"},
		{"ErrEmpty", "application/json", ``, false, 400, "the request body is empty; a JSON object is required"},
		{"ErrSyntax", "application/json", `{"name":`, false, 400, "the request body is not valid"},
		{"ErrUnknownField", "application/json", `{"name":"a","role":"owner"}`, false, 400, `unknown field "role"`},
		{"ErrWrongType", "application/json", `{"name":1}`, false, 400, "the request body is not valid"},
		{"ErrTwoValues", "application/json", `{"name":"a"}{"name":"b"}`, false, 400, "more than one JSON value"},
		{"ErrTrailingData", "application/json", `{"name":"a"} ]`, false, 400, "more than one JSON value"},
		{"ErrTooLarge", "application/json", `{"name":"` + strings.Repeat("x", limit) + `"}`, false, 413, "larger than 64 bytes"},
		{"ErrTooLargeChunked", "application/json", `{"name":"` + strings.Repeat("x", limit) + `"}`, true, 413, "larger than 64 bytes"},
		{"ErrTooLargeAfterValue", "application/json", `{"name":"a"}` + strings.Repeat(" ", limit), true, 413, "larger than 64 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := decoded
			var body io.Reader = strings.NewReader(tc.body)
			if tc.chunked {
				body = io.MultiReader(body) // no length: sent chunked
			}
			status, out := post(tc.ct, body)
			if status != tc.status {
				t.Fatalf("status %d, want %d: %+v", status, tc.status, out)
			}
			if tc.status == 200 {
				if decoded != before+1 {
					t.Fatal("the handler did not get the body")
				}
				return
			}
			if decoded != before || out.Code != tc.status || len(out.Error.Detail) != 1 || !strings.Contains(out.Error.Detail[0], tc.detail) {
				t.Fatalf("got %+v, want the 7.1 object of %d naming %q", out, tc.status, tc.detail)
			}
		})
	}
}

// TestLimitBodyPlain refuses a body over the limit in plain text, up front
// when its length is declared, and while reading when it is chunked.
func TestLimitBodyPlain(t *testing.T) {
	var read int
	srv := httptest.NewServer(LimitBodyPlain(8)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.ReadAll(r.Body); err != nil {
			http.Error(w, "read: "+err.Error(), http.StatusRequestEntityTooLarge)
			return
		}
		read++
	})))
	t.Cleanup(srv.Close)
	for _, body := range []io.Reader{strings.NewReader("123456789"), io.MultiReader(strings.NewReader("123456789"))} {
		resp, err := http.Post(srv.URL, "text/plain", body)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") || len(b) == 0 {
			t.Fatalf("9 bytes over a limit of 8 = %d %q", resp.StatusCode, b)
		}
	}
	if resp, err := http.Post(srv.URL, "text/plain", strings.NewReader("12345678")); err != nil || resp.StatusCode != 200 || read != 1 {
		t.Fatalf("8 bytes = %v %v, read %d", resp, err, read)
	}
}

// TestDecodeJSONLoose decodes as DecodeJSON does but takes fields the
// value lacks and leaves the type to the caller; one value only, and a
// body past the limit is 413 even when it comes without a length.
func TestDecodeJSONLoose(t *testing.T) {
	const limit = 64
	for _, tc := range []struct {
		name, ct, body string
		chunked        bool
		status         int
		want           string
	}{
		{"OKUnknownField", "application/json", `{"name":"a","expires_in":900}`, false, 200, "a"},
		{"OKNoType", "", `{"name":"a"}`, false, 200, "a"},
		{"ErrTrailingData", "application/json", `{"name":"a"} ]`, false, 400, "more than one JSON value"},
		{"ErrSyntax", "application/json", `{"name":`, false, 400, "the request body is not valid"},
		{"ErrTooLargeChunked", "application/json", `{"name":"` + strings.Repeat("x", limit) + `"}`, true, 413, "larger than 64 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got string
			h := LimitBody(limit)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				var in struct {
					Name string `json:"name"`
				}
				if err := DecodeJSONLoose(r, &in); err != nil {
					WriteError(w, r, err)
					return
				}
				got = in.Name
			}))
			req := httptest.NewRequest(http.MethodPost, "/x", strings.NewReader(tc.body))
			if tc.ct != "" {
				req.Header.Set("Content-Type", tc.ct)
			}
			if tc.chunked {
				req.ContentLength = -1
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tc.status {
				t.Fatalf("status %d, want %d: %s", rec.Code, tc.status, rec.Body)
			}
			if tc.status == 200 && got != tc.want || tc.status != 200 && !strings.Contains(rec.Body.String(), tc.want) {
				t.Fatalf("got %q / %s, want %q", got, rec.Body, tc.want)
			}
		})
	}
}

package data_test

import (
	"io"
	"net/http"
	"testing"

	"github.com/platform/platform/internal/data"
	"github.com/platform/platform/internal/testkit"
)

// Uploads beyond the replica's slots wait briefly, then answer 503 with
// Retry-After, before a byte of their body is read; once a slot frees up the
// next upload runs (D-admission). Without the bound, every concurrent
// upload of a flood holds its own few hundred megabytes.
// attack: upload-flood
func TestAttackUploadFlood(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 1)
	pr, pw := io.Pipe()
	first := make(chan int, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodPost, e.srv.URL+uploadPath, pr)
		req.Header.Set("Content-Type", "application/json")
		asUser(ownerA)(req)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			first <- 0
			return
		}
		resp.Body.Close()
		first <- resp.StatusCode
	}()
	if _, err := pw.Write([]byte(`{"scheduleId":"` + schAcme + `","data":[`)); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, "the first upload holds the slot, its body unfinished", func() bool { return data.UploadsRunning(e.handler) > 0 })
	r := e.postJSON(t, uploadPath, upload(schAcme, map[string]string{"ID": "HT-L1", "Name": "Level 1"}), asUser(memberA))
	if r.status != http.StatusServiceUnavailable || r.header.Get("Retry-After") != "5" || r.json(t)["code"] != float64(503) {
		t.Fatalf("an upload beyond the slots: %d Retry-After=%q %s", r.status, r.header.Get("Retry-After"), r.body)
	}
	if _, err := pw.Write([]byte(`{"ID":"HT-L2","Name":"Level 2"}]}`)); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	if code := <-first; code != http.StatusOK {
		t.Fatalf("the upload holding the slot answered %d", code)
	}
	r = e.postJSON(t, uploadPath, upload(schAcme, map[string]string{"ID": "HT-L1", "Name": "Level 1"}), asUser(memberA))
	if r.status != http.StatusOK {
		t.Fatalf("an upload after the slot freed up: %d %s", r.status, r.body)
	}
}

package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/platform/platform/internal/store/storetest"
)

// TestLoadUploadMemory is the memory load run of docs/benchmarks.md: the
// server binary receives 16 concurrent cx uploads of the largest size
// (100,000 rows in a body just under 32 MiB), with UPLOAD_CONCURRENCY 4 (the
// default) and, side by side in the same run, 16 (no admission), and then a
// spreadsheet zip bomb; it reports the process's peak resident memory
// (VmHWM) after each. It runs only with LOAD_RUN=1:
//
//	LOAD_RUN=1 go test ./server -run LoadUploadMemory -v -timeout 30m
//
// It asserts the answers (200 or 503, never a partial write), not the memory.
func TestLoadUploadMemory(t *testing.T) {
	// serial: measures the process's CPU and memory
	if os.Getenv("LOAD_RUN") != "1" {
		t.Skip("set LOAD_RUN=1 to run the upload memory load run")
	}
	body := maxUploadBody(t)
	t.Logf("upload body: %.1f MiB, 100,000 rows", float64(len(body))/(1<<20))
	for _, slots := range []int{4, 16} {
		p := startProcess(t, storetest.NewDatabaseURL(t), fmt.Sprintf("UPLOAD_CONCURRENCY=%d", slots), "UPLOAD_TIMEOUT=20m",
			"REQUEST_TIMEOUT=20m", "DB_STATEMENT_TIMEOUT=20m")
		token := processLogin(t, p, "alice@acme.example")
		base := peakRSS(t, p)
		start := time.Now()
		codes := make([]int, 16)
		var wg sync.WaitGroup
		for i := range codes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				req, _ := http.NewRequest(http.MethodPost, p.URL(2)+"/api/v1/cx/upload?dryRun=true", bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+token)
				resp, err := (&http.Client{Timeout: 30 * time.Minute}).Do(req)
				if err != nil {
					t.Errorf("upload %d: %v", i, err)
					return
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				codes[i] = resp.StatusCode
			}()
		}
		wg.Wait()
		ok, busy := 0, 0
		for _, c := range codes {
			switch c {
			case http.StatusOK:
				ok++
			case http.StatusServiceUnavailable:
				busy++
			default:
				t.Errorf("an upload answered %d", c)
			}
		}
		t.Logf("UPLOAD_CONCURRENCY=%d: 16 concurrent uploads → %d validated, %d told to retry (503) in %v; peak RSS %d MiB (idle after login %d MiB)",
			slots, ok, busy, time.Since(start).Round(time.Millisecond), peakRSS(t, p)>>20, base>>20)
		if slots == 4 {
			bomb := xlsxBombBody(t)
			var b bytes.Buffer
			w := multipart.NewWriter(&b)
			_ = w.WriteField("scheduleId", DemoHarborScheduleID)
			fw, _ := w.CreateFormFile("file", "bomb.xlsx")
			fw.Write(bomb)
			w.Close()
			req, _ := http.NewRequest(http.MethodPost, p.URL(2)+"/api/v1/cx/upload", &b)
			req.Header.Set("Content-Type", w.FormDataContentType())
			req.Header.Set("Authorization", "Bearer "+token)
			start := time.Now()
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			t.Logf("xlsx of %d KiB unpacking to 400 MiB: %d in %v; peak RSS %d MiB", len(bomb)>>10, resp.StatusCode,
				time.Since(start).Round(time.Millisecond), peakRSS(t, p)>>20)
			if resp.StatusCode != http.StatusRequestEntityTooLarge {
				t.Errorf("the zip bomb answered %d", resp.StatusCode)
			}
		}
	}
}

// maxUploadBody is an upload of 100,000 rows padded to just under 32 MiB.
func maxUploadBody(t *testing.T) []byte {
	var b bytes.Buffer
	b.WriteString(`{"scheduleId":"` + DemoHarborScheduleID + `","data":[`)
	pad := strings.Repeat("x", 200)
	for i := range 100_000 {
		if i > 0 {
			b.WriteByte(',')
		}
		row := map[string]string{"ID": fmt.Sprintf("R-%06d", i), "Name": fmt.Sprintf("Task %d %s", i, pad[:120]),
			"System Name": pad[:60], "Discipline": "Mechanical", "Building": "Tower A", "createdAt": "2025-02-03"}
		if i > 0 {
			row["ParentID"] = fmt.Sprintf("R-%06d", i/8)
		}
		j, _ := json.Marshal(row)
		b.Write(j)
	}
	b.WriteString(`]}`)
	if b.Len() > 32<<20 {
		t.Fatalf("the body is %d bytes, over the limit", b.Len())
	}
	return b.Bytes()
}

// xlsxBombBody is a workbook whose worksheet unpacks to 400 MiB.
func xlsxBombBody(t *testing.T) []byte {
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	w, _ := z.Create("xl/worksheets/sheet1.xml")
	io.WriteString(w, `<worksheet><sheetData>`)
	row := []byte(strings.Repeat(`<row><c t="inlineStr"><is><t>AAAAAAAAAAAAAAAAAAAAAAAA</t></is></c></row>`, 1024))
	for n := 0; n < 400<<20; n += len(row) {
		w.Write(row)
	}
	io.WriteString(w, `</sheetData></worksheet>`)
	z.Close()
	return buf.Bytes()
}

// peakRSS is the process's peak resident memory (VmHWM) in bytes.
func peakRSS(t *testing.T, p *process) int64 {
	return procStatusKB(t, p.cmd.Process.Pid, "VmHWM:") << 10
}

// processLogin signs email in at p with the instance client and returns an
// access token for the data API.
func processLogin(t *testing.T, p *process, email string) string {
	t.Helper()
	m := &Main{Config: DefaultConfig()}
	m.Config.IssuerURL, m.Config.InstanceURL = p.URL(0), p.URL(2)
	tok, _ := demoLogin(t, m, m.Config.InstanceClientID, m.Config.InstanceURL+"/auth/callback", email)
	return tok.AccessToken
}

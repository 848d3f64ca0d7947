package main

import (
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/platform/platform/internal/cx/sheet/sheettest"
	"github.com/platform/platform/internal/store/storetest"
)

// TestLoadUploadMemoryXLSX is the spreadsheet memory load run of
// docs/benchmarks.md: the server binary receives 16 shared-string and 16
// escape workbooks at once, then the largest .xlsx upload (100,000 rows,
// about 28 MiB of cell text), its text as shared strings (as Excel writes
// it) and as inline strings (as excelize's stream writer does): alone, and
// 16 at once with UPLOAD_CONCURRENCY 4 (the default), 16 (no admission),
// and 16 with GOMEMLIMIT=1GiB. Each step of the largest upload runs in a
// process of its own; the process's peak resident memory (VmHWM) is
// reported after each step. It runs only with LOAD_RUN=1:
//
//	LOAD_RUN=1 go test ./server -run LoadUploadMemoryXLSX -v -timeout 60m
//
// It asserts the answers (200, or 413 for the attack workbooks; 503 when
// no upload slot freed up in time), not the memory.
func TestLoadUploadMemoryXLSX(t *testing.T) {
	// serial: measures the process's CPU and memory
	if os.Getenv("LOAD_RUN") != "1" {
		t.Skip("set LOAD_RUN=1 to run the spreadsheet memory load run")
	}
	workbooks := map[string][]byte{"shared strings": maxUploadXLSX(true), "inline strings": maxUploadXLSX(false)}
	for name, wb := range workbooks {
		t.Logf("workbook with %s: %.1f MiB, 100,000 rows", name, float64(len(wb))/(1<<20))
	}
	start := func(env ...string) (*process, string) {
		p := startProcess(t, storetest.NewDatabaseURL(t), append([]string{"UPLOAD_TIMEOUT=20m",
			"REQUEST_TIMEOUT=20m", "DB_STATEMENT_TIMEOUT=20m"}, env...)...)
		return p, processLogin(t, p, "alice@acme.example")
	}
	step := func(p *process, token, what string, n int, file []byte, want ...int) {
		t.Helper()
		base := procStatusKB(t, p.cmd.Process.Pid, "VmRSS:") >> 10
		resetPeakRSS(t, p)
		began := time.Now()
		counts := map[int]int{}
		for _, c := range postSheets(t, p, token, n, file) {
			counts[c]++
			if !slices.Contains(want, c) {
				t.Errorf("%s: an upload answered %d", what, c)
			}
		}
		for _, line := range strings.Split(p.logs.String(), "\n") {
			if strings.Contains(line, "internal error") {
				t.Logf("server log: %.400s", line)
			}
		}
		t.Logf("%s: answers %v in %v; peak RSS %d MiB (%d MiB before)", what, counts,
			time.Since(began).Round(time.Millisecond), peakRSS(t, p)>>20, base)
	}
	p, token := start("UPLOAD_CONCURRENCY=4")
	step(p, token, "16 shared-string workbooks at once (1 MiB string, 2,000 cells)", 16, sheettest.SharedStringBomb(1<<20, 2000),
		http.StatusRequestEntityTooLarge, http.StatusServiceUnavailable)
	step(p, token, "16 escape workbooks at once (80,000 escapes)", 16, sheettest.EscapeBomb(80_000, 4),
		http.StatusRequestEntityTooLarge, http.StatusServiceUnavailable)
	for _, name := range []string{"shared strings", "inline strings"} {
		for _, run := range []struct {
			what string
			n    int
			env  []string
		}{
			{"1 largest upload", 1, []string{"UPLOAD_CONCURRENCY=4"}},
			{"16 largest uploads at once, UPLOAD_CONCURRENCY=4", 16, []string{"UPLOAD_CONCURRENCY=4"}},
			{"16 largest uploads at once, UPLOAD_CONCURRENCY=16", 16, []string{"UPLOAD_CONCURRENCY=16"}},
			{"16 largest uploads at once, UPLOAD_CONCURRENCY=16, GOMEMLIMIT=1GiB", 16, []string{"UPLOAD_CONCURRENCY=16", "GOMEMLIMIT=1GiB"}},
		} {
			p, token := start(run.env...)
			step(p, token, run.what+", "+name, run.n, workbooks[name], http.StatusOK, http.StatusServiceUnavailable)
			p.cmd.Process.Kill()
		}
	}
}

// postSheets posts file as n concurrent dry-run uploads and returns their
// statuses.
func postSheets(t *testing.T, p *process, token string, n int, file []byte) []int {
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	_ = w.WriteField("scheduleId", DemoHarborScheduleID)
	fw, _ := w.CreateFormFile("file", "plan.xlsx")
	fw.Write(file)
	w.Close()
	body := b.Bytes()
	codes := make([]int, n)
	var wg sync.WaitGroup
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest(http.MethodPost, p.URL(2)+"/api/v1/cx/upload?dryRun=true", bytes.NewReader(body))
			req.Header.Set("Content-Type", w.FormDataContentType())
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
	return codes
}

// maxUploadXLSX is the largest .xlsx upload: 100,000 valid rows whose
// cells hold about 30 MiB of text, under the 32 MiB budget, with the text
// in a shared-string table or inline.
func maxUploadXLSX(shared bool) []byte {
	var sst []string
	index := map[string]int{}
	cell := func(w *bytes.Buffer, ref, s string) {
		if s == "" {
			return
		}
		if !shared {
			fmt.Fprintf(w, `<c r="%s" t="inlineStr"><is><t>%s</t></is></c>`, ref, s)
			return
		}
		i, ok := index[s]
		if !ok {
			i = len(sst)
			index[s] = i
			sst = append(sst, "<t>"+s+"</t>")
		}
		fmt.Fprintf(w, `<c r="%s" t="s"><v>%d</v></c>`, ref, i)
	}
	var data bytes.Buffer
	header := []string{"ID", "Name", "ParentID", "System Name", "Discipline", "Building", "createdAt"}
	data.WriteString(`<row r="1">`)
	for j, h := range header {
		cell(&data, sheettest.Column(j)+"1", h)
	}
	data.WriteString(`</row>`)
	pad := strings.Repeat("x", 200)
	for i := range 100_000 {
		r := i + 2
		fmt.Fprintf(&data, `<row r="%d">`, r)
		parent := ""
		if i > 0 {
			parent = fmt.Sprintf("R-%06d", i/8)
		}
		values := []string{fmt.Sprintf("R-%06d", i), fmt.Sprintf("Task %d %s", i, pad[:120]), parent,
			fmt.Sprintf("System %d %s", i, pad[:110]), "Mechanical", "Tower A"}
		for j, v := range values {
			cell(&data, fmt.Sprintf("%s%d", sheettest.Column(j), r), v)
		}
		fmt.Fprintf(&data, `<c r="G%d"><v>45691</v></c></row>`, r)
	}
	wb := sheettest.Workbook{Sheets: []sheettest.Sheet{{Name: "Plan", Part: "xl/worksheets/sheet1.xml", Data: sheettest.Data(data.String())}}}
	if shared {
		wb.SharedStrings = sst
	}
	return wb.Bytes()
}

// resetPeakRSS starts p's peak resident memory (VmHWM) afresh.
func resetPeakRSS(t *testing.T, p *process) {
	t.Helper()
	if err := os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", p.cmd.Process.Pid), []byte("5"), 0); err != nil {
		t.Fatal(err)
	}
}

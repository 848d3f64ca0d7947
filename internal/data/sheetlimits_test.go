package data_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/platform/platform/internal/cx"
	"github.com/platform/platform/internal/cx/sheet/sheettest"
)

// A spreadsheet beyond the reader's limits answers 413 with the 7.1
// object, SHEET_TOO_LARGE, and a detail naming the limit and the cell; no
// row is written. The workbooks are a few kilobytes each.
// spec: D-cx
func TestUploadSheetLimits(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	longName := "ID,Name\nHT-L1," + strings.Repeat("x", cx.MaxValueLength+1) + "\n"
	for _, tc := range []struct {
		name, file, content, want string
	}{
		{"SharedStringBomb", "plan.xlsx", string(sheettest.SharedStringBomb(1<<20, 2000)), "cell B2: longer than 2,000 characters"},
		{"LongestAllowedManyTimes", "plan.xlsx", string(sheettest.SharedStringBomb(cx.MaxValueLength, 20_000)), "the cells hold more than 32 MiB of text"},
		{"EscapeBomb", "plan.xlsx", string(sheettest.EscapeBomb(80_000, 4)), "cell B2: longer than 2,000 characters"},
		{"Escapes", "plan.xlsx", string(sheettest.EscapeBomb(1001, 4)), "cell B2: more than 1,000 _xHHHH_ escapes"},
		{"LongCSVCell", "plan.csv", longName, "cell B2: longer than 2,000 characters"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if len(tc.content) > 512<<10 {
				t.Fatalf("the file is %d bytes; it should be small", len(tc.content))
			}
			r := e.postForm(t, uploadPath, [][3]string{{"scheduleId", "", schAcme}, {"file", tc.file, tc.content}}, asUser(memberA))
			m := wantError(t, r, http.StatusRequestEntityTooLarge, uploadPath)
			if a := decodeAnswer(t, r); !slices.Equal(a.codes(), []string{cx.CodeSheetTooLarge}) || !strings.Contains(detail(m), tc.want) {
				t.Fatalf("codes %v, detail %q; want SHEET_TOO_LARGE with %q", a.codes(), detail(m), tc.want)
			}
			if tc.name == "SharedStringBomb" {
				golden(t, "upload-sheet-too-large", r.body)
			}
			e.wantRows(t, schAcme, storedRows)
		})
	}
}

// An upload whose time runs out while its spreadsheet is read was read to
// the end anyway: UPLOAD_TIMEOUT and a client that left stopped the
// database work after it, not the reading. The reader stops at once and
// the upload answers 503 with Retry-After; the last row, which the reader
// would refuse (413) if it got there, is never reached, and no row is
// written.
// attack: upload-outlives-request
func TestAttackUploadOutlivesRequest(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	srv := httptest.NewServer(expireAfterBody(e.srv.Config.Handler))
	t.Cleanup(srv.Close)
	rows := []string{sheettest.InlineRow(1, "ID", "Name")}
	for i := range 20_000 {
		rows = append(rows, sheettest.InlineRow(i+2, fmt.Sprintf("HT-R%d", i), fmt.Sprintf("Row %d", i)))
	}
	rows = append(rows, sheettest.InlineRow(20_002, "HT-LAST", strings.Repeat("x", cx.MaxValueLength+1)))
	ct, body := multipartBody(t, [][3]string{{"scheduleId", "", schAcme}, {"file", "plan.xlsx", string(sheettest.OneSheet(nil, rows...))}})
	req, _ := http.NewRequest(http.MethodPost, srv.URL+uploadPath, bytes.NewReader(body))
	req.Header.Set("Content-Type", ct)
	asUser(ownerA)(req)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	r := &response{status: resp.StatusCode, header: resp.Header, body: b}
	m := wantError(t, r, http.StatusServiceUnavailable, uploadPath)
	if !strings.Contains(detail(m), "ran out of time while its spreadsheet was read") || r.header.Get("Retry-After") == "" {
		t.Fatalf("detail %q, Retry-After %q", detail(m), r.header.Get("Retry-After"))
	}
	e.wantRows(t, schAcme, storedRows)
}

// expireAfterBody gives each request a context whose deadline passes the
// moment the handler has read the last byte of the body, as UPLOAD_TIMEOUT
// would while the upload is being read.
func expireAfterBody(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := &expiringContext{Context: r.Context(), done: make(chan struct{})}
		r = r.WithContext(ctx)
		r.Body = &countingBody{ReadCloser: r.Body, left: r.ContentLength, atEnd: ctx.expire}
		next.ServeHTTP(w, r)
	})
}

// expiringContext is a context whose deadline passes when expire is called.
type expiringContext struct {
	context.Context
	done chan struct{}
	once sync.Once
}

func (c *expiringContext) expire() { c.once.Do(func() { close(c.done) }) }

func (c *expiringContext) Done() <-chan struct{} { return c.done }

func (c *expiringContext) Err() error {
	select {
	case <-c.done:
		return context.DeadlineExceeded
	default:
		return nil
	}
}

// countingBody calls atEnd once its last byte has been read.
type countingBody struct {
	io.ReadCloser
	left  int64
	atEnd func()
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if b.left -= int64(n); b.left <= 0 || err == io.EOF {
		b.atEnd()
	}
	return n, err
}

// The largest upload as a workbook, 100,000 rows written by a spreadsheet
// library (shared strings, number and date cells), is applied through the
// handler like the same rows as JSON.
// spec: D-cx
func TestUploadLargestXLSX(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const n = 100_000
	workbook := largestXLSX(t, n)
	if len(workbook) > 32<<20 {
		t.Fatalf("the workbook is %d bytes, over the limit", len(workbook))
	}
	r := e.postForm(t, uploadPath, [][3]string{{"scheduleId", "", schAcme2}, {"file", "plan.xlsx", string(workbook)}}, asUser(ownerA))
	if r.status != http.StatusOK {
		t.Fatalf("status %d: %.500s", r.status, r.body)
	}
	if a := decodeAnswer(t, r); a.Summary.Created != n || a.Summary.Errors != 0 {
		t.Fatalf("summary %+v", a.Summary)
	}
	rows := e.rows(t, schAcme2)
	if len(rows) != n {
		t.Fatalf("stored %d rows", len(rows))
	}
	want := benchRows(n, "Task")
	for _, i := range []int{0, 1, 12, n - 1} {
		w := want[i]
		w.CreatedAt = "2025-02-03"
		if i := slices.IndexFunc(rows, func(r cx.Row) bool { return r.ID == w.ID }); i < 0 || rows[i] != w {
			t.Errorf("row %s stored as %+v; want %+v", w.ID, rows[max(i, 0)], w)
		}
	}
}

// largestXLSX writes benchRows(n) as a workbook with excelize's stream
// writer: text as shared strings, a Count column of numbers, createdAt as
// date cells.
func largestXLSX(t testing.TB, n int) []byte {
	f := excelize.NewFile()
	defer f.Close()
	sw, err := f.NewStreamWriter("Sheet1")
	if err != nil {
		t.Fatal(err)
	}
	dateStyle, err := f.NewStyle(&excelize.Style{NumFmt: 14})
	if err != nil {
		t.Fatal(err)
	}
	header := []any{"ID", "Name", "ParentID", "Predecessors", "PM Email Address", "Discipline", "Building", "createdAt", "Count"}
	if err := sw.SetRow("A1", header); err != nil {
		t.Fatal(err)
	}
	created := excelize.Cell{StyleID: dateStyle, Value: time.Date(2025, 2, 3, 0, 0, 0, 0, time.UTC)}
	for i, r := range benchRows(n, "Task") {
		ref, _ := excelize.CoordinatesToCellName(1, i+2)
		if err := sw.SetRow(ref, []any{r.ID, r.Name, r.ParentID, r.Predecessors, r.PMEmail, r.Discipline, r.Building, created, i}); err != nil {
			t.Fatal(err)
		}
	}
	if err := sw.Flush(); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

package data_test

import (
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/platform/platform/internal/cx"
)

// uploadAnswer is a decoded upload answer, success or failure.
type uploadAnswer struct {
	ScheduleID string     `json:"scheduleId"`
	DryRun     bool       `json:"dryRun"`
	Status     string     `json:"status"`
	Summary    cx.Summary `json:"summary"`
	Warnings   []cx.Issue `json:"warnings"`
	Errors     []struct {
		cx.Issue
	} `json:"errors"`
}

func (a *uploadAnswer) codes() []string {
	out := []string{}
	for _, e := range a.Errors {
		out = append(out, e.Code)
	}
	return out
}

func decodeAnswer(t *testing.T, r *response) *uploadAnswer {
	t.Helper()
	var a uploadAnswer
	mustUnmarshal(t, r.body, &a)
	return &a
}

const uploadPath = "/api/v1/cx/upload"

// A valid JSON upload is applied: new rows created, stored rows with the
// same ID replaced, the others kept.
// spec: R4.5-cx-required, R4.5-cx-optional, D-cx
func TestUploadApplied(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	body := upload(schAcme,
		map[string]string{"ID": "HT-L1", "Name": "Level 1 fit-out inspection", "ParentID": "HT-BLDG", "createdAt": "2025-02-03"},
		map[string]string{"ID": "HT-AHU-1", "Name": "AHU-1 functional test (rescheduled)", "ParentID": "HT-BLDG", "Predecessors": "HT-CHW FS+3d"},
		map[string]string{"ID": "HT-CHW", "Name": "Chilled water plant start-up", "ParentID": "HT-BLDG", "SystemName": "x"}, // unknown key: a warning
	)
	// HT-CHW exactly as stored except for the unknown key: unchanged
	body = bytes.Replace(body, []byte(`"SystemName":"x"`), []byte(`"System Name":"Chilled water plant","Discipline":"Mechanical","Building":"Harbor Tower","createdAt":"2025-01-06","SystemName":"x"`), 1)
	r := e.postJSON(t, uploadPath, body, asUser(ownerA))
	if r.status != http.StatusOK {
		t.Fatalf("status %d: %s", r.status, r.body)
	}
	golden(t, "upload-applied", r.body)
	a := decodeAnswer(t, r)
	if a.Status != "applied" || a.Summary != (cx.Summary{Received: 3, Created: 1, Updated: 1, Unchanged: 1, Warnings: 1}) {
		t.Fatalf("answer = %+v", a)
	}
	want := []cx.Row{
		{ID: "HT-AHU-1", Name: "AHU-1 functional test (rescheduled)", ParentID: "HT-BLDG", Predecessors: "HT-CHW FS+3d"},
		storedRows[0], storedRows[1],
		{ID: "HT-L1", Name: "Level 1 fit-out inspection", ParentID: "HT-BLDG", CreatedAt: "2025-02-03"},
	}
	e.wantRows(t, schAcme, want)
}

// ?dryRun=true validates and answers what would happen, saving nothing.
// spec: D-cx
func TestUploadDryRun(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.postJSON(t, uploadPath+"?dryRun=true", upload(schAcme, map[string]string{"ID": "HT-L1", "Name": "Level 1"}), asUser(memberA))
	if r.status != http.StatusOK {
		t.Fatalf("status %d: %s", r.status, r.body)
	}
	golden(t, "upload-dry-run", r.body)
	if a := decodeAnswer(t, r); a.Status != "valid" || !a.DryRun || a.Summary.Created != 1 {
		t.Fatalf("answer = %+v", a)
	}
	e.wantRows(t, schAcme, storedRows)
	// a dry run of a bad upload reports like a real one
	r = e.postJSON(t, uploadPath+"?dryRun=true", upload(schAcme, map[string]string{"ID": "HT-L1"}), asUser(memberA))
	if a := decodeAnswer(t, r); r.status != http.StatusUnprocessableEntity || !slices.Equal(a.codes(), []string{cx.CodeNameRequired}) || !a.DryRun {
		t.Fatalf("dry run of a bad upload: %d %s", r.status, r.body)
	}
}

// Every error code of D-cx through HTTP, each leaving the schedule exactly
// as it was (asserted on the database).
// spec: R4.5-cx-required, R4.5-cx-optional, R4.5-cx-parent, R4.5-cx-cycle, D-cx, R7.1-shape
func TestUploadErrors(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	row := func(kv ...string) map[string]string {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	deep := `{"scheduleId":"` + schAcme + `","extra":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `,"data":[{"ID":"A","Name":"a"}]}`
	deepRow := `{"scheduleId":"` + schAcme + `","data":[{"ID":` + strings.Repeat(`{"a":`, 20000) + `1` + strings.Repeat("}", 20000) + `}]}`
	for _, tc := range []struct {
		name   string
		body   []byte
		status int
		code   string
	}{
		{"ErrNotJSON", []byte(`scheduleId=sch-acme`), 400, cx.CodeInvalidRequest},
		{"ErrTruncated", []byte(`{"scheduleId":"sch-acme","data":[{"ID":"A"`), 400, cx.CodeInvalidRequest},
		{"ErrNotAnObject", []byte(`[{"ID":"A","Name":"a"}]`), 400, cx.CodeInvalidRequest},
		{"ErrDataNotArray", []byte(`{"scheduleId":"sch-acme","data":{"ID":"A"}}`), 400, cx.CodeInvalidRequest},
		{"ErrNumberForString", []byte(`{"scheduleId":"sch-acme","data":[{"ID":"A","Name":42}]}`), 400, cx.CodeInvalidRequest},
		{"ErrBooleanForString", []byte(`{"scheduleId":"sch-acme","data":[{"ID":"A","Name":"a","Milestone":true}]}`), 400, cx.CodeInvalidRequest},
		{"ErrScheduleIDNumber", []byte(`{"scheduleId":7,"data":[{"ID":"A","Name":"a"}]}`), 400, cx.CodeInvalidRequest},
		{"ErrInvalidUTF8", []byte("{\"scheduleId\":\"sch-acme\",\"data\":[{\"ID\":\"A\",\"Name\":\"caf\xe9\"}]}"), 400, cx.CodeInvalidRequest},
		{"ErrDeeplyNested", []byte(deep), 400, cx.CodeInvalidRequest},
		{"ErrDeeplyNestedRow", []byte(deepRow), 400, cx.CodeInvalidRequest},
		{"ErrTwoValues", []byte(`{"scheduleId":"sch-acme","data":[{"ID":"A","Name":"a"}]} {}`), 400, cx.CodeInvalidRequest},
		{"ErrKeyTwice", []byte(`{"scheduleId":"sch-acme","data":[{"ID":"A","ID":"B","Name":"a"}]}`), 400, cx.CodeInvalidRequest},
		{"ErrScheduleIDRequired", upload("  ", row("ID", "A", "Name", "a")), 400, cx.CodeScheduleIDRequired},
		{"ErrScheduleIDMissing", []byte(`{"scheduleID":"sch-acme","data":[{"ID":"A","Name":"a"}]}`), 400, cx.CodeScheduleIDRequired},
		{"ErrDataEmpty", []byte(`{"scheduleId":"sch-acme","data":[]}`), 422, cx.CodeDataEmpty},
		{"ErrFieldNameMismatch", upload(schAcme, row("ID", "A", "Name", "a", "parentId", "HT-BLDG")), 422, cx.CodeFieldNameMismatch},
		{"ErrIDRequired", upload(schAcme, row("Name", "a")), 422, cx.CodeIDRequired},
		{"ErrNameRequired", upload(schAcme, row("ID", "A")), 422, cx.CodeNameRequired},
		{"ErrIDInvalid", upload(schAcme, row("ID", "A;B", "Name", "a")), 422, cx.CodeIDInvalid},
		{"ErrTooLong", upload(schAcme, row("ID", strings.Repeat("A", 65), "Name", "a")), 422, cx.CodeTooLong},
		{"ErrInvalidDate", upload(schAcme, row("ID", "A", "Name", "a", "createdAt", "2025-02-30")), 422, cx.CodeInvalidDate},
		{"ErrDateOrder", upload(schAcme, row("ID", "A", "Name", "a", "createdAt", "2025-02-10", "updatedAt", "2025-02-01")), 422, cx.CodeDateOrder},
		{"ErrInvalidEmail", upload(schAcme, row("ID", "A", "Name", "a", "PM Email Address", "not-an-email")), 422, cx.CodeInvalidEmail},
		{"ErrInvalidEnum", upload(schAcme, row("ID", "A", "Name", "a", "ParentChildDependency", "Sideways")), 422, cx.CodeInvalidEnum},
		{"ErrPredecessorSyntax", upload(schAcme, row("ID", "A", "Name", "a", "Predecessors", "HT-CHW+2d")), 422, cx.CodePredecessorSyntax},
		{"ErrDuplicateID", upload(schAcme, row("ID", "A", "Name", "a"), row("ID", "A", "Name", "b")), 422, cx.CodeDuplicateID},
		{"ErrSelfParent", upload(schAcme, row("ID", "A", "Name", "a", "ParentID", "A")), 422, cx.CodeSelfParent},
		{"ErrParentNotFound", upload(schAcme, row("ID", "A", "Name", "a", "ParentID", "NOPE")), 422, cx.CodeParentNotFound},
		{"ErrParentCycle", upload(schAcme, row("ID", "A", "Name", "a", "ParentID", "B"), row("ID", "B", "Name", "b", "ParentID", "A")), 422, cx.CodeParentCycle},
		{"ErrPredecessorNotFound", upload(schAcme, row("ID", "A", "Name", "a", "Predecessors", "NOPE")), 422, cx.CodePredecessorNotFound},
		{"ErrSelfDependency", upload(schAcme, row("ID", "A", "Name", "a", "Predecessors", "A")), 422, cx.CodeSelfDependency},
		{"ErrDuplicatePredecessor", upload(schAcme, row("ID", "A", "Name", "a", "Predecessors", "HT-CHW, HT-CHW SS")), 422, cx.CodeDuplicatePredecessor},
		{"ErrParentChildDependency", upload(schAcme, row("ID", "A", "Name", "a", "ParentID", "HT-BLDG", "Predecessors", "HT-BLDG")), 422, cx.CodeParentChildDependency},
		{"ErrCircularDependency", upload(schAcme, row("ID", "A", "Name", "a", "Predecessors", "B"), row("ID", "B", "Name", "b", "Predecessors", "A")), 422, cx.CodeCircularDependency},
		{"ErrMilestonePairIncomplete", upload(schAcme, row("ID", "A", "Name", "a", "Parent milestone", "Handover")), 422, cx.CodeMilestonePairIncomplete},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.postJSON(t, uploadPath, tc.body, asUser(ownerA))
			m := wantError(t, r, tc.status, uploadPath)
			if a := decodeAnswer(t, r); !slices.Contains(a.codes(), tc.code) {
				t.Errorf("codes %v, want %s: %s", a.codes(), tc.code, detail(m))
			}
			e.wantRows(t, schAcme, storedRows)
		})
	}
	// unknown schedule: 404, not a validation error
	r := e.postJSON(t, uploadPath, upload("sch-nope", row("ID", "A", "Name", "a")), asUser(ownerA))
	wantError(t, r, http.StatusNotFound, uploadPath)

	// several errors at once, sorted by row then field, in one answer
	r = e.postJSON(t, uploadPath, upload(schAcme,
		row("ID", "A", "Name", "", "ParentID", "NOPE", "createdAt", "2025-13-01"),
		row("ID", "B", "Name", "b", "Predecessors", "C"),
		row("ID", "C", "Name", "c", "Predecessors", "B", "PM Email Address", "pm@"),
		row("ID", "A", "Name", "again"),
	), asUser(ownerA))
	wantError(t, r, http.StatusUnprocessableEntity, uploadPath)
	golden(t, "upload-invalid", r.body)
	e.wantRows(t, schAcme, storedRows)

	r = e.postJSON(t, uploadPath, []byte(`{"scheduleId":"sch-acme","data":[{"ID":"A","Name":1}]}`), asUser(ownerA))
	golden(t, "upload-request-invalid", r.body)
}

// A loop may close through rows already stored: the upload changes HT-CHW
// to follow HT-AHU-1, which is stored following HT-CHW.
// spec: R4.5-cx-cycle, D-cx
func TestUploadCycleThroughStoredRows(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.postJSON(t, uploadPath, upload(schAcme, map[string]string{"ID": "HT-CHW", "Name": "Chilled water plant start-up", "ParentID": "HT-BLDG", "Predecessors": "HT-AHU-1"}), asUser(ownerA))
	wantError(t, r, http.StatusUnprocessableEntity, uploadPath)
	golden(t, "upload-cycle-stored", r.body)
	a := decodeAnswer(t, r)
	if len(a.Errors) == 0 || a.Errors[0].Code != cx.CodeCircularDependency {
		t.Fatalf("errors = %+v", a.Errors)
	}
	if cyc := a.Errors[0].Cycle; len(cyc) != 3 || cyc[0] != cyc[2] || !slices.Contains(cyc, "HT-AHU-1") || !slices.Contains(cyc, "HT-CHW") {
		t.Errorf("cycle = %v, want HT-CHW → HT-AHU-1 → HT-CHW", cyc)
	}
	e.wantRows(t, schAcme, storedRows)
}

// manyRows returns an upload body of n valid rows.
func manyRows(scheduleID string, n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"scheduleId":"` + scheduleID + `","data":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"ID":"R-%06d","Name":"Row %d"}`, i, i)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

// 100,000 rows are applied; 100,001 rows and bodies over 32 MiB answer 413
// and save nothing.
// spec: D-cx
func TestUploadLimits(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	t.Run("100000Rows", func(t *testing.T) {
		r := e.postJSON(t, uploadPath, manyRows(schAcme2, 100_000), asUser(ownerA))
		if r.status != http.StatusOK {
			t.Fatalf("status %d: %.300s", r.status, r.body)
		}
		if a := decodeAnswer(t, r); a.Summary.Created != 100_000 {
			t.Fatalf("summary %+v", a.Summary)
		}
		if n := len(e.rows(t, schAcme2)); n != 100_000 {
			t.Fatalf("stored %d rows", n)
		}
	})
	t.Run("ErrRowsLimit", func(t *testing.T) {
		r := e.postJSON(t, uploadPath, manyRows(schAcme, 100_001), asUser(ownerA))
		wantError(t, r, http.StatusRequestEntityTooLarge, uploadPath)
		if a := decodeAnswer(t, r); !slices.Equal(a.codes(), []string{cx.CodeRowsLimit}) {
			t.Fatalf("codes %v", a.codes())
		}
		golden(t, "upload-too-many-rows", r.body)
		e.wantRows(t, schAcme, storedRows)
	})
	big := func() []byte { // 33 MiB of one JSON body
		name := strings.Repeat("x", 200)
		var b bytes.Buffer
		b.WriteString(`{"scheduleId":"` + schAcme + `","data":[`)
		for i := 0; b.Len() < 33<<20; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"ID":"B-%07d","Name":"%s"}`, i, name)
		}
		b.WriteString(`]}`)
		return b.Bytes()
	}()
	t.Run("ErrBodyTooLarge", func(t *testing.T) {
		r := e.postJSON(t, uploadPath, big, asUser(ownerA))
		wantError(t, r, http.StatusRequestEntityTooLarge, uploadPath)
		if a := decodeAnswer(t, r); !slices.Equal(a.codes(), []string{"BODY_TOO_LARGE"}) {
			t.Fatalf("codes %v", a.codes())
		}
		e.wantRows(t, schAcme, storedRows)
	})
	t.Run("ErrBodyTooLargeChunked", func(t *testing.T) { // no Content-Length: refused while reading
		r := e.do(t, http.MethodPost, uploadPath, io.MultiReader(bytes.NewReader(big)), asUser(ownerA), withHeader("Content-Type", "application/json"))
		wantError(t, r, http.StatusRequestEntityTooLarge, uploadPath)
		e.wantRows(t, schAcme, storedRows)
	})
}

// multipartBody builds a form with the given parts; a part named file is a
// file part with filename.
func multipartBody(t *testing.T, parts [][3]string) (string, []byte) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, p := range parts {
		name, filename, content := p[0], p[1], p[2]
		var pw io.Writer
		var err error
		if filename != "" {
			pw, err = w.CreateFormFile(name, filename)
		} else {
			pw, err = w.CreateFormField(name)
		}
		if err != nil {
			t.Fatal(err)
		}
		if _, err := pw.Write([]byte(content)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return w.FormDataContentType(), buf.Bytes()
}

func (e *env) postForm(t *testing.T, path string, parts [][3]string, opts ...reqOpt) *response {
	t.Helper()
	ct, body := multipartBody(t, parts)
	return e.do(t, http.MethodPost, path, bytes.NewReader(body), append([]reqOpt{withHeader("Content-Type", ct)}, opts...)...)
}

func readSample(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The same endpoint takes a .xlsx or .csv file through the same validator:
// the sample applies as its rows sent as JSON do; a bad sample reports.
// spec: R4.5-cx-same, D-cx
func TestUploadSpreadsheet(t *testing.T) {
	t.Parallel()
	for _, file := range []string{"cx-sample.xlsx", "cx-sample.csv"} {
		t.Run(file, func(t *testing.T) {
			viaJSON := newEnv(t).postJSON(t, uploadPath+"?dryRun=true", upload(schAcme, jsonRows(sampleHeader, sampleRows)...), asUser(ownerA))
			e := newEnv(t)
			r := e.postForm(t, uploadPath, [][3]string{{"scheduleId", "", schAcme}, {"file", file, readSample(t, file)}}, asUser(ownerA))
			if r.status != http.StatusOK {
				t.Fatalf("status %d: %s", r.status, r.body)
			}
			a, j := decodeAnswer(t, r), decodeAnswer(t, viaJSON)
			if a.Status != "applied" || a.Summary != j.Summary || a.Summary.Created != len(sampleRows) {
				t.Fatalf("sheet %+v, JSON %+v", a, j)
			}
			if n := len(e.rows(t, schAcme)); n != len(storedRows)+len(sampleRows) {
				t.Fatalf("stored %d rows", n)
			}
		})
	}
	e := newEnv(t)
	t.Run("ErrBadSample", func(t *testing.T) {
		r := e.postForm(t, uploadPath, [][3]string{{"file", "cx-sample-bad.xlsx", readSample(t, "cx-sample-bad.xlsx")}, {"scheduleId", "", schAcme}}, asUser(ownerA))
		wantError(t, r, http.StatusUnprocessableEntity, uploadPath)
		golden(t, "upload-sheet-invalid", r.body)
		a := decodeAnswer(t, r)
		for _, code := range []string{cx.CodeParentNotFound, cx.CodeCircularDependency, cx.CodeInvalidDate, cx.CodeInvalidEmail} {
			if !slices.Contains(a.codes(), code) {
				t.Errorf("codes %v lack %s", a.codes(), code)
			}
		}
		e.wantRows(t, schAcme, storedRows)
	})
	noID := writeXLSX(t, []string{"Identifier", "Name"}, [][]string{{"A", "a"}})
	for _, tc := range []struct {
		name   string
		parts  [][3]string
		status int
		code   string
	}{
		{"ErrHeaderMissing", [][3]string{{"scheduleId", "", schAcme}, {"file", "plan.xlsx", string(noID)}}, 400, cx.CodeSheetHeaderMissing},
		{"ErrHeaderCase", [][3]string{{"scheduleId", "", schAcme}, {"file", "plan.csv", "id,Name\nA,a\n"}}, 400, cx.CodeSheetHeaderMissing},
		{"ErrEmptySheet", [][3]string{{"scheduleId", "", schAcme}, {"file", "plan.csv", "\n\n"}}, 400, cx.CodeSheetHeaderMissing},
		{"ErrNotASpreadsheet", [][3]string{{"scheduleId", "", schAcme}, {"file", "plan.txt", "ID,Name\nA,a\n"}}, 400, cx.CodeInvalidRequest},
		{"ErrBrokenWorkbook", [][3]string{{"scheduleId", "", schAcme}, {"file", "plan.xlsx", "PK not a zip"}}, 400, cx.CodeInvalidRequest},
		{"ErrInvalidUTF8", [][3]string{{"scheduleId", "", schAcme}, {"file", "plan.csv", "ID,Name\nA,caf\xe9\n"}}, 400, cx.CodeInvalidRequest},
		{"ErrNoFile", [][3]string{{"scheduleId", "", schAcme}}, 400, cx.CodeInvalidRequest},
		{"ErrNoSchedule", [][3]string{{"file", "plan.csv", "ID,Name\nA,a\n"}}, 400, cx.CodeScheduleIDRequired},
		{"ErrExtraPart", [][3]string{{"scheduleId", "", schAcme}, {"file", "plan.csv", "ID,Name\nA,a\n"}, {"note", "", "hi"}}, 400, cx.CodeInvalidRequest},
		{"ErrNoRows", [][3]string{{"scheduleId", "", schAcme}, {"file", "plan.csv", "ID,Name\n"}}, 422, cx.CodeDataEmpty},
		{"ErrRuleBroken", [][3]string{{"scheduleId", "", schAcme}, {"file", "plan.csv", "ID,Name,ParentID\nA,a,NOPE\n"}}, 422, cx.CodeParentNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.postForm(t, uploadPath, tc.parts, asUser(ownerA))
			wantError(t, r, tc.status, uploadPath)
			if a := decodeAnswer(t, r); !slices.Contains(a.codes(), tc.code) {
				t.Errorf("codes %v, want %s", a.codes(), tc.code)
			}
			if tc.name == "ErrHeaderMissing" {
				golden(t, "upload-sheet-header-missing", r.body)
			}
			e.wantRows(t, schAcme, storedRows)
		})
	}
	t.Run("ErrNoBoundary", func(t *testing.T) {
		r := e.do(t, http.MethodPost, uploadPath, strings.NewReader("x"), asUser(ownerA), withHeader("Content-Type", "multipart/form-data"))
		wantError(t, r, http.StatusBadRequest, uploadPath)
	})
	t.Run("ErrTooLarge", func(t *testing.T) {
		r := e.postForm(t, uploadPath, [][3]string{{"scheduleId", "", schAcme}, {"file", "plan.csv", "ID,Name\n" + strings.Repeat("A,a\n", 9<<20)}}, asUser(ownerA))
		wantError(t, r, http.StatusRequestEntityTooLarge, uploadPath)
	})
}

// Idempotency-Key: the same key with the same content answers the first
// answer again without applying anything; with other content it is 409.
// spec: D-cx
func TestUploadIdempotency(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	first := upload(schAcme, map[string]string{"ID": "HT-L1", "Name": "Level 1 fit-out inspection", "ParentID": "HT-BLDG"})
	key := withHeader("Idempotency-Key", "c0ffee-1")
	r1 := e.postJSON(t, uploadPath, first, asUser(ownerA), key)
	if r1.status != http.StatusOK || r1.header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("first: %d %s", r1.status, r1.body)
	}
	// another upload without a key renames HT-L1 ...
	if r := e.postJSON(t, uploadPath, upload(schAcme, map[string]string{"ID": "HT-L1", "Name": "Renamed", "ParentID": "HT-BLDG"}), asUser(ownerA)); r.status != 200 {
		t.Fatalf("rename: %d %s", r.status, r.body)
	}
	after := e.rows(t, schAcme)
	// ... and the replay answers as the first time, applying nothing
	r2 := e.postJSON(t, uploadPath, first, asUser(ownerA), key)
	if r2.status != http.StatusOK || r2.header.Get("Idempotent-Replayed") != "true" || !bytes.Equal(r1.body, r2.body) {
		t.Fatalf("replay: %d %q\n%s\nfirst:\n%s", r2.status, r2.header.Get("Idempotent-Replayed"), r2.body, r1.body)
	}
	e.wantRows(t, schAcme, after)

	t.Run("ErrOtherContent", func(t *testing.T) {
		r := e.postJSON(t, uploadPath, upload(schAcme, map[string]string{"ID": "HT-L9", "Name": "Other"}), asUser(ownerA), key)
		m := wantError(t, r, http.StatusConflict, uploadPath)
		if !strings.Contains(detail(m), "different request") {
			t.Errorf("detail %q", detail(m))
		}
		// a dry run is another request too
		wantError(t, e.postJSON(t, uploadPath+"?dryRun=true", first, asUser(ownerA), key), http.StatusConflict, uploadPath)
		e.wantRows(t, schAcme, after)
	})
	t.Run("KeyPerCaller", func(t *testing.T) {
		r := e.postJSON(t, uploadPath, first, asUser(adminA), key)
		if r.status != http.StatusOK || r.header.Get("Idempotent-Replayed") != "" {
			t.Fatalf("another caller's first use: %d %s", r.status, r.body)
		}
	})
	t.Run("ReplayOfFailure", func(t *testing.T) {
		bad := upload(schAcme, map[string]string{"ID": "X", "Name": "x", "ParentID": "NOPE"})
		k := withHeader("Idempotency-Key", "bad-1")
		a := e.postJSON(t, uploadPath, bad, asUser(ownerA), k)
		b := e.postJSON(t, uploadPath, bad, asUser(ownerA), k)
		wantError(t, a, 422, uploadPath)
		wantError(t, b, 422, uploadPath)
		if b.header.Get("Idempotent-Replayed") != "true" || !bytes.Equal(decodeAnswerJSON(t, a), decodeAnswerJSON(t, b)) {
			t.Fatalf("replayed failure differs:\n%s\n%s", a.body, b.body)
		}
	})
	t.Run("ErrBadKey", func(t *testing.T) {
		for _, k := range []string{strings.Repeat("k", 256), "with space", "tab\tkey", "ключ"} {
			r := e.postJSON(t, uploadPath, first, asUser(ownerA), withHeader("Idempotency-Key", k))
			wantError(t, r, http.StatusBadRequest, uploadPath)
		}
	})
	t.Run("Concurrent", func(t *testing.T) {
		body := upload(schAcme2, map[string]string{"ID": "RL-1", "Name": "Fume hood test"})
		var wg sync.WaitGroup
		results := make([]*response, 6)
		for i := range results {
			wg.Add(1)
			go func() {
				defer wg.Done()
				results[i] = e.postJSON(t, uploadPath, body, asUser(ownerA), withHeader("Idempotency-Key", "same-time"))
			}()
		}
		wg.Wait()
		fresh := 0
		for _, r := range results {
			switch {
			case r.status == http.StatusOK && r.header.Get("Idempotent-Replayed") == "":
				fresh++
			case r.status == http.StatusOK, r.status == http.StatusConflict: // replayed, or still running
			default:
				t.Errorf("status %d: %s", r.status, r.body)
			}
		}
		if fresh != 1 {
			t.Errorf("%d requests applied the upload, want 1", fresh)
		}
	})
}

// decodeAnswerJSON returns the answer without what differs between two
// answers of one request (timestamp, requestId).
func decodeAnswerJSON(t *testing.T, r *response) []byte {
	m := r.json(t)
	delete(m, "timestamp")
	delete(m, "requestId")
	b, _ := jsonMarshal(m)
	return b
}

// Who may upload: owner, admin and member of the schedule's customer;
// others are refused before the body is read.
// spec: D-data-access, R7.2-status
func TestUploadAccess(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	body := upload(schAcme, map[string]string{"ID": "HT-L1", "Name": "Level 1"})
	for _, tc := range []struct {
		user   string
		sched  string
		status int
	}{
		{viewerA, schAcme, 403}, {billingA, schAcme, 403}, {platAdm, schAcme, 403}, {acctMgr, schAcme, 403},
		{readerU, schAcme, 403}, {qaAdm, schAcme, 403}, {nobody, schAcme, 403},
		{ownerG, schAcme, 404}, {ownerA, schGlobex, 404},
		{adminA, schAcme, 200}, {memberA, schAcme, 200}, {ownerG, schGlobex, 200},
	} {
		b := bytes.Replace(body, []byte(schAcme), []byte(tc.sched), 1)
		before := e.rows(t, tc.sched)
		r := e.postJSON(t, uploadPath, b, asUser(tc.user))
		if r.status != tc.status {
			t.Errorf("%s on %s: %d, want %d: %s", tc.user, tc.sched, r.status, tc.status, r.body)
		}
		if tc.status != 200 {
			wantError(t, r, tc.status, uploadPath)
			e.wantRows(t, tc.sched, before)
		}
	}
	// refused before the body is read: a viewer's broken body is 403, not 400
	wantError(t, e.postJSON(t, uploadPath, []byte("{"), asUser(viewerA)), http.StatusForbidden, uploadPath)
	wantError(t, e.postJSON(t, uploadPath, body), http.StatusUnauthorized, uploadPath)
}

// A request signed in by the session cookie must come from the instance's
// own pages; bearer requests need no such proof.
// spec: D-data-access
func TestUploadCSRF(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	body := upload(schAcme, map[string]string{"ID": "HT-L1", "Name": "Level 1"})
	for _, tc := range []struct {
		name   string
		opts   []reqOpt
		status int
	}{
		{"ErrCookieOnly", []reqOpt{withCookie(ownerA)}, 403},
		{"ErrForeignOrigin", []reqOpt{withCookie(ownerA), withHeader("Origin", "https://evil.example")}, 403},
		{"ErrForeignOriginWithHeader", []reqOpt{withCookie(ownerA), withHeader("Origin", "https://evil.example"), withHeader("X-Requested-With", "fetch")}, 403},
		{"ErrNullOrigin", []reqOpt{withCookie(ownerA), withHeader("Origin", "null")}, 403},
		{"ErrForeignReferer", []reqOpt{withCookie(ownerA), withHeader("Referer", "https://evil.example/x")}, 403},
		{"SameOrigin", []reqOpt{withCookie(ownerA), withHeader("Origin", e.srv.URL)}, 200},
		{"SameReferer", []reqOpt{withCookie(ownerA), withHeader("Referer", e.srv.URL+"/projects")}, 200},
		{"CustomHeader", []reqOpt{withCookie(ownerA), withHeader("X-Requested-With", "fetch")}, 200},
		{"NullOriginWithHeader", []reqOpt{withCookie(ownerA), withHeader("Origin", "null"), withHeader("X-Requested-With", "fetch")}, 200},
		{"Bearer", []reqOpt{asUser(ownerA)}, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := e.rows(t, schAcme)
			r := e.postJSON(t, uploadPath, body, tc.opts...)
			if r.status != tc.status {
				t.Fatalf("status %d, want %d: %s", r.status, tc.status, r.body)
			}
			if tc.status == 403 {
				wantError(t, r, 403, uploadPath)
				e.wantRows(t, schAcme, before)
			}
		})
	}
	// reads need no proof
	if r := e.get(t, "/api/v1/me/tenants", withCookie(ownerA)); r.status != 200 {
		t.Fatalf("GET with cookie: %d", r.status)
	}
}

// TestAttackCookieWithAuthorizationHeader: a page of another site posts an
// upload (a plain multipart form, which needs no preflight) from a signed-in
// browser, which sends the session cookie and, with it, an Authorization
// header it keeps for the host (Basic credentials): the cookie signs the
// request in, so it must prove it comes from the instance's pages whatever
// else it carries; nothing is written. A bearer-authenticated upload needs
// no such proof.
//
// attack: csrf-cookie-with-authorization
func TestAttackCookieWithAuthorizationHeader(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	body := upload(schAcme, map[string]string{"ID": "HT-L1", "Name": "Level 1"})
	basic := withHeader("Authorization", "Basic eDp4")
	for _, tc := range []struct {
		name   string
		opts   []reqOpt
		status int
	}{
		{"ErrForeignOriginBasic", []reqOpt{withCookie(ownerA), basic, withHeader("Origin", "https://evil.example")}, 403},
		{"ErrNoOriginBasic", []reqOpt{withCookie(ownerA), basic}, 403},
		{"ErrForeignRefererBasic", []reqOpt{withCookie(ownerA), basic, withHeader("Referer", "https://evil.example/x")}, 403},
		{"ErrForeignOriginOtherScheme", []reqOpt{withCookie(ownerA), withHeader("Authorization", "Negotiate x"),
			withHeader("Origin", "https://evil.example")}, 403},
		{"ErrForeignOriginBearerOfAnother", []reqOpt{withCookie(ownerA), asUser(memberA), withHeader("Origin", "https://evil.example")}, 403},
		{"SameOriginBasic", []reqOpt{withCookie(ownerA), basic, withHeader("Origin", e.srv.URL)}, 200},
		{"BearerForeignOrigin", []reqOpt{asUser(ownerA), withHeader("Origin", "https://evil.example")}, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := e.rows(t, schAcme)
			r := e.postJSON(t, uploadPath, body, tc.opts...)
			if r.status != tc.status {
				t.Fatalf("status %d, want %d: %s", r.status, tc.status, r.body)
			}
			if tc.status == 403 {
				if m := wantError(t, r, 403, uploadPath); !strings.Contains(detail(m), "cross-site request refused") {
					t.Errorf("refused for another reason: %s", r.body)
				}
				e.wantRows(t, schAcme, before)
			}
		})
	}
	// the same as the browser sends it: a multipart form with the spreadsheet
	var form bytes.Buffer
	mw := multipart.NewWriter(&form)
	_ = mw.WriteField("scheduleId", schAcme)
	fw, _ := mw.CreateFormFile("file", "cx.csv")
	_, _ = io.WriteString(fw, "ID,Name\nHT-L2,Level 2\n")
	_ = mw.Close()
	before := e.rows(t, schAcme)
	r := e.do(t, http.MethodPost, uploadPath, &form, withCookie(ownerA), basic, withHeader("Origin", "https://evil.example"),
		withHeader("Content-Type", mw.FormDataContentType()))
	wantError(t, r, 403, uploadPath)
	e.wantRows(t, schAcme, before)
}

// Other malformed requests: content type, query parameters.
// spec: D-cx, R7.1-shape
func TestUploadBadRequests(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	body := upload(schAcme, map[string]string{"ID": "HT-L1", "Name": "Level 1"})
	wantError(t, e.do(t, http.MethodPost, uploadPath, bytes.NewReader(body), asUser(ownerA), withHeader("Content-Type", "text/plain")), http.StatusUnsupportedMediaType, uploadPath)
	wantError(t, e.do(t, http.MethodPost, uploadPath, bytes.NewReader(body), asUser(ownerA)), http.StatusUnsupportedMediaType, uploadPath)
	wantError(t, e.postJSON(t, uploadPath+"?dryRun=maybe", body, asUser(ownerA)), http.StatusBadRequest, uploadPath)
	wantError(t, e.postJSON(t, uploadPath+"?dryRun=true&dryRun=false", body, asUser(ownerA)), http.StatusBadRequest, uploadPath)
	wantError(t, e.postJSON(t, uploadPath+"?force=1", body, asUser(ownerA)), http.StatusBadRequest, uploadPath)
	e.wantRows(t, schAcme, storedRows)
}

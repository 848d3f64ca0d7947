package sheet

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/xuri/excelize/v2"

	"github.com/platform/platform/internal/cx"
)

var ctx = context.Background()

var update = flag.Bool("update", false, "rewrite the sample spreadsheets under ../testdata/")

var (
	sampleXLSX = filepath.Join("..", "testdata", "schedule-sample.xlsx")
	sampleCSV  = filepath.Join("..", "testdata", "schedule-sample.csv")
)

// Cells of the sample schedule. A date is a time.Time, written to the
// workbook as a date cell; an int is a number cell; the rest is text. The
// header has a column that differs only in case (building) and an unknown
// one (Colour); row 4 is blank.
var (
	sampleHeader = []string{"ID", "Name", "ParentID", "Predecessors", "ParentChildDependency", "PM Email Address",
		"Parent milestone", "Milestone", "createdAt", "updatedAt", "building", "Colour"}
	jan15       = time.Date(2024, 1, 15, 0, 0, 0, 0, time.UTC)
	feb1        = time.Date(2024, 2, 1, 0, 0, 0, 0, time.UTC)
	sampleCells = [][]any{
		{"BLDG-1", "Building 1", "", "", "None", "pm@example.com", "", "", jan15, "2024-02-01", "B1", "red"},
		{"AHU-1", "Air handling unit 1", "BLDG-1", "PUMP-1 SS+2d", "TopDown", "pm@example.com", "Start-up", "Functional test", jan15, feb1, "B1", ""},
		{"PUMP-1", "Chilled water pump", "BLDG-1", "", "", "Pat <pat@example.com>", "", "", "2024-01-15", "", "B1", ""},
		{"", "", "", "", "", "", "", "", "", "", "", ""},
		{"FAN-1", "Supply fan", "AHU-1", "AHU-1", "", "", "Start-up", "", jan15, "2023-12-31", "", ""},
		{3, "Three", "", "FAN-1 FS+1d", "", "", "", "", "", "", "", ""},
		{"CHL-1", "Chiller", "", "CHL-2", "", "", "", "", "2024-02-30", "", "", ""},
		{"CHL-2", "", "", "CHL-1", "Sideways", "", "", "", "", "", "", ""},
	}
)

// cellText is a cell as a spreadsheet shows it, dates as YYYY-MM-DD.
func cellText(c any) string {
	switch c := c.(type) {
	case time.Time:
		return c.Format(time.DateOnly)
	case int:
		return strconv.Itoa(c)
	}
	return c.(string)
}

// writeSamples writes the sample workbook and CSV file. In the workbook,
// the date cells get three different number formats, one of them none at
// all (a bare serial number), so the reader's date conversion is exercised.
func writeSamples(t *testing.T) {
	f := excelize.NewFile()
	defer f.Close()
	const sheet = "Sheet1"
	ddmmyyyy := "dd/mm/yyyy"
	styleDMY, err := f.NewStyle(&excelize.Style{CustomNumFmt: &ddmmyyyy})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.SetSheetRow(sheet, "A1", &sampleHeader); err != nil {
		t.Fatal(err)
	}
	dates := 0
	for i, cells := range sampleCells {
		for j, c := range cells {
			ref, _ := excelize.CoordinatesToCellName(j+1, i+2)
			if s, ok := c.(string); ok && s == "" {
				continue
			}
			if err := f.SetCellValue(sheet, ref, c); err != nil {
				t.Fatal(err)
			}
			if d, ok := c.(time.Time); ok {
				switch dates++; dates % 3 {
				case 1:
					err = f.SetCellStyle(sheet, ref, ref, styleDMY)
				case 2:
					// a bare serial number: days since 1899-12-30, no date format
					serial := int(d.Sub(time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC)).Hours() / 24)
					if err = f.SetCellValue(sheet, ref, serial); err == nil {
						err = f.SetCellStyle(sheet, ref, ref, 0)
					}
				}
				if err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	var xlsx bytes.Buffer
	if err := f.Write(&xlsx); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sampleXLSX, xlsx.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}

	var b strings.Builder
	b.WriteString("\ufeff" + strings.Join(sampleHeader, ",") + "\r\n")
	for _, cells := range sampleCells {
		for j, c := range cells {
			if j > 0 {
				b.WriteString(",")
			}
			s := cellText(c)
			if strings.ContainsAny(s, ",\"\r\n") {
				s = `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
			}
			b.WriteString(s)
		}
		b.WriteString("\r\n")
	}
	if err := os.WriteFile(sampleCSV, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// sampleJSON is the upload body with the same rows as the sample files:
// every header key in every row, blank rows left out.
func sampleJSON(t *testing.T) []byte {
	var data []map[string]string
	for _, cells := range sampleCells {
		row := map[string]string{}
		blank := true
		for j, c := range cells {
			row[sampleHeader[j]] = cellText(c)
			blank = blank && cellText(c) == ""
		}
		if !blank {
			data = append(data, row)
		}
	}
	b, err := json.Marshal(map[string]any{"scheduleId": "SCH-1", "data": data})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The sample rows give the same report through JSON, CSV and XLSX.
//
// spec: R4.5-cx-same
func TestSameReportAsJSON(t *testing.T) {
	if *update {
		writeSamples(t)
	}
	existing := []cx.Row{{ID: "BLDG-1", Name: "Building 1", ParentChildDependency: "None", PMEmail: "pm@example.com", CreatedAt: "2024-01-15", UpdatedAt: "2024-02-01"}}
	fromJSON, err := cx.DecodeRequest(bytes.NewReader(sampleJSON(t)), cx.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := cx.Validate(fromJSON, existing)
	if len(want.Errors) < 5 || len(want.Warnings) != 1 {
		t.Fatalf("the sample should give several errors and one warning: %+v", want)
	}
	for _, path := range []string{sampleCSV, sampleXLSX} {
		t.Run(filepath.Ext(path), func(t *testing.T) {
			f, err := os.Open(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			defer f.Close()
			req, err := Read(ctx, f, filepath.Base(path), "SCH-1", cx.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(fromJSON.Rows, req.Rows); diff != "" {
				t.Errorf("rows (-json +sheet):\n%s", diff)
			}
			if diff := cmp.Diff(want, cx.Validate(req, existing)); diff != "" {
				t.Errorf("report (-json +sheet):\n%s", diff)
			}
		})
	}
}

// spec: R4.5-cx-required, R4.5-cx-same
func TestReadErrors(t *testing.T) {
	for _, tc := range []struct {
		name     string
		filename string
		body     string
		limits   cx.Limits
		wantCode string
		wantIn   string
	}{
		{"UnknownExtension", "schedule.xls", "ID,Name\nA,a\n", cx.Limits{}, cx.CodeInvalidRequest, `"schedule.xls" is not a spreadsheet`},
		{"NoExtension", "schedule", "ID,Name\nA,a\n", cx.Limits{}, cx.CodeInvalidRequest, "send a .xlsx or .csv file"},
		{"MissingIDColumn", "s.csv", "Name,ParentID\na,\n", cx.Limits{}, cx.CodeSheetHeaderMissing, "no ID column"},
		{"MissingNameColumn", "s.csv", "ID,ParentID\nA,\n", cx.Limits{}, cx.CodeSheetHeaderMissing, "no Name column"},
		{"CaseOnlyHeader", "s.CSV", "id,Name\nA,a\n", cx.Limits{}, cx.CodeSheetHeaderMissing, `no ID column (it has "id"; column names are case-sensitive)`},
		{"EmptyFile", "s.csv", "", cx.Limits{}, cx.CodeSheetHeaderMissing, "empty"},
		{"HeaderOnly", "s.csv", "ID,Name\n,\n", cx.Limits{}, cx.CodeDataEmpty, "at least one row"},
		{"DuplicateColumn", "s.csv", "ID,Name,ID\nA,a,B\n", cx.Limits{}, cx.CodeInvalidRequest, `"ID" appears twice`},
		{"InvalidUTF8", "s.csv", "ID,Name\nA,caf\xe9\n", cx.Limits{}, cx.CodeInvalidRequest, "UTF-8"},
		{"BrokenQuote", "s.csv", "ID,Name\nA,\"a\n", cx.Limits{}, cx.CodeInvalidRequest, "cannot be read at line"},
		{"RowsLimit", "s.csv", "ID,Name\nA,a\nB,b\nC,c\n", cx.Limits{MaxRows: 2}, cx.CodeRowsLimit, "at most 2 rows"},
		{"NotAWorkbook", "s.xlsx", "ID,Name\nA,a\n", cx.Limits{}, cx.CodeInvalidRequest, "not a readable .xlsx"},
		{"CellTooLong", "s.csv", "ID,Name\nA,a\n\nB," + strings.Repeat("é", 2001) + "\n", cx.Limits{}, cx.CodeSheetTooLarge, "cell B4: longer than 2,000 characters"},
		{"StrayCellTooLong", "s.csv", "ID,Name\nA,a,," + strings.Repeat("x", 2001) + "\n", cx.Limits{}, cx.CodeSheetTooLarge, "cell D2: longer than 2,000 characters"},
		{"OverBudget", "s.csv", "ID,Name\nA,aaaa\nB,bbbb\n", cx.Limits{MaxSheetBytes: 15}, cx.CodeSheetTooLarge, "cell B3: the cells hold more than 15 bytes of text"},
		{"CaseColumnsOverBudget", "s.csv", "ID,Name,building\nA,a,\nB,b,\nC,c,\n", cx.Limits{MaxSheetBytes: 40}, cx.CodeSheetTooLarge, "row 4: the cells hold more than 40 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := Read(ctx, strings.NewReader(tc.body), tc.filename, "S", tc.limits)
			var re *cx.RequestError
			if !errors.As(err, &re) {
				t.Fatalf("Read = %+v, %v; want a *cx.RequestError", req, err)
			}
			if re.Code != tc.wantCode || !strings.Contains(re.Message, tc.wantIn) {
				t.Errorf("error = %s %q; want %s with %q", re.Code, re.Message, tc.wantCode, tc.wantIn)
			}
		})
	}
}

// spec: R4.5-cx-same
func TestReadCSV(t *testing.T) {
	body := "\ufeffID,Name,Predecessors,Colour,,\r\n" +
		"A,Pump,,red,,\r\n" +
		",,,,,\r\n" +
		"B,\"Fan, supply\",A,,,stray\r\n" +
		"C,Short row\r\n"
	got, err := Read(ctx, strings.NewReader(body), "upload.csv", "S", cx.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := &cx.Request{
		ScheduleID: "S",
		Rows:       []cx.Row{{ID: "A", Name: "Pump"}, {ID: "B", Name: "Fan, supply", Predecessors: "A"}, {ID: "C", Name: "Short row"}},
		Warnings: []cx.Issue{
			{Index: 0, RowID: "A", Field: "Colour", Code: cx.CodeUnknownField, Message: `row 1 (ID A): "Colour" is not a known key; its values were ignored in every row`},
			{Index: 1, RowID: "B", Code: cx.CodeUnknownField, Message: "row 2: column 6 has values but no header; they were ignored"},
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Read (-want +got):\n%s", diff)
	}
}

// zipBomb is a workbook of a few hundred kilobytes whose worksheet unpacks to
// unpacked bytes of rows, or, with entries > 0, a workbook of that many
// tiny files.
func zipBomb(t *testing.T, unpacked int64, entries int) []byte {
	t.Helper()
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	write := func(name, body string) {
		w, err := z.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(w, body); err != nil {
			t.Fatal(err)
		}
	}
	write("[Content_Types].xml", `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`)
	write("xl/workbook.xml", `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`)
	write("xl/_rels/workbook.xml.rels", `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`)
	for i := range entries {
		write(fmt.Sprintf("xl/media/pad%d.xml", i), "<a/>")
	}
	w, err := z.Create("xl/worksheets/sheet1.xml")
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`)
	row := []byte(strings.Repeat(`<row><c t="inlineStr"><is><t>AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA</t></is></c></row>`, 1024))
	for n := int64(0); n < unpacked; n += int64(len(row)) {
		if _, err := w.Write(row); err != nil {
			t.Fatal(err)
		}
	}
	io.WriteString(w, `</sheetData></worksheet>`)
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// A small workbook that unpacks far beyond the limit, or holds thousands of
// files, is refused from its zip directory with SHEET_TOO_LARGE, before any
// of it is unpacked.
// attack: xlsx-zip-bomb
func TestAttackXLSXZipBomb(t *testing.T) {
	for _, tc := range []struct {
		name     string
		unpacked int64
		entries  int
	}{{"Unpacked", 400 << 20, 0}, {"Entries", 0, 5000}} {
		t.Run(tc.name, func(t *testing.T) {
			bomb := zipBomb(t, tc.unpacked, tc.entries)
			if len(bomb) > 4<<20 {
				t.Fatalf("the bomb is %d bytes; it should be small", len(bomb))
			}
			_, err := Read(ctx, bytes.NewReader(bomb), "bomb.xlsx", "SCH-1", cx.Limits{MaxRows: 100000})
			var re *cx.RequestError
			if !errors.As(err, &re) || re.Code != cx.CodeSheetTooLarge {
				t.Fatalf("a %d-byte workbook that unpacks to %d MiB (%d files): %v, want SHEET_TOO_LARGE",
					len(bomb), tc.unpacked>>20, tc.entries, err)
			}
		})
	}
}

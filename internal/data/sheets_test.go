package data_test

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/xuri/excelize/v2"

	"github.com/platform/platform/internal/cx"
	"github.com/platform/platform/internal/data"
)

// sampleHeader is the header row of the sample spreadsheets.
var sampleHeader = []string{"ID", "Name", "ParentID", "Predecessors", "ParentChildDependency", "PM Email Address",
	"Parent milestone", "Milestone", "System Name", "Discipline", "Building", "createdAt", "updatedAt"}

// sampleRows is a valid upload into the demo's Harbor Tower schedule: its
// rows hang under the stored HT-BLDG and follow the stored HT-CHW and HT-AHU-1.
var sampleRows = [][]string{
	{"HT-L1", "Level 1 fit-out inspection", "HT-BLDG", "", "None", "pm.harbor@acme.example", "", "", "", "Architectural", "Harbor Tower", "2025-02-03", "2025-02-10"},
	{"HT-AHU-2", "AHU-2 functional test", "HT-BLDG", "HT-CHW FS+2d; HT-AHU-1 SS", "", "pm.harbor@acme.example", "", "", "AHU-2", "Mechanical", "Harbor Tower", "2025-02-03", ""},
	{"HT-FA", "Fire alarm acceptance test", "HT-BLDG", "HT-AHU-2 FS+1w", "", "", "", "", "Fire alarm", "Fire Protection", "Harbor Tower", "2025-02-04", ""},
	{"HT-IST", "Integrated systems test", "HT-BLDG", "HT-AHU-2, HT-FA", "", "", "Commissioning complete", "Integrated systems test", "", "Commissioning", "Harbor Tower", "2025-02-05", ""},
}

// sampleBadRows break rules: a missing parent, a loop of two, a date that
// is no calendar day and an address that is no e-mail.
var sampleBadRows = [][]string{
	{"HT-L2", "Level 2 fit-out inspection", "HT-TOWER-X", "", "", "", "", "", "", "Architectural", "Harbor Tower", "2025-02-03", ""},
	{"HT-P1", "Pump P-1 test", "HT-BLDG", "HT-P2", "", "", "", "", "Pump P-1", "Mechanical", "Harbor Tower", "2025-02-03", ""},
	{"HT-P2", "Pump P-2 balancing", "HT-BLDG", "HT-P1 FS", "", "", "", "", "Pump P-2", "Mechanical", "Harbor Tower", "2025-02-03", ""},
	{"HT-BAD", "Badly dated row", "HT-BLDG", "", "", "not-an-email", "", "", "", "", "Harbor Tower", "2025-02-30", ""},
}

// writeXLSX writes a workbook whose first sheet holds header and rows; the
// createdAt and updatedAt cells are real date cells.
func writeXLSX(t *testing.T, header []string, rows [][]string) []byte {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	sheet := f.GetSheetName(0)
	dateStyle, err := f.NewStyle(&excelize.Style{NumFmt: 14}) // m/d/yy: the display differs from YYYY-MM-DD on purpose
	if err != nil {
		t.Fatal(err)
	}
	for j, h := range header {
		cell, _ := excelize.CoordinatesToCellName(j+1, 1)
		if err := f.SetCellValue(sheet, cell, h); err != nil {
			t.Fatal(err)
		}
	}
	for i, row := range rows {
		for j, v := range row {
			if v == "" {
				continue
			}
			cell, _ := excelize.CoordinatesToCellName(j+1, i+2)
			if d, err := time.Parse(time.DateOnly, v); err == nil && (header[j] == "createdAt" || header[j] == "updatedAt") {
				if err := f.SetCellValue(sheet, cell, d); err != nil {
					t.Fatal(err)
				}
				if err := f.SetCellStyle(sheet, cell, cell, dateStyle); err != nil {
					t.Fatal(err)
				}
				continue
			}
			if err := f.SetCellStr(sheet, cell, v); err != nil {
				t.Fatal(err)
			}
		}
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func writeCSV(t *testing.T, header []string, rows [][]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if err := w.WriteAll(append([][]string{header}, rows...)); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// jsonRows turns spreadsheet rows into the rows of a JSON upload body.
func jsonRows(header []string, rows [][]string) []map[string]string {
	out := make([]map[string]string, 0, len(rows))
	for _, row := range rows {
		m := map[string]string{}
		for j, v := range row {
			if v != "" {
				m[header[j]] = v
			}
		}
		out = append(out, m)
	}
	return out
}

// samples are the sample spreadsheets under testdata/, for people trying
// the upload and for the browser test.
var samples = []struct {
	file string
	rows [][]string
}{
	{"cx-sample.xlsx", sampleRows},
	{"cx-sample.csv", sampleRows},
	{"cx-sample-bad.xlsx", sampleBadRows},
}

// The sample spreadsheets read to the same request as the same rows sent
// as JSON (R4.5-cx-same). Run with -update to rewrite them.
// spec: R4.5-cx-same
func TestSampleSheets(t *testing.T) {
	t.Parallel()
	for _, s := range samples {
		path := filepath.Join("testdata", s.file)
		if *update {
			var b []byte
			if filepath.Ext(s.file) == ".csv" {
				b = writeCSV(t, sampleHeader, s.rows)
			} else {
				b = writeXLSX(t, sampleHeader, s.rows)
			}
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run with -update to create it)", err)
		}
		fromSheet, err := data.DecodeSheet(ctx, bytes.NewReader(b), s.file, schAcme)
		if err != nil {
			t.Fatalf("%s: %v", s.file, err)
		}
		fromJSON, err := data.DecodeJSON(bytes.NewReader(upload(schAcme, jsonRows(sampleHeader, s.rows)...)))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(fromJSON, fromSheet); diff != "" {
			t.Errorf("%s differs from the same rows as JSON (-json +sheet):\n%s", s.file, diff)
		}
		rep := cx.Validate(fromSheet, storedRows)
		if good := slices.Equal(s.rows[0], sampleRows[0]); rep.OK() != good {
			t.Errorf("%s: valid = %v, want %v: %v", s.file, rep.OK(), good, rep.Errors)
		}
	}
}

package sheet

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/xuri/excelize/v2"

	"github.com/platform/platform/internal/cx"
	"github.com/platform/platform/internal/cx/sheet/sheettest"
)

// sheetRows reads the first sheet of a workbook with the streaming reader:
// each row that has a cell, as dense cells.
func sheetRows(t *testing.T, data []byte) [][]string {
	t.Helper()
	rows, err := tryRows(data)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func tryRows(data []byte) ([][]string, error) {
	src, err := openXLSX(ctx, bytes.NewReader(data), cx.DefaultMaxSheetBytes, &tally{})
	if err != nil {
		return nil, err
	}
	defer src.Close()
	var rows [][]string
	for {
		_, cells, err := src.Next()
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			return nil, err
		}
		rows = append(rows, dense(cells))
	}
}

func dense(cells []cell) []string {
	var row []string
	for _, c := range cells {
		for len(row) <= c.col {
			row = append(row, "")
		}
		row[c.col] = c.v
	}
	return row
}

// wantRequestError checks that err is a *cx.RequestError with code whose
// message holds each of in.
func wantRequestError(t *testing.T, err error, code string, in ...string) {
	t.Helper()
	var re *cx.RequestError
	if !errors.As(err, &re) {
		t.Fatalf("error %v; want a %s *cx.RequestError", err, code)
	}
	if re.Code != code {
		t.Errorf("code %s (%s); want %s", re.Code, re.Message, code)
	}
	for _, s := range in {
		if !strings.Contains(re.Message, s) {
			t.Errorf("message %q; want it to hold %q", re.Message, s)
		}
	}
}

// Workbooks written by excelize read to the same cells as excelize itself
// reads them: shared and rich-text strings, numbers, booleans, dates in the
// date columns, escapes, text with spaces and line breaks.
func TestSameCellsAsExcelize(t *testing.T) {
	header := []any{"ID", "Name", "Predecessors", "Count", "Flag", "createdAt", "updatedAt", "Note"}
	jan15 := time.Date(2024, 1, 15, 0, 0, 0, 0, time.UTC)
	rows := [][]any{
		{"A-1", "Pump", "", 1001, true, jan15, 45322, " padded "},
		{1002, "Fan, supply", "A-1 FS+2d", 1.5, false, "2024-01-15", "2024-02-01T10:30:00", "line one\r\nline two"},
		{"A-3", "Größe 😀", "", 0.1 + 0.2, "", jan15.Add(13 * time.Hour), 45322.75, "_x0041_ stays as written"},
		{"A-4", "", "", -0.5, "", "", "", "tab\there"},
		{"A-5", "big", "", 123456789012, "", "", "", "1e3"},
	}
	build := func(stream bool) []byte {
		f := excelize.NewFile()
		defer f.Close()
		dateStyle, err := f.NewStyle(&excelize.Style{NumFmt: 14})
		if err != nil {
			t.Fatal(err)
		}
		if stream {
			sw, err := f.NewStreamWriter("Sheet1")
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range append([][]any{header}, rows...) {
				cells := make([]any, len(r))
				for j, v := range r {
					if d, ok := v.(time.Time); ok {
						cells[j] = excelize.Cell{StyleID: dateStyle, Value: d}
					} else if v != "" {
						cells[j] = v
					}
				}
				ref, _ := excelize.CoordinatesToCellName(1, i+1)
				if err := sw.SetRow(ref, cells); err != nil {
					t.Fatal(err)
				}
			}
			if err := sw.Flush(); err != nil {
				t.Fatal(err)
			}
		} else {
			for i, r := range append([][]any{header}, rows...) {
				for j, v := range r {
					ref, _ := excelize.CoordinatesToCellName(j+1, i+1)
					if v == "" {
						continue
					}
					if err := f.SetCellValue("Sheet1", ref, v); err != nil {
						t.Fatal(err)
					}
					if _, ok := v.(time.Time); ok {
						f.SetCellStyle("Sheet1", ref, ref, dateStyle)
					}
				}
			}
			if err := f.SetCellRichText("Sheet1", "B5", []excelize.RichTextRun{{Text: "rich "}, {Text: "text", Font: &excelize.Font{Bold: true}}}); err != nil {
				t.Fatal(err)
			}
		}
		var buf bytes.Buffer
		if err := f.Write(&buf); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	for _, stream := range []bool{false, true} {
		t.Run(fmt.Sprintf("stream=%v", stream), func(t *testing.T) {
			data := build(stream)
			var want [][]string
			if _, err := readExcelize(data, func(cells []string) {
				for _, c := range cells {
					if c != "" {
						want = append(want, append([]string(nil), cells...))
						return
					}
				}
			}); err != nil {
				t.Fatal(err)
			}
			got := sheetRows(t, data)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("rows (-excelize +stream):\n%s", diff)
			}
			if len(got) != len(rows)+1 {
				t.Errorf("%d rows", len(got))
			}
		})
	}
}

// The cell kinds of SpreadsheetML as the reader shows them.
func TestXLSXCells(t *testing.T) {
	sst := []string{
		sheettest.Text("shared"),
		`<r><rPr><b/></rPr><t>rich </t></r><r><t xml:space="preserve">runs</t></r><rPh sb="0" eb="1"><t>PHONETIC</t></rPh><phoneticPr fontId="1"/>`,
		`<t>line_x000D_` + "\n" + `break, _x005F_x0041_ literal, _x0041_ decoded, _xD83D__xDE00_ pair, _xD800_ lone</t>`,
	}
	data := sheettest.OneSheet(sst,
		sheettest.InlineRow(1, "ID", "Name", "Kind"),
		`<row r="2"><c r="A2" t="s"><v>0</v></c><c r="B2" t="s"><v>1</v></c><c r="C2" t="s"><v>2</v></c></row>`,
		`<row r="3"><c r="A3" t="inlineStr"><is><r><t>in</t></r><r><t>line</t></r><rPh><t>x</t></rPh></is></c>`+
			`<c r="B3" t="b"><v>1</v></c><c t="b"><v>0</v></c><c t="e"><v>#N/A</v></c><c t="str"><f>A3&amp;"!"</f><v>inline!</v></c></row>`,
		`<row r="4"><c r="A4"><v>1001</v></c><c r="B4" t="n"><v>1.5</v></c><c r="C4"><v>0.30000000000000004</v></c>`+
			`<c r="D4"><v>-0</v></c><c r="E4"><v>1E+20</v></c><c r="F4"><v>12345678901234567</v></c><c r="G4"><v>not a number</v></c></row>`,
		// gaps: a cell named further on, then cells without a name
		`<row r="9"><c r="C9" t="inlineStr"><is><t>C</t></is></c><c t="inlineStr"><is><t>D</t></is></c><c r="F9" s="3"/><c r="H9" t="inlineStr"><is><t>H</t></is></c></row>`,
		`<row><c t="inlineStr"><is><t>row 10, A</t></is></c><c r="AB10" t="inlineStr"><is><t>AB</t></is></c></row>`,
	)
	want := [][]string{
		{"ID", "Name", "Kind"},
		{"shared", "rich runs", "line\r\nbreak, _x0041_ literal, A decoded, 😀 pair,  lone"},
		{"inline", "TRUE", "FALSE", "#N/A", "inline!"},
		{"1001", "1.5", "0.3", "0", "100000000000000000000", "12345678901234600", "not a number"},
		{"", "", "C", "D", "", "", "", "H"},
		append(append([]string{"row 10, A"}, make([]string, 26)...), "AB"),
	}
	if diff := cmp.Diff(want, sheetRows(t, data)); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	src, err := openXLSX(ctx, bytes.NewReader(data), cx.DefaultMaxSheetBytes, &tally{})
	if err != nil {
		t.Fatal(err)
	}
	var numbers []int
	for {
		row, _, err := src.Next()
		if err == io.EOF {
			break
		}
		numbers = append(numbers, row)
	}
	if diff := cmp.Diff([]int{1, 2, 3, 4, 9, 10}, numbers); diff != "" {
		t.Errorf("row numbers (-want +got):\n%s", diff)
	}
}

// In the columns of createdAt and updatedAt a number is a date serial, in
// the 1900 and the 1904 date system, its time rounded to the second; an ISO
// date-time is its date; other text, and numbers elsewhere, are left as
// they are.
func TestXLSXDates(t *testing.T) {
	rows := func(created, updated string) []string {
		return []string{
			sheettest.InlineRow(1, "ID", "Name", "createdAt", "Other", "updatedAt"),
			`<row r="2"><c r="A2" t="inlineStr"><is><t>A</t></is></c><c r="B2" t="inlineStr"><is><t>a</t></is></c>` +
				`<c r="C2"><v>` + created + `</v></c><c r="D2"><v>` + created + `</v></c><c r="E2"><v>` + updated + `</v></c></row>`,
			`<row r="3"><c r="A3" t="inlineStr"><is><t>B</t></is></c><c r="C3" t="inlineStr"><is><t>2024-01-15T08:00:00Z</t></is></c>` +
				`<c r="E3" t="inlineStr"><is><t>45306</t></is></c></row>`,
			`<row r="4"><c r="A4" t="inlineStr"><is><t>C</t></is></c><c r="C4" t="d"><v>2024-03-01T00:00:00</v></c><c r="E4"><v>-3</v></c></row>`,
			`<row r="5"><c r="A5" t="inlineStr"><is><t>D</t></is></c><c r="C5"><v>59</v></c><c r="E5"><v>0.99999999</v></c></row>`,
		}
	}
	for _, tc := range []struct {
		name             string
		date1904         bool
		created, updated string
		want             [][]string
	}{
		{"1900", false, "45306", "45322.75", [][]string{
			{"A", "a", "2024-01-15", "45306", "2024-01-31"},
			{"B", "", "2024-01-15", "", "45306"},
			{"C", "", "2024-03-01", "", "-3"},
			{"D", "", "1900-02-28", "", "1899-12-31"},
		}},
		{"1904", true, "43844", "43860.75", [][]string{
			{"A", "a", "2024-01-15", "43844", "2024-01-31"},
			{"B", "", "2024-01-15", "", "45306"},
			{"C", "", "2024-03-01", "", "-3"},
			{"D", "", "1904-02-29", "", "1904-01-02"},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := sheettest.Workbook{Date1904: tc.date1904, Sheets: []sheettest.Sheet{
				{Name: "Plan", Part: "xl/worksheets/sheet1.xml", Data: sheettest.Data(rows(tc.created, tc.updated)...)}}}.Bytes()
			got := sheetRows(t, data)[1:]
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("rows (-want +got):\n%s", diff)
			}
			// excelize's conversion agrees on the serials
			for _, serial := range []float64{0, 1, 59, 60, 61, 45306, 45322.75, 45306.99999999, 2958465 - 1462} {
				d, err := excelize.ExcelDateToTime(serial, tc.date1904)
				if err != nil {
					t.Fatal(err)
				}
				got, ok := serialDate(fmt.Sprint(serial), tc.date1904)
				if want := d.Format(time.DateOnly); !ok || got != want {
					t.Errorf("serial %v: %q, excelize %q", serial, got, want)
				}
			}
		})
	}
	for _, s := range []string{"2958466", "1e300", "NaN", "Inf", fmt.Sprint(math.MaxFloat64)} {
		if d, ok := serialDate(s, false); ok {
			t.Errorf("serial %s is the date %s; want none", s, d)
		}
	}
}

// The sheet read is the first in workbook order, wherever its part is and
// whatever it is called; relationship targets may be absolute.
func TestXLSXFirstSheet(t *testing.T) {
	plan := sheettest.Data(sheettest.InlineRow(1, "ID", "Name"), sheettest.InlineRow(2, "P-1", "from the plan"))
	other := sheettest.Data(sheettest.InlineRow(1, "ID", "Name"), sheettest.InlineRow(2, "X-1", "from sheet1.xml"))
	data := sheettest.Workbook{Sheets: []sheettest.Sheet{
		{Name: "Plan", Part: "xl/worksheets/sheet2.xml", Data: plan},
		{Name: "Other", Part: "xl/worksheets/sheet1.xml", Data: other},
	}}.Bytes()
	req, err := Read(ctx, bytes.NewReader(data), "plan.xlsx", "S", cx.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(req.Rows) != 1 || req.Rows[0].Name != "from the plan" {
		t.Fatalf("rows %+v; want the plan's", req.Rows)
	}
	if got := resolve("xl", "/xl/worksheets/sheet3.xml"); got != "xl/worksheets/sheet3.xml" {
		t.Errorf("absolute target: %q", got)
	}
	if got := resolve("xl", "../../etc/sheet.xml"); got != "etc/sheet.xml" {
		t.Errorf("target above the root: %q", got)
	}
}

// A workbook the reader cannot read, or that breaks a limit, is refused
// with a message that says which part, cell or limit.
func TestXLSXRefused(t *testing.T) {
	head := sheettest.InlineRow(1, "ID", "Name")
	long := strings.Repeat("é", maxCellChars)
	for _, tc := range []struct {
		name   string
		data   []byte
		limits cx.Limits
		code   string
		in     []string
	}{
		{"MissingSharedString", sheettest.OneSheet([]string{"<t>a</t>"}, head, `<row r="2"><c r="A2" t="s"><v>1</v></c></row>`),
			cx.Limits{}, cx.CodeInvalidRequest, []string{"cell A2 refers to shared string", `"1"`}},
		{"NoSharedStrings", sheettest.OneSheet(nil, head, `<row r="2"><c r="B2" t="s"><v>0</v></c></row>`),
			cx.Limits{}, cx.CodeInvalidRequest, []string{"cell B2 refers to shared string"}},
		{"BadCellName", sheettest.OneSheet(nil, head, `<row r="2"><c r="A-2"><v>1</v></c></row>`),
			cx.Limits{}, cx.CodeInvalidRequest, []string{`row 2`, `"A-2"`}},
		{"BeyondXFD", sheettest.OneSheet(nil, head, `<row r="2"><c r="XFE2"><v>1</v></c></row>`),
			cx.Limits{}, cx.CodeInvalidRequest, []string{"beyond column XFD"}},
		{"BadRowNumber", sheettest.OneSheet(nil, head, `<row r="0"><c><v>1</v></c></row>`),
			cx.Limits{}, cx.CodeInvalidRequest, []string{`row numbered "0"`}},
		{"NotXML", sheettest.OneSheet(nil, head, `<row r="2"><c><v>1</c></row>`),
			cx.Limits{}, cx.CodeInvalidRequest, []string{"xl/worksheets/sheet1.xml cannot be read"}},
		{"Entity", sheettest.OneSheet(nil, head, `<row r="2"><c t="inlineStr"><is><t>&lol;</t></is></c></row>`),
			cx.Limits{}, cx.CodeInvalidRequest, []string{"xl/worksheets/sheet1.xml cannot be read"}},
		{"Deep", sheettest.OneSheet(nil, head, strings.Repeat("<x>", 100)+strings.Repeat("</x>", 100)),
			cx.Limits{}, cx.CodeSheetTooLarge, []string{"more than 64 deep"}},
		{"HugeToken", sheettest.OneSheet(nil, head, `<row r="2"><c t="inlineStr"><is><t>`+strings.Repeat("A", maxXMLToken+1)+`</t></is></c></row>`),
			cx.Limits{}, cx.CodeSheetTooLarge, []string{"xl/worksheets/sheet1.xml holds a tag or text longer than 4 MiB"}},
		{"LongInline", sheettest.OneSheet(nil, head, sheettest.InlineRow(2, "A", long+"é")),
			cx.Limits{}, cx.CodeSheetTooLarge, []string{"cell B2: longer than 2,000 characters"}},
		{"LongNumber", sheettest.OneSheet(nil, head, `<row r="2"><c r="C2"><v>`+strings.Repeat("1", maxCellXML+1)+`</v></c></row>`),
			cx.Limits{}, cx.CodeSheetTooLarge, []string{"cell C2: longer than 2,000 characters"}},
		{"LongShared", sheettest.OneSheet([]string{"<t>" + long + "x</t>"}, head, `<row r="7"><c r="C7" t="s"><v>0</v></c></row>`),
			cx.Limits{}, cx.CodeSheetTooLarge, []string{"cell C7: longer than 2,000 characters"}},
		{"Escapes", sheettest.OneSheet(nil, head, `<row r="2"><c r="B2" t="inlineStr"><is><t>`+strings.Repeat("_x000D_\n", maxCellEscapes+1)+`</t></is></c></row>`),
			cx.Limits{}, cx.CodeSheetTooLarge, []string{"cell B2: more than 1,000 _xHHHH_ escapes"}},
		{"SharedStringsOverBudget", sheettest.OneSheet([]string{"<t>" + strings.Repeat("a", 600) + "</t>", "<t>" + strings.Repeat("b", 600) + "</t>"}, head),
			cx.Limits{MaxSheetBytes: 1000}, cx.CodeSheetTooLarge, []string{"shared-string table holds more than 1,000 bytes of text"}},
		{"CellsOverBudget", sheettest.OneSheet(nil, head, sheettest.InlineRow(2, "A", strings.Repeat("a", 500)), sheettest.InlineRow(3, "B", strings.Repeat("b", 500))),
			cx.Limits{MaxSheetBytes: 1000}, cx.CodeSheetTooLarge, []string{"cell B3: the cells hold more than 1,000 bytes of text"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(ctx, bytes.NewReader(tc.data), "plan.xlsx", "S", tc.limits)
			wantRequestError(t, err, tc.code, tc.in...)
		})
	}
	t.Run("AtTheLimits", func(t *testing.T) {
		data := sheettest.OneSheet([]string{"<t>" + long + "</t>"}, head,
			`<row r="2"><c r="A2" t="inlineStr"><is><t>A</t></is></c><c r="B2" t="s"><v>0</v></c></row>`,
			sheettest.InlineRow(3, "B", strings.Repeat("_x000D_\n", maxCellEscapes)))
		req, err := Read(ctx, bytes.NewReader(data), "plan.xlsx", "S", cx.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if req.Rows[0].Name != long || req.Rows[1].Name != strings.Repeat("\r\n", maxCellEscapes) {
			t.Errorf("the longest cells were not read whole")
		}
	})
}

// The shared-string table holds at most maxSharedStrings strings.
func TestXLSXSharedStringCount(t *testing.T) {
	sst := make([]string, maxSharedStrings+1)
	data := sheettest.OneSheet(sst, sheettest.InlineRow(1, "ID", "Name"))
	_, err := Read(ctx, bytes.NewReader(data), "plan.xlsx", "S", cx.Limits{})
	wantRequestError(t, err, cx.CodeSheetTooLarge, "more than 2,000,000 strings")
}

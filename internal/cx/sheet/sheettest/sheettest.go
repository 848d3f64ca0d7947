// Package sheettest writes .xlsx workbooks for tests part by part, as raw
// XML in a zip archive: as an attacker builds one, or a program other than
// Excel writes one.
package sheettest

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

// Workbook is the content of an .xlsx package.
type Workbook struct {
	Sheets []Sheet // in workbook order; the first is the one a reader reads
	// SharedStrings are the items of the shared-string table, each the
	// XML inside one <si>; nil writes no table.
	SharedStrings []string
	Date1904      bool
}

// Sheet is one worksheet.
type Sheet struct {
	Name string
	Part string // its zip entry, such as xl/worksheets/sheet1.xml
	// Data writes the children of its <sheetData>.
	Data func(w io.Writer)
}

// Bytes writes the package.
func (wb Workbook) Bytes() []byte {
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	part := func(name string, write func(w io.Writer)) {
		w, err := z.Create(name)
		if err != nil {
			panic(err)
		}
		write(w)
	}
	text := func(s string) func(io.Writer) { return func(w io.Writer) { io.WriteString(w, s) } }
	const header = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n"
	var types, sheets, rels strings.Builder
	for i, s := range wb.Sheets {
		fmt.Fprintf(&types, `<Override PartName="/%s" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`, s.Part)
		fmt.Fprintf(&sheets, `<sheet name="%s" sheetId="%d" r:id="rId%d"/>`, s.Name, i+1, i+1)
		fmt.Fprintf(&rels, `<Relationship Id="rId%d" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="%s"/>`,
			i+1, strings.TrimPrefix(s.Part, "xl/"))
	}
	if wb.SharedStrings != nil {
		types.WriteString(`<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>`)
		rels.WriteString(`<Relationship Id="rIdS" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>`)
	}
	part("[Content_Types].xml", text(header+`<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">`+
		`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>`+
		`<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>`+
		types.String()+`</Types>`))
	part("_rels/.rels", text(header+`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`+
		`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`))
	pr := ""
	if wb.Date1904 {
		pr = `<workbookPr date1904="1"/>`
	}
	part("xl/workbook.xml", text(header+`<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" `+
		`xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">`+pr+`<sheets>`+sheets.String()+`</sheets></workbook>`))
	part("xl/_rels/workbook.xml.rels", text(header+`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`+
		rels.String()+`</Relationships>`))
	if wb.SharedStrings != nil {
		part("xl/sharedStrings.xml", func(w io.Writer) {
			fmt.Fprintf(w, header+`<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="%d" uniqueCount="%d">`,
				len(wb.SharedStrings), len(wb.SharedStrings))
			for _, si := range wb.SharedStrings {
				io.WriteString(w, "<si>"+si+"</si>")
			}
			io.WriteString(w, `</sst>`)
		})
	}
	for _, s := range wb.Sheets {
		part(s.Part, func(w io.Writer) {
			io.WriteString(w, header+`<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" `+
				`xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheetData>`)
			s.Data(w)
			io.WriteString(w, `</sheetData></worksheet>`)
		})
	}
	if err := z.Close(); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// Data returns a Sheet.Data that writes rows, each the XML of one <row>.
func Data(rows ...string) func(io.Writer) {
	return func(w io.Writer) {
		for _, r := range rows {
			io.WriteString(w, r)
		}
	}
}

// OneSheet is a workbook of one sheet, Sheet1, whose <sheetData> holds
// rows, with the shared strings sst (nil: none).
func OneSheet(sst []string, rows ...string) []byte {
	return Workbook{Sheets: []Sheet{{Name: "Sheet1", Part: "xl/worksheets/sheet1.xml", Data: Data(rows...)}}, SharedStrings: sst}.Bytes()
}

// Text is the XML of a shared-string item or inline string holding s.
func Text(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return `<t xml:space="preserve">` + b.String() + `</t>`
}

// InlineRow is the XML of row r (1-based) whose cells, from column A on,
// hold the texts as inline strings; an empty text is no cell.
func InlineRow(r int, texts ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<row r="%d">`, r)
	for j, s := range texts {
		if s != "" {
			fmt.Fprintf(&b, `<c r="%s%d" t="inlineStr"><is>%s</is></c>`, Column(j), r, Text(s))
		}
	}
	b.WriteString(`</row>`)
	return b.String()
}

// Column is the A1 name of the 0-based column j.
func Column(j int) string {
	var letters []byte
	for n := j + 1; n > 0; n = (n - 1) / 26 {
		letters = append([]byte{byte('A' + (n-1)%26)}, letters...)
	}
	return string(letters)
}

// SharedStringBomb is a workbook of a few kilobytes whose one shared
// string, size bytes long, is the Name of cells rows: every cell of the
// Name column refers to it.
func SharedStringBomb(size, rows int) []byte {
	return refersToOne(strings.Repeat("A", size), rows)
}

// EscapeBomb is a workbook whose one shared string holds escapes _x0041_
// escapes (each the letter A), the Name of rows rows.
func EscapeBomb(escapes, rows int) []byte {
	return refersToOne(strings.Repeat("_x0041_", escapes), rows)
}

// refersToOne is a sheet with the header ID, Name and rows rows whose Name
// cells all refer to the one shared string, which holds text.
func refersToOne(text string, rows int) []byte {
	data := func(w io.Writer) {
		io.WriteString(w, InlineRow(1, "ID", "Name"))
		for i := 2; i <= rows+1; i++ {
			fmt.Fprintf(w, `<row r="%d"><c r="A%d" t="inlineStr"><is><t>R%d</t></is></c><c r="B%d" t="s"><v>0</v></c></row>`, i, i, i, i)
		}
	}
	return Workbook{Sheets: []Sheet{{Name: "Sheet1", Part: "xl/worksheets/sheet1.xml", Data: data}},
		SharedStrings: []string{`<t>` + text + `</t>`}}.Bytes()
}

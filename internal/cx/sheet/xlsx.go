package sheet

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/platform/platform/internal/cx"
)

// Limits of a workbook, checked from its zip directory before anything is
// unpacked (Go's zip reader refuses entries that unpack beyond what the
// directory says), so a small file that unpacks to gigabytes (a zip bomb) is
// refused at once and at small memory. A workbook of the largest upload
// (100,000 rows) unpacks to well under maxUnzipped.
const (
	maxUnzipped   = 192 << 20
	maxZipEntries = 1000
	// maxXMLInMemory: a worksheet or string table larger than this is
	// unpacked to a temporary file and read from there as a stream.
	maxXMLInMemory = 8 << 20
)

type xlsxSource struct {
	f        *excelize.File
	rows     *excelize.Rows // the cells as displayed
	raw      *excelize.Rows // the same rows, raw values (for date cells)
	row      int            // 1-based number of the current row
	dateCols []int          // columns of createdAt and updatedAt, once the header is read
	date1904 bool
	header   bool
}

// openXLSX opens the first sheet of a workbook. Its rows are read as two
// streams in step, shown and raw values: a cell's type is never looked up,
// which would load the whole worksheet.
func openXLSX(r io.Reader) (*xlsxSource, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if err := checkZip(data); err != nil {
		return nil, err
	}
	f, err := excelize.OpenReader(bytes.NewReader(data), excelize.Options{UnzipSizeLimit: maxUnzipped,
		UnzipXMLSizeLimit: maxXMLInMemory})
	if err != nil {
		return nil, invalidf("the file is not a readable .xlsx workbook: %v", err)
	}
	sheets := f.GetSheetList()
	if len(sheets) == 0 {
		f.Close()
		return nil, invalidf("the workbook has no sheet")
	}
	s := &xlsxSource{f: f}
	if s.rows, err = f.Rows(sheets[0]); err == nil {
		s.raw, err = f.Rows(sheets[0])
	}
	if err != nil {
		s.Close()
		return nil, invalidf("the first sheet cannot be read: %v", err)
	}
	if props, err := f.GetWorkbookProps(); err == nil && props.Date1904 != nil {
		s.date1904 = *props.Date1904
	}
	return s, nil
}

// checkZip refuses a workbook whose directory has too many entries or
// promises more unpacked bytes than maxUnzipped.
func checkZip(data []byte) error {
	z, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return invalidf("the file is not a readable .xlsx workbook (not a zip archive)")
	}
	if len(z.File) > maxZipEntries {
		return &cx.RequestError{Code: cx.CodeSheetTooLarge,
			Message: fmt.Sprintf("the workbook holds %d files; a workbook holds at most %d", len(z.File), maxZipEntries)}
	}
	var total uint64
	for _, f := range z.File {
		total += f.UncompressedSize64
		if total > maxUnzipped {
			return &cx.RequestError{Code: cx.CodeSheetTooLarge,
				Message: fmt.Sprintf("the workbook unpacks to more than %d MiB; save it as .csv or split it", maxUnzipped>>20)}
		}
	}
	return nil
}

// Next returns the cells of the next row as displayed, except that a date
// column shows a date cell as YYYY-MM-DD whatever its number format.
func (s *xlsxSource) Next() ([]string, error) {
	if !s.rows.Next() {
		if err := s.rows.Error(); err != nil {
			return nil, invalidf("the first sheet cannot be read: %v", err)
		}
		return nil, io.EOF
	}
	s.raw.Next()
	s.row++
	cells, err := s.rows.Columns()
	if err != nil {
		return nil, invalidf("row %d of the first sheet cannot be read: %v", s.row, err)
	}
	raw, err := s.raw.Columns(excelize.Options{RawCellValue: true})
	if err != nil {
		return nil, invalidf("row %d of the first sheet cannot be read: %v", s.row, err)
	}
	if !s.header {
		for j, c := range cells {
			if c == cx.FieldCreatedAt || c == cx.FieldUpdatedAt {
				s.dateCols = append(s.dateCols, j)
			}
			if strings.TrimSpace(c) != "" {
				s.header = true
			}
		}
		return cells, nil
	}
	for _, j := range s.dateCols {
		if j < len(cells) && j < len(raw) && cells[j] != "" && !looksLikeDate(cells[j]) {
			cells[j] = s.isoDate(cells[j], raw[j])
		}
	}
	return cells, nil
}

// isoDate returns a date cell's value as YYYY-MM-DD, or shown unchanged
// when the cell does not hold a date (validation will report it). In a date
// column a number is a date serial, whatever its format (a bare serial
// included), and an ISO 8601 date-time stored as such is its date.
func (s *xlsxSource) isoDate(shown, raw string) string {
	if len(raw) >= 10 && looksLikeDate(raw[:10]) {
		return raw[:10]
	}
	serial, err := strconv.ParseFloat(raw, 64)
	if err != nil {
		return shown
	}
	t, err := excelize.ExcelDateToTime(serial, s.date1904)
	if err != nil {
		return shown
	}
	return t.Format(time.DateOnly)
}

// looksLikeDate reports whether s has the shape YYYY-MM-DD.
func looksLikeDate(s string) bool {
	if len(s) != len(time.DateOnly) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if i == 4 || i == 7 {
			if s[i] != '-' {
				return false
			}
		} else if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func (s *xlsxSource) Close() error {
	for _, r := range []*excelize.Rows{s.rows, s.raw} {
		if r != nil {
			r.Close()
		}
	}
	return s.f.Close()
}

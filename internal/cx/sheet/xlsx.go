package sheet

import (
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/platform/platform/internal/cx"
)

// maxUnzipped bounds the unpacked size of a workbook, against zip bombs.
const maxUnzipped = 512 << 20

type xlsxSource struct {
	f        *excelize.File
	sheet    string
	rows     *excelize.Rows
	row      int   // 1-based number of the current row
	dateCols []int // columns of createdAt and updatedAt, once the header is read
	date1904 bool
	header   bool
}

// openXLSX opens the first sheet of a workbook.
func openXLSX(r io.Reader) (*xlsxSource, error) {
	f, err := excelize.OpenReader(r, excelize.Options{UnzipSizeLimit: maxUnzipped})
	if err != nil {
		return nil, invalidf("the file is not a readable .xlsx workbook: %v", err)
	}
	sheets := f.GetSheetList()
	if len(sheets) == 0 {
		f.Close()
		return nil, invalidf("the workbook has no sheet")
	}
	rows, err := f.Rows(sheets[0])
	if err != nil {
		f.Close()
		return nil, invalidf("the first sheet cannot be read: %v", err)
	}
	s := &xlsxSource{f: f, sheet: sheets[0], rows: rows}
	if props, err := f.GetWorkbookProps(); err == nil && props.Date1904 != nil {
		s.date1904 = *props.Date1904
	}
	return s, nil
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
	s.row++
	cells, err := s.rows.Columns()
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
		if j < len(cells) && cells[j] != "" && !looksLikeDate(cells[j]) {
			cells[j] = s.isoDate(j, cells[j])
		}
	}
	return cells, nil
}

// isoDate returns a date cell's value as YYYY-MM-DD, or shown unchanged
// when the cell does not hold a date (validation will report it).
func (s *xlsxSource) isoDate(col int, shown string) string {
	ref, err := excelize.CoordinatesToCellName(col+1, s.row)
	if err != nil {
		return shown
	}
	typ, err := s.f.GetCellType(s.sheet, ref)
	if err != nil {
		return shown
	}
	raw, err := s.f.GetCellValue(s.sheet, ref, excelize.Options{RawCellValue: true})
	if err != nil {
		return shown
	}
	switch typ {
	case excelize.CellTypeUnset, excelize.CellTypeNumber, excelize.CellTypeFormula:
		serial, err := strconv.ParseFloat(raw, 64)
		if err != nil {
			return shown
		}
		t, err := excelize.ExcelDateToTime(serial, s.date1904)
		if err != nil {
			return shown
		}
		return t.Format(time.DateOnly)
	case excelize.CellTypeDate: // an ISO 8601 date-time stored as such
		if len(raw) >= 10 && looksLikeDate(raw[:10]) {
			return raw[:10]
		}
	}
	return shown
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
	s.rows.Close()
	return s.f.Close()
}

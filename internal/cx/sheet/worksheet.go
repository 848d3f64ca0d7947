package sheet

import (
	"bytes"
	"context"
	"encoding/xml"
	"io"
	"strconv"
	"strings"

	"github.com/platform/platform/internal/cx"
)

// xlsxSource reads the rows of a workbook's first sheet one at a time from
// its XML, never holding more than the current row.
type xlsxSource struct {
	p        *xmlPart
	sst      *sharedStrings
	date1904 bool
	t        *tally

	inData, inRow, done bool
	row                 int // number of the current row
	cells               []cell
	header              bool  // the header row has been read
	dateCols            []int // columns of createdAt and updatedAt

	// the current cell
	inCell, inV, inIS, hasIS, vOver bool
	col                             int
	typ                             string
	v                               []byte
	is                              stringItem
	scratch                         []byte
}

// openXLSX opens the first sheet of a workbook, after its shared strings.
func openXLSX(ctx context.Context, r io.Reader, budget int64, t *tally) (*xlsxSource, error) {
	z, err := openZip(r)
	if err != nil {
		return nil, err
	}
	wb, err := findWorkbook(ctx, z)
	if err != nil {
		return nil, err
	}
	var sst *sharedStrings
	if f := findPart(z, wb.sharedStrings); f != nil {
		if sst, err = loadSharedStrings(ctx, f, budget, t); err != nil {
			return nil, err
		}
	}
	f := findPart(z, wb.sheet)
	if f == nil {
		return nil, invalidf("the workbook's first sheet, %s, is missing", wb.sheet)
	}
	rc, err := openPart(f, maxUnzipped)
	if err != nil {
		return nil, err
	}
	return &xlsxSource{p: newXMLPart(ctx, f.Name, rc), sst: sst, date1904: wb.date1904, t: t}, nil
}

// Next returns the cells of the next row as a spreadsheet shows them: text
// as written, numbers in General format (general), booleans TRUE and
// FALSE. In the columns of createdAt and updatedAt a number is a date
// serial and an ISO 8601 date-time is its date, both shown YYYY-MM-DD.
func (s *xlsxSource) Next() (int, []cell, error) {
	if s.done {
		return 0, nil, io.EOF
	}
	for {
		tok, err := s.p.next()
		if err == io.EOF {
			s.done = true
			return 0, nil, io.EOF
		}
		if err != nil {
			return 0, nil, err
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if err := s.startElement(tok); err != nil {
				return 0, nil, err
			}
		case xml.EndElement:
			local := tok.Name.Local
			switch {
			case s.inCell && local == "c":
				if err := s.endCell(); err != nil {
					return 0, nil, err
				}
			case s.inCell && local == "v":
				s.inV = false
			case s.inCell && local == "is":
				s.inIS = false
			case s.inIS:
				s.is.end(local)
			case s.inRow && local == "row":
				s.inRow = false
				s.endRow()
				return s.row, s.cells, nil
			case s.inData && local == "sheetData":
				s.done = true
				return 0, nil, io.EOF
			}
		case xml.CharData:
			switch {
			case s.inIS:
				s.is.chars(tok)
			case s.inV && !s.vOver:
				if len(s.v)+len(tok) > maxCellXML {
					s.vOver = true
				} else {
					s.v = append(s.v, tok...)
				}
			}
		}
	}
}

// startElement follows the worksheet into sheetData, a row, a cell and
// its value, starting a row or a cell where they start.
func (s *xlsxSource) startElement(e xml.StartElement) error {
	local := e.Name.Local
	switch {
	case !s.inData:
		s.inData = local == "sheetData"
	case s.inIS:
		s.is.start(local)
	case s.inCell:
		switch local {
		case "v":
			s.inV = true
		case "is":
			s.inIS, s.hasIS = true, true
			s.is.reset()
		}
	case s.inRow && local == "c":
		col := s.col + 1
		if r := attr(e, "r"); r != "" {
			c, ok := parseColumn(r)
			if !ok {
				return invalidf("row %d of the first sheet has a cell named %q, which is no cell reference", s.row, clip(r))
			}
			col = c
		}
		if col >= maxColumn {
			return invalidf("row %d of the first sheet has a cell beyond column XFD, the last a sheet has", s.row)
		}
		s.inCell, s.inV, s.inIS, s.hasIS, s.vOver = true, false, false, false, false
		s.col, s.typ, s.v = col, attr(e, "t"), s.v[:0]
	case !s.inRow && local == "row":
		row := s.row + 1
		if r := attr(e, "r"); r != "" {
			n, err := strconv.Atoi(r)
			if err != nil || n < 1 || n > maxRowNumber {
				return invalidf("the first sheet has a row numbered %q, which is no row number", clip(r))
			}
			row = n
		}
		s.inRow, s.row, s.col, s.cells = true, row, -1, s.cells[:0]
	}
	return nil
}

// endCell adds the current cell to the row unless it is empty.
func (s *xlsxSource) endCell() error {
	s.inCell = false
	v, number, err := s.value()
	if err != nil || v == "" {
		return err
	}
	if s.header {
		for _, j := range s.dateCols {
			if j != s.col {
				continue
			}
			if !number {
				v = isoDate(v)
			} else if d, ok := serialDate(v, s.date1904); ok {
				v = d
			}
		}
	}
	s.cells = append(s.cells, cell{col: s.col, v: v})
	return nil
}

// value returns the current cell's value and whether it is a number.
func (s *xlsxSource) value() (string, bool, error) {
	if s.vOver || s.hasIS && s.is.over {
		return "", false, errCellTooLong(s.col, s.row)
	}
	switch s.typ {
	case "s":
		i, isIndex := parseIndex(s.v)
		v, bad, ok := s.sst.get(i)
		if !isIndex || !ok {
			return "", false, invalidf("cell %s refers to shared string %q, which the workbook does not have", cellName(s.col, s.row), clip(string(s.v)))
		}
		return v, false, s.refuse(bad)
	case "inlineStr":
		if !s.hasIS {
			return string(s.v), false, nil
		}
		out, bad := s.is.decode(s.scratch[:0], s.t)
		s.scratch = out
		return string(out), false, s.refuse(bad)
	case "b":
		switch string(s.v) {
		case "1":
			return "TRUE", false, nil
		case "0":
			return "FALSE", false, nil
		}
		return string(s.v), false, nil
	case "", "n":
		return general(string(s.v)), true, nil
	}
	return string(s.v), false, nil // str (a formula's text), e (an error such as #N/A), d (ISO 8601)
}

// refuse turns why a string can be no cell's value into the refusal of
// the current cell.
func (s *xlsxSource) refuse(bad uint8) error {
	switch bad {
	case badTooLong:
		return errCellTooLong(s.col, s.row)
	case badEscapes:
		return tooLargef("cell %s: more than %s _xHHHH_ escapes, the most a cell may hold", cellName(s.col, s.row), thousands(maxCellEscapes))
	}
	return nil
}

// endRow notes the date columns once the header row is read: the first
// row with a cell that is not blank.
func (s *xlsxSource) endRow() {
	if s.header {
		return
	}
	for _, c := range s.cells {
		if c.v == cx.FieldCreatedAt || c.v == cx.FieldUpdatedAt {
			s.dateCols = append(s.dateCols, c.col)
		}
		if strings.TrimSpace(c.v) != "" {
			s.header = true
		}
	}
}

func (s *xlsxSource) Close() error { return s.p.Close() }

// parseColumn returns the 0-based column of an A1 cell reference.
func parseColumn(ref string) (int, bool) {
	col, i := 0, 0
	for ; i < len(ref) && i < 3; i++ {
		c := ref[i] &^ 0x20 // upper case
		if c < 'A' || c > 'Z' {
			break
		}
		col = col*26 + int(c-'A'+1)
	}
	if i == 0 || i == len(ref) {
		return 0, false
	}
	for _, c := range ref[i:] {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	return col - 1, true
}

// parseIndex reads a shared-string index: decimal digits, perhaps with
// spaces around them.
func parseIndex(b []byte) (int, bool) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || len(b) > 9 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// clip shortens a value quoted in a message.
func clip(s string) string {
	if len(s) > 32 {
		return s[:32] + "…"
	}
	return s
}

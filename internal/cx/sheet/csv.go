package sheet

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"io"
)

type csvSource struct {
	r     *csv.Reader
	cells []cell
}

// newCSV reads comma-separated records, skipping the byte order mark that
// spreadsheet programs write at the start of a UTF-8 file.
func newCSV(r io.Reader) *csvSource {
	br := bufio.NewReader(r)
	if bom, err := br.Peek(3); err == nil && bytes.Equal(bom, []byte("\xef\xbb\xbf")) {
		br.Discard(3)
	}
	cr := csv.NewReader(br)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	return &csvSource{r: cr}
}

// Next returns the next record; its row is the line it starts on, which
// is the row a spreadsheet program shows it in unless a value above holds
// a line break.
func (s *csvSource) Next() (int, []cell, error) {
	rec, err := s.r.Read()
	var pe *csv.ParseError
	switch {
	case errors.Is(err, io.EOF):
		return 0, nil, err
	case errors.As(err, &pe):
		return 0, nil, invalidf("the CSV file cannot be read at line %d: %v", pe.Line, pe.Err)
	case err != nil:
		return 0, nil, invalidf("the CSV file cannot be read: %v", err)
	}
	row, _ := s.r.FieldPos(0)
	s.cells = s.cells[:0]
	for j, v := range rec {
		if v != "" {
			s.cells = append(s.cells, cell{col: j, v: v})
		}
	}
	return row, s.cells, nil
}

func (s *csvSource) Close() error { return nil }

package sheet

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"io"
)

type csvSource struct {
	r *csv.Reader
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

func (s *csvSource) Next() ([]string, error) {
	rec, err := s.r.Read()
	var pe *csv.ParseError
	switch {
	case err == nil, errors.Is(err, io.EOF):
		return rec, err
	case errors.As(err, &pe):
		return nil, invalidf("the CSV file cannot be read at line %d: %v", pe.Line, pe.Err)
	default:
		return nil, invalidf("the CSV file cannot be read: %v", err)
	}
}

func (s *csvSource) Close() error { return nil }

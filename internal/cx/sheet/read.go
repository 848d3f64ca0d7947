package sheet

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/platform/platform/internal/cx"
)

// source yields the records of a spreadsheet, io.EOF after the last.
type source interface {
	Next() ([]string, error)
	Close() error
}

// Read reads an upload from a spreadsheet named filename (.csv, or .xlsx of
// which the first sheet is read). The first non-blank row is the header; it
// holds the JSON key names, matched exactly, and each later non-blank row is
// one row of the upload with every cell a string. scheduleID comes from the
// caller. Errors are *cx.RequestError: INVALID_REQUEST (unknown extension,
// unreadable file, invalid UTF-8, a column twice), SHEET_HEADER_MISSING (no
// ID or Name column), ROWS_LIMIT, SCHEDULE_ID_REQUIRED and DATA_EMPTY.
func Read(r io.Reader, filename, scheduleID string, limits cx.Limits) (*cx.Request, error) {
	var src source
	switch ext := strings.ToLower(filepath.Ext(filename)); ext {
	case ".csv":
		src = newCSV(r)
	case ".xlsx":
		x, err := openXLSX(r)
		if err != nil {
			return nil, err
		}
		src = x
	default:
		return nil, invalidf("the file %q is not a spreadsheet this upload reads; send a .xlsx or .csv file", filename)
	}
	defer src.Close()
	return build(src, scheduleID, limits)
}

func build(src source, scheduleID string, limits cx.Limits) (*cx.Request, error) {
	header, err := next(src)
	if errors.Is(err, io.EOF) {
		return nil, &cx.RequestError{Code: cx.CodeSheetHeaderMissing,
			Message: "the spreadsheet is empty; its first row must name the columns, with ID and Name among them"}
	}
	if err != nil {
		return nil, err
	}
	header = append([]string(nil), header...)
	if err := checkHeader(header); err != nil {
		return nil, err
	}
	b := cx.NewBuilder(scheduleID, limits)
	var stray []cx.Issue // values in columns without a header
	strayCol := map[int]bool{}
	for index := 0; ; index++ {
		rec, err := next(src)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if err := b.StartRow(); err != nil {
			return nil, err
		}
		for j, h := range header {
			if h == "" {
				continue
			}
			v := ""
			if j < len(rec) {
				v = rec[j]
			}
			if err := b.Set(h, v); err != nil {
				return nil, err
			}
		}
		b.EndRow()
		for j, v := range rec {
			if strings.TrimSpace(v) != "" && (j >= len(header) || header[j] == "") && !strayCol[j] {
				strayCol[j] = true
				stray = append(stray, cx.Issue{Index: index, Code: cx.CodeUnknownField,
					Message: fmt.Sprintf("row %d: column %d has values but no header; they were ignored", index+1, j+1)})
			}
		}
	}
	req, err := b.Request()
	if err != nil {
		return nil, err
	}
	for _, is := range stray {
		is.RowID = req.Rows[is.Index].ID
		req.Warnings = append(req.Warnings, is)
	}
	return req, nil
}

// next returns the next record that has a non-blank cell, refusing
// invalid UTF-8.
func next(src source) ([]string, error) {
	for {
		rec, err := src.Next()
		if err != nil {
			return nil, err
		}
		blank := true
		for _, v := range rec {
			if !utf8.ValidString(v) {
				return nil, invalidf("the spreadsheet is not valid UTF-8 text")
			}
			if strings.TrimSpace(v) != "" {
				blank = false
			}
		}
		if !blank {
			return rec, nil
		}
	}
}

// checkHeader refuses a header without ID or Name and a column named twice.
func checkHeader(header []string) error {
	seen := map[string]bool{}
	for _, h := range header {
		if h == "" {
			continue
		}
		if seen[h] {
			return invalidf("the column %q appears twice in the header row", h)
		}
		seen[h] = true
	}
	for _, want := range []string{cx.FieldID, cx.FieldName} {
		if seen[want] {
			continue
		}
		msg := fmt.Sprintf("the header row has no %s column", want)
		for _, h := range header {
			if f, exact := cx.MatchField(h); f == want && !exact {
				msg += fmt.Sprintf(" (it has %q; column names are case-sensitive)", h)
			}
		}
		return &cx.RequestError{Code: cx.CodeSheetHeaderMissing, Message: msg}
	}
	return nil
}

func invalidf(format string, args ...any) *cx.RequestError {
	return &cx.RequestError{Code: cx.CodeInvalidRequest, Message: fmt.Sprintf(format, args...)}
}

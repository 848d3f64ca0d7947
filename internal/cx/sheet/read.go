package sheet

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/platform/platform/internal/cx"
)

// source yields the rows of a spreadsheet, io.EOF after the last.
type source interface {
	// Next returns the next row: its number as a spreadsheet program shows
	// it, and its cells that are not empty. The cells are valid until the
	// next call.
	Next() (row int, cells []cell, err error)
	Close() error
}

// cell is one cell that is not empty; col is 0-based.
type cell struct {
	col int
	v   string
}

// tally counts what a read produced.
type tally struct {
	rows     int    // rows read from the source, blank ones included
	bytes    int64  // bytes of the cells produced
	escapes  int    // _xHHHH_ escapes decoded
	afterRow func() // called after each row is read (tests)
}

// Read reads an upload from a spreadsheet named filename (.csv, or .xlsx of
// which the first sheet is read). The first non-blank row is the header; it
// holds the JSON key names, matched exactly, and each later non-blank row is
// one row of the upload with every cell a string. scheduleID comes from the
// caller. Errors are *cx.RequestError: INVALID_REQUEST (unknown extension,
// unreadable file, invalid UTF-8, a column twice), SHEET_HEADER_MISSING (no
// ID or Name column), ROWS_LIMIT, SHEET_TOO_LARGE (a limit of limits.go or
// limits.MaxSheetBytes, naming the cell where it applies),
// SCHEDULE_ID_REQUIRED and DATA_EMPTY; or ctx's error once ctx ends.
func Read(ctx context.Context, r io.Reader, filename, scheduleID string, limits cx.Limits) (*cx.Request, error) {
	return read(ctx, r, filename, scheduleID, limits, &tally{})
}

func read(ctx context.Context, r io.Reader, filename, scheduleID string, limits cx.Limits, t *tally) (*cx.Request, error) {
	budget := limits.MaxSheetBytes
	if budget <= 0 {
		budget = cx.DefaultMaxSheetBytes
	}
	var src source
	switch ext := strings.ToLower(filepath.Ext(filename)); ext {
	case ".csv":
		src = newCSV(r)
	case ".xlsx":
		x, err := openXLSX(ctx, r, budget, t)
		if err != nil {
			return nil, err
		}
		src = x
	default:
		return nil, invalidf("the file %q is not a spreadsheet this upload reads; send a .xlsx or .csv file", filename)
	}
	defer src.Close()
	rr := &rowReader{ctx: ctx, src: src, t: t, budget: budget}
	return rr.build(scheduleID, limits)
}

// rowReader turns the rows of a source into a request, charging every cell
// against the text budget.
type rowReader struct {
	ctx    context.Context
	src    source
	t      *tally
	budget int64
}

// build reads the header row, then every row into the request.
func (rr *rowReader) build(scheduleID string, limits cx.Limits) (*cx.Request, error) {
	_, cells, err := rr.next()
	if errors.Is(err, io.EOF) {
		return nil, &cx.RequestError{Code: cx.CodeSheetHeaderMissing,
			Message: "the spreadsheet is empty; its first row must name the columns, with ID and Name among them"}
	}
	if err != nil {
		return nil, err
	}
	var header []string
	for _, c := range cells {
		if c.col >= len(header) {
			header = append(header, make([]string, c.col+1-len(header))...)
		}
		header[c.col] = c.v
	}
	if err := checkHeader(header); err != nil {
		return nil, err
	}
	// Every named column is set in every row, as a JSON body would give
	// every key, except that a column of an unknown key is set in the first
	// row only: the builder warns of it once and keeps nothing else. A
	// column whose name differs from a key only in case makes an error in
	// every row, which costs the budget its name, as the key would cost a
	// JSON body in every row.
	var named, kept []int
	var mismatched int64
	for j, h := range header {
		if h == "" {
			continue
		}
		named = append(named, j)
		if f, exact := cx.MatchField(h); f != "" {
			kept = append(kept, j)
			if !exact {
				mismatched += int64(len(h))
			}
		}
	}
	rb := cx.NewBuilder(scheduleID, limits)
	values := make([]string, len(header))
	var stray []cx.Issue // values in columns without a header
	strayCol := map[int]bool{}
	for index := 0; ; index++ {
		row, cells, err := rr.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if err := rb.StartRow(); err != nil {
			return nil, err
		}
		if rr.t.bytes += mismatched; rr.t.bytes > rr.budget {
			return nil, rr.overBudget(-1, row)
		}
		for _, c := range cells {
			if c.col < len(header) && header[c.col] != "" {
				values[c.col] = c.v
			} else if strings.TrimSpace(c.v) != "" && !strayCol[c.col] {
				strayCol[c.col] = true
				stray = append(stray, cx.Issue{Index: index, Code: cx.CodeUnknownField,
					Message: fmt.Sprintf("row %d: column %d has values but no header; they were ignored", index+1, c.col+1)})
			}
		}
		cols := kept
		if index == 0 {
			cols = named
		}
		for _, j := range cols {
			if err := rb.Set(header[j], values[j]); err != nil {
				return nil, err
			}
		}
		rb.EndRow()
		for _, c := range cells {
			if c.col < len(values) {
				values[c.col] = ""
			}
		}
	}
	req, err := rb.Request()
	if err != nil {
		return nil, err
	}
	for _, is := range stray {
		is.RowID = req.Rows[is.Index].ID
		req.Warnings = append(req.Warnings, is)
	}
	return req, nil
}

// next returns the next row that has a non-blank cell, refusing invalid
// UTF-8 and cells beyond the limits, and charging its cells against the
// budget. It returns ctx's error once ctx has ended.
func (rr *rowReader) next() (int, []cell, error) {
	for {
		if rr.t.rows%ctxEveryRows == 0 {
			if err := rr.ctx.Err(); err != nil {
				return 0, nil, err
			}
		}
		row, cells, err := rr.src.Next()
		if err != nil {
			return 0, nil, err
		}
		rr.t.rows++
		if rr.t.afterRow != nil {
			rr.t.afterRow()
		}
		blank := true
		for _, c := range cells {
			if len(c.v) > maxCellChars && utf8.RuneCountInString(c.v) > maxCellChars {
				return 0, nil, errCellTooLong(c.col, row)
			}
			if rr.t.bytes += int64(len(c.v)); rr.t.bytes > rr.budget {
				return 0, nil, rr.overBudget(c.col, row)
			}
			if !utf8.ValidString(c.v) {
				return 0, nil, invalidf("cell %s: the spreadsheet is not valid UTF-8 text", cellName(c.col, row))
			}
			if blank && strings.TrimSpace(c.v) != "" {
				blank = false
			}
		}
		if !blank {
			return row, cells, nil
		}
	}
}

// overBudget refuses a spreadsheet whose cells hold more text than the
// budget, at the cell where it ran out (col -1: at the row).
func (rr *rowReader) overBudget(col, row int) *cx.RequestError {
	at := fmt.Sprintf("row %d", row)
	if col >= 0 {
		at = "cell " + cellName(col, row)
	}
	return tooLargef("%s: the cells hold more than %s of text, the most an upload may hold (a JSON body holds no more)", at, size(rr.budget))
}

// size writes a number of bytes in MiB, or in bytes below one MiB.
func size(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return thousands(n) + " bytes"
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

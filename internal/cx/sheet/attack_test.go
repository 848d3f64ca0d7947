package sheet

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/platform/platform/internal/cx"
	"github.com/platform/platform/internal/cx/sheet/sheettest"
)

// A workbook of a few kilobytes whose cells all refer to one long shared
// string made the reader copy the string for every cell, twice (excelize's
// shown and raw row streams), and the builder keep every copy: a 1 MiB
// string in 2,000 cells was gigabytes. The string is decoded once, a cell
// longer than any field allows is refused at the first cell that refers
// to it, and strings of the longest allowed length are charged against
// the text budget per cell, so what the reader produces stays within it.
// attack: xlsx-shared-string-amplification
func TestAttackXLSXSharedStringAmplification(t *testing.T) {
	t.Run("LongString", func(t *testing.T) {
		bomb := sheettest.SharedStringBomb(1<<20, 2000)
		if len(bomb) > 64<<10 {
			t.Fatalf("the workbook is %d bytes; it should be small", len(bomb))
		}
		tl := &tally{}
		_, err := read(ctx, bytes.NewReader(bomb), "bomb.xlsx", "S", cx.Limits{}, tl)
		wantRequestError(t, err, cx.CodeSheetTooLarge, "cell B2: longer than 2,000 characters")
		if tl.bytes > 1<<10 {
			t.Errorf("the reader produced %d bytes of cells before refusing", tl.bytes)
		}
	})
	t.Run("LongestAllowed", func(t *testing.T) {
		const rows = 20_000 // 2,000 characters each: 40 MB, beyond the 32 MiB budget
		bomb := sheettest.SharedStringBomb(maxCellChars, rows)
		if len(bomb) > 512<<10 {
			t.Fatalf("the workbook is %d bytes; it should be small", len(bomb))
		}
		tl := &tally{}
		_, err := read(ctx, bytes.NewReader(bomb), "bomb.xlsx", "S", cx.Limits{}, tl)
		wantRequestError(t, err, cx.CodeSheetTooLarge, "the cells hold more than 32 MiB of text")
		if tl.bytes > cx.DefaultMaxSheetBytes+maxCellChars || tl.rows >= rows {
			t.Errorf("the reader produced %d bytes of cells in %d rows; the budget is %d", tl.bytes, tl.rows, cx.DefaultMaxSheetBytes)
		}
	})
}

// A workbook of a few kilobytes whose shared string holds 80,000 _x0041_
// escapes cost half a minute of CPU per cell: excelize decoded the escapes
// by appending to a string, quadratic in their number. Escapes are decoded
// in one pass, a string whose XML is longer than any cell may be is never
// decoded, and a cell holds at most maxCellEscapes.
// attack: xlsx-escape-cpu
func TestAttackXLSXEscapeCPU(t *testing.T) {
	t.Run("LongString", func(t *testing.T) {
		bomb := sheettest.EscapeBomb(80_000, 4)
		if len(bomb) > 16<<10 {
			t.Fatalf("the workbook is %d bytes; it should be small", len(bomb))
		}
		tl := &tally{}
		_, err := read(ctx, bytes.NewReader(bomb), "bomb.xlsx", "S", cx.Limits{}, tl)
		wantRequestError(t, err, cx.CodeSheetTooLarge, "cell B2: longer than 2,000 characters")
		if tl.escapes != 0 {
			t.Errorf("the reader decoded %d escapes of a string it refuses", tl.escapes)
		}
	})
	t.Run("ManyEscapes", func(t *testing.T) {
		bomb := sheettest.EscapeBomb(maxCellEscapes+1, 4)
		tl := &tally{}
		_, err := read(ctx, bytes.NewReader(bomb), "bomb.xlsx", "S", cx.Limits{}, tl)
		wantRequestError(t, err, cx.CodeSheetTooLarge, "cell B2: more than 1,000 _xHHHH_ escapes")
		if tl.escapes > maxCellEscapes+1 {
			t.Errorf("the reader decoded %d escapes", tl.escapes)
		}
	})
}

// A spreadsheet was read to its end however long that took: neither the
// client leaving nor UPLOAD_TIMEOUT stopped it. The reader returns the
// context's error within ctxEveryRows rows of its end.
// attack: sheet-read-outlives-request
func TestAttackSheetReadOutlivesRequest(t *testing.T) {
	const rows = 20_000
	var csvBody strings.Builder
	csvBody.WriteString("ID,Name\n")
	xlsxRows := []string{sheettest.InlineRow(1, "ID", "Name")}
	for i := range rows {
		fmt.Fprintf(&csvBody, "R-%d,Row %d\n", i, i)
		xlsxRows = append(xlsxRows, sheettest.InlineRow(i+2, fmt.Sprintf("R-%d", i), fmt.Sprintf("Row %d", i)))
	}
	files := map[string][]byte{"plan.csv": []byte(csvBody.String()), "plan.xlsx": sheettest.OneSheet(nil, xlsxRows...)}
	for name, data := range files {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			tl := &tally{}
			tl.afterRow = func() {
				if tl.rows == 100 {
					cancel()
				}
			}
			_, err := read(ctx, bytes.NewReader(data), name, "S", cx.Limits{}, tl)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("read after the context ended: %v; want context.Canceled", err)
			}
			if tl.rows > 100+ctxEveryRows {
				t.Errorf("the reader read %d of %d rows; it should stop within %d rows of the context's end", tl.rows, rows+1, ctxEveryRows)
			}
		})
	}
	t.Run("Ended", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		sst := make([]string, 10_000)
		for i := range sst {
			sst[i] = "<t>_x0041_</t>"
		}
		data := sheettest.OneSheet(sst, xlsxRows...)
		tl := &tally{}
		if _, err := read(ctx, bytes.NewReader(data), "plan.xlsx", "S", cx.Limits{}, tl); !errors.Is(err, context.Canceled) || tl.rows != 0 || tl.escapes != 0 {
			t.Fatalf("read with an ended context: %v after %d rows and %d escapes of the shared strings", err, tl.rows, tl.escapes)
		}
	})
}

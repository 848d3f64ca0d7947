package sheet

import (
	"fmt"

	"github.com/platform/platform/internal/cx"
)

// Limits of a spreadsheet, beside cx.Limits (rows, and the text budget of
// the cells). A workbook is checked from its zip directory before anything
// is unpacked (Go's zip reader refuses entries that unpack beyond what the
// directory says), so a small file that unpacks to gigabytes (a zip bomb)
// is refused at once; a workbook of the largest upload (100,000 rows)
// unpacks to well under maxUnzipped.
const (
	maxUnzipped   = 192 << 20
	maxZipEntries = 1000
	// maxMetaPart bounds the parts read to find the first sheet:
	// _rels/.rels, the workbook and its relationships.
	maxMetaPart = 4 << 20
	// maxXMLToken bounds one token of a part (a tag with its attributes, a
	// text, a comment), which the XML decoder holds whole: Excel's longest
	// cell, 32,767 characters, is at most a few hundred kilobytes of XML.
	maxXMLToken = 4 << 20
	// maxXMLDepth bounds the nesting of elements; a worksheet nests six deep.
	maxXMLDepth = 64
	// maxSharedStrings bounds the shared-string table: more than one
	// distinct string for every cell of 100,000 rows of 20 columns.
	maxSharedStrings = 2_000_000
	// maxCellChars is the longest cell: the longest value any field allows
	// (a longer one can never be valid, whichever column holds it).
	maxCellChars = cx.MaxValueLength
	// maxCellXML bounds the XML text of one string before it is decoded:
	// an _xHHHH_ escape is 7 bytes for one character, so more than this is
	// longer than maxCellChars whatever it holds.
	maxCellXML = 7 * maxCellChars
	// maxCellEscapes bounds the _xHHHH_ escapes of one string. Excel writes
	// one for each control character, e.g. _x000D_ before each line break,
	// so a cell of maxCellChars holds at most half as many.
	maxCellEscapes = maxCellChars / 2
	// maxColumn is Excel's last column, XFD.
	maxColumn = 16_384
	// maxRowNumber is Excel's last row.
	maxRowNumber = 1_048_576
	// The context is checked every ctxEveryTokens XML tokens and every
	// ctxEveryRows rows.
	ctxEveryTokens = 4096
	ctxEveryRows   = 1024
)

// tooLargef is a SHEET_TOO_LARGE refusal.
func tooLargef(format string, args ...any) *cx.RequestError {
	return &cx.RequestError{Code: cx.CodeSheetTooLarge, Message: fmt.Sprintf(format, args...)}
}

func invalidf(format string, args ...any) *cx.RequestError {
	return &cx.RequestError{Code: cx.CodeInvalidRequest, Message: fmt.Sprintf(format, args...)}
}

// cellName is the A1 name of a cell: col is 0-based, row 1-based.
func cellName(col, row int) string {
	var letters []byte
	for n := col + 1; n > 0; n = (n - 1) / 26 {
		letters = append([]byte{byte('A' + (n-1)%26)}, letters...)
	}
	return fmt.Sprintf("%s%d", letters, row)
}

// errCellTooLong refuses a cell longer than any field allows.
func errCellTooLong(col, row int) *cx.RequestError {
	return tooLargef("cell %s: longer than %s characters, the longest value a column may hold", cellName(col, row), thousands(maxCellChars))
}

// thousands writes n with comma separators.
func thousands(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

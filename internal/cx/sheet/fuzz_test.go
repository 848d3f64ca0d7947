package sheet

import (
	"bytes"
	"errors"
	"testing"

	"github.com/platform/platform/internal/cx"
	"github.com/platform/platform/internal/cx/sheet/sheettest"
)

// Whatever a worksheet and its shared strings hold, the reader answers a
// request or a *cx.RequestError, and never panics.
func FuzzReadXLSX(f *testing.F) {
	f.Add(`<t>a</t>`, sheettest.InlineRow(1, "ID", "Name")+`<row r="2"><c r="A2" t="s"><v>0</v></c><c t="inlineStr"><is><r><t>x_x0041_</t></r></is></c></row>`)
	f.Add(`<r><t>_xD83D_</t></r><r><t>_xDE00_</t></r>`, sheettest.InlineRow(1, "ID", "Name", "createdAt")+`<row><c t="s"><v>0</v></c><c t="b"><v>1</v></c><c><v>45306.5</v></c></row>`)
	f.Add(`<t>`, `<row r="1"><c r="XFD1"><v>1e308</v></c></row><row r="0"/>`)
	f.Fuzz(func(t *testing.T, si, rows string) {
		data := sheettest.OneSheet([]string{si}, rows)
		req, err := Read(ctx, bytes.NewReader(data), "fuzz.xlsx", "S", cx.Limits{MaxRows: 100, MaxSheetBytes: 1 << 20})
		var re *cx.RequestError
		if err != nil && !errors.As(err, &re) {
			t.Fatalf("error %v is no *cx.RequestError", err)
		}
		if err == nil && len(req.Rows) == 0 {
			t.Fatal("a request without rows")
		}
	})
}

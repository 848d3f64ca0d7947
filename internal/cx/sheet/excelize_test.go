package sheet

import (
	"bytes"
	"strconv"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/platform/platform/internal/cx"
)

// readExcelize reads the first sheet of a workbook as the reader did
// before it streamed the XML itself: with excelize, two row streams in
// step (the cells as displayed, and raw for the date columns). It calls
// row with each row's cells as that reader showed them and returns the
// bytes excelize produced for the cells of both streams. It is the
// reference the streaming reader is compared with.
func readExcelize(data []byte, row func([]string)) (produced int64, err error) {
	f, err := excelize.OpenReader(bytes.NewReader(data), excelize.Options{UnzipSizeLimit: maxUnzipped, UnzipXMLSizeLimit: 8 << 20})
	if err != nil {
		return 0, err
	}
	defer f.Close()
	first := f.GetSheetList()[0]
	shown, err := f.Rows(first)
	if err != nil {
		return 0, err
	}
	defer shown.Close()
	raw, err := f.Rows(first)
	if err != nil {
		return 0, err
	}
	defer raw.Close()
	date1904 := false
	if props, err := f.GetWorkbookProps(); err == nil && props.Date1904 != nil {
		date1904 = *props.Date1904
	}
	var dateCols []int
	header := false
	for shown.Next() {
		raw.Next()
		cells, err := shown.Columns()
		if err != nil {
			return produced, err
		}
		rawCells, err := raw.Columns(excelize.Options{RawCellValue: true})
		if err != nil {
			return produced, err
		}
		for _, c := range cells {
			produced += int64(len(c))
		}
		for _, c := range rawCells {
			produced += int64(len(c))
		}
		if !header {
			for j, c := range cells {
				if c == cx.FieldCreatedAt || c == cx.FieldUpdatedAt {
					dateCols = append(dateCols, j)
				}
				header = header || strings.TrimSpace(c) != ""
			}
		} else {
			for _, j := range dateCols {
				if j < len(cells) && j < len(rawCells) && cells[j] != "" && !looksLikeDate(cells[j]) {
					cells[j] = excelizeDate(cells[j], rawCells[j], date1904)
				}
			}
		}
		if row != nil {
			row(cells)
		}
	}
	return produced, shown.Error()
}

func excelizeDate(shown, raw string, date1904 bool) string {
	if len(raw) >= 10 && looksLikeDate(raw[:10]) {
		return raw[:10]
	}
	serial, err := strconv.ParseFloat(raw, 64)
	if err != nil {
		return shown
	}
	t, err := excelize.ExcelDateToTime(serial, date1904)
	if err != nil {
		return shown
	}
	return t.Format(time.DateOnly)
}

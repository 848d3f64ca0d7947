package sheet

import (
	"bytes"
	"fmt"
	"io"
	"syscall"
	"testing"
	"time"

	"github.com/platform/platform/internal/cx"
	"github.com/platform/platform/internal/cx/sheet/sheettest"
)

// scheduleXLSX is a workbook of n schedule rows of nine columns (ID, Name,
// ParentID, Predecessors, PM Email Address, Discipline, Building,
// createdAt as a date serial, a number), its text as Excel writes it (a
// shared-string table) or as excelize's stream writer does (inline
// strings).
func scheduleXLSX(n int, shared bool) []byte {
	var sst []string
	index := map[string]int{}
	text := func(w io.Writer, ref, s string) {
		if s == "" {
			return
		}
		if !shared {
			fmt.Fprintf(w, `<c r="%s" t="inlineStr"><is><t>%s</t></is></c>`, ref, s)
			return
		}
		i, ok := index[s]
		if !ok {
			i = len(sst)
			index[s] = i
			sst = append(sst, "<t>"+s+"</t>")
		}
		fmt.Fprintf(w, `<c r="%s" t="s"><v>%d</v></c>`, ref, i)
	}
	var data bytes.Buffer
	header := []string{"ID", "Name", "ParentID", "Predecessors", "PM Email Address", "Discipline", "Building", "createdAt", "Count"}
	data.WriteString(`<row r="1">`)
	for j, h := range header {
		text(&data, fmt.Sprintf("%s1", sheettest.Column(j)), h)
	}
	data.WriteString(`</row>`)
	for i := range n {
		r := i + 2
		fmt.Fprintf(&data, `<row r="%d">`, r)
		parent, pred := "", ""
		if i > 0 {
			parent = fmt.Sprintf("R-%06d", i/8)
		}
		if i >= 10 && i%2 == 0 {
			pred = fmt.Sprintf("R-%06d FS+1d", i-3)
		}
		for j, v := range []string{fmt.Sprintf("R-%06d", i), fmt.Sprintf("Task %d", i), parent, pred, "pm@example.com", "Mechanical", "Tower A"} {
			text(&data, fmt.Sprintf("%s%d", sheettest.Column(j), r), v)
		}
		fmt.Fprintf(&data, `<c r="H%d" s="1"><v>45691</v></c><c r="I%d"><v>%d</v></c></row>`, r, r, i)
	}
	wb := sheettest.Workbook{Sheets: []sheettest.Sheet{{Name: "Schedule", Part: "xl/worksheets/sheet1.xml", Data: sheettest.Data(data.String())}}}
	if shared {
		wb.SharedStrings = sst
	}
	return wb.Bytes()
}

// processCPU is the process's CPU time, user and system.
func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// cpuPerOp starts measuring the process's CPU; the function it returns
// reports it per operation (cpu-ms/op, with -cpu 1 the reader's own work
// and its garbage collection, whatever else runs on the machine).
func cpuPerOp(b *testing.B) func() {
	start := processCPU()
	return func() {
		b.ReportMetric(float64(processCPU()-start)/float64(b.N)/1e6, "cpu-ms/op")
	}
}

// BenchmarkReadXLSX reads the largest upload, 100,000 rows, with the
// streaming reader and with the excelize reader it replaced (rows only, no
// request built): time, allocations, and the bytes of cells produced.
//
//	go test ./internal/cx/sheet -run '^$' -bench ReadXLSX -benchmem -benchtime 3x
func BenchmarkReadXLSX(b *testing.B) {
	for _, shared := range []bool{true, false} {
		data := scheduleXLSX(100_000, shared)
		cells := map[bool]string{true: "shared", false: "inline"}[shared]
		b.Run(fmt.Sprintf("cells=%s/reader=stream", cells), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			var produced int64
			defer cpuPerOp(b)()
			for b.Loop() {
				produced = 0
				src, err := openXLSX(ctx, bytes.NewReader(data), cx.DefaultMaxSheetBytes, &tally{})
				if err != nil {
					b.Fatal(err)
				}
				for {
					_, cs, err := src.Next()
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
					for _, c := range cs {
						produced += int64(len(c.v))
					}
				}
				src.Close()
			}
			b.ReportMetric(float64(produced), "produced-B/op")
		})
		b.Run(fmt.Sprintf("cells=%s/reader=excelize", cells), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			var produced int64
			defer cpuPerOp(b)()
			for b.Loop() {
				var err error
				if produced, err = readExcelize(data, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(produced), "produced-B/op")
		})
		b.Run(fmt.Sprintf("cells=%s/reader=stream/request", cells), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			defer cpuPerOp(b)()
			for b.Loop() {
				req, err := Read(ctx, bytes.NewReader(data), "plan.xlsx", "S", cx.Limits{})
				if err != nil || len(req.Rows) != 100_000 {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAttackWorkbooks reads the attack workbooks with the excelize
// reader and with the streaming reader: the bytes of cells each produced
// (produced-B/op) and allocated (B/op). The streaming reader refuses both.
//
//	go test ./internal/cx/sheet -run '^$' -bench AttackWorkbooks -benchmem -benchtime 1x
func BenchmarkAttackWorkbooks(b *testing.B) {
	for _, w := range []struct {
		name string
		data []byte
	}{
		{"shared-string-1MiB-x200", sheettest.SharedStringBomb(1<<20, 200)},
		{"escapes-80000-x1", sheettest.EscapeBomb(80_000, 1)},
	} {
		b.Run(w.name+"/reader=excelize", func(b *testing.B) {
			b.ReportAllocs()
			var produced int64
			defer cpuPerOp(b)()
			for b.Loop() {
				var err error
				if produced, err = readExcelize(w.data, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(produced), "produced-B/op")
		})
		b.Run(w.name+"/reader=stream", func(b *testing.B) {
			b.ReportAllocs()
			var tl *tally
			defer cpuPerOp(b)()
			for b.Loop() {
				tl = &tally{}
				if _, err := read(ctx, bytes.NewReader(w.data), "bomb.xlsx", "S", cx.Limits{}, tl); err == nil {
					b.Fatal("the workbook was read")
				}
			}
			b.ReportMetric(float64(tl.bytes), "produced-B/op")
		})
	}
}

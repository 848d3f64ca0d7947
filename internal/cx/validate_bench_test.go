package cx

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// BenchmarkValidate validates generated, valid schedules: a parent tree of
// fan-out 8, two predecessor links per row to earlier rows and a TopDown
// parent link on every fourth row.
func BenchmarkValidate(b *testing.B) {
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		b.Run(fmt.Sprintf("rows=%s", short(n)), func(b *testing.B) {
			req := &Request{ScheduleID: "bench", Rows: benchRows(n)}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				rep := Validate(req, nil)
				if !rep.OK() {
					b.Fatalf("generated rows are invalid: %v", rep.Errors[0])
				}
			}
		})
	}
}

// BenchmarkDecodeRequest decodes the JSON body of the 100k-row schedule.
func BenchmarkDecodeRequest(b *testing.B) {
	body, err := json.Marshal(map[string]any{"scheduleId": "bench", "data": benchRows(100_000)})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("rows=100k", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(body)))
		for b.Loop() {
			if _, err := DecodeRequest(bytes.NewReader(body), Limits{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func short(n int) string {
	switch {
	case n >= 1_000_000:
		return strconv.Itoa(n/1_000_000) + "M"
	case n >= 1000:
		return strconv.Itoa(n/1000) + "k"
	}
	return strconv.Itoa(n)
}

// benchRows generates n valid rows deterministically. Row i's parent is row
// (i-1)/8; its predecessors are two distinct earlier rows among the 64
// before it that are not its ancestors, so the links are acyclic.
func benchRows(n int) []Row {
	rows := make([]Row, n)
	seed := uint64(1)
	rand := func(k int) int {
		seed = seed*6364136223846793005 + 1442695040888963407
		return int(seed>>33) % k
	}
	parent := func(i int) int { return (i - 1) / 8 }
	isAncestor := func(a, i int) bool {
		for i > 0 {
			i = parent(i)
			if i == a {
				return true
			}
		}
		return false
	}
	var preds strings.Builder
	for i := range rows {
		r := &rows[i]
		r.ID = "AHU-" + strconv.Itoa(i)
		r.Name = "Air handling unit " + strconv.Itoa(i)
		r.SystemName = "HVAC"
		r.Discipline = "Mechanical"
		r.Building = "B1"
		r.PMEmail = "pm@example.com"
		r.CreatedAt = "2024-01-15"
		r.UpdatedAt = "2024-02-01"
		if i > 0 {
			r.ParentID = rows[parent(i)].ID
		}
		if i%4 == 0 {
			r.ParentChildDependency = DependencyTopDown
		}
		preds.Reset()
		picked := -1
		for tries := 0; tries < 8 && i > 1; tries++ {
			j := i - 1 - rand(min(i, 64))
			if j == picked || isAncestor(j, i) {
				continue
			}
			if picked >= 0 {
				preds.WriteString(", ")
				preds.WriteString(rows[j].ID + " SS+1d")
				break
			}
			preds.WriteString(rows[j].ID)
			picked = j
		}
		r.Predecessors = preds.String()
	}
	return rows
}

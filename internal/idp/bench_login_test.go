package idp

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/platform/platform/internal/platform"
)

// BenchmarkPasswordLoginConcurrent is the whole password login (authorize →
// form → callback → code exchange, production argon2id parameters) from c
// concurrent clients, with the hash queue bounded to the cores (slots=cores)
// and, side by side, unbounded (slots=c, every hash in flight at once, as
// before the queue). It reports the process's CPU per login, the CPU of
// the hash alone (hash-ms/op: as many verifications from as many clients
// through the same queue, right after the logins), the work beyond the hash
// (overhead-ms/op, the difference; in one process it includes the test
// client's HTTP, cookie and token work, so it bounds the provider's from
// above) and the peak resident memory of the sub-benchmark
// (peak-rss-MiB, the process's VmHWM after a reset):
//
//	go test ./internal/idp -run '^$' -bench LoginConcurrent -benchtime 40x -count 3
func BenchmarkPasswordLoginConcurrent(b *testing.B) {
	for _, c := range []int{1, 2, 4, 8, 16} {
		for _, bounded := range []bool{true, false} {
			name := fmt.Sprintf("c=%d/slots=cores", c)
			if !bounded {
				name = fmt.Sprintf("c=%d/slots=c", c)
			}
			b.Run(name, func(b *testing.B) {
				ti := mustIDP(b, func(cfg *Config) {
					cfg.Password = DefaultPasswordParams
					if !bounded {
						cfg.PasswordHashSlots = c
					}
				})
				r := ti.rp()
				// One account per client: concurrent attempts on one account
				// count against its lockout before their hashes are checked.
				now := time.Now()
				userHash, _ := HashPassword(goodPass, DefaultPasswordParams)
				for i := range c {
					u := platform.User{ID: fmt.Sprintf("u-bench-%d", i), OrgID: orgA, Email: fmt.Sprintf("bench-%d@example.com", i),
						EmailVerified: true, PasswordHash: userHash, CreatedAt: now, UpdatedAt: now}
					if err := ti.st.CreateUser(context.Background(), &u); err != nil {
						b.Fatal(err)
					}
				}
				ti.login(ti.browser(), r, newFlow(), "bench-0@example.com", goodPass) // warm
				// what earlier sub-benchmarks left is not this one's peak
				debug.FreeOSMemory()
				resetPeakRSS()
				var next atomic.Int64
				var wg sync.WaitGroup
				b.ReportAllocs()
				cpu := startCPU(b)
				for i := range c {
					wg.Add(1)
					go func() {
						defer wg.Done()
						email := fmt.Sprintf("bench-%d@example.com", i)
						for next.Add(1) <= int64(b.N) {
							f := newFlow()
							code := ti.login(ti.browser(), r, f, email, goodPass)
							if _, err := r.exchange(f, code); err != nil {
								b.Error(err)
								return
							}
						}
					}()
				}
				wg.Wait()
				b.StopTimer()
				perOp := float64(processCPU()-cpu.start) / float64(b.N) / 1e6
				peak := peakRSSMiB()
				// The hash alone, as many times, from as many clients, through
				// the same queue: what a login costs beyond it is the rest.
				next.Store(0)
				hashStart := processCPU()
				for range c {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for next.Add(1) <= int64(b.N) {
							if ok, _ := ti.p.factors.verifyPassword(context.Background(), goodPass, userHash); !ok {
								b.Error("hash mismatch")
								return
							}
						}
					}()
				}
				wg.Wait()
				hashMS := float64(processCPU()-hashStart) / float64(b.N) / 1e6
				b.ReportMetric(perOp, "cpu-ms/op")
				b.ReportMetric(hashMS, "hash-ms/op")
				b.ReportMetric(perOp-hashMS, "overhead-ms/op")
				b.ReportMetric(peak, "peak-rss-MiB")
			})
		}
	}
}

// resetPeakRSS resets the kernel's high-water mark of the process's
// resident memory (VmHWM), so peakRSSMiB measures what follows.
func resetPeakRSS() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

func peakRSSMiB() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}

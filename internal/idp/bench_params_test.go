package idp

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"testing"
)

// owaspParams are argon2id settings of OWASP's Password Storage Cheat
// Sheet, which it counts as equally strong: less memory bought back with
// more passes. DefaultPasswordParams is one of them (D-argon2-params).
var owaspParams = []PasswordParams{
	{Memory: 19 * 1024, Time: 2, Threads: 1, KeyLen: 32, SaltLen: 16},
	{Memory: 12 * 1024, Time: 3, Threads: 1, KeyLen: 32, SaltLen: 16},
	{Memory: 9 * 1024, Time: 4, Threads: 1, KeyLen: 32, SaltLen: 16},
	{Memory: 7 * 1024, Time: 5, Threads: 1, KeyLen: 32, SaltLen: 16},
}

// BenchmarkPasswordParams verifies a password with each of OWASP's
// equal-strength argon2id settings, slots verifications at a time (the
// hash queue's default is one per core), and reports the process's CPU per
// verification and its peak resident memory (VmHWM, reset after a
// collection before each sub-benchmark):
//
//	go test ./internal/idp -run '^$' -bench PasswordParams -benchtime 200x -count 3
func BenchmarkPasswordParams(b *testing.B) {
	slots := runtime.GOMAXPROCS(0)
	for _, p := range owaspParams {
		hash, err := HashPassword(goodPass, p)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("m=%dMiB/t=%d", p.Memory/1024, p.Time), func(b *testing.B) {
			debug.FreeOSMemory()
			resetPeakRSS()
			jobs := make(chan struct{})
			var wg sync.WaitGroup
			for range slots {
				wg.Go(func() {
					for range jobs {
						if ok, _ := VerifyPassword(goodPass, hash); !ok {
							b.Error("mismatch")
						}
					}
				})
			}
			cpu := startCPU(b)
			for b.Loop() {
				jobs <- struct{}{}
			}
			close(jobs)
			wg.Wait()
			cpu.report(b)
			b.ReportMetric(peakRSSMiB(), "peak-rss-MiB")
		})
	}
}

package main

import "testing"

// Each browser test runs in exactly one of the shards .ci/run splits them
// into, whatever its name, and its subtests go where it goes.
func TestBrowserShardTakesEachTestOnce(t *testing.T) {
	names := []string{"TestBrowserConsoleLogin", "TestBrowserTenantGateway", "TestBrowserConsoleAppUsersTables", "TestBrowserPasskeys", "x"}
	for _, name := range names {
		taken := 0
		for _, shard := range []string{"1/2", "2/2"} {
			t.Setenv("BROWSER_SHARD", shard)
			if inBrowserShard(name) {
				taken++
				if !inBrowserShard(name + "/Reader") {
					t.Errorf("%s is in shard %s but its subtest is not", name, shard)
				}
			}
		}
		if taken != 1 {
			t.Errorf("%s runs in %d of 2 shards, want 1", name, taken)
		}
	}
	t.Setenv("BROWSER_SHARD", "")
	if !inBrowserShard("TestBrowserConsoleLogin") {
		t.Error("without BROWSER_SHARD a run takes every browser test")
	}
	for _, bad := range []string{"0/2", "3/2", "1", "a/b", "1/0"} {
		if _, _, ok := parseShard(bad); ok {
			t.Errorf("parseShard(%q) accepted", bad)
		}
	}
}

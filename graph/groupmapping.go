package graph

import (
	"slices"

	"github.com/platform/platform/graph/model"
	"github.com/platform/platform/internal/platform"
)

// A provider's just-in-time group mapping (D-jit-groups) is a JSON object
// in REST; GraphQL has no maps, so it is a list of entries here, sorted by
// the claim's value.

// groupMappingEntries answers m as entries sorted by value.
func groupMappingEntries(m map[string]string) []*model.GroupMappingEntry {
	out := make([]*model.GroupMappingEntry, 0, len(m))
	for v, g := range m {
		out = append(out, &model.GroupMappingEntry{Value: v, Group: g})
	}
	slices.SortFunc(out, func(a, b *model.GroupMappingEntry) int {
		switch {
		case a.Value < b.Value:
			return -1
		case a.Value > b.Value:
			return 1
		}
		return 0
	})
	return out
}

// groupMappingOf makes the mapping of entries; the admin service checks the
// values and the groups. EINVALID for a value given twice.
func groupMappingOf(entries []*model.GroupMappingEntryInput) (map[string]string, error) {
	m := make(map[string]string, len(entries))
	for _, e := range entries {
		if _, dup := m[e.Value]; dup {
			return nil, platform.Errorf(platform.EINVALID, "groupMapping names the value %q twice", e.Value)
		}
		m[e.Value] = e.Group
	}
	return m, nil
}

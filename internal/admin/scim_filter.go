package admin

import "github.com/platform/platform/internal/store"

// SCIMFilter is a compiled SCIM filter as the store renders it
// (store.SCIMFilter): the SCIM server builds it, the store turns it into a
// parameterised condition.
type SCIMFilter = store.SCIMFilter

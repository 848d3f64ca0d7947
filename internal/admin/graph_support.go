package admin

// IsEntity marks Customer as an Apollo Federation entity of the GraphQL
// subgraph (graph/, D-graphql), which binds its type to this one.
func (Customer) IsEntity() {}

// IsEntity marks Tenant as a federation entity.
func (Tenant) IsEntity() {}

// IsEntity marks Instance as a federation entity.
func (Instance) IsEntity() {}

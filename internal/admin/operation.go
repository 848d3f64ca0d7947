package admin

import (
	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
)

// Operation is one administration operation, declared once (operations.go):
// what it is called in the audit log, the action of the capability matrix it
// is decided on, whether it writes, and what it acts on. The REST route table
// names the operation of each route, the GraphQL schema's fields are mapped
// to theirs (graph/operations.go), and the service method decides on the
// same value, so no transport holds a decision of its own.
type Operation struct {
	// Name is the audit log's name of the operation: noun and verb,
	// "tenant.update".
	Name string
	// Action is the action of the capability matrix the operation needs.
	Action authz.Action
	// Or, on a read, is the action a role that does not hold Action at all
	// reads with instead (D-tenant-reads, D-instance-reads); zero for none.
	Or authz.Action
	// Write asks for full access; otherwise read access is enough. A write
	// that succeeds is audited in its own transaction (Service.audited).
	Write bool
	// Target is what the operation acts on, and so which scope rules can
	// refuse it.
	Target Target
	// GroupManager: a manager of the group the operation acts on may
	// perform it without holding Action (D-group-managers).
	GroupManager bool
	// StepUp: one of the most dangerous actions, which needs a recent
	// sign-in with a second factor (access.Service.CheckStepUp, D-step-up).
	StepUp bool
}

// Target is the kind of thing an operation acts on.
type Target uint8

// Targets of operations.
const (
	// TargetNone names no customer: lists (filtered by the caller's scope),
	// creates of customers, the platform's own resources, internal users.
	TargetNone Target = iota
	// TargetCustomer is a resource of one customer.
	TargetCustomer
	// TargetInstance is a resource of one customer's instance.
	TargetInstance
	// TargetSelf is the caller's own data.
	TargetSelf
	// TargetSelfInternal is the caller's own data, for internal roles only.
	TargetSelfInternal
)

var targetNames = [...]string{"none", "customer", "instance", "self", "self_internal"}

// String is the target's name in testdata/routes.csv: none, customer,
// instance, self or self_internal.
func (t Target) String() string {
	if int(t) < len(targetNames) {
		return targetNames[t]
	}
	return "unknown"
}

// ActionFor is the action c is decided on for op: its Action, or for a read
// with an Or, the Or when c's role holds Or but not Action.
func (op Operation) ActionFor(cat *authz.Catalog, c *access.Caller) authz.Action {
	if op.Or != 0 && !op.Write && cat.AccessOf(&c.Principal, op.Action) == authz.AccessNone &&
		cat.AccessOf(&c.Principal, op.Or) != authz.AccessNone {
		return op.Or
	}
	return op.Action
}

// operations is every declared operation, in declaration order.
var operations []Operation

// declare adds op to the declarations and returns it.
func declare(op Operation) Operation {
	operations = append(operations, op)
	return op
}

// Operations lists every declared operation.
func Operations() []Operation { return append([]Operation(nil), operations...) }

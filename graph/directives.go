package graph

import (
	"context"
	"strings"
	"sync"

	"github.com/99designs/gqlgen/graphql"

	"github.com/platform/platform/graph/model"
	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
)

// directives implements @authz and @redact on the authorization core.
type directives struct {
	access *access.Service
	// manages reports whether the caller manages a group, whose members it
	// may then read, add and remove without the action (D-group-managers);
	// nil where no administration service is.
	manages func(ctx context.Context, c *access.Caller, groupID string) bool
}

// authz decides whether the caller may resolve the field (D-graphql-admin), on the
// operation the field performs (fieldOps, declared in internal/admin; the
// directive's own arguments say the same for readers of the schema, which
// TestFieldOperations checks):
//   - on a root field the caller's role must hold the operation's action
//     (read access for a read, full access for a write); the service the
//     resolver calls decides again on the resource the arguments name;
//   - on a field of a customer, tenant or instance the decision is made on
//     that resource with the caller's scope, 403 FORBIDDEN or 404 NOT_FOUND
//     as REST answers.
//
// A role that does not hold a read's action is decided on its Or instead.
// Denials are audited once per request for each action and resource, so a
// list of 100 customers whose grants a role may not read costs one audit
// write, not 100. A mutation's write is audited by the service, in the
// write's transaction.
func (d *directives) authz(ctx context.Context, obj any, next graphql.Resolver, _ model.Action, _ *model.Action) (any, error) {
	c := access.From(ctx)
	if c == nil {
		return nil, platform.Errorf(platform.EUNAUTHORIZED, "authentication is required")
	}
	fc := graphql.GetFieldContext(ctx)
	op, ok := operationOf(fc)
	if !ok {
		return nil, platform.Errorf(platform.EINTERNAL, "the field declares no operation")
	}
	if gid, _ := fc.Args["groupId"].(string); op.GroupManager && d.manages != nil && d.manages(ctx, c, gid) {
		return next(ctx) // the service decides on the manager's membership operation
	}
	act := op.ActionFor(d.access.Catalog(), c)
	res, onObject := resourceOf(obj)
	if err := d.decide(ctx, c, act, res, onObject, op.Write); err != nil {
		return nil, err
	}
	if op.StepUp { // the most dangerous actions: a recent sign-in with a second factor (D-step-up)
		if err := d.access.CheckStepUp(c); err != nil {
			return nil, err
		}
	}
	return next(ctx)
}

// holds reports whether c's role holds act: read access, or full access for
// a write.
func (d *directives) holds(c *access.Caller, act authz.Action, write bool) bool {
	held := d.access.Catalog().AccessOf(&c.Principal, act)
	return held != authz.AccessNone && (!write || held == authz.AccessFull)
}

// decide answers the decision of authz, remembered per request.
func (d *directives) decide(ctx context.Context, c *access.Caller, act authz.Action, res authz.Resource, onObject, write bool) error {
	cat := d.access.Catalog()
	roleDenied := !d.holds(c, act, write)
	if !roleDenied && !onObject {
		return nil
	}
	if roleDenied {
		res = authz.Resource{} // the role's answer, whatever the resource
	} else if dec := cat.Decide(&c.Principal, &c.Scope, act, res, write); dec.Allowed {
		return nil
	}
	memo := decisionsFrom(ctx)
	key := decisionKey{act: act, res: res, write: write}
	if memo != nil {
		memo.mu.Lock()
		defer memo.mu.Unlock()
		if err, ok := memo.m[key]; ok {
			return err
		}
	}
	err := d.access.Check(ctx, c, act, res, write) // audits the denial
	if memo != nil && err != nil {
		memo.m[key] = err
	}
	return err
}

// redact resolves the field and answers null when the caller's role does
// not hold the permission (R5.7-redact); the services redact as well.
func (d *directives) redact(ctx context.Context, _ any, next graphql.Resolver, unless model.Permission) (any, error) {
	perm, err := parseAction(string(unless))
	if err != nil {
		return nil, err
	}
	c := access.From(ctx)
	if c == nil || d.access.Catalog().AccessOf(&c.Principal, perm) == authz.AccessNone {
		return nil, nil
	}
	return next(ctx)
}

// parseAction maps a schema enum value (VIEW_BILLED_UNITS) to its action.
func parseAction(v string) (authz.Action, error) {
	a, err := authz.ParseAction(strings.ToLower(v))
	if err != nil {
		return 0, platform.Errorf(platform.EINTERNAL, "%v", err)
	}
	return a, nil
}

// resourceOf names the customer and instance a resolved object belongs to.
func resourceOf(obj any) (authz.Resource, bool) {
	switch v := obj.(type) {
	case *admin.Customer:
		if v != nil {
			return authz.Resource{CustomerID: v.ID}, true
		}
	case *admin.Tenant:
		if v != nil {
			r := authz.Resource{CustomerID: v.CustomerID}
			if v.InstanceID != nil {
				r.InstanceID = *v.InstanceID
			}
			return r, true
		}
	case *admin.Instance:
		if v != nil {
			return authz.Resource{CustomerID: v.CustomerID, InstanceID: v.ID}, true
		}
	case *admin.InstanceSecret:
		if v != nil {
			return authz.Resource{CustomerID: v.CustomerID, InstanceID: v.InstanceID}, true
		}
	}
	return authz.Resource{}, false
}

type decisionKey struct {
	act   authz.Action
	res   authz.Resource
	write bool
}

// decisions remembers a request's denials.
type decisions struct {
	mu sync.Mutex
	m  map[decisionKey]error
}

type decisionsKey struct{}

func withDecisions(ctx context.Context) context.Context {
	return context.WithValue(ctx, decisionsKey{}, &decisions{m: map[decisionKey]error{}})
}

func decisionsFrom(ctx context.Context) *decisions {
	d, _ := ctx.Value(decisionsKey{}).(*decisions)
	return d
}

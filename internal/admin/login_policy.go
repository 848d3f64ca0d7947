package admin

import (
	"context"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// A customer organization's login policy at the identity provider, which
// two parts show and change a side of: its security policy
// (security_policy.go) and how its users sign in (sso.go). Both decide on
// the customer and read the policy with the number of identity providers
// the organization has, which its checks depend on.

// loginPolicy reads orgID's login policy and how many external identity
// providers the organization has, through st.
func loginPolicy(ctx context.Context, st *store.Store, orgID string) (*platform.LoginPolicy, int, error) {
	p, err := st.LoginPolicy(ctx, orgID)
	if err != nil {
		return nil, 0, err
	}
	xs, err := st.ExternalIDPs(ctx, orgID)
	if err != nil {
		return nil, 0, err
	}
	return p, len(xs), nil
}

// loginPolicyView answers to c the view of customerID's login policy,
// decided on op on the customer.
func loginPolicyView[V any](ctx context.Context, s *core, c *access.Caller, op Operation, customerID string,
	view func(p *platform.LoginPolicy, providers int) *V) (*V, error) {
	cust, err := s.customerFor(ctx, c, customerID, op)
	if err != nil {
		return nil, err
	}
	p, providers, err := loginPolicy(ctx, s.store, cust.OrgID)
	if err != nil {
		return nil, err
	}
	return view(p, providers), nil
}

// changeLoginPolicy changes customerID's login policy as op, decided on the
// customer and audited on its part ("customers/<id>/<part>"): change
// applies the input to the policy read in the write's transaction and
// checks it (EINVALID), and the policy is stored and answered as view, read
// again as stored (the store keeps passkeys required only where they are
// allowed).
func changeLoginPolicy[V any](ctx context.Context, s *core, c *access.Caller, op Operation, customerID, part string,
	change func(p *platform.LoginPolicy, providers int) error, view func(p *platform.LoginPolicy, providers int) *V) (*V, error) {
	cust, err := s.customerFor(ctx, c, customerID, op)
	if err != nil {
		return nil, err
	}
	var out *V
	err = s.audited(ctx, c, op, on(customerID, "customers", customerID, part), func(tx *store.Store) error {
		p, providers, err := loginPolicy(ctx, tx, cust.OrgID)
		if err != nil {
			return err
		}
		if err := change(p, providers); err != nil {
			return err
		}
		p.UpdatedAt = s.stamp()
		if err := tx.PutLoginPolicy(ctx, p); err != nil {
			return err
		}
		if p, providers, err = loginPolicy(ctx, tx, cust.OrgID); err != nil {
			return err
		}
		out = view(p, providers)
		return nil
	})
	return out, err
}

package idp

import (
	"context"
	"log/slog"
	"slices"
	"strings"

	"github.com/platform/platform/internal/audit"
	"github.com/platform/platform/internal/platform"
)

// Just-in-time groups (D-jit-groups): a provider with a groups claim and a
// mapping makes, at each sign-in through it, the user's memberships of the
// mapped groups match the claim's values; the user's other groups stay. An
// ID token without the claim changes nothing (a provider leaves it out when
// it has too many groups to list). A change is a security event of the
// user's customer.

// MaxGroupsClaim bounds how many values of a groups claim are read.
const MaxGroupsClaim = 1000

// claimValues reads the claim at path (dotted: "realm_access.roles") of an
// ID token's claims: a string is one value, a list its strings; found is
// false when the claim is absent or of another type.
func claimValues(claims map[string]any, path string) (values []string, found bool) {
	var v any = claims
	for _, part := range strings.Split(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[part]; !ok {
			return nil, false
		}
	}
	switch t := v.(type) {
	case string:
		return []string{t}, true
	case []any:
		for _, e := range t {
			if s, ok := e.(string); ok && len(values) < MaxGroupsClaim {
				values = append(values, s)
			}
		}
		return values, true
	}
	return nil, false
}

// syncGroups applies x's mapping to u's groups after a sign-in through x.
// A failure is logged and does not fail the sign-in: the memberships stay
// as they were, as for a token without the claim.
func (p *ssoLogin) syncGroups(ctx context.Context, x *platform.ExternalIDP, u *platform.User, ext *externalIdentity) {
	if x.GroupsClaim == "" || len(x.GroupMapping) == 0 || !ext.HasGroups {
		return
	}
	refs := make([]string, 0, len(x.GroupMapping))
	for _, ref := range x.GroupMapping {
		refs = append(refs, ref)
	}
	gs, err := p.store.GroupsNamed(ctx, x.OrgID, refs)
	if err != nil {
		slog.ErrorContext(ctx, "just-in-time groups", "provider", x.ID, "err", err)
		return
	}
	byRef := map[string]string{}
	var managed []string
	for _, g := range gs {
		byRef[g.ID], byRef[g.Name] = g.ID, g.ID
		managed = append(managed, g.ID)
	}
	var want []string
	for _, v := range ext.Groups {
		if id, ok := byRef[x.GroupMapping[v]]; ok && !slices.Contains(want, id) {
			want = append(want, id)
		}
	}
	joined, left, err := p.store.SyncUserGroups(ctx, u.ID, managed, want, p.now())
	if err != nil {
		slog.ErrorContext(ctx, "just-in-time groups", "provider", x.ID, "err", err)
		return
	}
	if len(joined) == 0 && len(left) == 0 {
		return
	}
	e := about(audit.GroupsSynced, u)
	e.Target = audit.Target{Type: "identity_provider", ID: x.ID}
	e.Details = audit.Details{Method: methodSSO, GroupsJoined: joined, GroupsLeft: left}
	p.recordAfter(ctx, e)
}

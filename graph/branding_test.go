package graph_test

import "testing"

// TestBranding: a customer's branding through GraphQL: set, read back,
// refused values, who may, another customer's refused as not found.
func TestBranding(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	runActions(t, e, []actionCase{
		{name: "branding/unset", user: ownerA, query: `{ customer(id: "cust-acme") { branding { displayName primaryColor logoUrl } } }`,
			wantData: []any{"customer", "branding", "primaryColor"}, wantValue: ""},
		{name: "branding/put", user: ownerA,
			query: `mutation { putBranding(customerId: "cust-acme", input: {displayName: "Acme", primaryColor: "#0b5d1e",
				mailFromName: "Acme Support", mailReplyTo: "help@acme.example"}) { primaryColor textColor contrast } }`,
			wantData: []any{"putBranding", "textColor"}, wantValue: "#ffffff"},
		{name: "branding/read back", user: ownerA, query: `{ customer(id: "cust-acme") { branding { mailReplyTo } } }`,
			wantData: []any{"customer", "branding", "mailReplyTo"}, wantValue: "help@acme.example"},
		{name: "branding/css injection", user: ownerA,
			query:     `mutation { putBranding(customerId: "cust-acme", input: {primaryColor: "red;background:url(x)"}) { primaryColor } }`,
			wantCodes: []string{"BAD_USER_INPUT"}},
		{name: "branding/sender with a line break", user: ownerA,
			query:     `mutation { putBranding(customerId: "cust-acme", input: {mailFromName: "Acme\r\nBcc: x@evil.example"}) { mailFromName } }`,
			wantCodes: []string{"BAD_USER_INPUT"}},
		{name: "branding/logo removed", user: ownerA, query: `mutation { deleteBrandingLogo(customerId: "cust-acme") { logoUrl } }`,
			wantData: []any{"deleteBrandingLogo", "logoUrl"}, wantValue: ""},
		{name: "branding/viewer may not", user: viewerA,
			query: `mutation { putBranding(customerId: "cust-acme", input: {displayName: "X"}) { displayName } }`, wantCodes: []string{"FORBIDDEN"}},
		{name: "branding/owner of another customer: not found", user: ownerG,
			query: `mutation { putBranding(customerId: "cust-acme", input: {displayName: "X"}) { displayName } }`, wantCodes: []string{"NOT_FOUND"}},
		{name: "branding/read as owner of another customer", user: ownerG,
			query: `{ customer(id: "cust-acme") { branding { displayName } } }`, wantCodes: []string{"NOT_FOUND"}},
	})
}

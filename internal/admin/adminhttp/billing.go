package adminhttp

import (
	"net/http"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
)

// billingRoutes: invoices, payments, credits, billing setup and usage of
// customers, open to account_manager within scope (R4.6-customer-side).
// Lists without a customer in the path are filtered by the caller's scope.
func (a *API) billingRoutes() []Route {
	s, cust := a.svc, a.svc.CustomerResource
	return []Route{
		{Method: http.MethodGet, Pattern: "/invoices", Op: admin.OpInvoiceList, Handle: a.listInvoices},
		{Method: http.MethodGet, Pattern: "/invoices/{id}", Op: admin.OpInvoiceGet, Locate: s.InvoiceResource,
			Handle: byID(http.StatusOK, s.Invoice)},
		{Method: http.MethodGet, Pattern: "/customers/{id}/invoices", Op: admin.OpCustomerInvoiceList, Locate: cust, Handle: a.listCustomerInvoices},
		{Method: http.MethodGet, Pattern: "/customers/{id}/invoices/next", Op: admin.OpInvoiceNext, Locate: cust,
			Handle: byID(http.StatusOK, s.NextInvoice)},
		{Method: http.MethodGet, Pattern: "/customers/{id}/payments", Op: admin.OpPaymentList, Locate: cust, Handle: pagedByID(s.ListPayments)},
		{Method: http.MethodGet, Pattern: "/customers/{id}/credits", Op: admin.OpCreditList, Locate: cust, Handle: pagedByID(s.ListCredits)},
		{Method: http.MethodPost, Pattern: "/customers/{id}/credits", Op: admin.OpCreditIssue, Locate: cust,
			Handle: byIDWithBody(http.StatusCreated, s.IssueCredit)},
		{Method: http.MethodGet, Pattern: "/customers/{id}/billing-setup", Op: admin.OpBillingSetupGet, Locate: cust,
			Handle: byID(http.StatusOK, s.BillingSetup)},
		{Method: http.MethodPut, Pattern: "/customers/{id}/billing-setup", Op: admin.OpBillingSetupPut, Locate: cust,
			Handle: byIDWithBody(http.StatusOK, s.PutBillingSetup)},
		{Method: http.MethodGet, Pattern: "/usage", Op: admin.OpUsageList, Handle: a.listUsage},
		{Method: http.MethodGet, Pattern: "/customers/{id}/usage", Op: admin.OpCustomerUsageList, Locate: cust, Handle: a.listCustomerUsage},
		{Method: http.MethodGet, Pattern: "/customers/{id}/usage/billed-totals", Op: admin.OpBilledTotals, Locate: cust, Handle: a.billedTotals},
	}
}

func (a *API) listInvoices(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	p, err := pageInput(r, platform.NewestPages)
	if err != nil {
		return 0, nil, err
	}
	q := r.URL.Query()
	v, err := a.svc.ListInvoices(r.Context(), c, admin.InvoiceFilter{CustomerID: q.Get("customerId"), Status: q.Get("status"),
		Limit: p.Limit, Cursor: p.Cursor})
	return respond(http.StatusOK, v, err)
}

func (a *API) listCustomerInvoices(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	p, err := pageInput(r, platform.NewestPages)
	if err != nil {
		return 0, nil, err
	}
	v, err := a.svc.ListCustomerInvoices(r.Context(), c, id(r), admin.InvoiceFilter{Status: r.URL.Query().Get("status"),
		Limit: p.Limit, Cursor: p.Cursor})
	return respond(http.StatusOK, v, err)
}

// usageFilter reads a usage list's ?customerId=, ?meter=, ?from=, ?to=,
// ?limit= and ?cursor=.
func usageFilter(r *http.Request) (admin.UsageFilter, error) {
	p, err := pageInput(r, platform.NewestPages)
	q := r.URL.Query()
	return admin.UsageFilter{CustomerID: q.Get("customerId"), Meter: q.Get("meter"), From: q.Get("from"), To: q.Get("to"),
		Limit: p.Limit, Cursor: p.Cursor}, err
}

func (a *API) listUsage(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	f, err := usageFilter(r)
	if err != nil {
		return 0, nil, err
	}
	v, err := a.svc.ListUsage(r.Context(), c, f)
	return respond(http.StatusOK, v, err)
}

// listCustomerUsage names the customer in the path; a customerId in the
// query as well is a request this route cannot read.
func (a *API) listCustomerUsage(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	f, err := usageFilter(r)
	if err != nil {
		return 0, nil, err
	}
	if f.CustomerID != "" {
		return 0, nil, platform.Errorf(platform.EINVALID, "customerId is the path's customer here; leave the query parameter out")
	}
	f.CustomerID = id(r)
	v, err := a.svc.ListCustomerUsage(r.Context(), c, f)
	return respond(http.StatusOK, v, err)
}

func (a *API) billedTotals(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	q := r.URL.Query()
	v, err := a.svc.BilledTotals(r.Context(), c, id(r), q.Get("from"), q.Get("to"))
	return respond(http.StatusOK, admin.WholePage(v), err)
}

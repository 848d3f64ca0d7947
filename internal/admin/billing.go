package admin

import (
	"context"
	"net/http"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
)

// billingRoutes: invoices, payments, credits, billing setup and usage of
// customers, open to account_manager within scope (R4.6-customer-side).
// Lists without a customer in the path are filtered by the caller's scope.
func (a *Admin) billingRoutes() []Route {
	cust := a.customerTarget
	inv := ownerTarget(func(ctx context.Context, id string) (string, error) {
		i, err := a.store.Invoice(ctx, id)
		return i.CustomerID, err
	})
	return []Route{
		{Method: http.MethodGet, Pattern: "/invoices", Action: authz.ViewBilling, Handle: a.listInvoices},
		{Method: http.MethodGet, Pattern: "/invoices/{id}", Action: authz.ViewBilling, Target: inv, Handle: a.getInvoice},
		{Method: http.MethodGet, Pattern: "/customers/{id}/invoices", Action: authz.ViewBilling, Target: cust, Handle: a.listCustomerInvoices},
		{Method: http.MethodGet, Pattern: "/customers/{id}/payments", Action: authz.ViewBilling, Target: cust, Handle: a.listPayments},
		{Method: http.MethodGet, Pattern: "/customers/{id}/credits", Action: authz.ViewBilling, Target: cust, Handle: a.listCredits},
		{Method: http.MethodPost, Pattern: "/customers/{id}/credits", Action: authz.ManageBilling, Write: true, Target: cust, Handle: a.issueCredit},
		{Method: http.MethodGet, Pattern: "/customers/{id}/billing-setup", Action: authz.ViewBilling, Target: cust, Handle: a.getBillingSetup},
		{Method: http.MethodPut, Pattern: "/customers/{id}/billing-setup", Action: authz.ManageBilling, Write: true, Target: cust, Handle: a.putBillingSetup},
		{Method: http.MethodGet, Pattern: "/usage", Action: authz.ViewUsageUnits, Handle: a.listUsage},
		{Method: http.MethodGet, Pattern: "/customers/{id}/usage", Action: authz.ViewUsageUnits, Target: cust, Handle: a.listCustomerUsage},
		{Method: http.MethodGet, Pattern: "/customers/{id}/usage/billed-totals", Action: authz.ViewBilledUnits, Target: cust, Handle: a.billedTotals},
	}
}

func (a *Admin) listInvoices(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	p, err := pageInput(r)
	if err != nil {
		return 0, nil, err
	}
	q := r.URL.Query()
	v, err := a.svc.ListInvoices(r.Context(), c, InvoiceFilter{CustomerID: q.Get("customerId"), Status: q.Get("status"),
		Limit: p.Limit, Cursor: p.Cursor})
	return respond(http.StatusOK, v, err)
}

func (a *Admin) listCustomerInvoices(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	p, err := pageInput(r)
	if err != nil {
		return 0, nil, err
	}
	v, err := a.svc.ListCustomerInvoices(r.Context(), c, id(r), InvoiceFilter{Status: r.URL.Query().Get("status"),
		Limit: p.Limit, Cursor: p.Cursor})
	return respond(http.StatusOK, v, err)
}

func (a *Admin) getInvoice(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	v, err := a.svc.Invoice(r.Context(), c, id(r))
	return respond(http.StatusOK, v, err)
}

func (a *Admin) listPayments(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	p, err := pageInput(r)
	if err != nil {
		return 0, nil, err
	}
	v, err := a.svc.ListPayments(r.Context(), c, id(r), p)
	return respond(http.StatusOK, v, err)
}

func (a *Admin) listCredits(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	p, err := pageInput(r)
	if err != nil {
		return 0, nil, err
	}
	v, err := a.svc.ListCredits(r.Context(), c, id(r), p)
	return respond(http.StatusOK, v, err)
}

func (a *Admin) issueCredit(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	var in CreditInput
	if err := decode(r, &in); err != nil {
		return 0, nil, err
	}
	v, err := a.svc.IssueCredit(r.Context(), c, id(r), in)
	return respond(http.StatusCreated, v, err)
}

func (a *Admin) getBillingSetup(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	v, err := a.svc.BillingSetup(r.Context(), c, id(r))
	return respond(http.StatusOK, v, err)
}

func (a *Admin) putBillingSetup(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	var in BillingSetupInput
	if err := decode(r, &in); err != nil {
		return 0, nil, err
	}
	v, err := a.svc.PutBillingSetup(r.Context(), c, id(r), in)
	return respond(http.StatusOK, v, err)
}

func usageFilter(r *http.Request) (UsageFilter, error) {
	p, err := pageInput(r)
	q := r.URL.Query()
	return UsageFilter{CustomerID: q.Get("customerId"), Meter: q.Get("meter"), From: q.Get("from"), To: q.Get("to"),
		Limit: p.Limit, Cursor: p.Cursor}, err
}

func (a *Admin) listUsage(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	f, err := usageFilter(r)
	if err != nil {
		return 0, nil, err
	}
	v, err := a.svc.ListUsage(r.Context(), c, f)
	return respond(http.StatusOK, v, err)
}

func (a *Admin) listCustomerUsage(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	f, err := usageFilter(r)
	if err != nil {
		return 0, nil, err
	}
	if f.CustomerID != "" {
		return 0, nil, invalid("customerId is the path's customer here; leave the query parameter out")
	}
	f.CustomerID = id(r)
	v, err := a.svc.ListCustomerUsage(r.Context(), c, f)
	return respond(http.StatusOK, v, err)
}

func (a *Admin) billedTotals(r *http.Request, c *access.Caller, _ authz.Resource) (int, any, error) {
	q := r.URL.Query()
	v, err := a.svc.BilledTotals(r.Context(), c, id(r), q.Get("from"), q.Get("to"))
	return respond(http.StatusOK, items(v), err)
}

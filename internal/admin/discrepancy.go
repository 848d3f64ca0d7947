package admin

import (
	"context"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// discrepancies manages the discrepancies inbox.
type discrepancies struct{ *core }

// DiscrepancyInput reports an inbox item. Kind is a lower-case key (for
// example billing_mismatch, instance_drift); customerId is optional and
// must name a customer.
type DiscrepancyInput struct {
	Kind       string `json:"kind"`
	CustomerID string `json:"customerId,omitempty"`
	Resource   string `json:"resource,omitempty"`
	Summary    string `json:"summary"`
	Detail     string `json:"detail,omitempty"`
}

// ResolutionInput resolves an item, saying how.
type ResolutionInput struct {
	Resolution string `json:"resolution"`
}

// DiscrepancyView is an item of the discrepancies inbox as the API shows
// it; customerId is empty for a platform-wide item, resolvedAt null while
// it is open.
type DiscrepancyView struct {
	ID         string     `json:"id"`
	Kind       string     `json:"kind"`
	CustomerID string     `json:"customerId"`
	Resource   string     `json:"resource"`
	Summary    string     `json:"summary"`
	Detail     string     `json:"detail"`
	Status     string     `json:"status"`
	DetectedAt time.Time  `json:"detectedAt"`
	ResolvedAt *time.Time `json:"resolvedAt"`
	ResolvedBy string     `json:"resolvedBy"`
	Resolution string     `json:"resolution"`
}

func newDiscrepancyView(d *store.Discrepancy) *DiscrepancyView {
	return &DiscrepancyView{ID: d.ID, Kind: d.Kind, CustomerID: d.CustomerID, Resource: d.Resource, Summary: d.Summary,
		Detail: d.Detail, Status: d.Status, DetectedAt: d.DetectedAt, ResolvedAt: d.ResolvedAt, ResolvedBy: d.ResolvedBy,
		Resolution: d.Resolution}
}

// ListDiscrepancies lists inbox items of a status (open, resolved, or all
// when empty), newest first, within the caller's scope.
func (s *discrepancies) ListDiscrepancies(ctx context.Context, c *access.Caller, status string, limit int) (*Page[*DiscrepancyView], error) {
	return infraList(ctx, s.core, c, OpDiscrepancyList, func(ctx context.Context) ([]store.Discrepancy, error) {
		if status != "" {
			if _, err := oneOf("status", status, store.DiscrepancyOpen, store.DiscrepancyResolved); err != nil {
				return nil, err
			}
		}
		if err := platform.NewestPages.Check("limit", limit); err != nil {
			return nil, err
		}
		return s.store.Discrepancies(ctx, status, c.Scope.Filter(), limit)
	}, newDiscrepancyView)
}

// ReportDiscrepancy adds an open item. EINVALID, also for an unknown customer.
func (s *discrepancies) ReportDiscrepancy(ctx context.Context, c *access.Caller, in DiscrepancyInput) (*DiscrepancyView, error) {
	if err := s.check(ctx, c, OpDiscrepancyReport, authz.Resource{CustomerID: in.CustomerID}); err != nil {
		return nil, err
	}
	d := &store.Discrepancy{ID: newID(), Status: store.DiscrepancyOpen, DetectedAt: s.stamp(), CustomerID: in.CustomerID}
	var f fields
	f.key(&d.Kind, "kind", &in.Kind)
	f.text(&d.Resource, "resource", &in.Resource, 500)
	f.required(&d.Summary, "summary", &in.Summary, 500)
	f.text(&d.Detail, "detail", &in.Detail, 20000)
	if f.err != nil {
		return nil, f.err
	}
	if d.CustomerID != "" {
		if _, err := s.store.Customer(ctx, d.CustomerID); platform.ErrorCode(err) == platform.ENOTFOUND {
			return nil, invalid("customerId names no customer")
		} else if err != nil {
			return nil, err
		}
	}
	// the inbox is the platform's: its events name no customer
	return created(ctx, s.core, c, OpDiscrepancyReport, on("", "discrepancies", d.ID), d, (*store.Store).CreateDiscrepancy,
		newDiscrepancyView)
}

// discrepancyFor loads an item and checks op on its customer.
func (s *discrepancies) discrepancyFor(ctx context.Context, c *access.Caller, id string, op Operation) (*store.Discrepancy, error) {
	return decided(ctx, s.core, c, op, discrepancyResource)(s.store.Discrepancy(ctx, id))
}

// Discrepancy returns one item. ENOTFOUND.
func (s *discrepancies) Discrepancy(ctx context.Context, c *access.Caller, id string) (*DiscrepancyView, error) {
	return viewing(newDiscrepancyView)(s.discrepancyFor(ctx, c, id, OpDiscrepancyGet))
}

// ResolveDiscrepancy resolves an open item. EINVALID without a resolution;
// ECONFLICT when already resolved.
func (s *discrepancies) ResolveDiscrepancy(ctx context.Context, c *access.Caller, id string, in ResolutionInput) (*DiscrepancyView, error) {
	return s.setStatus(ctx, c, OpDiscrepancyResolve, id, func(d *store.Discrepancy) error {
		res, err := required("resolution", in.Resolution, 2000)
		if err != nil {
			return err
		}
		if d.Status != store.DiscrepancyOpen {
			return platform.Errorf(platform.ECONFLICT, "the item is already resolved")
		}
		now := s.stamp()
		d.Status, d.ResolvedAt, d.ResolvedBy, d.Resolution = store.DiscrepancyResolved, &now, c.UserID, res
		return nil
	})
}

// ReopenDiscrepancy reopens a resolved item. ECONFLICT when it is open.
func (s *discrepancies) ReopenDiscrepancy(ctx context.Context, c *access.Caller, id string) (*DiscrepancyView, error) {
	return s.setStatus(ctx, c, OpDiscrepancyReopen, id, func(d *store.Discrepancy) error {
		if d.Status != store.DiscrepancyResolved {
			return platform.Errorf(platform.ECONFLICT, "the item is already open")
		}
		d.Status, d.ResolvedAt, d.ResolvedBy, d.Resolution = store.DiscrepancyOpen, nil, "", ""
		return nil
	})
}

// setStatus changes the status of the item id as op: change checks the item
// and sets its status, resolution and who resolved it when, which are stored.
func (s *discrepancies) setStatus(ctx context.Context, c *access.Caller, op Operation, id string,
	change func(*store.Discrepancy) error) (*DiscrepancyView, error) {
	d, err := s.discrepancyFor(ctx, c, id, op)
	if err != nil {
		return nil, err
	}
	if err := change(d); err != nil {
		return nil, err
	}
	err = s.audited(ctx, c, op, on("", "discrepancies", id), func(tx *store.Store) error {
		return tx.SetDiscrepancyStatus(ctx, id, d.Status, d.ResolvedAt, d.ResolvedBy, d.Resolution)
	})
	if err != nil {
		return nil, err
	}
	return newDiscrepancyView(d), nil
}

func discrepancyResource(d *store.Discrepancy) authz.Resource {
	return authz.Resource{CustomerID: d.CustomerID}
}

package graph

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/platform/platform/graph/model"
	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/cx"
	"github.com/platform/platform/internal/data"
	"github.com/platform/platform/internal/platform"
)

// dataCaller returns the data service and the caller. Only the data
// subgraph and the whole graph have fields that call it, and both run it.
func (r *Resolver) dataCaller(ctx context.Context) (*data.Service, *access.Caller, error) {
	if r.Data == nil {
		return nil, nil, platform.Errorf(platform.EINTERNAL, "the data service is not configured")
	}
	c, err := caller(ctx)
	if err != nil {
		return nil, nil, err
	}
	return r.Data, c, nil
}

func recordQuery(f *model.MasterRecordFilter, sort *string) data.Query {
	q := data.Query{Sort: str(sort)}
	if f != nil {
		q.TenantID, q.ProjectID, q.ParentID = str(f.TenantID), str(f.ProjectID), str(f.ParentID)
		q.RootsOnly, q.IncludeDeleted = flag(f.RootsOnly), flag(f.IncludeDeleted)
	}
	return q
}

// masterRecordPage answers a D-master page of q with the page and pageSize
// arguments (Query.masterRecords, Tenant.masterRecords).
func masterRecordPage(ctx context.Context, svc *data.Service, c *access.Caller, master string, q data.Query, page, pageSize *int) (*model.MasterRecordPage, error) {
	var err error
	if q.Page, err = platform.RecordPageNumbers.Arg("page", page); err != nil {
		return nil, err
	}
	if q.PageSize, err = platform.RecordPages.Arg("pageSize", pageSize); err != nil {
		return nil, err
	}
	p, err := svc.ListMasterRecords(ctx, c, master, q)
	if err != nil {
		return nil, err
	}
	return &model.MasterRecordPage{Rows: records(p.Rows), Total: p.Total, Page: p.Page, PageSize: p.PageSize, TotalPages: p.TotalPages}, nil
}

func records(rows []data.Record) []*data.Record {
	out := make([]*data.Record, len(rows))
	for i := range rows {
		out[i] = &rows[i]
	}
	return out
}

// Record cursors are positions in the listing's order: "o:<offset>", base64.
func encodeOffset(n int) string {
	return base64.RawURLEncoding.EncodeToString([]byte("o:" + strconv.Itoa(n)))
}

func decodeOffset(s string) (int, error) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	n, ok := strings.CutPrefix(string(b), "o:")
	v, aerr := strconv.Atoi(n)
	if err != nil || !ok || aerr != nil || v < 0 || v > 100_000_000 {
		return 0, platform.Errorf(platform.EINVALID, "after is not a cursor of this listing")
	}
	return v, nil
}

// recordConnection answers the Relay connection over the D-master listing:
// the records after the cursor's position, in pages of the service's
// paging (one listing when the position is a multiple of first, else two).
func recordConnection(ctx context.Context, svc *data.Service, c *access.Caller, master string, q data.Query, first *int, after *string) (*model.MasterRecordConnection, error) {
	n, err := platform.RecordPages.Arg("first", first)
	if err != nil {
		return nil, err
	}
	n = platform.RecordPages.Size(n)
	start := 0
	if after != nil {
		o, err := decodeOffset(*after)
		if err != nil {
			return nil, err
		}
		start = o + 1
	}
	q.PageSize, q.Page = n, start/n+1
	p, err := svc.ListMasterRecords(ctx, c, master, q)
	if err != nil {
		return nil, err
	}
	rows := p.Rows[min(start%n, len(p.Rows)):]
	if start%n != 0 && len(rows) < n && start+len(rows) < p.Total {
		q.Page++
		next, err := svc.ListMasterRecords(ctx, c, master, q)
		if err != nil {
			return nil, err
		}
		rows = append(rows, next.Rows[:min(n-len(rows), len(next.Rows))]...)
	}
	out := &model.MasterRecordConnection{Edges: make([]*model.MasterRecordEdge, len(rows)), TotalCount: p.Total,
		PageInfo: &model.PageInfo{HasPreviousPage: start > 0, HasNextPage: start+len(rows) < p.Total}}
	for i := range rows {
		out.Edges[i] = &model.MasterRecordEdge{Cursor: encodeOffset(start + i), Node: &rows[i]}
	}
	if len(rows) > 0 {
		s, e := out.Edges[0].Cursor, out.Edges[len(rows)-1].Cursor
		out.PageInfo.StartCursor, out.PageInfo.EndCursor = &s, &e
	}
	return out, nil
}

// cxUpload runs the upload the REST route runs, on the same body: the rows
// go through data.DecodeJSON and data.Service.Upload, so the report is the
// one REST answers (D-cx). Broken rules are a report with status invalid,
// not an error; request-level problems are errors.
func cxUpload(ctx context.Context, svc *data.Service, c *access.Caller, in model.CxUploadInput) (*model.CxUploadResult, error) {
	if err := svc.AuthorizeUpload(ctx, c); err != nil {
		return nil, err
	}
	body, err := json.Marshal(struct {
		ScheduleID string          `json:"scheduleId"`
		Data       json.RawMessage `json:"data"`
	}{in.ScheduleID, in.Data})
	if err != nil {
		return nil, platform.Errorf(platform.EINVALID, "data is not valid JSON")
	}
	req, err := data.DecodeJSON(bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	res, err := svc.Upload(ctx, c, req, data.UploadOptions{DryRun: flag(in.DryRun), IdempotencyKey: str(in.IdempotencyKey)})
	var verr *data.ValidationError
	switch {
	case errors.As(err, &verr):
		return &model.CxUploadResult{ScheduleID: verr.ScheduleID, DryRun: verr.DryRun, Status: "invalid",
			Summary: &verr.Report.Summary, Warnings: issues(verr.Report.Warnings), Errors: issues(verr.Report.Errors),
			Truncated: verr.Report.Truncated}, nil
	case err != nil:
		return nil, err
	}
	return &model.CxUploadResult{ScheduleID: res.ScheduleID, DryRun: res.DryRun, Status: res.Status, Summary: &res.Summary,
		Warnings: issues(res.Warnings), Errors: []*cx.Issue{}}, nil
}

func issues(list []cx.Issue) []*cx.Issue {
	out := make([]*cx.Issue, len(list))
	for i := range list {
		out[i] = &list[i]
	}
	return out
}

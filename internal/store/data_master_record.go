package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/platform/platform/internal/platform"
)

// MasterRecord is one record of a master. ParentID is empty for a record
// without parent; CustomFields is a JSON object.
type MasterRecord struct {
	ID           string
	MasterID     string
	TenantID     string
	ProjectID    string
	ParentID     string
	Slug         string
	RefID        string
	CustomFields json.RawMessage
	CreatedBy    string
	CreatedAt    time.Time
	IsDeleted    bool
}

// recordColumns are the columns of master_records in MasterRecord's order;
// recordSelect selects them of the table aliased r (scanRecord reads them).
var (
	recordColumns = []string{"id", "master_id", "tenant_id", "project_id", "parent_id", "slug", "ref_id",
		"custom_fields", "created_by", "created_at", "is_deleted"}
	recordSelect = "r." + strings.Join(recordColumns, ", r.")
)

// InsertMasterRecords stores records in one transaction: with COPY on
// PostgreSQL, in batched INSERTs on SQLite. An empty CustomFields is stored
// as {}. The masters' record counters and versions are updated in the same
// transaction. ECONFLICT when an id is taken.
func (s *Data) InsertMasterRecords(ctx context.Context, recs []MasterRecord) error {
	values := make([][]any, len(recs))
	type counts struct{ live, all int64 }
	per := map[string]*counts{}
	var order []string
	for i := range recs {
		r := &recs[i]
		custom := string(r.CustomFields)
		if custom == "" {
			custom = "{}"
		}
		values[i] = []any{r.ID, r.MasterID, r.TenantID, r.ProjectID, nullString(r.ParentID), r.Slug, r.RefID,
			custom, r.CreatedBy, r.CreatedAt.UTC(), r.IsDeleted}
		c := per[r.MasterID]
		if c == nil {
			c = &counts{}
			per[r.MasterID] = c
			order = append(order, r.MasterID)
		}
		c.all++
		if !r.IsDeleted {
			c.live++
		}
	}
	return s.InTx(ctx, func(tx *Store) error {
		if err := tx.bulkInsert(ctx, "master_records", recordColumns, values, ""); err != nil {
			return wrap(err, "master record")
		}
		slices.Sort(order) // a fixed order of row locks, against deadlocks between writers
		for _, id := range order {
			c := per[id]
			if _, err := tx.db.Exec(ctx, `UPDATE masters SET live_records = live_records + $2, all_records = all_records + $3,
				records_version = records_version + 1 WHERE id = $1`, id, c.live, c.all); err != nil {
				return err
			}
		}
		return nil
	})
}

// Sort fields of a master-record listing.
const (
	SortCreatedAt = "createdAt"
	SortSlug      = "slug"
	SortRefID     = "refId"
	SortCustom    = "customFields"
)

// RecordSort orders a listing by one field, then by id in the same direction.
// For SortCustom, Key and Type name the custom field; records without a
// value of that type come last in both directions, and string arrays sort by
// their first element.
type RecordSort struct {
	Field string
	Key   string
	Type  string
	Desc  bool
}

// RecordQuery selects a page of master records of the masters MasterIDs.
// ParentID selects the children of one record; RootsOnly those without parent.
type RecordQuery struct {
	MasterIDs      []string
	ProjectID      string
	ParentID       string
	RootsOnly      bool
	IncludeDeleted bool
	Sort           RecordSort
	Limit, Offset  int
}

// RecordPage is a page of records and the number of all records the query
// selects, read in one statement and so from one snapshot.
type RecordPage struct {
	Records []MasterRecord
	Total   int
}

// ListMasterRecords returns one page of records and the exact total.
// EINVALID for an unknown sort field.
//
// A listing of one large master in creation order, without project or
// parent filter, reads its total from the master's counters and seeks to its
// page through the master's page marks, so its cost does not grow with the
// page number; marks that are behind the records are rebuilt first. Any
// other listing counts and skips in SQL.
func (s *Data) ListMasterRecords(ctx context.Context, q RecordQuery) (*RecordPage, error) {
	if len(q.MasterIDs) == 0 {
		return &RecordPage{Records: []MasterRecord{}}, nil
	}
	if markable(q) {
		for attempt := 0; attempt < 2; attempt++ {
			page, err := s.markedPage(ctx, q)
			if err != nil || page != nil {
				return page, err
			}
		}
	}
	return s.scannedPage(ctx, q)
}

// Page marks: one mark every markSpacing records, kept for masters of at
// least markThreshold records (smaller ones are quick to skip through).
const (
	markSpacing   = 1000
	markThreshold = 20_000
)

// markable reports whether page marks can answer q.
func markable(q RecordQuery) bool {
	return len(q.MasterIDs) == 1 && q.ProjectID == "" && q.ParentID == "" && !q.RootsOnly && q.Limit > 0 &&
		(q.Sort.Field == "" || q.Sort.Field == SortCreatedAt)
}

// markedPage answers q through the master's counters and page marks, or
// returns nil when it cannot: the master is small, or its records changed
// between the statements (the caller then tries again or scans).
func (s *Data) markedPage(ctx context.Context, q RecordQuery) (*RecordPage, error) {
	id := q.MasterIDs[0]
	var live, all, version, marksVersion int64
	err := s.db.QueryRow(ctx, `SELECT live_records, all_records, records_version, marks_version FROM masters WHERE id = $1`, id).
		Scan(&live, &all, &version, &marksVersion)
	if errors.Is(err, ErrNoRows) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	total := live
	if q.IncludeDeleted {
		total = all
	}
	if total < markThreshold {
		return nil, nil
	}
	if marksVersion != version {
		if err := s.BuildMasterRecordMarks(ctx, id); err != nil {
			return nil, err
		}
		return nil, nil // read the counters again
	}
	out := &RecordPage{Records: []MasterRecord{}, Total: int(total)}
	if int64(q.Offset) >= total {
		return out, nil
	}
	n := min(int64(q.Limit), total-int64(q.Offset))
	start := int64(q.Offset) // position of the page's first record in ascending order
	if q.Sort.Desc {
		start = total - int64(q.Offset) - n
	}
	live1 := ""
	if !q.IncludeDeleted {
		live1 = ` AND r.is_deleted = FALSE`
	}
	// The mark's values go in as scalar subqueries, which the planners turn
	// into constants of the index range: (master_id, created_at, id) >= (…).
	rows, err := s.db.Query(ctx, `SELECT m.records_version, `+recordSelect+`
		FROM masters m
		LEFT JOIN (SELECT r.id, r.created_at AS k FROM master_records r
			WHERE r.master_id = $1`+live1+` AND (r.created_at, r.id) >= (
				(SELECT created_at FROM master_record_marks WHERE master_id = $1 AND deleted = $2 AND n = $3),
				(SELECT record_id FROM master_record_marks WHERE master_id = $1 AND deleted = $2 AND n = $3))
			ORDER BY r.created_at, r.id LIMIT $4 OFFSET $5) page ON TRUE
		LEFT JOIN master_records r ON r.id = page.id
		WHERE m.id = $1
		ORDER BY page.k, page.id`, id, q.IncludeDeleted, start/markSpacing, n, start%markSpacing)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var v int64
		r, ok, err := scanRecord(rows, &v)
		if err != nil {
			return nil, err
		}
		if v != version {
			return nil, nil // changed since the counters were read
		}
		if ok {
			out.Records = append(out.Records, r)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if int64(len(out.Records)) != n {
		return nil, fmt.Errorf("master %s: page marks out of step with the records", id)
	}
	if q.Sort.Desc {
		slices.Reverse(out.Records)
	}
	return out, nil
}

// BuildMasterRecordMarks rebuilds a master's page marks unless they are
// current, in one transaction that holds the master against writers.
func (s *Data) BuildMasterRecordMarks(ctx context.Context, masterID string) error {
	return s.InTx(ctx, func(tx *Store) error {
		lock := ""
		if tx.Dialect() == Postgres {
			lock = ` FOR UPDATE`
		}
		var version, marksVersion int64
		if err := tx.db.QueryRow(ctx, `SELECT records_version, marks_version FROM masters WHERE id = $1`+lock, masterID).
			Scan(&version, &marksVersion); err != nil {
			return wrap(err, "master")
		}
		if version == marksVersion {
			return nil
		}
		if _, err := tx.db.Exec(ctx, `DELETE FROM master_record_marks WHERE master_id = $1`, masterID); err != nil {
			return err
		}
		for _, deleted := range []bool{false, true} {
			live := ` AND is_deleted = FALSE`
			if deleted {
				live = ""
			}
			if _, err := tx.db.Exec(ctx, `INSERT INTO master_record_marks (master_id, deleted, n, created_at, record_id)
				SELECT $1, $2, rn / $3, created_at, id FROM (
					SELECT created_at, id, ROW_NUMBER() OVER (ORDER BY created_at, id) - 1 AS rn
					FROM master_records WHERE master_id = $1`+live+`) x
				WHERE rn % $3 = 0`, masterID, deleted, markSpacing); err != nil {
				return err
			}
		}
		_, err := tx.db.Exec(ctx, `UPDATE masters SET marks_version = $2 WHERE id = $1`, masterID, version)
		return err
	})
}

// scanRecord scans a record of a listing's LEFT JOIN (after the leading
// columns lead), reporting false when the row holds no record.
func scanRecord(rows Rows, lead ...any) (MasterRecord, bool, error) {
	var id, master, tenant, project, parent, slug, ref, custom, by sql.NullString
	var at sql.NullTime
	var deleted sql.NullBool
	dest := append(lead, &id, &master, &tenant, &project, &parent, &slug, &ref, &custom, &by, &at, &deleted)
	if err := rows.Scan(dest...); err != nil {
		return MasterRecord{}, false, err
	}
	if !id.Valid {
		return MasterRecord{}, false, nil
	}
	return MasterRecord{ID: id.String, MasterID: master.String, TenantID: tenant.String,
		ProjectID: project.String, ParentID: parent.String, Slug: slug.String, RefID: ref.String,
		CustomFields: json.RawMessage(custom.String), CreatedBy: by.String, CreatedAt: at.Time.UTC(), IsDeleted: deleted.Bool}, true, nil
}

// scannedPage answers q with one statement that counts every selected
// record and skips to the page, so the page and the total come from one
// snapshot.
func (s *Data) scannedPage(ctx context.Context, q RecordQuery) (*RecordPage, error) {
	var args []any
	where := `master_id IN (` + placeholders(&args, q.MasterIDs) + `)`
	if len(q.MasterIDs) == 1 {
		where = `master_id = $1`
	}
	if !q.IncludeDeleted {
		where += ` AND is_deleted = FALSE`
	}
	if q.ProjectID != "" {
		args = append(args, q.ProjectID)
		where += ` AND project_id = $` + strconv.Itoa(len(args))
	}
	switch {
	case q.RootsOnly:
		where += ` AND parent_id IS NULL`
	case q.ParentID != "":
		args = append(args, q.ParentID)
		where += ` AND parent_id = $` + strconv.Itoa(len(args))
	}
	key, nullsLast, err := s.sortKey(q.Sort, &args)
	if err != nil {
		return nil, err
	}
	dir := ""
	if q.Sort.Desc {
		dir = " DESC"
	}
	order := func(k, id string) string {
		o := k + dir + ", " + id + dir
		if nullsLast {
			o = "(" + k + " IS NULL), " + o
		}
		return o
	}
	args = append(args, q.Limit, q.Offset)
	sqlText := `WITH page AS (
			SELECT id, ` + key + ` AS k FROM master_records WHERE ` + where + `
			ORDER BY ` + order(key, "id") + ` LIMIT $` + strconv.Itoa(len(args)-1) + ` OFFSET $` + strconv.Itoa(len(args)) + `
		), total AS (SELECT COUNT(*) AS n FROM master_records WHERE ` + where + `)
		SELECT total.n, ` + recordSelect + `
		FROM total LEFT JOIN page ON TRUE LEFT JOIN master_records r ON r.id = page.id
		ORDER BY ` + order("page.k", "page.id")
	rows, err := s.db.Query(ctx, sqlText, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := &RecordPage{Records: make([]MasterRecord, 0, q.Limit)}
	for rows.Next() {
		r, ok, err := scanRecord(rows, &out.Total)
		if err != nil {
			return nil, err
		}
		if ok {
			out.Records = append(out.Records, r)
		}
	}
	return out, rows.Err()
}

// sortKey returns the SQL expression a listing sorts by and whether it may
// be NULL. Text sorts by bytes on both databases.
func (s *Data) sortKey(srt RecordSort, args *[]any) (string, bool, error) {
	collate := ""
	if s.Dialect() == Postgres {
		collate = ` COLLATE "C"`
	}
	switch srt.Field {
	case "", SortCreatedAt:
		return "created_at", false, nil
	case SortSlug:
		return "slug" + collate, false, nil
	case SortRefID:
		return "ref_id" + collate, false, nil
	case SortCustom:
	default:
		return "", false, platform.Errorf(platform.EINVALID, "cannot sort by %q", srt.Field)
	}
	if !fieldKey.MatchString(srt.Key) {
		return "", false, platform.Errorf(platform.EINVALID, "cannot sort by custom field %q", srt.Key)
	}
	if s.Dialect() == Postgres {
		*args = append(*args, srt.Key)
		k := `CAST($` + strconv.Itoa(len(*args)) + ` AS TEXT)`
		v := `(custom_fields::jsonb -> ` + k + `)`
		switch srt.Type {
		case FieldNumber:
			return `(CASE WHEN jsonb_typeof(` + v + `) = 'number' THEN (` + v + ` #>> '{}')::numeric END)`, true, nil
		case FieldBoolean:
			return `(CASE WHEN jsonb_typeof(` + v + `) = 'boolean' THEN (` + v + ` #>> '{}')::boolean END)`, true, nil
		case FieldStringArray:
			return `(CASE WHEN jsonb_typeof(` + v + `) = 'array' THEN (` + v + ` ->> 0) END)` + collate, true, nil
		default:
			return `(CASE WHEN jsonb_typeof(` + v + `) = 'string' THEN (` + v + ` #>> '{}') END)` + collate, true, nil
		}
	}
	path := `$."` + srt.Key + `"`
	*args = append(*args, path)
	p := `$` + strconv.Itoa(len(*args))
	switch srt.Type {
	case FieldNumber:
		return `(CASE WHEN json_type(custom_fields, ` + p + `) IN ('integer', 'real') THEN json_extract(custom_fields, ` + p + `) END)`, true, nil
	case FieldBoolean:
		return `(CASE WHEN json_type(custom_fields, ` + p + `) IN ('true', 'false') THEN json_extract(custom_fields, ` + p + `) END)`, true, nil
	case FieldStringArray:
		*args = append(*args, path+"[0]")
		p0 := `$` + strconv.Itoa(len(*args))
		return `(CASE WHEN json_type(custom_fields, ` + p + `) = 'array' AND json_type(custom_fields, ` + p0 + `) = 'text' THEN json_extract(custom_fields, ` + p0 + `) END)`, true, nil
	default:
		return `(CASE WHEN json_type(custom_fields, ` + p + `) = 'text' THEN json_extract(custom_fields, ` + p + `) END)`, true, nil
	}
}

// MasterRecordsByIDs returns the records of ids among the tenants f
// selects, with their masters, in one statement (the GraphQL subgraph's
// batched MasterRecord entity resolver). Missing and unreadable records
// are left out; the order is unspecified.
func (s *Data) MasterRecordsByIDs(ctx context.Context, ids []string, f TenantFilter) ([]MasterRecord, map[string]*Master, error) {
	masters := map[string]*Master{}
	if len(ids) == 0 {
		return nil, masters, nil
	}
	var args []any
	in := placeholders(&args, ids)
	cond, ok := f.where(&args)
	if !ok {
		return nil, masters, nil
	}
	rows, err := s.db.Query(ctx, `SELECT `+masterColumns+`, `+recordSelect+`
		FROM master_records r JOIN masters m ON m.id = r.master_id JOIN tenants t ON t.id = r.tenant_id
		WHERE r.id IN (`+in+`) AND `+cond, args...)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	var out []MasterRecord
	for rows.Next() {
		var m Master
		var fields string
		r, ok, err := scanRecord(rows, masterDest(&m, &fields)...)
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			continue
		}
		if _, seen := masters[m.ID]; !seen {
			if err := decodeFields(&m, fields); err != nil {
				return nil, nil, err
			}
			masters[m.ID] = &m
		}
		out = append(out, r)
	}
	return out, masters, rows.Err()
}

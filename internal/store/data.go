package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/cx"
	"github.com/platform/platform/internal/platform"
)

// Tenant is one tenant of a customer; InstanceID is the instance it runs
// on, empty for none.
type Tenant struct {
	ID         string
	CustomerID string
	InstanceID string
	Name       string
	CreatedAt  time.Time
}

// Project is a project of a tenant.
type Project struct {
	ID        string
	TenantID  string
	Name      string
	CreatedAt time.Time
}

// Field types of a master.
const (
	FieldNumber      = "number"
	FieldString      = "string"
	FieldBoolean     = "boolean"
	FieldDate        = "date"
	FieldStringArray = "string_array"
)

// MasterField defines one key of a master's records' customFields.
type MasterField struct {
	Key  string `json:"key"`
	Type string `json:"type"`
}

// Master is a named kind of master record of one tenant, with the fields its
// records carry.
type Master struct {
	ID        string
	TenantID  string
	Name      string
	Fields    []MasterField
	CreatedAt time.Time
}

// Field returns the definition of key, and false when the master has none.
func (m *Master) Field(key string) (MasterField, bool) {
	for _, f := range m.Fields {
		if f.Key == key {
			return f, true
		}
	}
	return MasterField{}, false
}

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

// Schedule is a cx schedule of a tenant; CustomerID is its tenant's customer.
type Schedule struct {
	ID         string
	TenantID   string
	ProjectID  string
	Name       string
	CreatedAt  time.Time
	CustomerID string
}

var fieldKey = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_ -]{0,63}$`)

// CreateTenant stores a tenant. ECONFLICT when the id is taken.
func (s *Store) CreateTenant(ctx context.Context, t *Tenant) error {
	_, err := s.db.Exec(ctx, `INSERT INTO tenants (id, customer_id, instance_id, name, created_at) VALUES ($1, $2, $3, $4, $5)`,
		t.ID, t.CustomerID, nullString(t.InstanceID), t.Name, t.CreatedAt.UTC())
	return wrap(err, "tenant")
}

// Tenant returns one tenant. ENOTFOUND when missing.
func (s *Store) Tenant(ctx context.Context, id string) (*Tenant, error) {
	var t Tenant
	err := s.db.QueryRow(ctx, `SELECT id, customer_id, COALESCE(instance_id, ''), name, created_at FROM tenants WHERE id = $1`, id).
		Scan(&t.ID, &t.CustomerID, &t.InstanceID, &t.Name, &t.CreatedAt)
	return &t, wrap(err, "tenant")
}

// CreateProject stores a project. ECONFLICT when the id is taken.
func (s *Store) CreateProject(ctx context.Context, p *Project) error {
	_, err := s.db.Exec(ctx, `INSERT INTO projects (id, tenant_id, name, created_at) VALUES ($1, $2, $3, $4)`,
		p.ID, p.TenantID, p.Name, p.CreatedAt.UTC())
	return wrap(err, "project")
}

// CreateMaster stores a master. EINVALID for a field key that is not 1 to 64
// letters, digits, '_', '-' or spaces, a key given twice, or an unknown type;
// ECONFLICT when the tenant has a master of that name.
func (s *Store) CreateMaster(ctx context.Context, m *Master) error {
	seen := map[string]bool{}
	for _, f := range m.Fields {
		if !fieldKey.MatchString(f.Key) || seen[f.Key] {
			return platform.Errorf(platform.EINVALID, "master %s: field key %q is invalid or repeated", m.Name, f.Key)
		}
		seen[f.Key] = true
		switch f.Type {
		case FieldNumber, FieldString, FieldBoolean, FieldDate, FieldStringArray:
		default:
			return platform.Errorf(platform.EINVALID, "master %s: field %q has unknown type %q", m.Name, f.Key, f.Type)
		}
	}
	fields, err := json.Marshal(append([]MasterField{}, m.Fields...))
	if err != nil {
		return err
	}
	_, err = s.db.Exec(ctx, `INSERT INTO masters (id, tenant_id, name, fields, created_at) VALUES ($1, $2, $3, $4, $5)`,
		m.ID, m.TenantID, m.Name, string(fields), m.CreatedAt.UTC())
	return wrap(err, "master")
}

// TenantFilter selects tenants: those within Scope (the caller's, from
// authz.Scope.Filter), only TenantID when it is set.
type TenantFilter struct {
	TenantID string
	Scope    authz.Filter
}

// MastersByName returns the masters called name among the tenants f selects,
// ordered by tenant. An empty result is no error.
func (s *Store) MastersByName(ctx context.Context, name string, f TenantFilter) ([]Master, error) {
	args := []any{name}
	cond, ok := f.where(&args)
	if !ok {
		return nil, nil
	}
	return queryAll(ctx, s.db, func(r Row) (Master, error) {
		var m Master
		var fields string
		if err := r.Scan(&m.ID, &m.TenantID, &m.Name, &fields, &m.CreatedAt); err != nil {
			return m, err
		}
		if err := json.Unmarshal([]byte(fields), &m.Fields); err != nil {
			return m, fmt.Errorf("master %s: fields: %w", m.ID, err)
		}
		return m, nil
	}, `SELECT m.id, m.tenant_id, m.name, m.fields, m.created_at FROM masters m JOIN tenants t ON t.id = m.tenant_id
		WHERE m.name = $1 AND `+cond+` ORDER BY m.tenant_id`, args...)
}

// where returns the SQL condition on tenants aliased t that f selects, with
// its arguments appended to args; false when f selects no tenant at all.
func (f TenantFilter) where(args *[]any) (string, bool) {
	if f.Scope.Empty() {
		return "", false
	}
	cond := scopeCondition(args, f.Scope, "t.customer_id", "t.instance_id")
	if f.TenantID != "" {
		cond += ` AND t.id = ` + arg(args, f.TenantID)
	}
	return cond, true
}

// MasterSummary is a master with the number of its records not marked deleted.
type MasterSummary struct {
	ID       string
	TenantID string
	Name     string
	Records  int
}

// ScheduleSummary is a schedule with the number of its rows.
type ScheduleSummary struct {
	Schedule
	Rows int
}

// TenantSummary is a tenant with its projects, masters and schedules, each
// ordered by name.
type TenantSummary struct {
	Tenant
	Projects  []Project
	Masters   []MasterSummary
	Schedules []ScheduleSummary
}

// TenantSummaries returns the tenants f selects, ordered by name, with
// their projects, masters and schedules, in four statements.
func (s *Store) TenantSummaries(ctx context.Context, f TenantFilter) ([]TenantSummary, error) {
	var args []any
	cond, ok := f.where(&args)
	if !ok {
		return []TenantSummary{}, nil
	}
	out := []TenantSummary{}
	index := map[string]int{}
	err := s.each(ctx, `SELECT t.id, t.customer_id, COALESCE(t.instance_id, ''), t.name, t.created_at FROM tenants t
		WHERE `+cond+` ORDER BY t.name, t.id`, args,
		func(r Row) error {
			var t TenantSummary
			if err := r.Scan(&t.ID, &t.CustomerID, &t.InstanceID, &t.Name, &t.CreatedAt); err != nil {
				return err
			}
			t.Projects, t.Masters, t.Schedules = []Project{}, []MasterSummary{}, []ScheduleSummary{}
			index[t.ID] = len(out)
			out = append(out, t)
			return nil
		})
	if err != nil || len(out) == 0 {
		return out, err
	}
	err = s.each(ctx, `SELECT p.id, p.tenant_id, p.name, p.created_at FROM projects p JOIN tenants t ON t.id = p.tenant_id
		WHERE `+cond+` ORDER BY p.name, p.id`, args, func(r Row) error {
		var p Project
		if err := r.Scan(&p.ID, &p.TenantID, &p.Name, &p.CreatedAt); err != nil {
			return err
		}
		t := &out[index[p.TenantID]]
		t.Projects = append(t.Projects, p)
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = s.each(ctx, `SELECT m.id, m.tenant_id, m.name, m.live_records
		FROM masters m JOIN tenants t ON t.id = m.tenant_id WHERE `+cond+` ORDER BY m.name, m.id`, args, func(r Row) error {
		var m MasterSummary
		if err := r.Scan(&m.ID, &m.TenantID, &m.Name, &m.Records); err != nil {
			return err
		}
		t := &out[index[m.TenantID]]
		t.Masters = append(t.Masters, m)
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = s.each(ctx, `SELECT sc.id, sc.tenant_id, sc.project_id, sc.name, sc.created_at, t.customer_id,
			(SELECT COUNT(*) FROM schedule_rows sr WHERE sr.schedule_id = sc.id)
		FROM schedules sc JOIN tenants t ON t.id = sc.tenant_id WHERE `+cond+` ORDER BY sc.name, sc.id`, args, func(r Row) error {
		var sc ScheduleSummary
		if err := r.Scan(&sc.ID, &sc.TenantID, &sc.ProjectID, &sc.Name, &sc.CreatedAt, &sc.CustomerID, &sc.Rows); err != nil {
			return err
		}
		t := &out[index[sc.TenantID]]
		t.Schedules = append(t.Schedules, sc)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// recordColumns are the columns of master_records in MasterRecord's order.
var recordColumns = []string{"id", "master_id", "tenant_id", "project_id", "parent_id", "slug", "ref_id",
	"custom_fields", "created_by", "created_at", "is_deleted"}

// InsertMasterRecords stores records in one transaction: with COPY on
// PostgreSQL, in batched INSERTs on SQLite. An empty CustomFields is stored
// as {}. The masters' record counters and versions are updated in the same
// transaction. ECONFLICT when an id is taken.
func (s *Store) InsertMasterRecords(ctx context.Context, recs []MasterRecord) error {
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

// copier is the bulk-load capability of the PostgreSQL adapter.
type copier interface {
	CopyFrom(ctx context.Context, table string, columns []string, rows [][]any) (int64, error)
}

// copyThreshold is the row count from which PostgreSQL loads with COPY.
const copyThreshold = 500

// bulkInsert inserts rows into table, with COPY on PostgreSQL for large
// loads and multi-row INSERTs otherwise; suffix (ON CONFLICT …) is appended
// to each INSERT. COPY is used only without suffix. Call it in a transaction.
func (s *Store) bulkInsert(ctx context.Context, table string, columns []string, rows [][]any, suffix string) error {
	if c, ok := s.db.(copier); ok && suffix == "" && len(rows) >= copyThreshold {
		_, err := c.CopyFrom(ctx, table, columns, rows)
		return err
	}
	batch := max(1, 4000/len(columns)) // well under both databases' parameter limits
	head := `INSERT INTO ` + table + ` (` + strings.Join(columns, ", ") + `) VALUES `
	for start := 0; start < len(rows); start += batch {
		chunk := rows[start:min(start+batch, len(rows))]
		var b strings.Builder
		b.WriteString(head)
		args := make([]any, 0, len(chunk)*len(columns))
		for i, row := range chunk {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteByte('(')
			for j, v := range row {
				if j > 0 {
					b.WriteString(", ")
				}
				args = append(args, v)
				b.WriteString("$" + strconv.Itoa(len(args)))
			}
			b.WriteByte(')')
		}
		b.WriteString(suffix)
		if _, err := s.db.Exec(ctx, b.String(), args...); err != nil {
			return err
		}
	}
	return nil
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
func (s *Store) ListMasterRecords(ctx context.Context, q RecordQuery) (*RecordPage, error) {
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
func (s *Store) markedPage(ctx context.Context, q RecordQuery) (*RecordPage, error) {
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
	rows, err := s.db.Query(ctx, `SELECT m.records_version, r.id, r.master_id, r.tenant_id, r.project_id, r.parent_id, r.slug, r.ref_id,
			r.custom_fields, r.created_by, r.created_at, r.is_deleted
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
func (s *Store) BuildMasterRecordMarks(ctx context.Context, masterID string) error {
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
func (s *Store) scannedPage(ctx context.Context, q RecordQuery) (*RecordPage, error) {
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
		SELECT total.n, r.id, r.master_id, r.tenant_id, r.project_id, r.parent_id, r.slug, r.ref_id, r.custom_fields,
			r.created_by, r.created_at, r.is_deleted
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
func (s *Store) sortKey(srt RecordSort, args *[]any) (string, bool, error) {
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

// CreateSchedule stores a schedule. ECONFLICT when the id is taken.
func (s *Store) CreateSchedule(ctx context.Context, sc *Schedule) error {
	_, err := s.db.Exec(ctx, `INSERT INTO schedules (id, tenant_id, project_id, name, created_at) VALUES ($1, $2, $3, $4, $5)`,
		sc.ID, sc.TenantID, sc.ProjectID, sc.Name, sc.CreatedAt.UTC())
	return wrap(err, "schedule")
}

// Schedule returns a schedule with its tenant's customer. ENOTFOUND.
func (s *Store) Schedule(ctx context.Context, id string) (*Schedule, error) {
	var sc Schedule
	err := s.db.QueryRow(ctx, `SELECT s.id, s.tenant_id, s.project_id, s.name, s.created_at, t.customer_id
		FROM schedules s JOIN tenants t ON t.id = s.tenant_id WHERE s.id = $1`, id).
		Scan(&sc.ID, &sc.TenantID, &sc.ProjectID, &sc.Name, &sc.CreatedAt, &sc.CustomerID)
	return &sc, wrap(err, "schedule")
}

// LockSchedule holds the schedule's rows against other writers until the
// transaction ends (SQLite transactions hold the write lock already). Call
// it in a transaction. ENOTFOUND.
func (s *Store) LockSchedule(ctx context.Context, id string) error {
	q := `SELECT id FROM schedules WHERE id = $1`
	if s.Dialect() == Postgres {
		q += ` FOR UPDATE`
	}
	var got string
	return wrap(s.db.QueryRow(ctx, q, id).Scan(&got), "schedule")
}

// ScheduleRows returns every row stored in a schedule, ordered by row id.
func (s *Store) ScheduleRows(ctx context.Context, scheduleID string) ([]cx.Row, error) {
	return queryAll(ctx, s.db, func(r Row) (cx.Row, error) {
		var row cx.Row
		var fields []byte
		if err := r.Scan(&fields); err != nil {
			return row, err
		}
		if err := json.Unmarshal(fields, &row); err != nil {
			return row, fmt.Errorf("schedule %s: row: %w", scheduleID, err)
		}
		return row, nil
	}, `SELECT fields FROM schedule_rows WHERE schedule_id = $1 ORDER BY row_id`, scheduleID)
}

// UpsertScheduleRows stores rows in a schedule, replacing stored rows with
// the same ID, all in one transaction: on PostgreSQL large sets are copied
// into a temporary table and merged with one INSERT … ON CONFLICT, other
// sets go in batched multi-row upserts. IDs must be distinct.
func (s *Store) UpsertScheduleRows(ctx context.Context, scheduleID string, rows []cx.Row, now time.Time) error {
	if len(rows) == 0 {
		return nil
	}
	values := make([][]any, len(rows))
	for i := range rows {
		b, err := json.Marshal(&rows[i])
		if err != nil {
			return err
		}
		values[i] = []any{rows[i].ID, string(b)}
	}
	now = now.UTC()
	const upsert = ` ON CONFLICT (schedule_id, row_id) DO UPDATE SET fields = excluded.fields, updated_at = excluded.updated_at`
	return s.InTx(ctx, func(tx *Store) error {
		if c, ok := tx.db.(copier); ok && len(rows) >= copyThreshold {
			// IF NOT EXISTS and the DELETE: a second call in one transaction finds the table
			if _, err := tx.db.Exec(ctx, `CREATE TEMP TABLE IF NOT EXISTS schedule_rows_in (row_id TEXT NOT NULL, fields TEXT NOT NULL) ON COMMIT DROP`); err != nil {
				return err
			}
			if _, err := tx.db.Exec(ctx, `DELETE FROM schedule_rows_in`); err != nil {
				return err
			}
			if _, err := c.CopyFrom(ctx, "schedule_rows_in", []string{"row_id", "fields"}, values); err != nil {
				return err
			}
			_, err := tx.db.Exec(ctx, `INSERT INTO schedule_rows (schedule_id, row_id, fields, updated_at)
				SELECT $1, row_id, fields, $2 FROM schedule_rows_in`+upsert, scheduleID, now)
			return err
		}
		for i := range values {
			values[i] = []any{scheduleID, values[i][0], values[i][1], now}
		}
		return tx.bulkInsert(ctx, "schedule_rows", []string{"schedule_id", "row_id", "fields", "updated_at"}, values, upsert)
	})
}

// InsertScheduleRows stores rows that the schedule does not hold yet, in
// one transaction: with COPY straight into the table on PostgreSQL, in
// batched INSERTs otherwise. Cheaper than UpsertScheduleRows for rows known
// to be new (hold LockSchedule to know it). ECONFLICT when one exists.
func (s *Store) InsertScheduleRows(ctx context.Context, scheduleID string, rows []cx.Row, now time.Time) error {
	if len(rows) == 0 {
		return nil
	}
	now = now.UTC()
	values := make([][]any, len(rows))
	for i := range rows {
		b, err := json.Marshal(&rows[i])
		if err != nil {
			return err
		}
		values[i] = []any{scheduleID, rows[i].ID, string(b), now}
	}
	return s.InTx(ctx, func(tx *Store) error {
		return wrap(tx.bulkInsert(ctx, "schedule_rows", []string{"schedule_id", "row_id", "fields", "updated_at"}, values, ""), "schedule row")
	})
}

// IdempotencyRecord is the first answer given to a caller's request with an
// Idempotency-Key.
type IdempotencyRecord struct {
	Caller      string
	Key         string
	RequestHash string
	Status      int
	Body        []byte
	CreatedAt   time.Time
}

// IdempotencyRecord returns the answer kept for a caller's key. ENOTFOUND.
func (s *Store) IdempotencyRecord(ctx context.Context, caller, key string) (*IdempotencyRecord, error) {
	r := IdempotencyRecord{Caller: caller, Key: key}
	err := s.db.QueryRow(ctx, `SELECT request_hash, status, body, created_at FROM idempotency WHERE caller = $1 AND key = $2`,
		caller, key).Scan(&r.RequestHash, &r.Status, &r.Body, &r.CreatedAt)
	return &r, wrap(err, "idempotency record")
}

// PutIdempotencyRecord keeps an answer. ECONFLICT when the caller's key is
// taken; on PostgreSQL that also ends a running transaction.
func (s *Store) PutIdempotencyRecord(ctx context.Context, r *IdempotencyRecord) error {
	_, err := s.db.Exec(ctx, `INSERT INTO idempotency (caller, key, request_hash, status, body, created_at)
		VALUES ($1, $2, $3, $4, $5, $6)`, r.Caller, r.Key, r.RequestHash, r.Status, r.Body, r.CreatedAt.UTC())
	return wrap(err, "idempotency record")
}

// DeleteIdempotencyRecord removes the answer kept for a caller's key.
func (s *Store) DeleteIdempotencyRecord(ctx context.Context, caller, key string) (int64, error) {
	return s.db.Exec(ctx, `DELETE FROM idempotency WHERE caller = $1 AND key = $2`, caller, key)
}

// DeleteIdempotencyRecords removes answers kept since before t.
func (s *Store) DeleteIdempotencyRecords(ctx context.Context, before time.Time) (int64, error) {
	return s.db.Exec(ctx, `DELETE FROM idempotency WHERE created_at < $1`, before.UTC())
}

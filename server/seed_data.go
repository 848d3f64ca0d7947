package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/platform/platform/internal/cx"
	"github.com/platform/platform/internal/data"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// Demo tenant data: one tenant each for Acme and Globex, their projects,
// the masters Building, Discipline and System with records, and a cx
// schedule per project. Ids are fixed so that docs and tests can name them.
const (
	DemoAcmeTenantID        = "7e4a0000-0000-4000-8000-000000000001"
	DemoGlobexTenantID      = "7e4a0000-0000-4000-8000-000000000002"
	DemoHarborProjectID     = "9a1b0000-0000-4000-8000-000000000001"
	DemoRiversideProjectID  = "9a1b0000-0000-4000-8000-000000000002"
	DemoDCNorthProjectID    = "9a1b0000-0000-4000-8000-000000000003"
	DemoHarborScheduleID    = "5c4e0000-0000-4000-8000-000000000001"
	DemoRiversideScheduleID = "5c4e0000-0000-4000-8000-000000000002"
	DemoDCNorthScheduleID   = "5c4e0000-0000-4000-8000-000000000003"
	demoAliceID             = "2b7e4d10-0000-4000-8000-000000000002"
	demoCarolID             = "2b7e4d10-0000-4000-8000-000000000004"
)

// demoEpoch is when the demo tenant data was created.
var demoEpoch = time.Date(2025, 1, 6, 8, 0, 0, 0, time.UTC)

var demoFields = map[string][]store.MasterField{
	"Building": {{Key: "floors", Type: store.FieldNumber}, {Key: "grossAreaM2", Type: store.FieldNumber},
		{Key: "address", Type: store.FieldString}, {Key: "occupied", Type: store.FieldBoolean},
		{Key: "handoverDate", Type: store.FieldDate}, {Key: "certifications", Type: store.FieldStringArray}},
	"Discipline": {{Key: "code", Type: store.FieldString}, {Key: "lead", Type: store.FieldString},
		{Key: "active", Type: store.FieldBoolean}},
	"System": {{Key: "code", Type: store.FieldString}, {Key: "discipline", Type: store.FieldString},
		{Key: "capacityKW", Type: store.FieldNumber}, {Key: "commissioned", Type: store.FieldBoolean},
		{Key: "commissionedOn", Type: store.FieldDate}, {Key: "zones", Type: store.FieldStringArray}},
}

// demoRecord is one master record of the demo data; parent names another
// record of the same master by slug.
type demoRecord struct {
	master, project, slug, ref, parent string
	deleted                            bool
	fields                             map[string]any
}

type demoTenant struct {
	id, customerID, name, createdBy string
	projects                        []store.Project
	schedules                       []store.Schedule
	records                         []demoRecord
	rows                            map[string][]cx.Row // schedule id → rows
}

func demoTenants() []demoTenant {
	acme := demoTenant{id: DemoAcmeTenantID, customerID: DemoAcmeCustomerID, name: "Harbor Campus", createdBy: demoAliceID,
		projects: []store.Project{{ID: DemoHarborProjectID, Name: "Harbor Tower"}, {ID: DemoRiversideProjectID, Name: "Riverside Lab"}},
		schedules: []store.Schedule{
			{ID: DemoHarborScheduleID, ProjectID: DemoHarborProjectID, Name: "Harbor Tower commissioning"},
			{ID: DemoRiversideScheduleID, ProjectID: DemoRiversideProjectID, Name: "Riverside Lab commissioning"}},
		records: []demoRecord{
			{"Building", DemoHarborProjectID, "harbor-campus", "BLD-HC", "", false, map[string]any{"floors": 0, "grossAreaM2": 61200, "address": "1 Harbor Way, Portside", "occupied": false, "handoverDate": "2026-09-30", "certifications": []string{"LEED Gold"}}},
			{"Building", DemoHarborProjectID, "harbor-tower", "BLD-HT", "harbor-campus", false, map[string]any{"floors": 32, "grossAreaM2": 48500, "address": "1 Harbor Way, Portside", "occupied": false, "handoverDate": "2026-06-30", "certifications": []string{"LEED Gold", "WELL Silver"}}},
			{"Building", DemoHarborProjectID, "harbor-tower-podium", "BLD-HT-P", "harbor-tower", false, map[string]any{"floors": 4, "grossAreaM2": 12700, "address": "3 Harbor Way, Portside", "occupied": true, "handoverDate": "2025-11-14", "certifications": []string{}}},
			{"Building", DemoRiversideProjectID, "riverside-lab", "BLD-RL", "", false, map[string]any{"floors": 6, "grossAreaM2": 15300, "address": "80 River Road, Millbrook", "occupied": true, "handoverDate": "2025-03-31", "certifications": []string{"BREEAM Excellent"}}},
			{"Building", DemoRiversideProjectID, "riverside-lab-annex", "BLD-RL-A", "riverside-lab", false, map[string]any{"floors": 2, "grossAreaM2": 2100, "address": "82 River Road, Millbrook", "occupied": false, "handoverDate": "2026-02-27"}},
			{"Discipline", "", "mechanical", "DSC-MEC", "", false, map[string]any{"code": "MEC", "lead": "Priya Natarajan", "active": true}},
			{"Discipline", "", "electrical", "DSC-ELE", "", false, map[string]any{"code": "ELE", "lead": "Tomasz Nowak", "active": true}},
			{"Discipline", "", "plumbing", "DSC-PLB", "", false, map[string]any{"code": "PLB", "lead": "Grace Okafor", "active": true}},
			{"Discipline", "", "fire-protection", "DSC-FPR", "", false, map[string]any{"code": "FPR", "lead": "Lars Eriksen", "active": true}},
			{"Discipline", "", "controls", "DSC-BAS", "", false, map[string]any{"code": "BAS", "lead": "Mei Tanaka", "active": false}},
			{"System", DemoHarborProjectID, "chilled-water-plant", "SYS-CHW", "", false, map[string]any{"code": "CHW", "discipline": "MEC", "capacityKW": 4200, "commissioned": false, "zones": []string{"B2", "Roof"}}},
			{"System", DemoHarborProjectID, "chiller-ch-1", "SYS-CHW-CH1", "chilled-water-plant", false, map[string]any{"code": "CH-1", "discipline": "MEC", "capacityKW": 2100, "commissioned": true, "commissionedOn": "2025-12-02", "zones": []string{"B2"}}},
			{"System", DemoHarborProjectID, "chiller-ch-1-condenser-pump", "SYS-CHW-CH1-CP", "chiller-ch-1", false, map[string]any{"code": "CP-1", "discipline": "MEC", "capacityKW": 55.5, "commissioned": true, "commissionedOn": "2025-12-03", "zones": []string{"B2"}}},
			{"System", DemoHarborProjectID, "air-handling", "SYS-AHU", "", false, map[string]any{"code": "AHU", "discipline": "MEC", "capacityKW": 1800, "commissioned": false, "zones": []string{"L1-L32"}}},
			{"System", DemoHarborProjectID, "ahu-1", "SYS-AHU-1", "air-handling", false, map[string]any{"code": "AHU-1", "discipline": "MEC", "capacityKW": 310, "commissioned": false, "zones": []string{"L1", "L2", "L3"}}},
			{"System", DemoHarborProjectID, "ahu-1-supply-fan", "SYS-AHU-1-SF", "ahu-1", false, map[string]any{"code": "SF-1", "discipline": "MEC", "capacityKW": 45, "commissioned": false, "zones": []string{"L1"}}},
			{"System", DemoHarborProjectID, "fire-alarm", "SYS-FA", "", false, map[string]any{"code": "FA", "discipline": "FPR", "capacityKW": 12, "commissioned": true, "commissionedOn": "2025-10-20", "zones": []string{"All"}}},
			{"System", DemoHarborProjectID, "temporary-heating", "SYS-TMP", "", true, map[string]any{"code": "TMP-H", "discipline": "MEC", "capacityKW": 150, "commissioned": false}},
			{"System", DemoRiversideProjectID, "fume-exhaust", "SYS-FEX", "", false, map[string]any{"code": "FEX", "discipline": "MEC", "capacityKW": 220, "commissioned": true, "commissionedOn": "2025-02-18", "zones": []string{"Lab 1", "Lab 2"}}},
			{"System", DemoRiversideProjectID, "lab-power", "SYS-LPW", "", false, map[string]any{"code": "LPW", "discipline": "ELE", "capacityKW": 900, "commissioned": true, "commissionedOn": "2025-02-25", "zones": []string{"Lab 1", "Lab 2", "Annex"}}},
		},
		rows: map[string][]cx.Row{
			DemoHarborScheduleID: {
				{ID: "HT-BLDG", Name: "Harbor Tower", ParentChildDependency: "TopDown", PMEmail: "pm.harbor@acme.example", Building: "Harbor Tower", CreatedAt: "2025-01-06"},
				{ID: "HT-CHW", Name: "Chilled water plant start-up", ParentID: "HT-BLDG", SystemName: "Chilled water plant", Discipline: "Mechanical", Building: "Harbor Tower", CreatedAt: "2025-01-06"},
				{ID: "HT-AHU-1", Name: "AHU-1 functional test", ParentID: "HT-BLDG", Predecessors: "HT-CHW FS+2d", SystemName: "AHU-1", Discipline: "Mechanical", Building: "Harbor Tower", CreatedAt: "2025-01-06"},
			},
			DemoRiversideScheduleID: {
				{ID: "RL-BLDG", Name: "Riverside Lab", PMEmail: "pm.riverside@acme.example", Building: "Riverside Lab", CreatedAt: "2025-01-06"},
			},
		},
	}
	globex := demoTenant{id: DemoGlobexTenantID, customerID: DemoGlobexCustomerID, name: "Data Center North", createdBy: demoCarolID,
		projects:  []store.Project{{ID: DemoDCNorthProjectID, Name: "DC North Phase 1"}},
		schedules: []store.Schedule{{ID: DemoDCNorthScheduleID, ProjectID: DemoDCNorthProjectID, Name: "DC North Phase 1 commissioning"}},
		records: []demoRecord{
			{"Building", DemoDCNorthProjectID, "dc-north-hall-a", "BLD-DCN-A", "", false, map[string]any{"floors": 2, "grossAreaM2": 9800, "address": "400 Fiber Loop, Northgate", "occupied": false, "handoverDate": "2026-04-15", "certifications": []string{"Uptime Tier III"}}},
			{"Building", DemoDCNorthProjectID, "dc-north-hall-a-data-hall-1", "BLD-DCN-A-DH1", "dc-north-hall-a", false, map[string]any{"floors": 1, "grossAreaM2": 3200, "address": "400 Fiber Loop, Northgate", "occupied": false}},
			{"Discipline", "", "mechanical", "DSC-MEC", "", false, map[string]any{"code": "MEC", "lead": "Hank Scorpio", "active": true}},
			{"Discipline", "", "electrical", "DSC-ELE", "", false, map[string]any{"code": "ELE", "lead": "Frank Grimes", "active": true}},
			{"System", DemoDCNorthProjectID, "ups", "SYS-UPS", "", false, map[string]any{"code": "UPS", "discipline": "ELE", "capacityKW": 2000, "commissioned": false, "zones": []string{"Hall A"}}},
			{"System", DemoDCNorthProjectID, "ups-module-1", "SYS-UPS-1", "ups", false, map[string]any{"code": "UPS-1", "discipline": "ELE", "capacityKW": 500, "commissioned": false, "zones": []string{"Hall A"}}},
			{"System", DemoDCNorthProjectID, "crah-units", "SYS-CRAH", "", false, map[string]any{"code": "CRAH", "discipline": "MEC", "capacityKW": 1600, "commissioned": false, "zones": []string{"Data Hall 1"}}},
		},
		rows: map[string][]cx.Row{
			DemoDCNorthScheduleID: {
				{ID: "DCN-UPS", Name: "UPS integrated systems test", PMEmail: "pm.dcnorth@globex.example", SystemName: "UPS", Discipline: "Electrical", CreatedAt: "2025-01-06"},
			},
		},
	}
	return []demoTenant{acme, globex}
}

// demoID derives a fixed UUID-shaped id from a name.
func demoID(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	x := hex.EncodeToString(h.Sum(nil))
	return x[0:8] + "-" + x[8:12] + "-4" + x[13:16] + "-8" + x[17:20] + "-" + x[20:32]
}

// SeedDemoData adds the demo tenants of Acme and Globex with their projects,
// masters, master records and schedules. It does nothing when Acme's demo
// tenant exists or the demo customers do not, so it is safe on every start.
func SeedDemoData(ctx context.Context, st *store.Store) error {
	return st.Locked(ctx, store.LockSeed, func(tx *store.Store) error {
		if _, err := tx.Tenant(ctx, DemoAcmeTenantID); err == nil {
			return nil // seeded before
		} else if platform.ErrorCode(err) != platform.ENOTFOUND {
			return err
		}
		for _, id := range []string{DemoAcmeCustomerID, DemoGlobexCustomerID} {
			if _, err := tx.Customer(ctx, id); platform.ErrorCode(err) == platform.ENOTFOUND {
				return nil
			} else if err != nil {
				return err
			}
		}
		for _, t := range demoTenants() {
			if err := seedDemoTenant(ctx, tx, t, demoEpoch); err != nil {
				return fmt.Errorf("tenant %s: %w", t.name, err)
			}
		}
		return nil
	})
}

func seedDemoTenant(ctx context.Context, tx *store.Store, t demoTenant, epoch time.Time) error {
	if err := tx.CreateTenant(ctx, &store.Tenant{ID: t.id, CustomerID: t.customerID, Name: t.name, CreatedAt: epoch}); err != nil {
		return err
	}
	for _, p := range t.projects {
		p.TenantID, p.CreatedAt = t.id, epoch
		if err := tx.CreateProject(ctx, &p); err != nil {
			return err
		}
	}
	masters := map[string]*store.Master{}
	for _, name := range []string{"Building", "Discipline", "System"} {
		m := &store.Master{ID: demoID(t.id, "master", name), TenantID: t.id, Name: name, Fields: demoFields[name], CreatedAt: epoch}
		if err := tx.CreateMaster(ctx, m); err != nil {
			return err
		}
		masters[name] = m
	}
	recs := make([]store.MasterRecord, 0, len(t.records))
	for i, r := range t.records {
		custom, err := json.Marshal(r.fields)
		if err != nil {
			return err
		}
		m := masters[r.master]
		if err := data.CheckCustomFields(m, custom); err != nil {
			return fmt.Errorf("record %s: %w", r.slug, err)
		}
		rec := store.MasterRecord{ID: demoID(t.id, r.master, r.slug), MasterID: m.ID, TenantID: t.id, ProjectID: r.project,
			Slug: r.slug, RefID: r.ref, CustomFields: custom, CreatedBy: t.createdBy,
			CreatedAt: epoch.Add(time.Duration(i)*17*time.Minute + time.Duration(i*137)*time.Millisecond), IsDeleted: r.deleted}
		if r.parent != "" {
			rec.ParentID = demoID(t.id, r.master, r.parent)
		}
		recs = append(recs, rec)
	}
	if err := tx.InsertMasterRecords(ctx, recs); err != nil {
		return err
	}
	for _, sc := range t.schedules {
		sc.TenantID, sc.CreatedAt = t.id, epoch
		if err := tx.CreateSchedule(ctx, &sc); err != nil {
			return err
		}
		if rows := t.rows[sc.ID]; len(rows) > 0 {
			if rep := cx.Validate(&cx.Request{ScheduleID: sc.ID, Rows: rows}, nil); !rep.OK() {
				return fmt.Errorf("schedule %s: demo rows break rules: %v", sc.Name, rep.Errors)
			}
			if err := tx.UpsertScheduleRows(ctx, sc.ID, rows, epoch); err != nil {
				return err
			}
		}
	}
	return nil
}

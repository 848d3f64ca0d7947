package cx

import "strings"

// Canonical field names of a row, as they appear as JSON keys and spreadsheet headers.
const (
	FieldID                    = "ID"
	FieldName                  = "Name"
	FieldParentID              = "ParentID"
	FieldTemplateID            = "TemplateID"
	FieldPredecessors          = "Predecessors"
	FieldParentChildDependency = "ParentChildDependency"
	FieldPMEmail               = "PM Email Address"
	FieldParentMilestone       = "Parent milestone"
	FieldMilestone             = "Milestone"
	FieldSystemName            = "System Name"
	FieldDiscipline            = "Discipline"
	FieldBuilding              = "Building"
	FieldCreatedBy             = "createdBy"
	FieldCreatedAt             = "createdAt"
	FieldUpdatedBy             = "updatedBy"
	FieldUpdatedAt             = "updatedAt"
)

// Fields lists the canonical field names in the order of Row's fields.
var Fields = []string{
	FieldID, FieldName, FieldParentID, FieldTemplateID, FieldPredecessors, FieldParentChildDependency,
	FieldPMEmail, FieldParentMilestone, FieldMilestone, FieldSystemName, FieldDiscipline, FieldBuilding,
	FieldCreatedBy, FieldCreatedAt, FieldUpdatedBy, FieldUpdatedAt,
}

// Row is one schedule row of a cx upload. Every value is a string, empty when absent.
type Row struct {
	ID                    string `json:"ID"`
	Name                  string `json:"Name"`
	ParentID              string `json:"ParentID,omitempty"`
	TemplateID            string `json:"TemplateID,omitempty"`
	Predecessors          string `json:"Predecessors,omitempty"`
	ParentChildDependency string `json:"ParentChildDependency,omitempty"`
	PMEmail               string `json:"PM Email Address,omitempty"`
	ParentMilestone       string `json:"Parent milestone,omitempty"`
	Milestone             string `json:"Milestone,omitempty"`
	SystemName            string `json:"System Name,omitempty"`
	Discipline            string `json:"Discipline,omitempty"`
	Building              string `json:"Building,omitempty"`
	CreatedBy             string `json:"createdBy,omitempty"`
	CreatedAt             string `json:"createdAt,omitempty"`
	UpdatedBy             string `json:"updatedBy,omitempty"`
	UpdatedAt             string `json:"updatedAt,omitempty"`
}

// FieldIndex returns the position of name in Fields, or -1 when name is not
// exactly a canonical field name.
func FieldIndex(name string) int {
	switch name {
	case FieldID:
		return 0
	case FieldName:
		return 1
	case FieldParentID:
		return 2
	case FieldTemplateID:
		return 3
	case FieldPredecessors:
		return 4
	case FieldParentChildDependency:
		return 5
	case FieldPMEmail:
		return 6
	case FieldParentMilestone:
		return 7
	case FieldMilestone:
		return 8
	case FieldSystemName:
		return 9
	case FieldDiscipline:
		return 10
	case FieldBuilding:
		return 11
	case FieldCreatedBy:
		return 12
	case FieldCreatedAt:
		return 13
	case FieldUpdatedBy:
		return 14
	case FieldUpdatedAt:
		return 15
	}
	return -1
}

// MatchField classifies a key: it returns the canonical name and exact=true
// for a canonical name, the canonical name and exact=false for a key that
// differs from one only in case or surrounding spaces (parentId), and "" for
// any other key.
func MatchField(key string) (field string, exact bool) {
	if FieldIndex(key) >= 0 {
		return key, true
	}
	k := strings.TrimSpace(key)
	for _, f := range Fields {
		if strings.EqualFold(k, f) {
			return f, false
		}
	}
	return "", false
}

// Field returns the value of the field with the canonical name, and false
// when name is not one.
func (r *Row) Field(name string) (string, bool) {
	p := r.ptr(FieldIndex(name))
	if p == nil {
		return "", false
	}
	return *p, true
}

// SetField sets the field with the canonical name and reports whether name is one.
func (r *Row) SetField(name, value string) bool {
	p := r.ptr(FieldIndex(name))
	if p == nil {
		return false
	}
	*p = value
	return true
}

func (r *Row) ptr(i int) *string {
	switch i {
	case 0:
		return &r.ID
	case 1:
		return &r.Name
	case 2:
		return &r.ParentID
	case 3:
		return &r.TemplateID
	case 4:
		return &r.Predecessors
	case 5:
		return &r.ParentChildDependency
	case 6:
		return &r.PMEmail
	case 7:
		return &r.ParentMilestone
	case 8:
		return &r.Milestone
	case 9:
		return &r.SystemName
	case 10:
		return &r.Discipline
	case 11:
		return &r.Building
	case 12:
		return &r.CreatedBy
	case 13:
		return &r.CreatedAt
	case 14:
		return &r.UpdatedBy
	case 15:
		return &r.UpdatedAt
	}
	return nil
}

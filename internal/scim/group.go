package scim

import (
	"net/http"
	"strings"
	"time"

	"github.com/platform/platform/internal/admin"
)

// groupDoc is a group as the directory sees it: displayName, externalId and
// members (users, by id, with their address as display).
func (s *Server) groupDoc(g *admin.SCIMGroupView) map[string]any {
	doc := map[string]any{
		"schemas":     []string{GroupSchema},
		"id":          g.ID,
		"displayName": g.Name,
		"meta": map[string]any{"resourceType": "Group", "created": g.CreatedAt.UTC().Format(time.RFC3339),
			"lastModified": g.UpdatedAt.UTC().Format(time.RFC3339), "location": s.base + groupsPath + "/" + g.ID},
	}
	if g.ExternalID != "" {
		doc["externalId"] = g.ExternalID
	}
	if g.Members != nil {
		members := make([]map[string]any, 0, len(g.Members))
		for _, m := range g.Members {
			members = append(members, map[string]any{"value": m.ID, "display": m.Name, "$ref": s.base + usersPath + "/" + m.ID, "type": "User"})
		}
		doc["members"] = members
	}
	return doc
}

// groupState is what a directory sets of a group.
type groupState struct {
	name, externalID *string
	steps            []admin.SCIMMemberStep
}

// memberIDs reads members' values: a list of {"value": id} objects (or of
// ids), or one such object.
func memberIDs(v any) ([]string, error) {
	list, ok := v.([]any)
	if !ok {
		list = []any{v}
	}
	if len(list) > MaxMembers {
		return nil, typed("tooMany", invalidValue("one request changes at most %d members", MaxMembers))
	}
	ids := make([]string, 0, len(list))
	for _, e := range list {
		switch e := e.(type) {
		case string:
			ids = append(ids, e)
		case map[string]any:
			var id string
			for k, val := range e {
				if strings.EqualFold(k, "value") {
					id, _ = val.(string)
				}
			}
			if id == "" {
				return nil, invalidValue("a member needs a value, the user's id")
			}
			ids = append(ids, id)
		default:
			return nil, invalidValue("members must be a list of objects with a value")
		}
	}
	return ids, nil
}

// set applies one attribute of a group; op is add, replace or remove.
func (st *groupState) set(path, op string, v any) error {
	path = strings.TrimPrefix(strings.ToLower(path), strings.ToLower(GroupSchema)+":")
	str := func() (*string, error) {
		s := ""
		if op != "remove" && v != nil {
			var ok bool
			if s, ok = v.(string); !ok {
				return nil, invalidValue("%s must be a string", path)
			}
		}
		return &s, nil
	}
	var err error
	switch {
	case path == "displayname":
		if op == "remove" {
			return mutability("displayName is required")
		}
		st.name, err = str()
	case path == "externalid":
		st.externalID, err = str()
	case path == "members":
		switch {
		case op == "remove" && v == nil:
			st.steps = append(st.steps, admin.SCIMMemberStep{Op: "set"})
		default:
			ids, err := memberIDs(v)
			if err != nil {
				return err
			}
			step := map[string]string{"add": "add", "replace": "set", "remove": "remove"}[op]
			st.steps = append(st.steps, admin.SCIMMemberStep{Op: step, IDs: ids})
		}
	case strings.HasPrefix(path, "members[") && op == "remove":
		id, err := memberFilter(path)
		if err != nil {
			return err
		}
		st.steps = append(st.steps, admin.SCIMMemberStep{Op: "remove", IDs: []string{id}})
	case path == "roles" || path == "role" || strings.HasPrefix(path, "urn:"):
		return mutability("a group's role is bound in the console, not through SCIM")
	case path == "id" || path == "schemas" || path == "meta":
	default:
		return invalidPath("the attribute %s cannot be changed", path)
	}
	return err
}

// patch applies a PATCH operation; the attributes of a value without path
// are set one by one.
func (st *groupState) patch(op patchOp) error {
	return op.apply(func(path string, v any) error { return st.set(path, op.op, v) })
}

// memberFilter reads the id of members[value eq "id"].
func memberFilter(path string) (string, error) {
	inner, ok := strings.CutPrefix(path, "members[")
	inner, ok2 := strings.CutSuffix(inner, "]")
	if !ok || !ok2 {
		return "", invalidPath("the path %s is not supported", path)
	}
	f, err := compileFilter(inner, map[string]string{"value": "value"})
	if err != nil || f.Op != "eq" || f.Attr != "value" {
		return "", invalidPath(`a member is removed with members[value eq "<user id>"]`)
	}
	return f.Value, nil
}

// readGroup reads a group resource (POST, PUT): its members replace the
// group's.
func readGroup(doc map[string]any) (*groupState, error) {
	st := &groupState{}
	hasMembers := false
	for k, v := range doc {
		lk := strings.ToLower(k)
		if lk == "members" {
			hasMembers = true
		}
		if err := st.set(k, "replace", v); err != nil {
			return nil, err
		}
	}
	if st.name == nil || *st.name == "" {
		return nil, invalidValue("displayName is required")
	}
	if !hasMembers {
		st.steps = append(st.steps, admin.SCIMMemberStep{Op: "set"})
	}
	return st, nil
}

func (s *Server) listGroups(w http.ResponseWriter, r *http.Request) error {
	q, err := listQuery(r, groupFilterAttrs)
	if err != nil {
		return err
	}
	groups, total, err := s.svc.SCIMGroups(ctx(r), caller(r), q.filter, q.startIndex-1, q.count, q.proj.wants("members"))
	if err != nil {
		return err
	}
	docs := make([]map[string]any, 0, len(groups))
	for _, g := range groups {
		docs = append(docs, q.proj.apply(s.groupDoc(g)))
	}
	writeList(w, q, total, docs)
	return nil
}

// answerGroup answers g with status, unless err says why not.
func (s *Server) answerGroup(w http.ResponseWriter, r *http.Request, status int, g *admin.SCIMGroupView, err error) error {
	if err != nil {
		return err
	}
	return answer(w, r, status, s.base+groupsPath+"/"+g.ID, func(projection) (map[string]any, error) { return s.groupDoc(g), nil })
}

func (s *Server) getGroup(w http.ResponseWriter, r *http.Request) error {
	proj, err := projectionOf(r)
	if err != nil {
		return err
	}
	g, err := s.svc.SCIMGroup(ctx(r), caller(r), resourceID(r), proj.wants("members"))
	return s.answerGroup(w, r, http.StatusOK, g, err)
}

func (s *Server) createGroup(w http.ResponseWriter, r *http.Request) error {
	st, err := readResource(r, readGroup)
	if err != nil {
		return err
	}
	var members []string
	for _, step := range st.steps {
		members = append(members, step.IDs...)
	}
	ext := ""
	if st.externalID != nil {
		ext = *st.externalID
	}
	g, err := s.svc.SCIMCreateGroup(ctx(r), caller(r), *st.name, ext, members)
	return s.answerGroup(w, r, http.StatusCreated, g, err)
}

func (s *Server) putGroup(w http.ResponseWriter, r *http.Request) error {
	st, err := readResource(r, readGroup)
	if err != nil {
		return err
	}
	if st.externalID == nil {
		empty := ""
		st.externalID = &empty
	}
	g, err := s.svc.SCIMChangeGroup(ctx(r), caller(r), resourceID(r),
		admin.SCIMGroupChange{Name: st.name, ExternalID: st.externalID, Steps: st.steps}, true)
	return s.answerGroup(w, r, http.StatusOK, g, err)
}

// patchGroup applies the operations in one change. It answers 204 without
// a body unless attributes are asked for, as Entra ID's member batches
// expect.
func (s *Server) patchGroup(w http.ResponseWriter, r *http.Request) error {
	ops, err := readPatch(r)
	if err != nil {
		return err
	}
	st := &groupState{}
	if err := applyPatch(ops, st); err != nil {
		return err
	}
	proj, err := projectionOf(r)
	if err != nil {
		return err
	}
	g, err := s.svc.SCIMChangeGroup(ctx(r), caller(r), resourceID(r),
		admin.SCIMGroupChange{Name: st.name, ExternalID: st.externalID, Steps: st.steps}, proj.wants("members"))
	if err != nil {
		return err
	}
	if r.URL.Query().Get("attributes") == "" && r.URL.Query().Get("excludedAttributes") == "" {
		return noContent(w, nil)
	}
	return s.answerGroup(w, r, http.StatusOK, g, nil)
}

func (s *Server) deleteGroup(w http.ResponseWriter, r *http.Request) error {
	return noContent(w, s.svc.SCIMDeleteGroup(ctx(r), caller(r), resourceID(r)))
}

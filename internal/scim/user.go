package scim

import (
	"net/http"
	"strings"
	"time"

	"github.com/platform/platform/internal/admin"
)

// Schemas of the resources and messages.
const (
	UserSchema     = "urn:ietf:params:scim:schemas:core:2.0:User"
	GroupSchema    = "urn:ietf:params:scim:schemas:core:2.0:Group"
	ListSchema     = "urn:ietf:params:scim:api:messages:2.0:ListResponse"
	PatchSchema    = "urn:ietf:params:scim:api:messages:2.0:PatchOp"
	EnterpriseUser = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"
)

// userDoc is a user as the directory sees it: userName is the e-mail
// address, name.formatted and displayName the user's name, active false
// while it is suspended, groups its groups (read-only).
func (s *Server) userDoc(u *admin.SCIMUserView, groups []admin.SCIMGroupRef) map[string]any {
	doc := map[string]any{
		"schemas":     []string{UserSchema},
		"id":          u.ID,
		"userName":    u.Email,
		"name":        map[string]any{"formatted": u.Name},
		"displayName": u.Name,
		"emails":      []map[string]any{{"value": u.Email, "type": "work", "primary": true}},
		"active":      u.SuspendedAt == nil,
		"meta": map[string]any{"resourceType": "User", "created": u.CreatedAt.UTC().Format(time.RFC3339),
			"lastModified": u.CreatedAt.UTC().Format(time.RFC3339), "location": s.base + usersPath + "/" + u.ID},
	}
	if u.ExternalID != "" {
		doc["externalId"] = u.ExternalID
	}
	if u.Locale != "" {
		doc["preferredLanguage"] = u.Locale
	}
	refs := make([]map[string]any, 0, len(groups))
	for _, g := range groups {
		refs = append(refs, map[string]any{"value": g.ID, "display": g.Name, "$ref": s.base + groupsPath + "/" + g.ID, "type": "direct"})
	}
	doc["groups"] = refs
	return doc
}

// userState is what a directory sets of a user, read from a resource or
// changed by PATCH operations.
type userState struct {
	userName, externalID string
	formatted            string
	given, family        string
	displayName          string
	current              string // the user's name before the request (PATCH)
	active               *bool
	preferredLanguage    *string // the saved language (D-languages); nil: not given
}

func (st *userState) input() admin.SCIMUserInput {
	name := strings.TrimSpace(st.formatted)
	if name == "" {
		name = strings.TrimSpace(strings.TrimSpace(st.given) + " " + strings.TrimSpace(st.family))
	}
	if name == "" {
		name = strings.TrimSpace(st.displayName)
	}
	if name == "" {
		name = st.current
	}
	if name == "" {
		name = st.userName
	}
	return admin.SCIMUserInput{Email: st.userName, Name: name, ExternalID: st.externalID, Active: st.active,
		PreferredLanguage: st.preferredLanguage}
}

// set applies one attribute of a user (its lower-case path, the enterprise
// extension's attributes and others the server does not keep being
// ignored) to the state. remove clears it.
func (st *userState) set(path string, v any, remove bool) error {
	path = strings.TrimPrefix(strings.ToLower(path), strings.ToLower(UserSchema)+":")
	str := func() (string, error) {
		if remove || v == nil {
			return "", nil
		}
		s, ok := v.(string)
		if !ok {
			return "", invalidValue("%s must be a string", path)
		}
		return s, nil
	}
	var err error
	switch path {
	case "username":
		if remove {
			return mutability("userName is required")
		}
		st.userName, err = str()
	case "externalid":
		st.externalID, err = str()
	case "displayname":
		st.displayName, err = str()
	case "preferredlanguage":
		var lang string
		lang, err = str()
		st.preferredLanguage = &lang
	case "name":
		if remove {
			st.formatted, st.given, st.family = "", "", ""
			return nil
		}
		m, ok := v.(map[string]any)
		if !ok {
			return invalidValue("name must be an object")
		}
		for k, sub := range m {
			if err := st.set("name."+k, sub, false); err != nil {
				return err
			}
		}
	case "name.formatted":
		st.formatted, err = str()
	case "name.givenname":
		st.given, err = str()
	case "name.familyname":
		st.family, err = str()
	case "active":
		if remove {
			return mutability("active cannot be removed")
		}
		b, ok := boolOf(v)
		if !ok {
			return invalidValue("active must be true or false")
		}
		st.active = &b
	case "emails", `emails[type eq "work"].value`, `emails[primary eq true].value`:
		// The address is userName; an e-mail that names another is refused
		// when the user is written.
		if e := primaryEmail(v); e != "" && !remove {
			if st.userName == "" {
				st.userName = e
			} else if !strings.EqualFold(e, st.userName) {
				return mutability("emails must hold the userName, the user's e-mail address")
			}
		}
	case "roles", "entitlements", "groups", "password":
		return mutability("%s cannot be set through SCIM: roles come from groups bound in the console", path)
	}
	return err
}

// patch applies a PATCH operation; the attributes of a value without path
// are set one by one, but for the enterprise extension, id and schemas.
func (st *userState) patch(op patchOp) error {
	return op.apply(func(path string, v any) error { return st.set(path, v, op.op == "remove") }, EnterpriseUser, "id", "schemas")
}

// primaryEmail reads the address of emails: a list of objects (the primary
// one, or the first), or a bare string.
func primaryEmail(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []any:
		first := ""
		for _, e := range v {
			m, _ := e.(map[string]any)
			val, _ := m["value"].(string)
			if first == "" {
				first = val
			}
			if p, _ := boolOf(m["primary"]); p {
				return val
			}
		}
		return first
	}
	return ""
}

// readUser reads a user resource (POST, PUT).
func readUser(doc map[string]any) (*userState, error) {
	st := &userState{}
	for k, v := range doc {
		switch lk := strings.ToLower(k); {
		case lk == "schemas" || lk == "id" || lk == "meta" || lk == "groups":
		case lk == strings.ToLower(EnterpriseUser):
		default:
			if err := st.set(k, v, false); err != nil {
				return nil, err
			}
		}
	}
	if st.userName == "" {
		return nil, invalidValue("userName is required: the user's e-mail address")
	}
	return st, nil
}

func (s *Server) listUsers(w http.ResponseWriter, r *http.Request) error {
	q, err := listQuery(r, userFilterAttrs)
	if err != nil {
		return err
	}
	users, total, err := s.svc.SCIMUsers(ctx(r), caller(r), q.filter, q.startIndex-1, q.count)
	if err != nil {
		return err
	}
	docs := make([]map[string]any, 0, len(users))
	for _, u := range users {
		doc, err := s.userWithGroups(r, u, q.proj)
		if err != nil {
			return err
		}
		docs = append(docs, q.proj.apply(doc))
	}
	writeList(w, q, total, docs)
	return nil
}

// userWithGroups is u's resource, with its groups when proj asks for them.
func (s *Server) userWithGroups(r *http.Request, u *admin.SCIMUserView, proj projection) (map[string]any, error) {
	var groups []admin.SCIMGroupRef
	if proj.wants("groups") {
		var err error
		if groups, err = s.svc.SCIMUserGroups(ctx(r), caller(r), u.ID); err != nil {
			return nil, err
		}
	}
	return s.userDoc(u, groups), nil
}

// answerUser answers u with status, unless err says why not.
func (s *Server) answerUser(w http.ResponseWriter, r *http.Request, status int, u *admin.SCIMUserView, err error) error {
	if err != nil {
		return err
	}
	return answer(w, r, status, s.base+usersPath+"/"+u.ID, func(proj projection) (map[string]any, error) {
		return s.userWithGroups(r, u, proj)
	})
}

func (s *Server) getUser(w http.ResponseWriter, r *http.Request) error {
	u, err := s.svc.SCIMUser(ctx(r), caller(r), resourceID(r))
	return s.answerUser(w, r, http.StatusOK, u, err)
}

func (s *Server) createUser(w http.ResponseWriter, r *http.Request) error {
	st, err := readResource(r, readUser)
	if err != nil {
		return err
	}
	u, err := s.svc.SCIMCreateUser(ctx(r), caller(r), st.input())
	return s.answerUser(w, r, http.StatusCreated, u, err)
}

// putUser replaces the user: what the resource leaves out is cleared (the
// externalId) or kept (the name falls back to userName; active stays).
func (s *Server) putUser(w http.ResponseWriter, r *http.Request) error {
	st, err := readResource(r, readUser)
	if err != nil {
		return err
	}
	u, err := s.svc.SCIMReplaceUser(ctx(r), caller(r), resourceID(r), st.input())
	return s.answerUser(w, r, http.StatusOK, u, err)
}

func (s *Server) patchUser(w http.ResponseWriter, r *http.Request) error {
	ops, err := readPatch(r)
	if err != nil {
		return err
	}
	id := resourceID(r)
	cur, err := s.svc.SCIMUser(ctx(r), caller(r), id)
	if err != nil {
		return err
	}
	active := cur.SuspendedAt == nil
	st := &userState{userName: cur.Email, externalID: cur.ExternalID, current: cur.Name}
	if err := applyPatch(ops, st); err != nil {
		return err
	}
	in := st.input()
	if in.Active != nil && *in.Active == active {
		in.Active = nil
	}
	u, err := s.svc.SCIMReplaceUser(ctx(r), caller(r), id, in)
	return s.answerUser(w, r, http.StatusOK, u, err)
}

func (s *Server) deleteUser(w http.ResponseWriter, r *http.Request) error {
	return noContent(w, s.svc.SCIMDeleteUser(ctx(r), caller(r), resourceID(r)))
}

package scim

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/platform/platform/internal/platform"
)

// The discovery endpoints (RFC 7644 4): what the server supports, its
// resource types and their schemas.

const (
	configSchema       = "urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"
	resourceTypeSchema = "urn:ietf:params:scim:schemas:core:2.0:ResourceType"
	schemaSchema       = "urn:ietf:params:scim:schemas:core:2.0:Schema"
)

func (s *Server) serviceProviderConfig(w http.ResponseWriter, r *http.Request) error {
	write(w, http.StatusOK, map[string]any{
		"schemas":               []string{configSchema},
		"patch":                 map[string]any{"supported": true},
		"bulk":                  map[string]any{"supported": false, "maxOperations": 0, "maxPayloadSize": 0},
		"filter":                map[string]any{"supported": true, "maxResults": MaxCount},
		"changePassword":        map[string]any{"supported": false},
		"sort":                  map[string]any{"supported": false},
		"etag":                  map[string]any{"supported": false},
		"authenticationSchemes": []map[string]any{{"type": "oauthbearertoken", "name": "Bearer token", "description": "A SCIM token made in the console (POST /api/v1/customers/{id}/scim-tokens)", "primary": true}},
		"meta":                  map[string]any{"resourceType": "ServiceProviderConfig", "location": s.base + "/ServiceProviderConfig"},
	})
	return nil
}

func (s *Server) resourceTypeDocs() []map[string]any {
	return []map[string]any{
		{"schemas": []string{resourceTypeSchema}, "id": "User", "name": "User", "endpoint": "/Users", "schema": UserSchema,
			"meta": map[string]any{"resourceType": "ResourceType", "location": s.base + "/ResourceTypes/User"}},
		{"schemas": []string{resourceTypeSchema}, "id": "Group", "name": "Group", "endpoint": "/Groups", "schema": GroupSchema,
			"meta": map[string]any{"resourceType": "ResourceType", "location": s.base + "/ResourceTypes/Group"}},
	}
}

func (s *Server) resourceTypes(w http.ResponseWriter, r *http.Request) error {
	return writeAll(w, s.resourceTypeDocs())
}

func (s *Server) resourceType(w http.ResponseWriter, r *http.Request) error {
	return writeOne(w, s.resourceTypeDocs(), chi.URLParam(r, "name"), "no such resource type")
}

func attr(name, typ string, required bool, mutability string, extra ...map[string]any) map[string]any {
	a := map[string]any{"name": name, "type": typ, "multiValued": false, "required": required, "caseExact": false,
		"mutability": mutability, "returned": "default", "uniqueness": "none"}
	for _, e := range extra {
		for k, v := range e {
			a[k] = v
		}
	}
	return a
}

func (s *Server) schemaDocs() []map[string]any {
	member := []map[string]any{attr("value", "string", true, "immutable"), attr("display", "string", false, "readOnly"),
		attr("$ref", "reference", false, "immutable")}
	return []map[string]any{
		{"schemas": []string{schemaSchema}, "id": UserSchema, "name": "User", "description": "A user of the organization",
			"attributes": []map[string]any{
				attr("userName", "string", true, "readWrite", map[string]any{"uniqueness": "server"}),
				attr("name", "complex", false, "readWrite", map[string]any{"subAttributes": []map[string]any{
					attr("formatted", "string", false, "readWrite"), attr("givenName", "string", false, "writeOnly"),
					attr("familyName", "string", false, "writeOnly")}}),
				attr("displayName", "string", false, "readWrite"),
				attr("preferredLanguage", "string", false, "readWrite"),
				attr("emails", "complex", false, "readWrite", map[string]any{"multiValued": true, "subAttributes": []map[string]any{
					attr("value", "string", false, "readWrite"), attr("type", "string", false, "readWrite"),
					attr("primary", "boolean", false, "readWrite")}}),
				attr("active", "boolean", false, "readWrite"),
				attr("externalId", "string", false, "readWrite", map[string]any{"caseExact": true}),
				attr("groups", "complex", false, "readOnly", map[string]any{"multiValued": true, "subAttributes": member}),
			},
			"meta": map[string]any{"resourceType": "Schema", "location": s.base + "/Schemas/" + UserSchema}},
		{"schemas": []string{schemaSchema}, "id": GroupSchema, "name": "Group", "description": "A group of the organization's users",
			"attributes": []map[string]any{
				attr("displayName", "string", true, "readWrite", map[string]any{"uniqueness": "server"}),
				attr("externalId", "string", false, "readWrite", map[string]any{"caseExact": true}),
				attr("members", "complex", false, "readWrite", map[string]any{"multiValued": true, "subAttributes": member}),
			},
			"meta": map[string]any{"resourceType": "Schema", "location": s.base + "/Schemas/" + GroupSchema}},
	}
}

func (s *Server) schemas(w http.ResponseWriter, r *http.Request) error {
	return writeAll(w, s.schemaDocs())
}

func (s *Server) schema(w http.ResponseWriter, r *http.Request) error {
	return writeOne(w, s.schemaDocs(), resourceID(r), "no such schema")
}

// writeAll answers every one of a discovery endpoint's documents as a list.
func writeAll(w http.ResponseWriter, docs []map[string]any) error {
	write(w, http.StatusOK, listResponse(1, len(docs), docs))
	return nil
}

// writeOne answers the document whose id is id, or ENOTFOUND with missing.
func writeOne(w http.ResponseWriter, docs []map[string]any, id, missing string) error {
	for _, d := range docs {
		if d["id"] == id {
			write(w, http.StatusOK, d)
			return nil
		}
	}
	return platform.Errorf(platform.ENOTFOUND, "%s", missing)
}

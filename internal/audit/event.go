package audit

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/platform/platform/internal/store"
)

// Event is one audit event in the one schema of the audit trail, the same
// in the REST API (/api/v1/audit-log), GraphQL (auditLog), the customers'
// webhooks and the export (docs/api.md, "Audit events"). Its fields follow
// OCSF's: time, category, class, activity and type, the outcome (OCSF's
// status), the actor, the target, where the request came from; the
// platform's own are the kind (what webhooks subscribe to and the log
// filters by), the customer whose readers see it, and, for the
// administration events, the capability-matrix action, the declared
// operation and the answer's status.
type Event struct {
	ID   string    `json:"id"`
	Time time.Time `json:"time"`
	// Kind is the event's kind (Kinds).
	Kind        string `json:"kind"`
	Category    string `json:"category"`
	CategoryUID int    `json:"categoryUid"`
	Class       string `json:"class"`
	ClassUID    int    `json:"classUid"`
	Activity    string `json:"activity"`
	ActivityID  int    `json:"activityId"`
	// TypeUID is OCSF's type_uid: classUid × 100 + activityId.
	TypeUID int `json:"typeUid"`
	// Outcome is success or failure.
	Outcome string `json:"outcome"`
	// Reason is a code of why (a failure's cause, why a session ended); for
	// a refusal of the APIs, the authorization core's reason.
	Reason string `json:"reason"`
	Actor  Actor  `json:"actor"`
	Target Target `json:"target"`
	// SourceAddress and UserAgent are the client's, as the request showed
	// them (behind TRUSTED_PROXIES, the address they forwarded).
	SourceAddress string `json:"sourceAddress"`
	UserAgent     string `json:"userAgent"`
	RequestID     string `json:"requestId"`
	// CustomerID is the customer whose scoped readers and webhooks see the
	// event; null for platform-wide events.
	CustomerID *string `json:"customerId"`
	// Action is the capability-matrix action an administration event was
	// decided on; Operation an allowed write's declared operation
	// ("tenant.update"); Resource what it acted on as a path of kinds and
	// ids ("tenants/<id>/members/<user>"), of which Target is the last.
	// Empty for security events.
	Action    string `json:"action"`
	Operation string `json:"operation"`
	Resource  string `json:"resource"`
	// Status is the answer's HTTP status: 200 for a success, 401 for a
	// failed security event, 403 or 404 for a refusal of the APIs.
	Status  int     `json:"status"`
	Details Details `json:"details"`
}

// Actor is who did what the event records, as it was then: a user's id,
// address, organization and console role. A failed sign-in for an address
// without an account has the address only.
type Actor struct {
	UserID         string `json:"userId"`
	Email          string `json:"email"`
	OrganizationID string `json:"organizationId"`
	Role           string `json:"role"`
	// ImpersonatorID is who acted as the user: the internal user of an
	// impersonation or the service account of a delegation (the access
	// token's act claim, D-impersonation); "" when the user acted itself.
	ImpersonatorID string `json:"impersonatorId,omitempty"`
}

// Target is what the event acted on: its type (user, application,
// session, passkey, tenant, …), id and, where there is one, name (a user's
// address, an application's name).
type Target struct {
	Type string `json:"type"`
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Details are the fields some kinds add (docs/api.md lists which); empty
// ones are left out. No password, code, token or secret is ever one.
type Details struct {
	// Method is how a user proved who they are (password, totp,
	// recovery_code, passkey, sso, link) or which factor changed (totp, passkey).
	Method string `json:"method,omitempty"`
	// Step is the sign-in's step that failed: first_factor or second_factor.
	Step string `json:"step,omitempty"`
	// AMR lists a session's authentication methods (RFC 8176), space separated.
	AMR string `json:"amr,omitempty"`
	// GrantType is how tokens were issued (authorization_code,
	// client_credentials, the device code); GrantID the grant they opened
	// or, for a reuse, revoked.
	GrantType string `json:"grantType,omitempty"`
	GrantID   string `json:"grantId,omitempty"`
	// Token is the kind of token presented again (refresh_token, authorization_code).
	Token string `json:"token,omitempty"`
	// Until is when a lock ends (RFC 3339).
	Until string `json:"until,omitempty"`
	// Sessions is how many sessions ended at once.
	Sessions int `json:"sessions,omitempty"`
	// GroupsJoined and GroupsLeft are the groups a sign-in's groups claim
	// put the user in and took it out of (D-jit-groups).
	GroupsJoined []string `json:"groupsJoined,omitempty"`
	GroupsLeft   []string `json:"groupsLeft,omitempty"`
}

func (d Details) encode() string {
	b, err := json.Marshal(d)
	if err != nil {
		return "{}"
	}
	return string(b)
}

// Outcomes of an event.
const (
	Success = "success"
	Failure = "failure"
)

// FromRow is the event a row of the audit log records.
func FromRow(r *store.AuditEvent) Event {
	kind := Kind(r.Kind)
	category, class, activity := classify(kind, r.Operation)
	e := Event{ID: r.ID, Time: r.At.UTC(), Kind: r.Kind, CategoryUID: category, Category: categoryNames[category],
		ClassUID: class, Class: classNames[class], ActivityID: activity, Activity: activityNames[class][activity],
		TypeUID: class*100 + activity, Outcome: Success, Reason: r.Reason,
		Actor: Actor{UserID: r.ActorID, Email: r.ActorEmail, OrganizationID: r.ActorOrgID, Role: r.ActorRole,
			ImpersonatorID: r.ImpersonatorID},
		Target:        Target{Type: r.TargetType, ID: r.TargetID, Name: r.TargetName},
		SourceAddress: r.SourceIP, UserAgent: r.UserAgent, RequestID: r.RequestID, Action: r.Action, Operation: r.Operation, Resource: r.Resource,
		Status: r.Status}
	if r.Decision == "denied" {
		e.Outcome = Failure
	}
	// a write recorded before operations were named its action with the
	// request's method ("manage_tenant PATCH")
	e.Action, _, _ = strings.Cut(e.Action, " ")
	if r.CustomerID != "" {
		c := r.CustomerID
		e.CustomerID = &c
	}
	if e.Target == (Target{}) {
		e.Target = TargetOf(r.Resource)
	}
	_ = json.Unmarshal([]byte(r.Details), &e.Details)
	return e
}

// TargetOf reads the target of an administration event from its resource,
// a path of kinds and ids ("tenants/<id>", "tenants/<id>/members/<user>"):
// the last kind that names an id. The users of every path (users,
// internal-users, members) are of type user.
func TargetOf(resource string) Target {
	parts := strings.Split(resource, "/")
	var t Target
	for i := 0; i+1 < len(parts); i += 2 {
		if parts[i] != "" && parts[i+1] != "" {
			t = Target{Type: singular(parts[i]), ID: parts[i+1]}
		}
	}
	return t
}

func singular(kind string) string {
	switch kind {
	case "users", "internal-users", "members":
		return "user"
	}
	kind = strings.ReplaceAll(kind, "-", "_")
	switch {
	case strings.HasSuffix(kind, "ies"):
		return strings.TrimSuffix(kind, "ies") + "y"
	case strings.HasSuffix(kind, "s") && !strings.HasSuffix(kind, "ss") && !strings.HasSuffix(kind, "us"):
		return strings.TrimSuffix(kind, "s")
	}
	return kind
}

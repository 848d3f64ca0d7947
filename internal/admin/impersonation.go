package admin

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// Support impersonation (D-impersonation): an internal user whose role
// manages a customer's users in scope (platform_admin, account_manager and
// qa_admin within their grants) starts acting as one of its users, for a
// stated reason, when the customer allows it. The answer is a one-time
// subject token, valid SubjectTokenLifetime, which the console exchanges at
// the identity provider's token endpoint (RFC 8693) for a token of the
// user acting with act naming the support user. The customer sees and ends
// every impersonation; ending one revokes its grant.

// SubjectTokenLifetime is how long an impersonation's subject token may be
// exchanged.
const SubjectTokenLifetime = time.Minute

// ImpersonationLifetime is the longest an impersonation lasts once exchanged.
const ImpersonationLifetime = time.Hour

// SubjectTokenType is the subject_token_type of the impersonation's token
// at the token exchange.
const SubjectTokenType = "urn:platform:params:oauth:token-type:impersonation"

// maxReason bounds an impersonation's reason, in characters.
const maxReason = 500

// ImpersonateInput starts an impersonation.
type ImpersonateInput struct {
	// Reason says why support acts as the user (1 to 500 characters); the
	// customer reads it.
	Reason string `json:"reason"`
}

// ImpersonationStart is the answer of a started impersonation: its id and
// the one-time subject token (shown once, never stored in the clear). When
// the customer named an approver, Approval is pending and there is no
// subject token yet: it is collected once approved (CollectSubjectToken).
type ImpersonationStart struct {
	ID               string `json:"id"`
	UserID           string `json:"userId"`
	CustomerID       string `json:"customerId"`
	SubjectToken     string `json:"subjectToken"`
	SubjectTokenType string `json:"subjectTokenType"`
	// ExpiresIn is how many seconds the subject token may be exchanged
	// (or, awaiting approval, how long the request waits for it).
	ExpiresIn int `json:"expiresIn"`
	// Approval is "" when none is needed, else pending (D-impersonation-approval).
	Approval string `json:"approval"`
	// ApproverEmail is who decides, when someone does.
	ApproverEmail string `json:"approverEmail"`
}

// Impersonation is one impersonation as the customer and the platform see it.
type Impersonation struct {
	ID         string `json:"id"`
	CustomerID string `json:"customerId"`
	UserID     string `json:"userId"`
	UserEmail  string `json:"userEmail"`
	ActorID    string `json:"actorId"`
	ActorEmail string `json:"actorEmail"`
	Reason     string `json:"reason"`
	// State is awaiting_approval, denied, pending (not exchanged yet; when
	// approved, once the subject token is collected), active, ended or
	// expired (D-impersonation-approval).
	State string `json:"state"`
	// Approval is "" when the customer named no approver, else pending,
	// approved or denied; ApproverID and ApproverEmail name the approver.
	Approval      string     `json:"approval"`
	ApproverID    string     `json:"approverId"`
	ApproverEmail string     `json:"approverEmail"`
	DecidedAt     *time.Time `json:"decidedAt"`
	CreatedAt     time.Time  `json:"createdAt"`
	ExchangedAt   *time.Time `json:"exchangedAt"`
	ExpiresAt     time.Time  `json:"expiresAt"`
	EndedAt       *time.Time `json:"endedAt"`
	EndedBy       string     `json:"endedBy"`
}

// ImpersonationPolicy is a customer's decision on support impersonation.
type ImpersonationPolicy struct {
	// Allowed lets support act as the customer's users; off by default.
	Allowed *bool `json:"allowed"`
	// ApproverID names the customer's owner or admin who approves each
	// impersonation before it starts; "" (or absent) for none
	// (D-impersonation-approval).
	ApproverID string `json:"approverId"`
	// ApprovalRequired is whether an approver is named (answered, not read).
	ApprovalRequired bool `json:"approvalRequired"`
}

// impersonations is the Service's part for impersonation.
type impersonations struct{ *core }

func (s *impersonations) view(m *store.Impersonation) *Impersonation {
	v := &Impersonation{ID: m.ID, CustomerID: m.CustomerID, UserID: m.UserID, UserEmail: m.UserEmail, ActorID: m.ActorID,
		ActorEmail: m.ActorEmail, Reason: m.Reason, CreatedAt: m.CreatedAt, ExchangedAt: m.ExchangedAt, ExpiresAt: m.ExpiresAt,
		EndedAt: m.EndedAt, EndedBy: m.EndedBy, Approval: m.Approval, ApproverID: m.ApproverID, ApproverEmail: m.ApproverEmail,
		DecidedAt: m.DecidedAt}
	now := s.now()
	switch {
	case m.Approval == store.ApprovalDenied:
		v.State = "denied"
	case m.EndedAt != nil:
		v.State = "ended"
	case m.ExchangedAt == nil && !now.Before(m.TokenExpiresAt), !now.Before(m.ExpiresAt):
		v.State = "expired"
	case m.Approval == store.ApprovalPending:
		v.State = "awaiting_approval"
	case m.Approval == store.ApprovalApproved && m.TokenHash == store.PendingTokenHash(m.ID):
		v.State = "approved"
	case m.ExchangedAt == nil:
		v.State = "pending"
	default:
		v.State = "active"
	}
	return v
}

var (
	errImpersonationOff = platform.Errorf(platform.EFORBIDDEN, "the customer does not allow support to act as its users")
)

// Impersonate starts an impersonation of customer user id by c (an
// internal user, acting as itself) for in.Reason, when the user's customer
// allows it, and answers its one-time subject token. The start is audited
// with the customer. EINVALID, EFORBIDDEN, ENOTFOUND.
func (s *impersonations) Impersonate(ctx context.Context, c *access.Caller, id string, in ImpersonateInput) (*ImpersonationStart, error) {
	u, err := decided(ctx, s.core, c, OpUserImpersonate, customerUserResource)(s.store.CustomerUser(ctx, id))
	if err != nil {
		return nil, err
	}
	reason := strings.TrimSpace(in.Reason)
	if reason == "" || utf8.RuneCountInString(reason) > maxReason || !utf8.ValidString(reason) {
		return nil, platform.Errorf(platform.EINVALID, "reason is required (1 to %d characters)", maxReason)
	}
	allowed, err := s.store.CustomerImpersonation(ctx, u.CustomerID)
	if err != nil {
		return nil, err
	}
	if !allowed {
		return nil, s.refused(ctx, c, OpUserImpersonate, on(u.CustomerID, "users", u.ID), errImpersonationOff)
	}
	approver, err := s.store.CustomerImpersonationApprover(ctx, u.CustomerID)
	if err != nil {
		return nil, err
	}
	if approver != "" {
		return s.request(ctx, c, u, reason, approver)
	}
	token, hash := newSubjectToken()
	now := s.now()
	m := &store.Impersonation{ID: uuid.NewString(), CustomerID: u.CustomerID, UserID: u.ID, ActorID: c.UserID, Reason: reason,
		TokenHash: hash, CreatedAt: now, TokenExpiresAt: now.Add(SubjectTokenLifetime), ExpiresAt: now.Add(SubjectTokenLifetime)}
	err = s.audited(ctx, c, OpUserImpersonate, on(u.CustomerID, "users", u.ID, "impersonations", m.ID), func(tx *store.Store) error {
		return tx.CreateImpersonation(ctx, m)
	})
	if err != nil {
		return nil, err
	}
	return &ImpersonationStart{ID: m.ID, UserID: u.ID, CustomerID: u.CustomerID, SubjectToken: token,
		SubjectTokenType: SubjectTokenType, ExpiresIn: int(SubjectTokenLifetime / time.Second)}, nil
}

// refused audits c's refused op on what (the authorization core allowed
// it, a rule of impersonation did not) and returns err.
func (s *impersonations) refused(ctx context.Context, c *access.Caller, op Operation, what acted, err error) error {
	s.access.Audit(ctx, c, s.actionOf(c, op).String(), what.resource, what.customerID,
		authz.Decision{Status: 403, Reason: platform.ErrorMessage(err)})
	return err
}

// newSubjectToken is a random 256-bit token and its SHA-256 (base64url),
// how the identity provider finds it.
func newSubjectToken() (token, hash string) {
	var b [32]byte
	_, _ = rand.Read(b[:])
	token = base64.RawURLEncoding.EncodeToString(b[:])
	sum := sha256.Sum256([]byte(token))
	return token, base64.RawURLEncoding.EncodeToString(sum[:])
}

// ListImpersonations answers a page of customer customerID's
// impersonations, newest first. EINVALID for a bad page.
func (s *impersonations) ListImpersonations(ctx context.Context, c *access.Caller, customerID string, p PageInput) (*Page[*Impersonation], error) {
	if _, err := s.customerFor(ctx, c, customerID, OpImpersonationList); err != nil {
		return nil, err
	}
	return newestPage(platform.NewestPages, p.Limit, func() ([]store.Impersonation, string, error) {
		return s.store.ImpersonationPage(ctx, customerID, p.Cursor, p.Limit)
	}, s.view)
}

// ImpersonationResource is the customer of impersonation id.
func (s *impersonations) ImpersonationResource(ctx context.Context, id string) (authz.Resource, error) {
	return located(func(m *store.Impersonation) authz.Resource { return authz.Resource{CustomerID: m.CustomerID} })(
		s.store.Impersonation(ctx, id))
}

// EndImpersonation ends impersonation id: its grant is revoked, so its
// token stops at every API at once. Ending one that already ended is
// not an error. Audited with the customer.
func (s *impersonations) EndImpersonation(ctx context.Context, c *access.Caller, id string) (*Impersonation, error) {
	m, err := decided(ctx, s.core, c, OpImpersonationEnd, func(m *store.Impersonation) authz.Resource {
		return authz.Resource{CustomerID: m.CustomerID}
	})(s.store.Impersonation(ctx, id))
	if err != nil {
		return nil, err
	}
	return s.end(ctx, c, OpImpersonationEnd, m)
}

// EndOwnImpersonation ends the impersonation the caller's credentials
// come from (the banner's "End"): its grant is revoked, so the token the
// caller used stops at once. A caller acting for nobody has nothing to end;
// the request is recorded all the same.
func (s *impersonations) EndOwnImpersonation(ctx context.Context, c *access.Caller) error {
	if c.Actor != "" {
		if m, err := s.store.Impersonation(ctx, c.GrantID); err == nil && m.UserID == c.UserID && m.ActorID == c.Actor {
			_, err := s.end(ctx, c, OpImpersonationEndOwn, m)
			return err
		}
	}
	return s.audited(ctx, c, OpImpersonationEndOwn, on("", "me", c.UserID, "impersonation"), nil)
}

func (s *impersonations) end(ctx context.Context, c *access.Caller, op Operation, m *store.Impersonation) (*Impersonation, error) {
	by := c.UserID
	if c.Actor != "" {
		by = c.Actor
	}
	err := s.audited(ctx, c, op, on(m.CustomerID, "users", m.UserID, "impersonations", m.ID), func(tx *store.Store) error {
		_, err := tx.EndImpersonation(ctx, m.ID, by, s.now())
		return err
	})
	if err != nil {
		return nil, err
	}
	ended, err := s.store.Impersonation(ctx, m.ID)
	if err != nil {
		return nil, err
	}
	return s.view(ended), nil
}

// CustomerImpersonationPolicy answers whether customer customerID allows
// support impersonation.
func (s *impersonations) CustomerImpersonationPolicy(ctx context.Context, c *access.Caller, customerID string) (*ImpersonationPolicy, error) {
	allowed, err := ofCustomer(ctx, s.core, c, OpImpersonationPolicyGet, customerID, s.store.CustomerImpersonation)
	if err != nil {
		return nil, err
	}
	approver, err := s.store.CustomerImpersonationApprover(ctx, customerID)
	if err != nil {
		return nil, err
	}
	return &ImpersonationPolicy{Allowed: &allowed, ApproverID: approver, ApprovalRequired: approver != ""}, nil
}

// PutCustomerImpersonationPolicy records customer customerID's decision on
// support impersonation (allow_impersonation: the customer's owner and
// admins, never support, never someone acting for a user). Turning it off
// ends every running impersonation of the customer. EINVALID, EFORBIDDEN.
func (s *impersonations) PutCustomerImpersonationPolicy(ctx context.Context, c *access.Caller, customerID string, in ImpersonationPolicy) (*ImpersonationPolicy, error) {
	if _, err := s.customerFor(ctx, c, customerID, OpImpersonationPolicyPut); err != nil {
		return nil, err
	}
	if in.Allowed == nil {
		return nil, platform.Errorf(platform.EINVALID, "allowed is required")
	}
	if err := s.checkApprover(ctx, customerID, in.ApproverID); err != nil {
		return nil, err
	}
	err := s.audited(ctx, c, OpImpersonationPolicyPut, on(customerID, "customers", customerID, "impersonation-policy"), func(tx *store.Store) error {
		if err := tx.SetCustomerImpersonationApprover(ctx, customerID, in.ApproverID); err != nil {
			return err
		}
		return tx.SetCustomerImpersonation(ctx, customerID, *in.Allowed, c.UserID, s.now())
	})
	if err != nil {
		return nil, err
	}
	return &ImpersonationPolicy{Allowed: in.Allowed, ApproverID: in.ApproverID, ApprovalRequired: in.ApproverID != ""}, nil
}

package admin

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/authz"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// Impersonation with an approver (D-impersonation-approval): a customer
// that allows impersonation may name one of its owners or admins who
// approves each one. A start is then a request awaiting approval, without
// a subject token; the approver approves or denies it within
// ApprovalLifetime; once approved, the support user who asked collects the
// one-time subject token (as without an approver, SubjectTokenLifetime to
// exchange it). Nobody else decides: not another owner or admin, not the
// support user, not anyone acting for a user (allow_impersonation is
// refused to a token with act). Every step is audited with the customer.

// ApprovalLifetime is how long a request waits for its approver, and how
// long an approved one waits for its subject token to be collected.
const ApprovalLifetime = 15 * time.Minute

var (
	errNotApprover       = platform.Errorf(platform.EFORBIDDEN, "only the approver the customer named decides on this impersonation")
	errNotRequester      = platform.Errorf(platform.EFORBIDDEN, "only the support user who asked collects the subject token")
	errNotAwaiting       = platform.Errorf(platform.ECONFLICT, "the impersonation is not awaiting approval (decided, ended or lapsed)")
	errNoTokenToCollect  = platform.Errorf(platform.ECONFLICT, "the impersonation has no subject token to collect: it is not approved, was collected already, ended or lapsed")
	errApproverNotOfUser = platform.Errorf(platform.EINVALID, "approverId must name an active owner or admin of the customer")
)

// checkApprover refuses an approver that is not an active owner or admin
// of customer customerID ("" names none and passes).
func (s *impersonations) checkApprover(ctx context.Context, customerID, approverID string) error {
	if approverID == "" {
		return nil
	}
	if !platform.ValidID(approverID) {
		return errApproverNotOfUser
	}
	u, err := s.store.CustomerUser(ctx, approverID)
	if platform.ErrorCode(err) == platform.ENOTFOUND {
		return errApproverNotOfUser
	} else if err != nil {
		return err
	}
	if u.CustomerID != customerID || (u.Role != "owner" && u.Role != "admin") || !u.SuspendedAt.IsZero() || u.Pending {
		return errApproverNotOfUser
	}
	return nil
}

// request records an impersonation of u by c awaiting approver's approval.
func (s *impersonations) request(ctx context.Context, c *access.Caller, u *store.CustomerUser, reason, approver string) (*ImpersonationStart, error) {
	now := s.now()
	id := uuid.NewString()
	m := &store.Impersonation{ID: id, CustomerID: u.CustomerID, UserID: u.ID, ActorID: c.UserID, Reason: reason,
		TokenHash: store.PendingTokenHash(id), CreatedAt: now, TokenExpiresAt: now.Add(ApprovalLifetime),
		ExpiresAt: now.Add(ApprovalLifetime), Approval: store.ApprovalPending, ApproverID: approver}
	err := s.audited(ctx, c, OpUserImpersonate, on(u.CustomerID, "users", u.ID, "impersonations", id), func(tx *store.Store) error {
		return tx.CreateImpersonation(ctx, m)
	})
	if err != nil {
		return nil, err
	}
	stored, err := s.store.Impersonation(ctx, id)
	if err != nil {
		return nil, err
	}
	return &ImpersonationStart{ID: id, UserID: u.ID, CustomerID: u.CustomerID, SubjectTokenType: SubjectTokenType,
		ExpiresIn: int(ApprovalLifetime / time.Second), Approval: store.ApprovalPending, ApproverEmail: stored.ApproverEmail}, nil
}

// located is the decision on op for the impersonation's customer.
func (s *impersonations) decidedOn(ctx context.Context, c *access.Caller, op Operation, id string) (*store.Impersonation, error) {
	return decided(ctx, s.core, c, op, func(m *store.Impersonation) authz.Resource {
		return authz.Resource{CustomerID: m.CustomerID}
	})(s.store.Impersonation(ctx, id))
}

// GetImpersonation answers impersonation id: to support staff in scope
// (the support user follows its request) and to the customer's owners and
// admins. ENOTFOUND, EFORBIDDEN.
func (s *impersonations) GetImpersonation(ctx context.Context, c *access.Caller, id string) (*Impersonation, error) {
	m, err := s.decidedOn(ctx, c, OpImpersonationGet, id)
	if err != nil {
		return nil, err
	}
	return s.view(m), nil
}

// ApproveImpersonation approves impersonation id: only its approver,
// acting as itself, while it awaits approval. Audited with the customer.
func (s *impersonations) ApproveImpersonation(ctx context.Context, c *access.Caller, id string) (*Impersonation, error) {
	return s.decide(ctx, c, OpImpersonationApprove, id, store.ApprovalApproved)
}

// DenyImpersonation denies impersonation id, which ends it; as
// ApproveImpersonation.
func (s *impersonations) DenyImpersonation(ctx context.Context, c *access.Caller, id string) (*Impersonation, error) {
	return s.decide(ctx, c, OpImpersonationDeny, id, store.ApprovalDenied)
}

func (s *impersonations) decide(ctx context.Context, c *access.Caller, op Operation, id, decision string) (*Impersonation, error) {
	m, err := s.decidedOn(ctx, c, op, id)
	if err != nil {
		return nil, err
	}
	what := on(m.CustomerID, "users", m.UserID, "impersonations", m.ID)
	// the approver alone, as itself: never the support user who asked, never
	// someone acting for the approver (authz refuses act already)
	if c.Actor != "" || c.UserID != m.ApproverID || c.UserID == m.ActorID {
		return nil, s.refused(ctx, c, op, what, errNotApprover)
	}
	err = s.audited(ctx, c, op, what, func(tx *store.Store) error {
		err := tx.DecideImpersonation(ctx, m.ID, c.UserID, decision, s.now())
		if platform.ErrorCode(err) == platform.ENOTFOUND {
			return errNotAwaiting
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return s.GetImpersonation(ctx, c, id)
}

// CollectSubjectToken answers the one-time subject token of approved
// impersonation id to the support user who asked for it, once, within
// ApprovalLifetime of the approval's request. Audited with the customer.
func (s *impersonations) CollectSubjectToken(ctx context.Context, c *access.Caller, id string) (*ImpersonationStart, error) {
	m, err := s.decidedOn(ctx, c, OpImpersonationToken, id)
	if err != nil {
		return nil, err
	}
	what := on(m.CustomerID, "users", m.UserID, "impersonations", m.ID)
	if c.Actor != "" || c.UserID != m.ActorID {
		return nil, s.refused(ctx, c, OpImpersonationToken, what, errNotRequester)
	}
	token, hash := newSubjectToken()
	now := s.now()
	err = s.audited(ctx, c, OpImpersonationToken, what, func(tx *store.Store) error {
		err := tx.IssueApprovedImpersonationToken(ctx, m.ID, c.UserID, hash, now, now.Add(SubjectTokenLifetime))
		if platform.ErrorCode(err) == platform.ENOTFOUND {
			return errNoTokenToCollect
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return &ImpersonationStart{ID: m.ID, UserID: m.UserID, CustomerID: m.CustomerID, SubjectToken: token,
		SubjectTokenType: SubjectTokenType, ExpiresIn: int(SubjectTokenLifetime / time.Second), Approval: store.ApprovalApproved,
		ApproverEmail: m.ApproverEmail}, nil
}

package store

import (
	"context"
	"database/sql"
	"time"

	"github.com/platform/platform/internal/platform"
)

// Impersonation is one support impersonation (migration 0038,
// D-impersonation): internal user ActorID acting as customer CustomerID's
// user UserID for Reason. Its one-time subject token is kept as TokenHash;
// the exchange opens the grant whose id is the impersonation's ID.
type Impersonation struct {
	ID         string
	CustomerID string
	UserID     string
	ActorID    string
	Reason     string
	TokenHash  string
	CreatedAt  time.Time
	// TokenExpiresAt is when the subject token can no longer be exchanged.
	TokenExpiresAt time.Time
	// ExchangedAt is when the subject token was spent; nil before.
	ExchangedAt *time.Time
	// ExpiresAt is when the impersonation ends by itself.
	ExpiresAt time.Time
	// EndedAt is when it was ended early, and EndedBy by whom; nil and "".
	EndedAt *time.Time
	EndedBy string
	// Approval is "" when the customer named no approver, else pending,
	// approved or denied (D-impersonation-approval); ApproverID is who
	// decides, DecidedAt when.
	Approval   string
	ApproverID string
	DecidedAt  *time.Time
	// UserEmail and ActorEmail are the two users' addresses, read with the
	// row, and ApproverEmail the approver's.
	UserEmail, ActorEmail, ApproverEmail string
}

// Approval states of an impersonation (D-impersonation-approval).
const (
	ApprovalPending  = "pending"
	ApprovalApproved = "approved"
	ApprovalDenied   = "denied"
)

// PendingTokenHash is the token_hash of an impersonation whose subject
// token is not issued yet: no SHA-256 in base64url equals it.
func PendingTokenHash(id string) string { return "pending:" + id }

// impersonationColumns are the columns of impersonations (aliased i), with
// the two users' addresses, in scanImpersonation's order.
const impersonationColumns = `i.id, i.customer_id, i.user_id, i.actor_id, i.reason, i.token_hash, i.created_at,
	i.token_expires_at, i.exchanged_at, i.expires_at, i.ended_at, i.ended_by, i.approval, i.approver_id, i.decided_at,
	COALESCE((SELECT email FROM users WHERE id = i.user_id), ''), COALESCE((SELECT email FROM users WHERE id = i.actor_id), ''),
	COALESCE((SELECT email FROM users WHERE id = i.approver_id), '')`

func scanImpersonation(r Row) (Impersonation, error) {
	var m Impersonation
	var exchanged, ended, decided sql.NullTime
	err := r.Scan(&m.ID, &m.CustomerID, &m.UserID, &m.ActorID, &m.Reason, &m.TokenHash, &m.CreatedAt, &m.TokenExpiresAt,
		&exchanged, &m.ExpiresAt, &ended, &m.EndedBy, &m.Approval, &m.ApproverID, &decided, &m.UserEmail, &m.ActorEmail,
		&m.ApproverEmail)
	m.ExchangedAt, m.EndedAt, m.DecidedAt = timePtr(exchanged), timePtr(ended), timePtr(decided)
	return m, err
}

// CreateImpersonation stores a new impersonation, its token not yet spent.
func (s *OIDC) CreateImpersonation(ctx context.Context, m *Impersonation) error {
	_, err := s.db.Exec(ctx, `INSERT INTO impersonations (id, customer_id, user_id, actor_id, reason, token_hash, created_at,
		token_expires_at, expires_at, approval, approver_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
		m.ID, m.CustomerID, m.UserID, m.ActorID, m.Reason, m.TokenHash, m.CreatedAt.UTC(), m.TokenExpiresAt.UTC(), m.ExpiresAt.UTC(),
		m.Approval, m.ApproverID)
	return wrap(err, "impersonation")
}

// Impersonation returns one impersonation. ENOTFOUND.
func (s *OIDC) Impersonation(ctx context.Context, id string) (*Impersonation, error) {
	return queryOne(ctx, s.db, "impersonation", scanImpersonation,
		`SELECT `+impersonationColumns+` FROM impersonations i WHERE i.id = $1`, id)
}

// ExchangeImpersonation spends the subject token of hash for actorID at
// now, at most once: the token must be unspent and unexpired, the
// impersonation not ended, its actor actorID, and its customer must still
// allow impersonation. The impersonation then ends at expiresAt. ENOTFOUND
// for anything else (a replay, another actor's token, a forbidden
// customer alike), and the token stays as it was.
func (s *OIDC) ExchangeImpersonation(ctx context.Context, hash, actorID, actorGrantID string, now, expiresAt time.Time) (*Impersonation, error) {
	var id string
	err := s.db.QueryRow(ctx, `UPDATE impersonations SET exchanged_at = $3, expires_at = $4, actor_grant_id = $5
		WHERE token_hash = $1 AND actor_id = $2 AND exchanged_at IS NULL AND ended_at IS NULL AND token_expires_at > $3
			AND approval IN ('', 'approved')
			AND EXISTS (SELECT 1 FROM customers c WHERE c.id = impersonations.customer_id AND c.impersonation_allowed)
		RETURNING id`, hash, actorID, now.UTC(), expiresAt.UTC(), actorGrantID).Scan(&id)
	if err != nil {
		return nil, wrap(err, "impersonation")
	}
	return s.Impersonation(ctx, id)
}

// ImpersonationPage answers a page of customer customerID's impersonations,
// newest first (platform.NewestPages), after cursor. EINVALID for a bad cursor.
func (s *OIDC) ImpersonationPage(ctx context.Context, customerID, cursor string, limit int) ([]Impersonation, string, error) {
	return newestPage(ctx, s.db, cursor, limit, `SELECT `+impersonationColumns+` FROM impersonations i`, `i.customer_id = $1`,
		[]any{customerID}, "i.created_at", scanImpersonation, func(m *Impersonation) (time.Time, string) { return m.CreatedAt, m.ID })
}

// EndImpersonation ends impersonation id as of now, by by (a user id):
// its grant is revoked with every token of it, so no API accepts them any
// more. False when it had already ended (or never existed).
func (s *OIDC) EndImpersonation(ctx context.Context, id, by string, now time.Time) (bool, error) {
	var ended bool
	err := s.InTx(ctx, func(tx *Store) error {
		n, err := tx.db.Exec(ctx, `UPDATE impersonations SET ended_at = $2, ended_by = $3 WHERE id = $1 AND ended_at IS NULL
			AND expires_at > $2`, id, now.UTC(), by)
		if err != nil || n == 0 {
			return err
		}
		ended = true
		return tx.endGrants(ctx, now, `id = $1`, id)
	})
	return ended, err
}

// PruneImpersonations deletes at most limit impersonations that were over
// (ended, or expired) before before, oldest first, and answers how many it
// deleted; their tokens and grants have long expired by then.
func (s *OIDC) PruneImpersonations(ctx context.Context, before time.Time, limit int) (int64, error) {
	return s.db.Exec(ctx, `DELETE FROM impersonations WHERE id IN (
		SELECT id FROM impersonations WHERE COALESCE(ended_at, expires_at) < $1
		ORDER BY COALESCE(ended_at, expires_at), id LIMIT $2)`, before.UTC(), limit)
}

// SetCustomerImpersonation turns customer customerID's permission for
// support impersonation on or off. Turning it off ends every impersonation
// of the customer still running, as of now, by by. ENOTFOUND for no such customer.
func (s *OIDC) SetCustomerImpersonation(ctx context.Context, customerID string, allowed bool, by string, now time.Time) error {
	return s.InTx(ctx, func(tx *Store) error {
		n, err := tx.db.Exec(ctx, `UPDATE customers SET impersonation_allowed = $2 WHERE id = $1`, customerID, allowed)
		if err != nil {
			return err
		}
		if n == 0 {
			return platform.Errorf(platform.ENOTFOUND, "customer not found")
		}
		if allowed {
			return nil
		}
		live := `SELECT id FROM impersonations WHERE customer_id = $1 AND ended_at IS NULL AND expires_at > $2`
		if err := tx.endGrants(ctx, now, `id IN (`+live+`)`, customerID, now.UTC()); err != nil {
			return err
		}
		_, err = tx.db.Exec(ctx, `UPDATE impersonations SET ended_at = $2, ended_by = $3 WHERE customer_id = $1 AND ended_at IS NULL
			AND expires_at > $2`, customerID, now.UTC(), by)
		return err
	})
}

// CustomerImpersonation reports whether customer customerID allows support
// impersonation. ENOTFOUND.
func (s *OIDC) CustomerImpersonation(ctx context.Context, customerID string) (bool, error) {
	var allowed bool
	err := s.db.QueryRow(ctx, `SELECT impersonation_allowed FROM customers WHERE id = $1`, customerID).Scan(&allowed)
	return allowed, wrap(err, "customer")
}

// DecideImpersonation records approverID's decision (ApprovalApproved or
// ApprovalDenied) on impersonation id as of now, at most once: it must be
// pending, not lapsed (token_expires_at), not ended, and approverID its
// approver. A denial ends it. ENOTFOUND for anything else.
func (s *OIDC) DecideImpersonation(ctx context.Context, id, approverID, decision string, now time.Time) error {
	ended := "NULL"
	if decision == ApprovalDenied {
		ended = "$4"
	}
	return s.execOne(ctx, "impersonation", `UPDATE impersonations SET approval = $3, decided_at = $4, ended_at = `+ended+`,
		ended_by = CASE WHEN $3 = 'denied' THEN $2 ELSE ended_by END
		WHERE id = $1 AND approver_id = $2 AND approval = 'pending' AND ended_at IS NULL AND token_expires_at > $4`,
		id, approverID, decision, now.UTC())
}

// IssueApprovedImpersonationToken gives approved impersonation id its
// one-time subject token (hash), for actorID, valid until tokenExpiresAt,
// at most once: it must be approved, its token not issued yet, not lapsed
// and not ended. ENOTFOUND for anything else.
func (s *OIDC) IssueApprovedImpersonationToken(ctx context.Context, id, actorID, hash string, now, tokenExpiresAt time.Time) error {
	return s.execOne(ctx, "impersonation", `UPDATE impersonations SET token_hash = $3, token_expires_at = $5, expires_at = $5
		WHERE id = $1 AND actor_id = $2 AND approval = 'approved' AND token_hash = $6 AND ended_at IS NULL
			AND token_expires_at > $4`,
		id, actorID, hash, now.UTC(), tokenExpiresAt.UTC(), PendingTokenHash(id))
}

// CustomerImpersonationApprover answers the approver customer customerID
// named for support impersonation, "" for none. ENOTFOUND.
func (s *OIDC) CustomerImpersonationApprover(ctx context.Context, customerID string) (string, error) {
	var id string
	err := s.db.QueryRow(ctx, `SELECT impersonation_approver_id FROM customers WHERE id = $1`, customerID).Scan(&id)
	return id, wrap(err, "customer")
}

// SetCustomerImpersonationApprover names approverID ("" for none) the
// approver of customer customerID's impersonations. ENOTFOUND.
func (s *OIDC) SetCustomerImpersonationApprover(ctx context.Context, customerID, approverID string) error {
	return s.execOne(ctx, "customer", `UPDATE customers SET impersonation_approver_id = $2 WHERE id = $1`, customerID, approverID)
}

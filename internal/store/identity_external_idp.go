package store

import (
	"context"
	"time"

	"github.com/platform/platform/internal/platform"
)

const idpColumns = `id, org_id, name, issuer, client_id, client_secret_enc, scopes, created_at, link_trusted, mfa_enforced,
	groups_claim, group_mapping`

func scanIDP(r Row) (*platform.ExternalIDP, error) {
	var x platform.ExternalIDP
	var scopes, mapping string
	err := r.Scan(&x.ID, &x.OrgID, &x.Name, &x.Issuer, &x.ClientID, &x.SecretSealed, &scopes, &x.CreatedAt,
		&x.LinkTrusted, &x.MFAEnforced, &x.GroupsClaim, &mapping)
	x.Scopes = splitList(scopes)
	x.GroupMapping = decodeMapping(mapping)
	return &x, err
}

// CreateExternalIDP stores an external provider. EINVALID, ECONFLICT.
func (s *Identity) CreateExternalIDP(ctx context.Context, x *platform.ExternalIDP) error {
	if err := x.Validate(); err != nil {
		return err
	}
	_, err := s.db.Exec(ctx, `INSERT INTO external_idps (`+idpColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
		x.ID, x.OrgID, x.Name, x.Issuer, x.ClientID, x.SecretSealed, joinList(x.Scopes), x.CreatedAt.UTC(),
		x.LinkTrusted, x.MFAEnforced, x.GroupsClaim, encodeMapping(x.GroupMapping))
	return wrap(err, "identity provider")
}

// ExternalIDP returns one provider. ENOTFOUND when missing.
func (s *Identity) ExternalIDP(ctx context.Context, id string) (*platform.ExternalIDP, error) {
	x, err := scanIDP(s.db.QueryRow(ctx, `SELECT `+idpColumns+` FROM external_idps WHERE id = $1`, id))
	return x, wrap(err, "identity provider")
}

// ExternalIDPs lists an organization's providers, or every provider for orgID "".
func (s *Identity) ExternalIDPs(ctx context.Context, orgID string) ([]*platform.ExternalIDP, error) {
	return queryAll(ctx, s.db, scanIDP, `SELECT `+idpColumns+` FROM external_idps WHERE $1 = '' OR org_id = $1
		ORDER BY org_id, name, id`, orgID)
}

// UpdateExternalIDP rewrites an external provider of the identity
// provider in place, keeping the identities linked to it. ENOTFOUND.
func (s *Identity) UpdateExternalIDP(ctx context.Context, x *platform.ExternalIDP) error {
	if err := x.Validate(); err != nil {
		return err
	}
	return s.execOne(ctx, "identity provider", `UPDATE external_idps SET name = $2, issuer = $3, client_id = $4,
		client_secret_enc = $5, scopes = $6, link_trusted = $7, mfa_enforced = $8, groups_claim = $9, group_mapping = $10 WHERE id = $1`,
		x.ID, x.Name, x.Issuer, x.ClientID, x.SecretSealed, joinList(x.Scopes), x.LinkTrusted, x.MFAEnforced,
		x.GroupsClaim, encodeMapping(x.GroupMapping))
}

// DeleteExternalIDP removes a provider and its linked identities. ENOTFOUND.
func (s *Identity) DeleteExternalIDP(ctx context.Context, id string) error {
	return s.execOne(ctx, "identity provider", `DELETE FROM external_idps WHERE id = $1`, id)
}

// LinkedUser returns the user linked to an external identity. ENOTFOUND.
func (s *Identity) LinkedUser(ctx context.Context, idpID, subject string) (string, error) {
	var userID string
	err := s.db.QueryRow(ctx, `SELECT user_id FROM external_identities WHERE idp_id = $1 AND subject = $2`,
		idpID, subject).Scan(&userID)
	return userID, wrap(err, "external identity")
}

// LinkExternalIdentity links an external identity to a user. ECONFLICT when linked already.
func (s *Identity) LinkExternalIdentity(ctx context.Context, idpID, subject, userID string, now time.Time) error {
	_, err := s.db.Exec(ctx, `INSERT INTO external_identities (idp_id, subject, user_id, created_at) VALUES ($1, $2, $3, $4)`,
		idpID, subject, userID, now.UTC())
	return wrap(err, "external identity")
}

// DeleteExternalIdentities unlinks every identity of a provider (its issuer
// changed: its subjects belong to someone else now).
func (s *Identity) DeleteExternalIdentities(ctx context.Context, idpID string) error {
	_, err := s.db.Exec(ctx, `DELETE FROM external_identities WHERE idp_id = $1`, idpID)
	return err
}

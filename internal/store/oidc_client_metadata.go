package store

import (
	"context"
	"time"

	"github.com/platform/platform/internal/platform"
)

// Client ID metadata documents (D-client-metadata-documents): a customer's
// setting, the customer a document's host belongs to, and the applications
// the documents describe (their rows are the documents' cache).

// MetadataCustomer is the customer whose clients a host's metadata
// documents describe, and its organization.
type MetadataCustomer struct {
	CustomerID string
	OrgID      string
}

// ClientMetadataCustomer is the customer that holds host as a verified
// domain and has turned client ID metadata documents on. ENOTFOUND when
// there is none (no holder, or its setting off).
func (s *OIDC) ClientMetadataCustomer(ctx context.Context, host string) (*MetadataCustomer, error) {
	var m MetadataCustomer
	err := s.db.QueryRow(ctx, `SELECT c.id, c.org_id FROM customer_domain_claims d JOIN customers c ON c.id = d.customer_id
		WHERE d.domain = $1 AND d.verified_at IS NOT NULL AND c.client_metadata_documents`, host).Scan(&m.CustomerID, &m.OrgID)
	return &m, wrap(err, "customer")
}

// CustomerClientMetadataDocuments reports whether customer customerID has
// turned client ID metadata documents on. ENOTFOUND.
func (s *OIDC) CustomerClientMetadataDocuments(ctx context.Context, customerID string) (bool, error) {
	var on bool
	err := s.db.QueryRow(ctx, `SELECT client_metadata_documents FROM customers WHERE id = $1`, customerID).Scan(&on)
	return on, wrap(err, "customer")
}

// SetCustomerClientMetadataDocuments turns customer customerID's client ID
// metadata documents on or off. ENOTFOUND.
func (s *OIDC) SetCustomerClientMetadataDocuments(ctx context.Context, customerID string, on bool) error {
	return s.execOne(ctx, "customer", `UPDATE customers SET client_metadata_documents = $2 WHERE id = $1`, customerID, on)
}

// MaxMetadataClients is how many metadata document clients one customer
// may hold that it has not blocked: every path of its verified host that
// answers a valid document would otherwise add a row (and a line to its
// list). Blocking one makes room.
const MaxMetadataClients = 200

// MetadataClientRoom answers ELIMIT when customer customerID holds
// MaxMetadataClients metadata document clients it has not blocked.
func (s *OIDC) MetadataClientRoom(ctx context.Context, customerID string) error {
	return s.underLimit(ctx, "applications", "metadata_customer_id = $1 AND blocked_at IS NULL", customerID, MaxMetadataClients,
		"the organization holds %d metadata document clients already; it blocks one to make room")
}

// SaveMetadataClient records what a client's metadata document said: the
// application is inserted at its first use (ELIMIT beyond
// MaxMetadataClients), or its document's part replaced (name, kind,
// method, keys, redirect URIs, client and logo URIs, when fetched and until
// when it holds). An application of the client id made another way, or
// another customer's, is left alone: ECONFLICT. created says whether this
// was the client's first use.
func (s *OIDC) SaveMetadataClient(ctx context.Context, a *platform.Application) (created bool, err error) {
	if err := a.Validate(); err != nil {
		return false, err
	}
	if a.MetadataCustomerID == "" {
		return false, platform.Errorf(platform.EINVALID, "a metadata document client belongs to a customer")
	}
	var known bool
	if err := s.db.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM applications WHERE client_id = $1)`, a.ClientID).Scan(&known); err != nil {
		return false, err
	}
	if !known {
		if err := s.MetadataClientRoom(ctx, a.MetadataCustomerID); err != nil {
			return false, err
		}
	}
	n, err := s.db.Exec(ctx, `INSERT INTO applications (`+appColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9,
		$10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25)
		ON CONFLICT (client_id) DO UPDATE SET name = excluded.name, kind = excluded.kind, auth_method = excluded.auth_method,
		jwks = excluded.jwks, redirect_uris = excluded.redirect_uris, client_uri = excluded.client_uri, logo_uri = excluded.logo_uri,
		metadata_fetched_at = excluded.metadata_fetched_at, metadata_expires_at = excluded.metadata_expires_at
		WHERE applications.metadata_customer_id = excluded.metadata_customer_id`, appValues(a)...)
	if err == nil && n == 0 {
		return false, platform.Errorf(platform.ECONFLICT, "client id %s belongs to another application", a.ClientID)
	}
	return !known && err == nil, wrap(err, "application")
}

// MetadataClients lists customer customerID's metadata document clients,
// by name.
func (s *OIDC) MetadataClients(ctx context.Context, customerID string) ([]*platform.Application, error) {
	return queryAll(ctx, s.db, scanApp, `SELECT `+appColumns+` FROM applications WHERE metadata_customer_id = $1
		ORDER BY name, client_id`, customerID)
}

// BlockMetadataClient blocks (at now) or unblocks (now zero) customer
// customerID's metadata document client clientID; blocking ends its grants
// and their tokens. ENOTFOUND when the customer has no such client.
func (s *OIDC) BlockMetadataClient(ctx context.Context, customerID, clientID string, now time.Time) error {
	return s.InTx(ctx, func(tx *Store) error {
		if err := tx.execOne(ctx, "client", `UPDATE applications SET blocked_at = $3
			WHERE metadata_customer_id = $1 AND client_id = $2`, customerID, clientID, nullTime(now)); err != nil {
			return err
		}
		if now.IsZero() {
			return nil
		}
		return tx.endGrants(ctx, now, `client_id = $1`, clientID)
	})
}

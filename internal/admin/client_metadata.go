package admin

import (
	"context"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// clientMetadata is a customer's client ID metadata documents
// (D-client-metadata-documents): whether clients may name themselves by a
// document's https URL on one of the customer's verified domains, the
// clients that did (each recorded at its first use by the identity
// provider), and blocking one.
type clientMetadata struct{ *core }

// ClientMetadataSetting is whether a customer accepts client ID metadata
// documents; off by default.
type ClientMetadataSetting struct {
	Enabled *bool `json:"enabled"`
}

// MetadataClient is a client a metadata document describes, as the console
// lists it.
type MetadataClient struct {
	ClientID      string     `json:"clientId"` // the document's URL
	Name          string     `json:"name"`
	ClientURI     string     `json:"clientUri"`
	LogoURI       string     `json:"logoUri"`
	AuthMethod    string     `json:"authMethod"`
	RedirectURIs  []string   `json:"redirectUris"`
	FirstUsedAt   time.Time  `json:"firstUsedAt"`
	LastFetchedAt time.Time  `json:"lastFetchedAt"`
	BlockedAt     *time.Time `json:"blockedAt"`
}

// MetadataClientBlock blocks (Blocked true) or unblocks a customer's
// metadata document client.
type MetadataClientBlock struct {
	ClientID string `json:"clientId"`
	Blocked  *bool  `json:"blocked"`
}

func newMetadataClient(a *platform.Application) *MetadataClient {
	uris := a.RedirectURIs
	if uris == nil {
		uris = []string{}
	}
	return &MetadataClient{ClientID: a.ClientID, Name: a.Name, ClientURI: a.ClientURI, LogoURI: a.LogoURI,
		AuthMethod: a.TokenAuthMethod(), RedirectURIs: uris, FirstUsedAt: a.CreatedAt, LastFetchedAt: a.MetadataFetchedAt,
		BlockedAt: timeOrNull(a.BlockedAt)}
}

// ClientMetadataSetting answers whether customer customerID accepts client
// ID metadata documents.
func (s *clientMetadata) ClientMetadataSetting(ctx context.Context, c *access.Caller, customerID string) (*ClientMetadataSetting, error) {
	if _, err := s.customerFor(ctx, c, customerID, OpClientMetadataGet); err != nil {
		return nil, err
	}
	on, err := s.store.CustomerClientMetadataDocuments(ctx, customerID)
	if err != nil {
		return nil, err
	}
	return &ClientMetadataSetting{Enabled: &on}, nil
}

// PutClientMetadataSetting turns customer customerID's client ID metadata
// documents on or off. Off refuses its document clients at once (their
// rows stay, listed). EINVALID without enabled.
func (s *clientMetadata) PutClientMetadataSetting(ctx context.Context, c *access.Caller, customerID string,
	in ClientMetadataSetting) (*ClientMetadataSetting, error) {
	if _, err := s.customerFor(ctx, c, customerID, OpClientMetadataPut); err != nil {
		return nil, err
	}
	if in.Enabled == nil {
		return nil, platform.Errorf(platform.EINVALID, "enabled is required")
	}
	err := s.audited(ctx, c, OpClientMetadataPut, on(customerID, "customers", customerID, "client-metadata"), func(tx *store.Store) error {
		return tx.SetCustomerClientMetadataDocuments(ctx, customerID, *in.Enabled)
	})
	if err != nil {
		return nil, err
	}
	return &ClientMetadataSetting{Enabled: in.Enabled}, nil
}

// ListMetadataClients lists the clients metadata documents described to
// customer customerID, by name; one page.
func (s *clientMetadata) ListMetadataClients(ctx context.Context, c *access.Caller, customerID string) (*Page[*MetadataClient], error) {
	if _, err := s.customerFor(ctx, c, customerID, OpMetadataClientList); err != nil {
		return nil, err
	}
	apps, err := s.store.MetadataClients(ctx, customerID)
	if err != nil {
		return nil, err
	}
	out := make([]*MetadataClient, 0, len(apps))
	for _, a := range apps {
		out = append(out, newMetadataClient(a))
	}
	return WholePage(out), nil
}

// BlockMetadataClient blocks or unblocks customer customerID's document
// client in.ClientID; blocking ends its grants and tokens at once.
// EINVALID, ENOTFOUND for a client that is not the customer's.
func (s *clientMetadata) BlockMetadataClient(ctx context.Context, c *access.Caller, customerID string,
	in MetadataClientBlock) (*MetadataClient, error) {
	if _, err := s.customerFor(ctx, c, customerID, OpMetadataClientBlock); err != nil {
		return nil, err
	}
	if in.Blocked == nil || in.ClientID == "" {
		return nil, platform.Errorf(platform.EINVALID, "clientId and blocked are required")
	}
	var at time.Time
	if *in.Blocked {
		at = s.stamp()
	}
	err := s.audited(ctx, c, OpMetadataClientBlock, on(customerID, "customers", customerID, "metadata-clients", in.ClientID),
		func(tx *store.Store) error { return tx.BlockMetadataClient(ctx, customerID, in.ClientID, at) })
	if err != nil {
		return nil, err
	}
	app, err := s.store.ApplicationByClientID(ctx, in.ClientID)
	if err != nil {
		return nil, err
	}
	return newMetadataClient(app), nil
}

package idp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"
	"golang.org/x/sync/singleflight"

	"github.com/platform/platform/internal/audit"
	"github.com/platform/platform/internal/egress"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// clientDocs resolves client ids that are metadata documents' URLs
// (D-client-metadata-documents). The customer is the one holding the URL's
// host as a verified domain with the documents turned on; an authorization
// request (or a pushed one) must name that customer's organization (its
// org scope), and only then is a document fetched for the first time: a
// URL nobody admitted is never fetched. Fetches go through the egress
// policy (no internal addresses, no redirects) with docMaxBytes and
// docTimeout. The document's client is kept as an application of the
// customer, and that row is the cache: used until its metadata_expires_at,
// fetched again after (at any endpoint, so a code exchange or a refresh
// sees the current document), refused when the customer blocked it, turned
// the documents off or lost the domain. At most one fetch per client id
// runs at a time in a process (singleflight); others wait for its result.
type clientDocs struct {
	store  *store.Store
	client *http.Client
	now    func() time.Time
	flight singleflight.Group
}

func newClientDocs(st *store.Store, policy egress.Policy, now func() time.Time) *clientDocs {
	policy.MaxBody, policy.Timeout = docMaxBytes, docTimeout
	return &clientDocs{store: st, client: policy.Client(), now: now}
}

// errUnknownDocClient is how a metadata client that no longer holds is
// answered where clients are looked up: as an unknown client.
var errUnknownDocClient = platform.Errorf(platform.ENOTFOUND, "application not found")

// current is the stored metadata client app as it holds now: refused when
// blocked or no longer its customer's to use, fetched again when its
// document expired (refused when that fails).
func (d *clientDocs) current(ctx context.Context, app *platform.Application) (*platform.Application, error) {
	if !app.BlockedAt.IsZero() {
		return nil, errUnknownDocClient
	}
	u, err := documentURL(app.ClientID)
	if err != nil {
		return nil, errUnknownDocClient
	}
	m, err := d.store.ClientMetadataCustomer(ctx, u.Hostname())
	switch {
	case platform.ErrorCode(err) == platform.ENOTFOUND, err == nil && m.CustomerID != app.MetadataCustomerID:
		return nil, errUnknownDocClient
	case err != nil:
		return nil, err
	}
	if d.now().Before(app.MetadataExpiresAt) {
		return app, nil
	}
	fresh, err := d.refresh(ctx, app.ClientID, m)
	if err != nil {
		slog.WarnContext(ctx, "client metadata document", "client_id", app.ClientID, "err", err)
		return nil, errUnknownDocClient
	}
	return fresh, nil
}

// admit resolves clientID, a metadata document's URL, for an authorization
// request (or a pushed one) whose org scope is org: the URL's rules, its
// host a verified domain of a customer that turned documents on, org that
// customer's organization, the client not blocked, the document fetched
// when there is none stored or it expired. EINVALID says why not.
func (d *clientDocs) admit(ctx context.Context, clientID, org string) (*platform.Application, error) {
	u, err := documentURL(clientID)
	if err != nil {
		return nil, err
	}
	m, err := d.store.ClientMetadataCustomer(ctx, u.Hostname())
	switch {
	case platform.ErrorCode(err) == platform.ENOTFOUND:
		return nil, platform.Errorf(platform.EINVALID, "no organization accepts client metadata documents from %s", u.Hostname())
	case err != nil:
		return nil, err
	case org != m.OrgID:
		return nil, platform.Errorf(platform.EINVALID, "the request must name the organization this client belongs to")
	}
	app, err := d.store.ApplicationByClientID(ctx, clientID)
	switch {
	case err == nil && app.MetadataCustomerID != m.CustomerID:
		return nil, platform.Errorf(platform.EINVALID, "the client_id belongs to another application")
	case err == nil && !app.BlockedAt.IsZero():
		return nil, platform.Errorf(platform.EINVALID, "this client was blocked by its organization")
	case err == nil && d.now().Before(app.MetadataExpiresAt):
		return app, nil
	case err != nil && platform.ErrorCode(err) != platform.ENOTFOUND:
		return nil, err
	}
	return d.refresh(ctx, clientID, m)
}

// refresh fetches clientID's document, checks it and stores it for
// customer m, once at a time per client id in this process.
func (d *clientDocs) refresh(ctx context.Context, clientID string, m *store.MetadataCustomer) (*platform.Application, error) {
	v, err, _ := d.flight.Do(clientID, func() (any, error) {
		// the waiting requests share this fetch: it does not end with the first one's
		ctx := context.WithoutCancel(ctx)
		// a fetch that ended just before this one began stored what holds now
		stored, err := d.store.ApplicationByClientID(ctx, clientID)
		switch {
		case err == nil && stored.MetadataCustomerID == m.CustomerID && d.now().Before(stored.MetadataExpiresAt):
			return stored, nil
		case platform.ErrorCode(err) == platform.ENOTFOUND:
			// a new client: nothing is fetched for a customer without room for it
			if err := d.store.MetadataClientRoom(ctx, m.CustomerID); err != nil {
				return nil, asInvalid(err)
			}
		case err != nil:
			return nil, err
		}
		body, age, err := d.fetch(ctx, clientID)
		if err != nil {
			return nil, err
		}
		now := d.now().UTC().Truncate(time.Second)
		app := &platform.Application{AppID: uuid.NewString(), ClientID: clientID, CreatedAt: now, MetadataCustomerID: m.CustomerID,
			MetadataFetchedAt: now, MetadataExpiresAt: now.Add(age)}
		if err := checkDocument(clientID, body, app); err != nil {
			return nil, err
		}
		// its first use is the customer's client.registered event, stored with it
		err = d.store.InTx(ctx, func(tx *store.Store) error {
			created, err := tx.SaveMetadataClient(ctx, app)
			if err != nil || !created {
				return err
			}
			return audit.Record(ctx, tx, d.now(), audit.Entry{Kind: audit.ClientRegistered, CustomerID: m.CustomerID,
				Target: audit.Target{Type: "application", ID: app.ClientID, Name: app.Name}, Details: audit.Details{Method: methodMetadataDocument}})
		})
		if err != nil {
			if platform.ErrorCode(err) == platform.ECONFLICT {
				return nil, platform.Errorf(platform.EINVALID, "the client_id belongs to another application")
			}
			return nil, asInvalid(err)
		}
		return d.store.ApplicationByClientID(ctx, clientID)
	})
	if err != nil {
		return nil, err
	}
	return v.(*platform.Application), nil
}

// methodMetadataDocument is how a metadata document client came to be, in
// its client.registered event's details.
const methodMetadataDocument = "metadata_document"

// asInvalid is err, an ELIMIT (the customer's budget of clients) told as
// the refusal of this client (EINVALID, shown to whoever asked).
func asInvalid(err error) error {
	if platform.ErrorCode(err) == platform.ELIMIT {
		return platform.Errorf(platform.EINVALID, "%s", platform.ErrorMessage(err))
	}
	return err
}

// fetch gets the document at rawURL through the egress policy: 200,
// application/json, at most docMaxBytes; and how long it holds. A failure
// is EINVALID with a description safe to show (egress.Describe).
func (d *clientDocs) fetch(ctx context.Context, rawURL string) ([]byte, time.Duration, error) {
	failed := func(why string) ([]byte, time.Duration, error) {
		return nil, 0, platform.Errorf(platform.EINVALID, "the client's metadata document could not be fetched: %s", why)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return failed("not a URL")
	}
	req.Header.Set("Accept", "application/json")
	resp, err := d.client.Do(req)
	if err != nil {
		if resp != nil {
			resp.Body.Close()
		}
		return failed(egress.Describe(err))
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode != http.StatusOK:
		return failed(fmt.Sprintf("status %d", resp.StatusCode))
	case !isJSONType(resp.Header.Get("Content-Type")):
		return failed("its type is not application/json")
	case resp.ContentLength > docMaxBytes:
		return failed(fmt.Sprintf("larger than %d bytes", docMaxBytes))
	}
	body, err := io.ReadAll(resp.Body)
	switch {
	case errors.Is(err, egress.ErrTooLarge):
		return failed(fmt.Sprintf("larger than %d bytes", docMaxBytes))
	case err != nil:
		return failed(egress.Describe(err))
	}
	return body, documentAge(resp.Header.Get("Cache-Control")), nil
}

// admitAtAuthorize resolves a metadata document's client_id before the
// authorization endpoint looks the client up; a refusal is the error page
// (the redirect URI of such a client is not known yet).
func (p *endpoints) admitAtAuthorize(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil || !p.admitted(w, r, r.Form.Get("client_id"), r.Form.Get("scope"), false) {
			if err != nil {
				p.renderError(w, r, http.StatusBadRequest, "This sign-in request is not valid", "Go back to the application and try again.")
			}
			return
		}
		next.ServeHTTP(w, r)
	})
}

// admitPushed does the same for a pushed authorization request; a refusal
// is invalid_client.
func (p *endpoints) admitPushed(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil {
			oauthError(w, http.StatusBadRequest, "invalid_request", "the form could not be read")
			return
		}
		if p.admitted(w, r, r.PostForm.Get("client_id"), r.PostForm.Get("scope"), true) {
			next.ServeHTTP(w, r)
		}
	})
}

// admitted reports whether clientID may go on: any client_id that is not a
// URL, a registered application's, or an admitted metadata document's;
// otherwise it answered (an OAuth error when oauth, else a page).
func (p *endpoints) admitted(w http.ResponseWriter, r *http.Request, clientID, scope string, oauth bool) bool {
	if !looksLikeDocumentURL(clientID) {
		return true
	}
	ctx := r.Context()
	if app, err := p.store.ApplicationByClientID(ctx, clientID); err == nil && app.MetadataCustomerID == "" {
		return true
	}
	_, err := p.docs.admit(ctx, clientID, orgScope(strings.Fields(scope)))
	switch {
	case err == nil:
		return true
	case platform.ErrorCode(err) != platform.EINVALID:
		if oauth {
			oauthError(w, http.StatusInternalServerError, "server_error", "the client could not be resolved")
		} else {
			p.internalError(w, r, err)
		}
	case oauth:
		oauthError(w, http.StatusUnauthorized, "invalid_client", platform.ErrorMessage(err))
	default:
		p.renderError(w, r, http.StatusBadRequest, "This sign-in request is not valid",
			platform.ErrorMessage(err)+". "+p.tr(r, "Go back to the application and try again."))
	}
	return false
}

package access

import (
	"net/http"
	"strings"
	"time"

	"github.com/platform/platform/internal/dpop"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// DPoPProofs checks the DPoP proofs (RFC 9449, D-dpop) sent to one API: a
// proof names the API's public URL (htu), is of the access token it comes
// with (ath) and of its key (cnf.jkt), carries a nonce the API issued
// (stateless, accepted by every replica with the same secrets key) and is
// accepted once (its jti is stored until its iat window ends, so a replay
// at another replica is refused too).
type DPoPProofs struct {
	base   string
	nonces *dpop.Nonces
	store  *store.Store
	now    func() time.Time
}

// NewDPoPProofs returns the proof checks of the API served at baseURL (its
// public URL: scheme, host and port; the request's path is appended), with
// nonces made from key (the platform's secrets key).
func NewDPoPProofs(baseURL string, key []byte, st *store.Store) *DPoPProofs {
	return &DPoPProofs{base: strings.TrimRight(baseURL, "/"), nonces: dpop.NewNonces(key), store: st, now: time.Now}
}

// isDPoPScheme reports whether an Authorization header uses the DPoP scheme
// (the scheme is case-insensitive).
func isDPoPScheme(h string) bool {
	return len(h) > 5 && strings.EqualFold(h[:5], "DPoP ")
}

// dpopError is a 401 of the DPoP scheme: its challenge, and a fresh nonce
// when the proof lacked a current one (use_dpop_nonce).
type dpopError struct {
	err       *platform.Error
	challenge string
	nonce     string
}

func (e dpopError) Error() string { return e.err.Error() }
func (e dpopError) Unwrap() error { return e.err }

func (d *DPoPProofs) refuse(code, msg string) error {
	return dpopError{err: platform.Errorf(platform.EUNAUTHORIZED, "%s", msg),
		challenge: `DPoP realm="api", error="` + code + `", algs="` + strings.Join(dpop.AlgorithmNames(), " ") + `"`}
}

// DPoP authenticates "Authorization: DPoP <access token>" with its "DPoP"
// proof: the token verifies as Bearer's do and is bound (cnf.jkt) to the
// proof's key; the proof is for this request (htm, htu), this token (ath),
// fresh (iat), with a current nonce, and new (jti). A request of another
// scheme is left to the next authenticator. Refusals are 401 with a DPoP
// challenge: invalid_token, invalid_dpop_proof, or use_dpop_nonce with a
// DPoP-Nonce header to retry with.
func DPoP(d *DPoPProofs, vs ...*TokenVerifier) Authenticator {
	return func(r *http.Request) (Identity, error) {
		h := r.Header.Get("Authorization")
		if !isDPoPScheme(h) {
			return Identity{}, nil
		}
		raw := strings.TrimSpace(h[5:])
		if raw == "" || len(raw) > maxBearer {
			return Identity{}, d.refuse("invalid_token", "a DPoP access token is required")
		}
		tok, err := verifyAny(r.Context(), vs, raw)
		if err != nil {
			return Identity{}, d.refuse("invalid_token", "the access token is not valid")
		}
		if tok.JKT == "" {
			return Identity{}, d.refuse("invalid_token", "the access token is not bound to a DPoP key: present it as Bearer")
		}
		proofs := r.Header.Values(dpop.HeaderProof)
		if len(proofs) != 1 {
			return Identity{}, d.refuse("invalid_dpop_proof", "exactly one DPoP proof is required")
		}
		now := d.now()
		proof, err := dpop.Verify(proofs[0], dpop.Expect{Method: r.Method, URL: d.base + r.URL.EscapedPath(),
			AccessToken: raw, Now: now})
		if err != nil {
			return Identity{}, d.refuse("invalid_dpop_proof", err.Error())
		}
		if !dpop.SameJKT(tok.JKT, proof.JKT) {
			return Identity{}, d.refuse("invalid_dpop_proof", "the proof is of another key than the token's")
		}
		if !d.nonces.Valid(proof.Nonce, now) {
			e := d.refuse("use_dpop_nonce", "the proof must carry the nonce of the DPoP-Nonce header").(dpopError)
			e.nonce = d.nonces.Issue(now)
			return Identity{}, e
		}
		fresh, err := d.store.UseDPoPProof(r.Context(), proof.ReplayKey(), proof.Expires())
		if err != nil {
			return Identity{}, err
		}
		if !fresh {
			return Identity{}, d.refuse("invalid_dpop_proof", "the proof was used already")
		}
		return tok.identity(), nil
	}
}

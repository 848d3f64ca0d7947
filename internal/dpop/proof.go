package dpop

import (
	"crypto"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"strings"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// Type is the typ header of a DPoP proof (RFC 9449 section 4.2).
const Type = "dpop+jwt"

// HeaderProof and HeaderNonce are the HTTP headers of a proof and of a
// server's nonce.
const (
	HeaderProof = "DPoP"
	HeaderNonce = "DPoP-Nonce"
)

// Window is how far a proof's iat may lie in the past; Skew how far in the
// future (clocks differ). A proof's jti is remembered for Window+Skew.
const (
	Window = 2 * time.Minute
	Skew   = 30 * time.Second
)

// maxProof bounds the size of a proof (a JWS with an RSA key of 4096 bits
// fits comfortably).
const maxProof = 8192

// Algorithms are the signature algorithms a proof may use: asymmetric only
// (RFC 9449 section 4.3, point 5); none and HMAC never.
var Algorithms = []jose.SignatureAlgorithm{jose.ES256, jose.ES384, jose.ES512, jose.RS256, jose.RS384, jose.RS512,
	jose.PS256, jose.PS384, jose.PS512, jose.EdDSA}

// AlgorithmNames are Algorithms as discovery advertises them
// (dpop_signing_alg_values_supported).
func AlgorithmNames() []string {
	out := make([]string, len(Algorithms))
	for i, a := range Algorithms {
		out[i] = string(a)
	}
	return out
}

// Expect is what a request's proof must say.
type Expect struct {
	// Method is the request's method (htm).
	Method string
	// URL is the request's URI as the server is reached (htu), compared
	// after normalisation, without query or fragment.
	URL string
	// AccessToken, when set, is the access token the proof goes with: its
	// hash must be the proof's ath. At the token endpoint it is empty and
	// the proof may carry no ath.
	AccessToken string
	// Now is the time iat is compared with.
	Now time.Time
}

// Proof is a verified proof.
type Proof struct {
	// JKT is the RFC 7638 SHA-256 thumbprint of the proof's key (base64url),
	// what a bound token's cnf.jkt names.
	JKT string
	// ID is the proof's jti.
	ID string
	// IssuedAt is its iat.
	IssuedAt time.Time
	// Nonce is the server nonce it carries, "" when none.
	Nonce string
}

// ReplayKey is what a server remembers of p to refuse it a second time:
// a hash over its key and its jti (jtis are unique per key).
func (p *Proof) ReplayKey() string {
	sum := sha256.Sum256([]byte(p.JKT + "\x00" + p.ID))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// Expires is how long p must be remembered: until its iat leaves the window.
func (p *Proof) Expires() time.Time { return p.IssuedAt.Add(Window + Skew) }

// Error is a proof that does not hold; its message says why (never the
// proof's contents beyond that).
type Error struct{ Reason string }

func (e *Error) Error() string { return "DPoP proof refused: " + e.Reason }

func refuse(reason string) error { return &Error{Reason: reason} }

// claims are a proof's claims.
type claims struct {
	ID       string `json:"jti"`
	Method   string `json:"htm"`
	URL      string `json:"htu"`
	IssuedAt *int64 `json:"iat"`
	ATHash   string `json:"ath"`
	Nonce    string `json:"nonce"`
}

// Verify checks the proof raw against exp and answers its key's thumbprint
// and what the caller still checks: its jti (once) and its nonce.
func Verify(raw string, exp Expect) (*Proof, error) {
	if raw == "" || len(raw) > maxProof || strings.Count(raw, ".") != 2 {
		return nil, refuse("the DPoP header is not one compact JWS")
	}
	jws, err := jose.ParseSigned(raw, Algorithms)
	if err != nil || len(jws.Signatures) != 1 {
		return nil, refuse("not a JWS of an asymmetric algorithm")
	}
	h := jws.Signatures[0].Protected
	if typ, _ := h.ExtraHeaders[jose.HeaderType].(string); typ != Type {
		return nil, refuse("typ must be " + Type)
	}
	key := h.JSONWebKey
	if key == nil || !key.Valid() {
		return nil, refuse("jwk is missing or invalid")
	}
	if !key.IsPublic() {
		return nil, refuse("jwk must not carry a private key")
	}
	payload, err := jws.Verify(key)
	if err != nil {
		return nil, refuse("the signature does not verify with the jwk")
	}
	var c claims
	if err := unmarshal(payload, &c); err != nil {
		return nil, refuse("the claims are malformed")
	}
	switch {
	case c.ID == "" || len(c.ID) > 256:
		return nil, refuse("jti is required (at most 256 characters)")
	case c.Method != exp.Method:
		return nil, refuse("htm does not match the request's method")
	case !SameURL(c.URL, exp.URL):
		return nil, refuse("htu does not match the request's URI")
	case c.IssuedAt == nil:
		return nil, refuse("iat is required")
	case len(c.Nonce) > 256:
		return nil, refuse("nonce is too long")
	}
	iat := time.Unix(*c.IssuedAt, 0)
	if iat.Before(exp.Now.Add(-Window)) || iat.After(exp.Now.Add(Skew)) {
		return nil, refuse("iat is outside the accepted window")
	}
	if exp.AccessToken != "" {
		if c.ATHash == "" || subtle.ConstantTimeCompare([]byte(c.ATHash), []byte(TokenHash(exp.AccessToken))) != 1 {
			return nil, refuse("ath does not match the access token")
		}
	}
	jkt, err := Thumbprint(key)
	if err != nil {
		return nil, refuse("the jwk has no thumbprint")
	}
	return &Proof{JKT: jkt, ID: c.ID, IssuedAt: iat, Nonce: c.Nonce}, nil
}

// Thumbprint is the RFC 7638 SHA-256 thumbprint of key, base64url.
func Thumbprint(key *jose.JSONWebKey) (string, error) {
	tp, err := key.Thumbprint(crypto.SHA256)
	if err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(tp), nil
}

// TokenHash is an access token's ath: base64url of its SHA-256.
func TokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// SameJKT compares two thumbprints in constant time.
func SameJKT(a, b string) bool {
	return a != "" && subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}

// IsError reports whether err is a refused proof.
func IsError(err error) bool {
	var e *Error
	return errors.As(err, &e)
}

package mail

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"time"
)

// Paths at the identity provider that the links of messages open.
const (
	PathInvitation    = "/ui/invitation"
	PathPasswordReset = "/ui/password/reset"
	PathVerifyEmail   = "/ui/email/verify"
	PathAccount       = "/ui/account" // the account page, where a holder reviews what changed
)

// How long a link works (D-reset).
const (
	InvitationLifetime = 7 * 24 * time.Hour
	ResetLifetime      = time.Hour
	VerifyLifetime     = 7 * 24 * time.Hour
)

// NewToken returns a link's secret (256 random bits, URL-safe) and the hash
// that is stored in its place.
func NewToken() (token, hash string) {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, TokenHash(token)
}

// TokenHash is the stored form of a link's secret: hex SHA-256.
func TokenHash(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// Link is the URL of a message's link: the provider's issuer, the path, the token.
func Link(issuer, path, token string) string { return issuer + path + "?token=" + token }

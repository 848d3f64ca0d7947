package access

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

const (
	testIssuer   = "https://idp.example"
	testAudience = "console-portal"
)

// testKeys is an identity provider's key set served over HTTP, counting
// the requests it answers.
type testKeys struct {
	mu       sync.Mutex
	keys     []jose.JSONWebKey // private
	srv      *httptest.Server
	requests atomic.Int64
}

func newTestKeys(t *testing.T) *testKeys {
	tk := &testKeys{}
	tk.add(t, jose.RS256)
	tk.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tk.requests.Add(1)
		tk.mu.Lock()
		var set jose.JSONWebKeySet
		for _, k := range tk.keys {
			set.Keys = append(set.Keys, k.Public())
		}
		tk.mu.Unlock()
		_ = json.NewEncoder(w).Encode(set)
	}))
	t.Cleanup(tk.srv.Close)
	return tk
}

// add creates a key of alg that the set publishes from now on.
func (tk *testKeys) add(t *testing.T, alg jose.SignatureAlgorithm) jose.JSONWebKey {
	t.Helper()
	var priv any
	var err error
	if alg == jose.ES256 {
		priv, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	} else {
		priv, err = rsa.GenerateKey(rand.Reader, 2048)
	}
	if err != nil {
		t.Fatal(err)
	}
	k := jose.JSONWebKey{Key: priv, KeyID: fmt.Sprintf("key-%d", len(tk.keys)+1), Algorithm: string(alg), Use: "sig"}
	tk.mu.Lock()
	tk.keys = append(tk.keys, k)
	tk.mu.Unlock()
	return k
}

func (tk *testKeys) first() jose.JSONWebKey {
	tk.mu.Lock()
	defer tk.mu.Unlock()
	return tk.keys[0]
}

// sign makes a JWS of claims with key, with the typ header typ ("" for none).
func sign(t *testing.T, key jose.JSONWebKey, typ string, claims map[string]any) string {
	t.Helper()
	opts := &jose.SignerOptions{}
	if typ != "" {
		opts = opts.WithType(jose.ContentType(typ))
	}
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.SignatureAlgorithm(key.Algorithm), Key: key}, opts)
	if err != nil {
		t.Fatal(err)
	}
	payload, _ := json.Marshal(claims)
	obj, err := s.Sign(payload)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := obj.CompactSerialize()
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// accessClaims are the claims the provider puts in an access token.
func accessClaims(now time.Time) map[string]any {
	return map[string]any{"iss": testIssuer, "sub": "user-1", "aud": []string{testAudience}, "client_id": testAudience,
		"jti": "token-1", ClaimGrantID: "grant-1", "iat": now.Unix(), "nbf": now.Unix(), "exp": now.Add(15 * time.Minute).Unix(),
		"scope": "openid profile"}
}

func with(m map[string]any, kv ...any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == nil {
			delete(out, kv[i].(string))
		} else {
			out[kv[i].(string)] = kv[i+1]
		}
	}
	return out
}

func TestTokenVerifier(t *testing.T) {
	t.Parallel()
	tk := newTestKeys(t)
	now := time.Now()
	v := NewTokenVerifier(testIssuer, testAudience, NewKeySet(tk.srv.URL, nil))
	key := tk.first()
	good := accessClaims(now)

	got, err := v.Verify(context.Background(), sign(t, key, TypeAccessToken, good))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(*got, AccessToken{ID: "token-1", Subject: "user-1", GrantID: "grant-1", ClientID: testAudience,
		Expiry: time.Unix(now.Add(15*time.Minute).Unix(), 0)}) {
		t.Errorf("token = %+v", got)
	}
	if _, err := v.Verify(context.Background(), sign(t, key, "application/at+jwt", good)); err != nil {
		t.Errorf("typ application/at+jwt (RFC 9068 allows it): %v", err)
	}
	es := tk.add(t, jose.ES256)
	v.keys.now = func() time.Time { return time.Now().Add(time.Minute) } // past MinRefetch: the new key is fetched
	if _, err := v.Verify(context.Background(), sign(t, es, TypeAccessToken, good)); err != nil {
		t.Errorf("ES256 token of a key published later: %v", err)
	}
}

// An id_token is no access token: the same signature, issuer and audience,
// but typ JWT (and no grant_id). Neither is a token without typ.
//
// attack: id-token-as-access-token
func TestAttackTokenVerifierRefusesIDToken(t *testing.T) {
	t.Parallel()
	tk := newTestKeys(t)
	v := NewTokenVerifier(testIssuer, testAudience, NewKeySet(tk.srv.URL, nil))
	now := time.Now()
	idToken := map[string]any{"iss": testIssuer, "sub": "user-1", "aud": testAudience, "iat": now.Unix(),
		"exp": now.Add(time.Hour).Unix(), "nonce": "n", "at_hash": "x", "azp": testAudience}
	for name, raw := range map[string]string{
		"IDToken":                  sign(t, tk.first(), "JWT", idToken),
		"IDTokenWithAccessClaims":  sign(t, tk.first(), "JWT", accessClaims(now)),
		"NoTyp":                    sign(t, tk.first(), "", accessClaims(now)),
		"IDTokenRetypedUnsigned":   retype(sign(t, tk.first(), "JWT", accessClaims(now)), TypeAccessToken),
		"AccessTypSignedOtherwise": retype(sign(t, tk.first(), TypeAccessToken, accessClaims(now)), "JWT"),
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := v.Verify(context.Background(), raw); err == nil || !IsTokenError(err) {
				t.Fatalf("verified: %v", err)
			}
		})
	}
}

// retype rewrites the protected header's typ, keeping the signature (which
// then no longer matches).
func retype(raw, typ string) string {
	parts := strings.SplitN(raw, ".", 3)
	h, _ := base64.RawURLEncoding.DecodeString(parts[0])
	var m map[string]any
	_ = json.Unmarshal(h, &m)
	m["typ"] = typ
	b, _ := json.Marshal(m)
	return base64.RawURLEncoding.EncodeToString(b) + "." + parts[1] + "." + parts[2]
}

// Tokens for another audience or issuer, expired, not yet valid, missing a
// claim RFC 9068 requires or the grant, unsigned, signed with the public key
// as an HMAC secret or by a key that is not the provider's: all refused.
//
// attack: token-of-another-audience
func TestAttackTokenVerifierRefusesForgedClaims(t *testing.T) {
	t.Parallel()
	tk := newTestKeys(t)
	v := NewTokenVerifier(testIssuer, testAudience, NewKeySet(tk.srv.URL, nil))
	now := time.Now()
	good := accessClaims(now)
	key := tk.first()
	stranger, _ := rsa.GenerateKey(rand.Reader, 2048)
	strangerKey := jose.JSONWebKey{Key: stranger, KeyID: key.KeyID, Algorithm: "RS256"} // the provider's kid, another key
	pub := key.Public()
	pubJSON, _ := pub.MarshalJSON()
	hmac := jose.JSONWebKey{Key: pubJSON, KeyID: key.KeyID, Algorithm: "HS256"}
	tests := map[string]string{
		"OtherAudience":     sign(t, key, TypeAccessToken, with(good, "aud", []string{"instance-demo"})),
		"AudienceAsString":  sign(t, key, TypeAccessToken, with(good, "aud", "instance-demo")),
		"NoAudience":        sign(t, key, TypeAccessToken, with(good, "aud", nil)),
		"OtherIssuer":       sign(t, key, TypeAccessToken, with(good, "iss", "https://evil.example")),
		"Expired":           sign(t, key, TypeAccessToken, with(good, "exp", now.Add(-time.Minute).Unix())),
		"NoExpiry":          sign(t, key, TypeAccessToken, with(good, "exp", nil)),
		"IssuedInTheFuture": sign(t, key, TypeAccessToken, with(good, "iat", now.Add(time.Hour).Unix())),
		"NotYetValid":       sign(t, key, TypeAccessToken, with(good, "nbf", now.Add(time.Hour).Unix())),
		"NoGrant":           sign(t, key, TypeAccessToken, with(good, ClaimGrantID, nil)),
		"NoJTI":             sign(t, key, TypeAccessToken, with(good, "jti", nil)),
		"NoClientID":        sign(t, key, TypeAccessToken, with(good, "client_id", nil)),
		"NoSubject":         sign(t, key, TypeAccessToken, with(good, "sub", nil)),
		"ForeignKeySameKid": sign(t, strangerKey, TypeAccessToken, good),
		"AlgNone":           unsigned(TypeAccessToken, good),
		"HMACWithThePublicKey": func() string {
			s, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.HS256, Key: hmac.Key}, (&jose.SignerOptions{}).WithType(TypeAccessToken).WithHeader("kid", key.KeyID))
			if err != nil {
				t.Fatal(err)
			}
			payload, _ := json.Marshal(good)
			obj, _ := s.Sign(payload)
			raw, _ := obj.CompactSerialize()
			return raw
		}(),
		"TamperedPayload": func() string {
			parts := strings.Split(sign(t, key, TypeAccessToken, good), ".")
			b, _ := json.Marshal(with(good, "sub", "admin"))
			return parts[0] + "." + base64.RawURLEncoding.EncodeToString(b) + "." + parts[2]
		}(),
		"NotAJWT": "not-a-token",
	}
	for name, raw := range tests {
		t.Run(name, func(t *testing.T) {
			if tok, err := v.Verify(context.Background(), raw); err == nil {
				t.Fatalf("verified: %+v", tok)
			}
		})
	}
}

func unsigned(typ string, claims map[string]any) string {
	h, _ := json.Marshal(map[string]any{"alg": "none", "typ": typ, "kid": "key-1"})
	b, _ := json.Marshal(claims)
	return base64.RawURLEncoding.EncodeToString(h) + "." + base64.RawURLEncoding.EncodeToString(b) + "."
}

// Tokens naming key ids the set does not hold make the verifier fetch the
// provider's keys at most once per MinRefetch, however many arrive and
// however many at once; once that time has passed, one more fetch.
//
// attack: jwks-refetch-amplification
func TestAttackUnknownKidRefetchThrottled(t *testing.T) {
	t.Parallel()
	tk := newTestKeys(t)
	ks := NewKeySet(tk.srv.URL, nil)
	clock := time.Now()
	var mu sync.Mutex
	ks.now = func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }
	advance := func(d time.Duration) { mu.Lock(); clock = clock.Add(d); mu.Unlock() }
	v := NewTokenVerifier(testIssuer, testAudience, ks)
	key := tk.first()
	good := sign(t, key, TypeAccessToken, accessClaims(time.Now()))
	if _, err := v.Verify(context.Background(), good); err != nil {
		t.Fatal(err)
	}
	if n := tk.requests.Load(); n != 1 {
		t.Fatalf("first use fetched %d times", n)
	}
	forged := func(i int) string {
		k := key
		k.KeyID = fmt.Sprintf("made-up-%d", i)
		return sign(t, k, TypeAccessToken, accessClaims(time.Now()))
	}
	advance(MinRefetch) // the first unknown kid after 30 s may fetch once
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := v.Verify(context.Background(), forged(i)); err == nil {
				t.Error("a token of an unknown key verified")
			}
		}()
	}
	wg.Wait()
	for i := range 200 {
		if _, err := v.Verify(context.Background(), forged(1000+i)); err == nil {
			t.Fatal("a token of an unknown key verified")
		}
		advance(100 * time.Millisecond) // 20 s in all: still inside the window
	}
	if n := tk.requests.Load(); n != 2 {
		t.Fatalf("the key set was fetched %d times for 250 unknown kids within 30 s, want 2 (first use, one refetch)", n)
	}
	// known keys keep verifying without a fetch
	if _, err := v.Verify(context.Background(), good); err != nil {
		t.Fatal(err)
	}
	advance(MinRefetch)
	_, _ = v.Verify(context.Background(), forged(9999))
	if n := tk.requests.Load(); n != 3 {
		t.Fatalf("after the window, fetches = %d, want 3", n)
	}
	if ks.Fetches() != 3 {
		t.Errorf("Fetches() = %d", ks.Fetches())
	}
}

// The key set is also go-oidc's: VerifySignature returns the payload of a
// token of a known key and refuses others.
func TestKeySetVerifySignature(t *testing.T) {
	t.Parallel()
	tk := newTestKeys(t)
	ks := NewKeySet(tk.srv.URL, nil)
	raw := sign(t, tk.first(), "JWT", map[string]any{"sub": "u"})
	payload, err := ks.VerifySignature(context.Background(), raw)
	if err != nil || !strings.Contains(string(payload), `"sub":"u"`) {
		t.Fatalf("payload = %s, %v", payload, err)
	}
	if _, err := ks.VerifySignature(context.Background(), retype(raw, "JOSE")); err == nil {
		t.Fatal("a modified header verified")
	}
}

// Package dpop checks DPoP proofs (RFC 9449, D-dpop): a JWT of type
// dpop+jwt, signed with an asymmetric key whose public part it carries,
// naming the request's method and URI (htm, htu), issued just now (iat),
// once (jti), for the access token it goes with (ath) and with the server's
// nonce. It also makes and checks the servers' nonces, which are stateless:
// an HMAC over a time window, so that every replica accepts another's.
// Remembering a proof's jti (replays across replicas) is the caller's, in
// the database. No I/O here.
package dpop

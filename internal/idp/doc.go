// Package idp is the identity provider: an OpenID Connect provider built on
// zitadel/oidc's op package, with its storage adapter, hosted login UI,
// password hashing, signing-key rotation and browser sessions. It is split
// into parts over a shared core (core.go), which Provider composes.
package idp

// Package egress is the one policy for the platform's outbound HTTP requests (D-egress):
// an http.Client that refuses internal addresses, redirects and oversized bodies, and safe error descriptions for logs.
package egress

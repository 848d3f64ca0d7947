// Package egress is the one policy of the platform's outbound HTTP requests (D-egress): a client that
// refuses internal addresses, redirects and oversized bodies, and error descriptions that are safe to log.
package egress

// Package domains holds what a customer's claim of an e-mail domain needs
// beyond the database (D-verified-domains): the check of a domain's syntax
// (Check: IDNA through golang.org/x/net/idna, at least two labels, no IP
// address, no wildcard, no reserved name, DNS length limits) and the proof
// of a claim (Prover): the TXT record _platform-challenge.<domain> at the
// configured DNS server, or the file
// https://<domain>/.well-known/platform-domain-verification.txt fetched
// through the egress policy.
package domains

package idp

import (
	"slices"
	"strings"
)

// Step-up (D-step-up): an authorization request's acr_values may ask for
// a sign-in with a second factor (ACRMFA) or a phishing-resistant one
// (ACRPhishingResistant: a passkey); a browser session that does not show
// it answers nothing silently, and the sign-in demands the factor. The
// id_token and the access token carry acr (what the sign-in reached) and
// amr.
const (
	// ACRMFA: signed in with a second factor (amr has mfa).
	ACRMFA = "urn:platform:acr:mfa"
	// ACRPhishingResistant: signed in with a passkey (amr has hwk).
	ACRPhishingResistant = "urn:platform:acr:phr"
)

// acrValuesSupported are the classes the provider advertises and honours.
var acrValuesSupported = []string{ACRMFA, ACRPhishingResistant}

// acrOf is the class a sign-in that went as amr did reached: the
// strongest of acrValuesSupported, or "" for a single factor.
func acrOf(amr []string) string {
	switch {
	case slices.Contains(amr, "hwk"):
		return ACRPhishingResistant
	case slices.Contains(amr, "mfa"):
		return ACRMFA
	}
	return ""
}

// demandedACR is the class an authorization request's acr_values (space
// separated, in order of preference) demand: the weakest of the known
// ones it names, since any of them satisfies the client; "" when it names
// none the provider knows.
func demandedACR(values []string) string {
	demand := ""
	for _, v := range values {
		switch {
		case v == ACRMFA:
			return ACRMFA
		case v == ACRPhishingResistant:
			demand = ACRPhishingResistant
		}
	}
	return demand
}

// acrMet reports whether a sign-in that went as amr did meets demand.
func acrMet(demand string, amr []string) bool {
	switch demand {
	case ACRMFA:
		return slices.Contains(amr, "mfa") || slices.Contains(amr, "hwk")
	case ACRPhishingResistant:
		return slices.Contains(amr, "hwk")
	}
	return true
}

// splitACR reads a stored list of acr values.
func splitACR(s string) []string { return strings.Fields(s) }

// Package branding holds the rules of a customer organization's look
// (D-branding), without I/O: the primary colour (#rrggbb only, its text
// colour derived and its contrast checked by WCAG 2.x relative luminance),
// the display name, the logo (decoded to check its type, its bytes and
// pixels bounded before decoding, scaled down and re-encoded as PNG), the
// e-mail sender's display name and Reply-To (D-org-mail), and the style
// sheet a colour's pages load.
package branding

// Where the identity provider serves what a branded page loads: a logo by
// the SHA-256 of its PNG, and a colour's style sheet by the colour (both
// are their own content, so they never change and are cached for a year).
const (
	LogoPrefix  = "/ui/brand/logo/"
	StylePrefix = "/ui/brand/style/"
)

// LogoPath is the path of the logo of hash sha.
func LogoPath(sha string) string { return LogoPrefix + sha + ".png" }

// StylePath is the path of the style sheet of a #rrggbb colour.
func StylePath(color string) string { return StylePrefix + color[1:] + ".css" }

// Package web embeds the HTML, CSS and JavaScript of the platform's pages: the
// identity provider's login UI, the console's gateway and the tenant web app.
package web

import "embed"

// FS holds every page asset, one folder per role.
//
//go:embed idp console tenant
var FS embed.FS

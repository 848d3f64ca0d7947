// Package web embeds the HTML, CSS and JavaScript of the platform's pages (the
// identity provider's login UI, the console's gateway, the tenant web app)
// and the templates of the e-mails the platform sends.
package web

import "embed"

// FS holds every page asset, one folder per role.
//
//go:embed idp console tenant mail
var FS embed.FS

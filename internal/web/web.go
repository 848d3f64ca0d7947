// Package web embeds the HTML, CSS and JavaScript of the platform's pages: the
// identity provider's login UI, the console's gateway, the console app's
// build (console/dist, built from console/app by its npm script), the
// tenant web app, and the templates of the e-mails the platform sends.
package web

import "embed"

// FS holds every page asset, one folder per role. The console app's sources
// and node_modules (console/app) are not embedded, only its build.
//
//go:embed idp tenant mail console/*.html console/*.css console/*.js console/dist
var FS embed.FS

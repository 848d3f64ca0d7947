// Package web embeds the HTML, CSS and JavaScript of the platform's pages: the
// identity provider's login UI, the console's gateway, the console app's
// build (console/dist, built from console/app by its npm script), the
// tenant web app, and the templates of the e-mails the platform sends.
package web

import (
	"embed"
	"encoding/json"
)

// FS holds every page asset, one folder per role. The console app's sources
// and node_modules (console/app) are not embedded, only its build.
//
//go:embed idp tenant mail console/*.html console/*.css console/*.js console/dist
var FS embed.FS

// ConsoleDocuments returns the console app's registered operations (hash →
// document), which its build writes beside its page: the trusted documents
// of the console's GraphQL endpoint (D-trusted-documents).
func ConsoleDocuments() (map[string]string, error) {
	b, err := FS.ReadFile("console/dist/persisted-documents.json")
	if err != nil {
		return nil, err
	}
	var docs map[string]string
	return docs, json.Unmarshal(b, &docs)
}

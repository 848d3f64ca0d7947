// Package console is the console role: the single login gateway (resolve-org,
// resolve-client, the gateway page and both login flows), the console's own
// API authentication and the pages of the dashboard and customer portal.
package console

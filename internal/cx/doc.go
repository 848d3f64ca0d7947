// Package cx validates commissioning (cx) schedule uploads: it decodes a request, parses predecessor
// links and checks every rule of an upload against the rows already stored. It is pure and does no I/O.
package cx

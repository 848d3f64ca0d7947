package graph

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// Codes of the trusted documents (D-trusted-documents).
const (
	// CodePersistedQueryNotFound answers a hash that names no registered document.
	CodePersistedQueryNotFound = "PERSISTED_QUERY_NOT_FOUND"
	// CodeDocumentNotTrusted answers an operation's text that is not a
	// registered document where only those execute.
	CodeDocumentNotTrusted = "DOCUMENT_NOT_TRUSTED"
)

// Documents are persisted operations by the hex SHA-256 of their text: the
// console app's operations, which its build registers
// (internal/web/console/dist/persisted-documents.json).
type Documents map[string]string

// NewDocuments reads a manifest of the shape GraphQL codegen's client preset
// writes and routers load (hash → document, the hash "sha256:<hex>" or
// "<hex>"), checking that every hash is its document's.
func NewDocuments(manifest map[string]string) (Documents, error) {
	d := make(Documents, len(manifest))
	for h, doc := range manifest {
		h = documentHash(h)
		if sum := sha256.Sum256([]byte(doc)); hex.EncodeToString(sum[:]) != h {
			return nil, fmt.Errorf("trusted documents: %s is not the SHA-256 of its document", h)
		}
		d[h] = doc
	}
	return d, nil
}

func documentHash(h string) string { return strings.ToLower(strings.TrimPrefix(h, "sha256:")) }

// trustedDocuments resolves an operation sent by hash, the persisted
// operations' shape (extensions.persistedQuery.sha256Hash), to its
// registered document, and, when only registered documents execute
// (Config.TrustedDocuments), refuses any other operation's text before it
// is parsed. A registered hash with a text executes the registered
// document, never the text; where any operation executes, a text with a
// hash no document has executes as a text without it.
type trustedDocuments struct {
	docs Documents
	only bool
}

var _ interface {
	graphql.OperationParameterMutator
	graphql.HandlerExtension
} = trustedDocuments{}

func (trustedDocuments) ExtensionName() string                   { return "TrustedDocuments" }
func (trustedDocuments) Validate(graphql.ExecutableSchema) error { return nil }

func (t trustedDocuments) MutateOperationParameters(_ context.Context, p *graphql.RawParams) *gqlerror.Error {
	if h, ok := persistedHash(p.Extensions); ok {
		if doc, found := t.docs[documentHash(h)]; found {
			p.Query = doc
			return nil
		}
		if t.only || p.Query == "" {
			return refused(CodePersistedQueryNotFound, "no registered document has this hash")
		}
	}
	if !t.only {
		return nil
	}
	sum := sha256.Sum256([]byte(p.Query))
	if _, found := t.docs[hex.EncodeToString(sum[:])]; !found {
		return refused(CodeDocumentNotTrusted, "this endpoint executes only the console app's registered operations; send one by its hash (extensions.persistedQuery.sha256Hash)")
	}
	return nil
}

// persistedHash is extensions.persistedQuery.sha256Hash.
func persistedHash(ext map[string]any) (string, bool) {
	pq, _ := ext["persistedQuery"].(map[string]any)
	h, ok := pq["sha256Hash"].(string)
	return h, ok && h != ""
}

package sheet

import (
	"bufio"
	"context"
	"encoding/xml"
	"errors"
	"io"
)

// xmlPart reads one part of a workbook as XML tokens under the limits:
// no token longer than maxXMLToken bytes, no nesting deeper than
// maxXMLDepth, and ctx checked every ctxEveryTokens tokens.
type xmlPart struct {
	ctx    context.Context
	name   string
	rc     io.Closer
	guard  *tokenGuard
	dec    *xml.Decoder
	tokens int
	depth  int
}

func newXMLPart(ctx context.Context, name string, rc io.ReadCloser) *xmlPart {
	g := &tokenGuard{r: bufio.NewReaderSize(rc, 64<<10), max: maxXMLToken}
	return &xmlPart{ctx: ctx, name: name, rc: rc, guard: g, dec: xml.NewDecoder(g)}
}

// next returns the next token; io.EOF at the end of a well-formed part.
// A CharData token is valid until the next call.
func (p *xmlPart) next() (xml.Token, error) {
	if p.tokens++; p.tokens%ctxEveryTokens == 0 {
		if err := p.ctx.Err(); err != nil {
			return nil, err
		}
	}
	p.guard.n = 0
	tok, err := p.dec.Token()
	switch {
	case err == io.EOF:
		return nil, err
	case errors.Is(err, errTokenTooLarge):
		return nil, tooLargef("the workbook's part %s holds a tag or text longer than %d MiB", p.name, maxXMLToken>>20)
	case err != nil:
		return nil, invalidf("the workbook's part %s cannot be read: %v", p.name, err)
	}
	switch tok.(type) {
	case xml.StartElement:
		if p.depth++; p.depth > maxXMLDepth {
			return nil, tooLargef("the workbook's part %s nests elements more than %d deep", p.name, maxXMLDepth)
		}
	case xml.EndElement:
		p.depth--
	}
	return tok, nil
}

func (p *xmlPart) Close() error { return p.rc.Close() }

// attr returns the value of the attribute with the local name local.
func attr(e xml.StartElement, local string) string {
	for _, a := range e.Attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

var errTokenTooLarge = errors.New("xml token too large")

// tokenGuard counts the bytes the XML decoder reads for one token and
// fails the read past max, before the decoder has buffered more: the
// decoder reads byte by byte through an io.ByteReader, and next resets n
// before each token.
type tokenGuard struct {
	r   *bufio.Reader
	n   int
	max int
}

func (g *tokenGuard) ReadByte() (byte, error) {
	if g.n >= g.max {
		return 0, errTokenTooLarge
	}
	g.n++
	return g.r.ReadByte()
}

func (g *tokenGuard) Read(p []byte) (int, error) {
	if g.n >= g.max {
		return 0, errTokenTooLarge
	}
	p = p[:min(len(p), g.max-g.n)]
	n, err := g.r.Read(p)
	g.n += n
	return n, err
}

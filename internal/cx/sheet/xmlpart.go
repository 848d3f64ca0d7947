package sheet

import (
	"context"
	"encoding/xml"
	"errors"
	"io"
)

// xmlPart reads one part of a workbook as XML tokens under the limits:
// no token longer than maxXMLToken bytes, no nesting deeper than
// maxXMLDepth, and ctx checked every ctxEveryTokens tokens. It reads raw
// tokens (names keep their prefixes: match on Name.Local), which is a
// third faster than namespace-translated ones, and checks itself that
// every element is closed by its own end tag.
type xmlPart struct {
	ctx    context.Context
	name   string
	rc     io.Closer
	guard  *tokenGuard
	dec    *xml.Decoder
	tokens int
	open   [maxXMLDepth]xml.Name // the elements open, outermost first
	depth  int
}

func newXMLPart(ctx context.Context, name string, rc io.ReadCloser) *xmlPart {
	g := &tokenGuard{r: rc, buf: make([]byte, 64<<10), max: maxXMLToken}
	return &xmlPart{ctx: ctx, name: name, rc: rc, guard: g, dec: xml.NewDecoder(g)}
}

// next returns the next token; io.EOF at the end of a well-formed part.
// A CharData token is valid until the next call.
func (p *xmlPart) next() (xml.Token, error) {
	if p.tokens%ctxEveryTokens == 0 {
		if err := p.ctx.Err(); err != nil {
			return nil, err
		}
	}
	p.tokens++
	p.guard.n = 0
	tok, err := p.dec.RawToken()
	switch {
	case err == io.EOF && p.depth > 0:
		return nil, invalidf("the workbook's part %s ends before its XML does", p.name)
	case err == io.EOF:
		return nil, err
	case errors.Is(err, errTokenTooLarge):
		return nil, tooLargef("the workbook's part %s holds a tag or text longer than %d MiB", p.name, maxXMLToken>>20)
	case err != nil:
		return nil, invalidf("the workbook's part %s cannot be read: %v", p.name, err)
	}
	switch t := tok.(type) {
	case xml.StartElement:
		if p.depth == maxXMLDepth {
			return nil, tooLargef("the workbook's part %s nests elements more than %d deep", p.name, maxXMLDepth)
		}
		p.open[p.depth] = t.Name
		p.depth++
	case xml.EndElement:
		if p.depth == 0 || p.open[p.depth-1] != t.Name {
			return nil, invalidf("the workbook's part %s cannot be read: the end tag %s closes no element it opened", p.name, clip(t.Name.Local))
		}
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

// tokenGuard is the buffered reader under the XML decoder. It counts the
// bytes the decoder reads for one token and fails the read past max,
// before the decoder has buffered more: the decoder reads byte by byte
// through io.ByteReader, and next resets n before each token.
type tokenGuard struct {
	r        io.Reader
	buf      []byte
	pos, end int
	err      error
	n, max   int
}

func (g *tokenGuard) ReadByte() (byte, error) {
	if g.n >= g.max {
		return 0, errTokenTooLarge
	}
	if g.pos == g.end {
		if g.err != nil {
			return 0, g.err
		}
		g.end, g.err = io.ReadFull(g.r, g.buf)
		g.pos = 0
		if g.err == io.ErrUnexpectedEOF {
			g.err = io.EOF
		}
		if g.end == 0 {
			return 0, g.err
		}
	}
	g.n++
	b := g.buf[g.pos]
	g.pos++
	return b, nil
}

// Read is never called by the decoder, which reads through ReadByte.
func (g *tokenGuard) Read(p []byte) (int, error) {
	for i := range p {
		b, err := g.ReadByte()
		if err != nil {
			return i, err
		}
		p[i] = b
	}
	return len(p), nil
}

package sheet

import (
	"archive/zip"
	"context"
	"encoding/xml"
	"io"
	"strings"
	"unicode/utf8"
)

// sharedStrings is a workbook's shared-string table, each string decoded
// once into one text that the cells referring to it share: a string that
// many cells refer to is never copied per cell.
type sharedStrings struct {
	text string
	ends []uint32 // string i is text[ends[i-1]:ends[i]]
	bad  []uint8  // why string i can be no cell's value; 0: it can
}

// Why a string can be no cell's value.
const (
	badTooLong = 1 + iota // longer than maxCellChars (or its XML than maxCellXML)
	badEscapes            // more than maxCellEscapes escapes
)

// get returns string i, or why no cell may hold it; ok is false when the
// table has no string i.
func (s *sharedStrings) get(i int) (v string, bad uint8, ok bool) {
	if s == nil || i < 0 || i >= len(s.ends) {
		return "", 0, false
	}
	start := uint32(0)
	if i > 0 {
		start = s.ends[i-1]
	}
	return s.text[start:s.ends[i]], s.bad[i], true
}

// loadSharedStrings reads the shared-string table: at most
// maxSharedStrings strings of at most budget bytes together. A string
// longer than a cell may be, or with too many escapes, is kept as the
// reason alone, refused when a cell refers to it.
func loadSharedStrings(ctx context.Context, f *zip.File, budget int64, t *tally) (*sharedStrings, error) {
	rc, err := openPart(f, maxUnzipped)
	if err != nil {
		return nil, err
	}
	p := newXMLPart(ctx, f.Name, rc)
	defer p.Close()
	var text strings.Builder
	st := &sharedStrings{}
	var item stringItem
	var scratch []byte
	for {
		tok, err := p.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if tok.Name.Local == "si" {
				item.reset()
			} else {
				item.start(tok.Name.Local)
			}
		case xml.EndElement:
			if tok.Name.Local != "si" {
				item.end(tok.Name.Local)
				continue
			}
			if len(st.ends) == maxSharedStrings {
				return nil, tooLargef("the workbook's shared-string table holds more than %s strings", thousands(maxSharedStrings))
			}
			var bad uint8
			scratch, bad = item.decode(scratch[:0], t)
			if bad == 0 {
				text.Write(scratch)
			}
			if int64(text.Len()) > budget {
				return nil, tooLargef("the workbook's shared-string table holds more than %s of text, the most an upload may hold", size(budget))
			}
			st.ends = append(st.ends, uint32(text.Len()))
			st.bad = append(st.bad, bad)
		case xml.CharData:
			item.chars(tok)
		}
	}
	st.text = text.String()
	return st, nil
}

// stringItem collects the text of a string item (<si> of the table, <is>
// of a cell): of its <t>, and of the <t> of its rich-text runs <r>, not of
// its phonetic runs <rPh>; at most maxCellXML bytes of it, as XML text
// (entities decoded, _xHHHH_ escapes not).
type stringItem struct {
	raw      []byte
	over     bool // more than maxCellXML bytes
	inT      bool
	phonetic int // depth inside <rPh>
}

// reset starts a new item.
func (s *stringItem) reset() {
	s.raw, s.over, s.inT, s.phonetic = s.raw[:0], false, false, 0
}

// start and end follow the elements inside the item.
func (s *stringItem) start(local string) {
	switch local {
	case "t":
		s.inT = s.phonetic == 0
	case "rPh":
		s.phonetic++
	}
}

func (s *stringItem) end(local string) {
	switch local {
	case "t":
		s.inT = false
	case "rPh":
		s.phonetic--
	}
}

// chars collects a text of the item, or notes that it is too long.
func (s *stringItem) chars(b []byte) {
	if !s.inT || s.over {
		return
	}
	if len(s.raw)+len(b) > maxCellXML {
		s.over, s.raw = true, s.raw[:0]
		return
	}
	s.raw = append(s.raw, b...)
}

// decode appends the item's text with its escapes decoded to dst, or
// reports why no cell may hold it.
func (s *stringItem) decode(dst []byte, t *tally) ([]byte, uint8) {
	if s.over {
		return dst, badTooLong
	}
	out, n, ok := unescape(dst, s.raw, maxCellEscapes)
	t.escapes += n
	switch {
	case !ok:
		return dst, badEscapes
	case len(out)-len(dst) > maxCellChars && utf8.RuneCount(out[len(dst):]) > maxCellChars:
		return dst, badTooLong
	}
	return out, 0
}

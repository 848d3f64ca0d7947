package sheet

import (
	"archive/zip"
	"context"
	"encoding/xml"
	"io"
	"path"
	"strings"
)

// workbook is what the reader needs of a workbook's parts.
type workbook struct {
	sheet         string // the part of the first sheet
	sharedStrings string // the part of the shared-string table, "" if none
	date1904      bool
}

// Relationship types end with these words (transitional and strict
// namespaces alike).
const (
	relOfficeDocument = "/officeDocument"
	relWorksheet      = "/worksheet"
	relSharedStrings  = "/sharedStrings"
)

// findWorkbook finds the workbook's main part (from _rels/.rels, or
// xl/workbook.xml), its first sheet in workbook order and its shared
// strings (from the workbook's relationships), and whether its dates
// count from 1904.
func findWorkbook(ctx context.Context, z *zip.Reader) (*workbook, error) {
	main := "xl/workbook.xml"
	if f := findPart(z, "_rels/.rels"); f != nil {
		rels, err := readRels(ctx, f, "")
		if err != nil {
			return nil, err
		}
		for _, r := range rels {
			if strings.HasSuffix(r.typ, relOfficeDocument) {
				main = r.target
				break
			}
		}
	}
	f := findPart(z, main)
	if f == nil {
		return nil, invalidf("the file is not a readable .xlsx workbook (it has no %s)", main)
	}
	firstID, date1904, err := readWorkbook(ctx, f)
	if err != nil {
		return nil, err
	}
	relsName := path.Join(path.Dir(main), "_rels", path.Base(main)+".rels")
	wb := &workbook{date1904: date1904}
	if f := findPart(z, relsName); f != nil {
		rels, err := readRels(ctx, f, path.Dir(main))
		if err != nil {
			return nil, err
		}
		for _, r := range rels {
			switch {
			case r.id == firstID && strings.HasSuffix(r.typ, relWorksheet):
				wb.sheet = r.target
			case strings.HasSuffix(r.typ, relSharedStrings) && wb.sharedStrings == "":
				wb.sharedStrings = r.target
			}
		}
	}
	if wb.sheet == "" {
		return nil, invalidf("the workbook's first sheet cannot be found: %s names no worksheet for it", relsName)
	}
	if wb.sharedStrings == "" && findPart(z, path.Join(path.Dir(main), "sharedStrings.xml")) != nil {
		wb.sharedStrings = path.Join(path.Dir(main), "sharedStrings.xml")
	}
	return wb, nil
}

// readWorkbook returns the relationship id of the first sheet in workbook
// order and whether the workbook's dates count from 1904. It stops reading
// at the end of the sheet list, which follows workbookPr.
func readWorkbook(ctx context.Context, f *zip.File) (firstID string, date1904 bool, err error) {
	rc, err := openPart(f, maxMetaPart)
	if err != nil {
		return "", false, err
	}
	p := newXMLPart(ctx, f.Name, rc)
	defer p.Close()
	for {
		tok, err := p.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", false, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "workbookPr":
				v := attr(t, "date1904")
				date1904 = v == "1" || v == "true"
			case "sheet":
				if firstID == "" {
					firstID = attrNS(t, "id")
				}
			}
		case xml.EndElement:
			if t.Name.Local == "sheets" {
				return firstID, date1904, checkFirst(firstID)
			}
		}
	}
	return firstID, date1904, checkFirst(firstID)
}

// checkFirst refuses a workbook whose sheet list names no sheet.
func checkFirst(id string) error {
	if id == "" {
		return invalidf("the workbook has no sheet")
	}
	return nil
}

// attrNS returns the value of the attribute with the local name local in
// a namespace (r:id, not id).
func attrNS(e xml.StartElement, local string) string {
	for _, a := range e.Attr {
		if a.Name.Local == local && a.Name.Space != "" {
			return a.Value
		}
	}
	return ""
}

// rel is one relationship of a part.
type rel struct {
	id, typ, target string
}

// readRels reads a relationships part; targets are resolved against dir,
// the folder of the part they belong to.
func readRels(ctx context.Context, f *zip.File, dir string) ([]rel, error) {
	rc, err := openPart(f, maxMetaPart)
	if err != nil {
		return nil, err
	}
	p := newXMLPart(ctx, f.Name, rc)
	defer p.Close()
	var rels []rel
	for {
		tok, err := p.next()
		if err == io.EOF {
			return rels, nil
		}
		if err != nil {
			return nil, err
		}
		if t, ok := tok.(xml.StartElement); ok && t.Name.Local == "Relationship" && attr(t, "TargetMode") != "External" {
			rels = append(rels, rel{id: attr(t, "Id"), typ: attr(t, "Type"), target: resolve(dir, attr(t, "Target"))})
		}
	}
}

// resolve makes a relationship's target a zip entry name: an absolute
// target is relative to the package's root, any other to dir.
func resolve(dir, target string) string {
	if strings.HasPrefix(target, "/") {
		return strings.TrimPrefix(path.Clean(target), "/")
	}
	return strings.TrimPrefix(path.Join("/", dir, target), "/")
}

package sheet

import (
	"archive/zip"
	"bytes"
	"io"
)

// openZip opens a workbook's zip archive, refusing one whose directory has
// too many entries or promises more unpacked bytes than maxUnzipped. A
// reader that can be read at any offset (bytes.Reader, as the upload
// handler passes) is used in place; any other is read into memory first.
func openZip(r io.Reader) (*zip.Reader, error) {
	type readerAtSize interface {
		io.ReaderAt
		Size() int64
	}
	ra, ok := r.(readerAtSize)
	if !ok {
		data, err := io.ReadAll(r)
		if err != nil {
			return nil, err
		}
		ra = bytes.NewReader(data)
	}
	z, err := zip.NewReader(ra, ra.Size())
	if err != nil {
		return nil, invalidf("the file is not a readable .xlsx workbook (not a zip archive)")
	}
	if len(z.File) > maxZipEntries {
		return nil, tooLargef("the workbook holds %d files; a workbook holds at most %s", len(z.File), thousands(maxZipEntries))
	}
	var total uint64
	for _, f := range z.File {
		total += f.UncompressedSize64
		if total > maxUnzipped {
			return nil, tooLargef("the workbook unpacks to more than %d MiB; save it as .csv or split it", maxUnzipped>>20)
		}
	}
	return z, nil
}

// findPart returns the entry named name, or nil.
func findPart(z *zip.Reader, name string) *zip.File {
	for _, f := range z.File {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// openPart opens an entry for reading through its declared size and at
// most limit bytes (Go's zip reader also refuses an entry that unpacks
// beyond its declared size).
func openPart(f *zip.File, limit int64) (io.ReadCloser, error) {
	if f.UncompressedSize64 > uint64(limit) {
		return nil, tooLargef("the workbook's part %s unpacks to more than %s", f.Name, size(limit))
	}
	rc, err := f.Open()
	if err != nil {
		return nil, invalidf("the workbook's part %s cannot be read: %v", f.Name, err)
	}
	return struct {
		io.Reader
		io.Closer
	}{io.LimitReader(rc, int64(f.UncompressedSize64)), rc}, nil
}

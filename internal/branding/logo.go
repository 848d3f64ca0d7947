package branding

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"image/jpeg"
	"image/png"

	"github.com/platform/platform/internal/platform"
)

// Bounds of an uploaded logo: its bytes, and its pixels as its header
// declares them, checked before anything is decoded (a small file may
// declare an enormous image: a decompression bomb).
const (
	MaxLogoBytes     = 1 << 20 // 1 MiB
	MaxLogoDimension = 4096    // pixels, each side
	MaxLogoPixels    = 8 << 20 // width × height
	// LogoBox is the largest side of a stored logo: larger ones are scaled
	// down (keeping their proportions) before they are re-encoded.
	LogoBox = 512
)

// Logo is an uploaded logo as the platform keeps it: re-encoded PNG and its
// SHA-256 (hex), which names it in its URL.
type Logo struct {
	PNG           []byte
	SHA256        string
	Width, Height int
}

// ProcessLogo checks an uploaded logo and re-encodes it: it must be a PNG,
// JPEG or GIF (decoded to tell, whatever it claims to be: SVG, HTML and
// anything else are refused; SVG can carry script), at most MaxLogoBytes,
// and declare at most MaxLogoDimension pixels a side and MaxLogoPixels in
// all before it is decoded. It is scaled down to fit LogoBox and written
// again as PNG, so nothing of the uploaded file but its pixels is kept (a
// polyglot's other half is gone). EINVALID.
func ProcessLogo(raw []byte) (*Logo, error) {
	if len(raw) == 0 {
		return nil, platform.Errorf(platform.EINVALID, "the logo is empty")
	}
	if len(raw) > MaxLogoBytes {
		return nil, platform.Errorf(platform.EINVALID, "the logo must be at most %d bytes", MaxLogoBytes)
	}
	format, decode := formatOf(raw)
	if decode == nil {
		return nil, platform.Errorf(platform.EINVALID, "the logo must be a PNG, JPEG or GIF image (SVG is not accepted)")
	}
	cfg, err := decode.config(bytes.NewReader(raw))
	if err != nil {
		return nil, platform.Errorf(platform.EINVALID, "the logo is not a valid %s image", format)
	}
	if cfg.Width < 1 || cfg.Height < 1 || cfg.Width > MaxLogoDimension || cfg.Height > MaxLogoDimension ||
		cfg.Width*cfg.Height > MaxLogoPixels {
		return nil, platform.Errorf(platform.EINVALID, "the logo must be at most %d×%d pixels (%d in all)",
			MaxLogoDimension, MaxLogoDimension, MaxLogoPixels)
	}
	img, err := decode.image(bytes.NewReader(raw))
	if err != nil {
		return nil, platform.Errorf(platform.EINVALID, "the logo is not a valid %s image", format)
	}
	img = fit(img, LogoBox)
	var out bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&out, img); err != nil {
		return nil, err
	}
	sum := sha256.Sum256(out.Bytes())
	b := img.Bounds()
	return &Logo{PNG: out.Bytes(), SHA256: hex.EncodeToString(sum[:]), Width: b.Dx(), Height: b.Dy()}, nil
}

// IsLogoHash reports whether s can name a logo: 64 lower-case hex digits.
func IsLogoHash(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

type decoder struct {
	config func(r *bytes.Reader) (image.Config, error)
	image  func(r *bytes.Reader) (image.Image, error)
}

// formatOf tells the format by the file's signature, not by what anyone
// says it is, and answers the one decoder of that format (nil for any
// other format: the image package's registry is not consulted).
func formatOf(raw []byte) (string, *decoder) {
	switch {
	case bytes.HasPrefix(raw, []byte("\x89PNG\r\n\x1a\n")):
		return "PNG", &decoder{func(r *bytes.Reader) (image.Config, error) { return png.DecodeConfig(r) },
			func(r *bytes.Reader) (image.Image, error) { return png.Decode(r) }}
	case bytes.HasPrefix(raw, []byte("\xff\xd8\xff")):
		return "JPEG", &decoder{func(r *bytes.Reader) (image.Config, error) { return jpeg.DecodeConfig(r) },
			func(r *bytes.Reader) (image.Image, error) { return jpeg.Decode(r) }}
	case bytes.HasPrefix(raw, []byte("GIF87a")), bytes.HasPrefix(raw, []byte("GIF89a")):
		return "GIF", &decoder{func(r *bytes.Reader) (image.Config, error) { return gif.DecodeConfig(r) },
			func(r *bytes.Reader) (image.Image, error) { return gif.Decode(r) }}
	}
	return "", nil
}

// fit scales img down (area average) so neither side exceeds box; a
// smaller image is only copied to RGBA.
func fit(img image.Image, box int) image.Image {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if w <= box && h <= box {
		dst := image.NewNRGBA(image.Rect(0, 0, w, h))
		draw.Draw(dst, dst.Bounds(), img, b.Min, draw.Src)
		return dst
	}
	nw, nh := box, box
	if w >= h {
		nh = max(1, h*box/w)
	} else {
		nw = max(1, w*box/h)
	}
	dst := image.NewNRGBA(image.Rect(0, 0, nw, nh))
	for y := 0; y < nh; y++ {
		y0, y1 := y*h/nh, max((y+1)*h/nh, y*h/nh+1)
		for x := 0; x < nw; x++ {
			x0, x1 := x*w/nw, max((x+1)*w/nw, x*w/nw+1)
			var r, g, bl, a, n uint64
			for sy := y0; sy < y1; sy++ {
				for sx := x0; sx < x1; sx++ {
					c := color.NRGBA64Model.Convert(img.At(b.Min.X+sx, b.Min.Y+sy)).(color.NRGBA64)
					r, g, bl, a, n = r+uint64(c.R), g+uint64(c.G), bl+uint64(c.B), a+uint64(c.A), n+1
				}
			}
			dst.Set(x, y, color.NRGBA64{R: uint16(r / n), G: uint16(g / n), B: uint16(bl / n), A: uint16(a / n)})
		}
	}
	return dst
}

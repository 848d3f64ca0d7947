package adminhttp

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"strings"
	"testing"

	"github.com/platform/platform/internal/admin"
	"github.com/platform/platform/internal/branding"
	"github.com/platform/platform/internal/store"
)

func init() {
	registerFixture("branding", func(t *testing.T, w *World, rt routeRow) Request {
		r := Request{Params: params("id", w.CustomerID)}
		switch {
		case rt.Method == "PUT" && strings.HasSuffix(rt.Pattern, "/logo"):
			r.Body = typedBody{"image/png", string(testImage(t, "png", 40, 20))}
		case rt.Method == "PUT":
			r.Body = map[string]any{"displayName": "Brand " + w.env.id("b"), "primaryColor": "#0b5d1e"}
		}
		return r
	})
}

// testImage encodes a w×h image in format (png, jpeg, gif).
func testImage(t testing.TB, format string, w, h int) []byte {
	t.Helper()
	img := image.NewPaletted(image.Rect(0, 0, w, h), color.Palette{color.White, color.RGBA{11, 93, 30, 255}})
	for x := 0; x < w; x++ {
		img.SetColorIndex(x, x%h, 1)
	}
	var b bytes.Buffer
	var err error
	switch format {
	case "png":
		err = png.Encode(&b, img)
	case "jpeg":
		err = jpeg.Encode(&b, img, nil)
	case "gif":
		err = gif.Encode(&b, img, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// bombPNG is a small PNG whose header declares w×h pixels and whose pixel
// data is a zlib stream of zeros that inflates to all of them: a
// decompression bomb.
func bombPNG(t testing.TB, w, h int) []byte {
	t.Helper()
	chunk := func(b *bytes.Buffer, typ string, data []byte) {
		_ = binary.Write(b, binary.BigEndian, uint32(len(data)))
		crc := crc32.NewIEEE()
		b.WriteString(typ)
		crc.Write([]byte(typ))
		b.Write(data)
		crc.Write(data)
		_ = binary.Write(b, binary.BigEndian, crc.Sum32())
	}
	var out bytes.Buffer
	out.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 8, 0 // 8-bit greyscale
	chunk(&out, "IHDR", ihdr)
	var z bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
	row := make([]byte, w+1)
	for y := 0; y < h; y++ {
		_, _ = zw.Write(row)
	}
	_ = zw.Close()
	chunk(&out, "IDAT", z.Bytes())
	chunk(&out, "IEND", nil)
	return out.Bytes()
}

// A customer's owner sets the name, colour, sender and logo; the logo is
// re-encoded as PNG and named by its hash; GET answers what was set; an
// unbranded customer answers the defaults; the logo is removed again.
func TestBranding(t *testing.T) {
	t.Parallel()
	w := newConfigWorld(t, admin.WithIssuer("https://idp.example.com"))
	path := "/customers/" + w.acme + "/branding"
	var b admin.Branding
	decodeInto(t, w.e.do(w.owner, "GET", path, nil), &b)
	if b != (admin.Branding{CustomerID: w.acme}) {
		t.Fatalf("unbranded customer: %+v", b)
	}
	r := w.e.do(w.owner, "PUT", path, map[string]any{"displayName": " Acme Construction ", "primaryColor": "#0B5D1E",
		"mailFromName": "Acme Support", "mailReplyTo": "help@acme.example"})
	if r.Status != 200 {
		t.Fatalf("PUT: %d %s", r.Status, r.Body)
	}
	decodeInto(t, r, &b)
	if b.DisplayName != "Acme Construction" || b.PrimaryColor != "#0b5d1e" || b.TextColor != branding.LightText ||
		b.Contrast < 4.5 || b.MailFromName != "Acme Support" || b.MailReplyTo != "help@acme.example" || b.UpdatedAt == nil {
		t.Fatalf("after PUT: %+v", b)
	}
	for _, format := range []string{"png", "jpeg", "gif"} {
		r = w.e.do(w.owner, "PUT", path+"/logo", typedBody{"image/" + format, string(testImage(t, format, 1200, 300))})
		if r.Status != 200 {
			t.Fatalf("%s logo: %d %s", format, r.Status, r.Body)
		}
		decodeInto(t, r, &b)
		sha, ok := strings.CutPrefix(b.LogoURL, "https://idp.example.com"+branding.LogoPrefix)
		if !ok || !branding.IsLogoHash(strings.TrimSuffix(sha, ".png")) {
			t.Fatalf("%s logo URL: %q", format, b.LogoURL)
		}
		l, err := w.e.st.Logo(context.Background(), strings.TrimSuffix(sha, ".png"))
		if err != nil || l.Width != branding.LogoBox || l.Height != 128 || !bytes.HasPrefix(l.PNG, []byte("\x89PNG")) {
			t.Fatalf("%s stored logo: %+v %v", format, l, err)
		}
	}
	// Only the logo shown is kept.
	if n, err := w.e.st.DeleteUnusedLogos(context.Background()); err != nil || n != 0 {
		t.Errorf("unused logos left: %d %v", n, err)
	}
	// A nil field stays; "" resets one.
	decodeInto(t, w.e.do(w.owner, "PUT", path, map[string]any{"primaryColor": ""}), &b)
	if b.PrimaryColor != "" || b.TextColor != "" || b.DisplayName != "Acme Construction" || b.LogoURL == "" {
		t.Fatalf("after reset: %+v", b)
	}
	decodeInto(t, w.e.do(w.owner, "DELETE", path+"/logo", nil), &b)
	if b.LogoURL != "" {
		t.Fatalf("after DELETE: %+v", b)
	}
	// Who may: the customer's owner and admin, its account manager, a
	// platform_admin; not a viewer, not another customer's owner, not
	// infra_ops.
	for _, c := range []struct {
		who  string
		want int
	}{{w.am, 200}, {w.admin, 200}, {w.viewer, 403}, {w.infra, 403}} {
		if r := w.e.do(c.who, "PUT", path, map[string]any{"displayName": "X"}); r.Status != c.want {
			t.Errorf("PUT as %s: %d, want %d: %s", c.who, r.Status, c.want, r.Body)
		}
	}
}

// Branding another customer: its owner is refused as if the customer did
// not exist, for every branding route, and nothing changes.
// attack: branding-other-customer
func TestAttackBrandingOtherCustomer(t *testing.T) {
	t.Parallel()
	w := newConfigWorld(t)
	path := "/customers/" + w.acme + "/branding"
	for _, req := range []struct {
		method, path string
		body         any
	}{
		{"GET", path, nil},
		{"PUT", path, map[string]any{"displayName": "Pwned", "primaryColor": "#000000", "mailReplyTo": "x@evil.example"}},
		{"PUT", path + "/logo", typedBody{"image/png", string(testImage(t, "png", 10, 10))}},
		{"DELETE", path + "/logo", nil},
	} {
		if r := w.e.do(w.stranger, req.method, req.path, req.body); r.Status != 404 {
			t.Errorf("%s %s as another customer's owner: %d %s", req.method, req.path, r.Status, r.Body)
		}
	}
	b, err := w.e.st.CustomerBranding(context.Background(), w.acme)
	if err != nil || b.DisplayName != "" || b.LogoSHA256 != "" || b.MailReplyTo != "" {
		t.Fatalf("branding changed: %+v %v", b, err)
	}
}

// Logo files that are not images, or too large, are refused and nothing is
// stored.
// attack: logo-not-an-image
// attack: logo-too-large
func TestAttackLogoUploads(t *testing.T) {
	t.Parallel()
	w := newConfigWorld(t)
	path := "/customers/" + w.acme + "/branding/logo"
	gifHTML := append([]byte("GIF89a/*"), []byte("<html><script>alert(1)</script></html>*/")...)
	pngThenHTML := append(testImage(t, "png", 8, 8), []byte("<html><script>alert(1)</script>")...)
	for _, c := range []struct {
		name, ctype string
		body        []byte
		want        int
	}{
		{"html", "image/png", []byte("<!doctype html><script>alert(1)</script>"), 400},
		{"svg", "image/png", []byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>`), 400},
		{"svg declared", "image/svg+xml", []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`), 415},
		{"gif/html polyglot", "image/gif", gifHTML, 400},
		{"empty", "image/png", nil, 400},
		{"json", "application/json", []byte(`{"logo":"x"}`), 415},
		{"too many bytes", "image/png", append(testImage(t, "png", 8, 8), make([]byte, branding.MaxLogoBytes)...), 413},
		{"too many pixels a side", "image/png", bombPNG(t, branding.MaxLogoDimension+1, 1), 400},
		{"decompression bomb", "image/png", bombPNG(t, 4000, 4000), 400},
	} {
		r := w.e.do(w.owner, "PUT", path, typedBody{c.ctype, string(c.body)})
		if r.Status != c.want {
			t.Errorf("%s: %d, want %d: %s", c.name, r.Status, c.want, r.Body)
		}
	}
	if b, err := w.e.st.CustomerBranding(context.Background(), w.acme); err != nil || b.LogoSHA256 != "" {
		t.Fatalf("a refused logo was stored: %+v %v", b, err)
	}
	// A PNG with HTML after it is an image: it is re-encoded, and the
	// stored PNG holds nothing of the HTML.
	r := w.e.do(w.owner, "PUT", path, typedBody{"image/png", string(pngThenHTML)})
	if r.Status != 200 {
		t.Fatalf("png with trailing html: %d %s", r.Status, r.Body)
	}
	b, _ := w.e.st.CustomerBranding(context.Background(), w.acme)
	l, err := w.e.st.Logo(context.Background(), b.LogoSHA256)
	if err != nil || bytes.Contains(l.PNG, []byte("<script>")) {
		t.Fatalf("stored logo: %v, holds the script: %v", err, l != nil && bytes.Contains(l.PNG, []byte("<script>")))
	}
}

// Colours that are not colours, and names with line breaks, are refused.
// attack: branding-css-injection
// attack: mail-sender-crlf
func TestAttackBrandingValues(t *testing.T) {
	t.Parallel()
	w := newConfigWorld(t)
	path := "/customers/" + w.acme + "/branding"
	for _, body := range []map[string]any{
		{"primaryColor": "red;background:url(https://evil.example/x)"},
		{"primaryColor": "#0b5d1e;background:url(https://evil.example/x)"},
		{"primaryColor": "red"},
		{"primaryColor": "#fff"},
		{"primaryColor": "rgb(0,0,0)"},
		{"primaryColor": "#0b5d1e}</style><script>alert(1)</script>"},
		{"primaryColor": "#777777"}, // neither white nor dark text reaches 4.5:1
		{"mailFromName": "Acme\r\nBcc: victim@evil.example"},
		{"mailFromName": "Acme\nSupport"},
		{"displayName": "Acme\u2028Construction"},
		{"mailFromName": strings.Repeat("a", branding.MaxNameLength+1)},
		{"mailReplyTo": "help@acme.example\r\nBcc: victim@evil.example"},
		{"mailReplyTo": "Help <help@acme.example>"},
		{"mailReplyTo": "a@acme.example, b@acme.example"},
		{"mailReplyTo": "not an address"},
	} {
		if r := w.e.do(w.owner, "PUT", path, body); r.Status != 400 {
			t.Errorf("PUT %q: %d, want 400: %s", body, r.Status, r.Body)
		}
	}
	if b, err := w.e.st.CustomerBranding(context.Background(), w.acme); err != nil || *b != (store.Branding{CustomerID: w.acme}) {
		t.Fatalf("a refused value was stored: %+v %v", b, err)
	}
}

package branding

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"strings"
	"testing"
)

func TestContrast(t *testing.T) {
	t.Parallel()
	if c := Contrast("#000000", "#ffffff"); math.Abs(c-21) > 1e-9 {
		t.Errorf("black on white: %v", c)
	}
	if c := Contrast("#ffffff", "#ffffff"); math.Abs(c-1) > 1e-9 {
		t.Errorf("white on white: %v", c)
	}
	for _, c := range []struct {
		color, text string
		ok          bool
	}{
		{"#0b5d1e", LightText, true}, {"#1D4ED8", LightText, true}, {"#ffd700", DarkText, true},
		{"#ffffff", DarkText, true}, {"#000000", LightText, true}, {"#777777", "", false}, {"#808080", "", false}, {"#3b82f6", DarkText, true},
	} {
		got, err := ParseColor(c.color)
		if (err == nil) != c.ok {
			t.Errorf("%s: %v", c.color, err)
			continue
		}
		if c.ok {
			if text, ratio := TextColor(got); text != c.text || ratio < MinContrast || got != strings.ToLower(c.color) {
				t.Errorf("%s: %s %s %.2f", c.color, got, text, ratio)
			}
		}
	}
}

func TestStyleSheet(t *testing.T) {
	t.Parallel()
	if css, err := StyleSheet("#0B5D1E"); err != nil || css != ":root { --brand: #0b5d1e; --brand-text: #ffffff; }\n" {
		t.Errorf("%q %v", css, err)
	}
	for _, bad := range []string{"red", "#0b5d1e;x", "#fff", "", "#0b5d1e}body{"} {
		if _, err := StyleSheet(bad); err == nil {
			t.Errorf("StyleSheet(%q) accepted", bad)
		}
	}
}

func TestNamesAndReplyTo(t *testing.T) {
	t.Parallel()
	if n, err := CleanName("x", "  Acme Support "); err != nil || n != "Acme Support" {
		t.Errorf("%q %v", n, err)
	}
	for _, bad := range []string{"a\rb", "a\nb", "a\u2028b", "a\x00b", strings.Repeat("é", MaxNameLength+1), "\xff"} {
		if _, err := CleanName("x", bad); err == nil {
			t.Errorf("CleanName(%q) accepted", bad)
		}
	}
	if a, err := ParseReplyTo("help@acme.example"); err != nil || a != "help@acme.example" {
		t.Errorf("%q %v", a, err)
	}
	for _, bad := range []string{"Help <help@acme.example>", "a@x.example, b@x.example", "a@x.example\r\nBcc: c@x.example", "nobody"} {
		if _, err := ParseReplyTo(bad); err == nil {
			t.Errorf("ParseReplyTo(%q) accepted", bad)
		}
	}
	if h, err := FromHeader("Acme \"Support\"", "Platform <no-reply@platform.test>"); err != nil || h != `"Acme \"Support\"" <no-reply@platform.test>` {
		t.Errorf("%q %v", h, err)
	}
	if _, err := FromHeader("Acme\r\nBcc: x@evil.example", "no-reply@platform.test"); err == nil {
		t.Error("FromHeader with CR/LF accepted")
	}
}

func TestProcessLogo(t *testing.T) {
	t.Parallel()
	img := image.NewNRGBA(image.Rect(0, 0, 2048, 512))
	img.Set(0, 0, color.NRGBA{255, 0, 0, 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	l, err := ProcessLogo(b.Bytes())
	if err != nil || l.Width != LogoBox || l.Height != 128 || !IsLogoHash(l.SHA256) {
		t.Fatalf("%+v %v", l, err)
	}
	again, _ := ProcessLogo(b.Bytes())
	if again.SHA256 != l.SHA256 {
		t.Error("the same image gets another hash")
	}
	for _, bad := range [][]byte{nil, []byte("<svg/>"), []byte("\x89PNG\r\n\x1a\ngarbage"), []byte("GIF89a")} {
		if _, err := ProcessLogo(bad); err == nil {
			t.Errorf("ProcessLogo(%q) accepted", bad)
		}
	}
}

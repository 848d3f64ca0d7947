package branding

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/platform/platform/internal/platform"
)

// MinContrast is the contrast the text on the primary colour must reach
// (WCAG 2.x 1.4.3, normal text).
const MinContrast = 4.5

// The two colours text on the primary colour may take; TextColor picks the
// one that contrasts more.
const (
	LightText = "#ffffff"
	DarkText  = "#111827"
)

// ParseColor checks a primary colour: exactly #rrggbb (anything else —
// names, rgb(), CSS of any kind — is refused), returned in lower case, and
// text on it must reach MinContrast in LightText or DarkText. "" is the
// default colour. EINVALID.
func ParseColor(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	if !IsHexColor(s) {
		return "", platform.Errorf(platform.EINVALID, "primaryColor must be #rrggbb (six hexadecimal digits)")
	}
	s = strings.ToLower(s)
	if _, ratio := TextColor(s); ratio < MinContrast {
		return "", platform.Errorf(platform.EINVALID,
			"primaryColor %s cannot carry readable text: neither white nor dark text reaches %.1f:1 on it (best %.2f:1); choose a darker or a lighter colour",
			s, MinContrast, ratio)
	}
	return s, nil
}

// IsHexColor reports whether s is exactly # and six hexadecimal digits.
func IsHexColor(s string) bool {
	if len(s) != 7 || s[0] != '#' {
		return false
	}
	for _, c := range s[1:] {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// Luminance is the WCAG 2.x relative luminance of a #rrggbb colour.
func Luminance(hex string) float64 {
	v, _ := strconv.ParseUint(hex[1:], 16, 32)
	ch := func(shift uint) float64 {
		c := float64((v>>shift)&0xff) / 255
		if c <= 0.04045 {
			return c / 12.92
		}
		return math.Pow((c+0.055)/1.055, 2.4)
	}
	return 0.2126*ch(16) + 0.7152*ch(8) + 0.0722*ch(0)
}

// Contrast is the WCAG 2.x contrast ratio of two #rrggbb colours (1 to 21).
func Contrast(a, b string) float64 {
	la, lb := Luminance(a), Luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// TextColor is the text colour on a #rrggbb background, LightText or
// DarkText, whichever contrasts more, and that contrast.
func TextColor(bg string) (string, float64) {
	light, dark := Contrast(bg, LightText), Contrast(bg, DarkText)
	if light >= dark {
		return LightText, light
	}
	return DarkText, dark
}

// StyleSheet is the style sheet of a valid primary colour: the custom
// properties the pages' style sheets read (--brand, --brand-text). Its
// input is checked again, so nothing but a colour reaches it.
func StyleSheet(color string) (string, error) {
	if !IsHexColor(color) {
		return "", fmt.Errorf("branding: %q is not a colour", color)
	}
	color = strings.ToLower(color)
	text, _ := TextColor(color)
	return ":root { --brand: " + color + "; --brand-text: " + text + "; }\n", nil
}

package sheet

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"
)

// unescape appends s to dst with its _xHHHH_ escapes decoded, in one pass:
// _xHHHH_ is the UTF-16 code unit HHHH (a pair of them one character),
// _x005F_ a literal underscore (so _x005F_x0041_ is the text _x0041_), as
// in excelize, and a lone surrogate is dropped. It reports the number of
// escapes decoded, stopping with ok false once there are more than max.
func unescape(dst, s []byte, max int) (out []byte, escapes int, ok bool) {
	for {
		i := indexEscape(s)
		if i < 0 {
			return append(dst, s...), escapes, true
		}
		if escapes++; escapes > max {
			return dst, escapes, false
		}
		dst = append(dst, s[:i]...)
		u := hexUnit(s[i+2 : i+6])
		s = s[i+7:]
		switch {
		case utf16.IsSurrogate(rune(u)):
			if j := indexEscape(s); j == 0 && u < 0xdc00 {
				if r := utf16.DecodeRune(rune(u), rune(hexUnit(s[2:6]))); r != utf8.RuneError {
					if escapes++; escapes > max {
						return dst, escapes, false
					}
					dst = utf8.AppendRune(dst, r)
					s = s[7:]
				}
			}
		default:
			dst = utf8.AppendRune(dst, rune(u))
		}
	}
}

var escapePrefix = []byte("_x")

// indexEscape returns the index of the first _xHHHH_ in s, or -1.
func indexEscape(s []byte) int {
	for off := 0; ; {
		i := bytes.Index(s[off:], escapePrefix)
		if i < 0 {
			return -1
		}
		i += off
		if i+7 <= len(s) && s[i+6] == '_' && isHex(s[i+2]) && isHex(s[i+3]) && isHex(s[i+4]) && isHex(s[i+5]) {
			return i
		}
		off = i + 1
	}
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// hexUnit reads four hexadecimal digits.
func hexUnit(h []byte) uint16 {
	var u uint16
	for _, c := range h {
		switch {
		case c <= '9':
			c -= '0'
		case c <= 'F':
			c -= 'A' - 10
		default:
			c -= 'a' - 10
		}
		u = u<<4 | uint16(c)
	}
	return u
}

// general shows a number cell as Excel's General format shows the values
// of a cx upload (IDs and text typed as numbers): the value rounded to 15
// significant digits, in its shortest decimal form, without exponent or
// grouping, so 1001 is "1001", 1.5 "1.5" and 0.30000000000000004 "0.3".
// Text that is not a finite number is shown unchanged.
func general(s string) string {
	if s == "" || strings.Trim(s, "0123456789+-.eE") != "" {
		return s
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) {
		return s
	}
	f, _ = strconv.ParseFloat(strconv.FormatFloat(f, 'g', 15, 64), 64)
	if f == 0 {
		f = 0 // not -0
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// serialDate shows a date serial as YYYY-MM-DD: days since 1899-12-30, or
// since 1904-01-01 in a 1904 workbook, the time of day rounded to the
// second. In the 1900 system a serial below 60 is one day later, as Excel
// counts a 29 February 1900 that never was (as excelize.ExcelDateToTime).
// It reports false for a serial that is no date of years 0 to 9999.
func serialDate(s string, date1904 bool) (string, bool) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || !(f >= 0 && f < 3e6) {
		return "", false
	}
	days := math.Floor(f)
	if math.Round((f-days)*86400) >= 86400 {
		days++
	}
	base := time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC)
	switch {
	case date1904:
		base = time.Date(1904, 1, 1, 0, 0, 0, 0, time.UTC)
	case f >= 1 && f < 60:
		days++
	}
	d := base.AddDate(0, 0, int(days))
	if d.Year() > 9999 {
		return "", false
	}
	return d.Format(time.DateOnly), true
}

// isoDate returns a text date cell as YYYY-MM-DD: unchanged when it has
// that shape, its date when it is an ISO 8601 date-time, else unchanged
// (validation reports it).
func isoDate(s string) string {
	if len(s) > len(time.DateOnly) && looksLikeDate(s[:len(time.DateOnly)]) {
		return s[:len(time.DateOnly)]
	}
	return s
}

// looksLikeDate reports whether s has the shape YYYY-MM-DD.
func looksLikeDate(s string) bool {
	if len(s) != len(time.DateOnly) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if i == 4 || i == 7 {
			if s[i] != '-' {
				return false
			}
		} else if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

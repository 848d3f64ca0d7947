package cx

import (
	"errors"
	"io"
	"unicode/utf8"
)

// errInvalidUTF8 is returned by utf8Reader; encoding/json would otherwise
// replace invalid bytes with U+FFFD without a word.
var errInvalidUTF8 = errors.New("invalid UTF-8")

// utf8Reader passes bytes through unchanged and fails with errInvalidUTF8 at
// the first chunk that is not valid UTF-8, carrying a rune split between two
// reads over to the next one.
type utf8Reader struct {
	r    io.Reader
	tail [utf8.UTFMax]byte
	n    int // bytes in tail
}

func (u *utf8Reader) Read(p []byte) (int, error) {
	n, err := u.r.Read(p)
	b := p[:n]
	for u.n > 0 && len(b) > 0 && !utf8.FullRune(u.tail[:u.n]) {
		u.tail[u.n] = b[0]
		u.n++
		b = b[1:]
	}
	if u.n > 0 && utf8.FullRune(u.tail[:u.n]) {
		if r, size := utf8.DecodeRune(u.tail[:u.n]); (r == utf8.RuneError && size == 1) || size != u.n {
			return 0, errInvalidUTF8
		}
		u.n = 0
	}
	if u.n == 0 {
		t := incompleteTail(b)
		if !utf8.Valid(b[:len(b)-t]) {
			return 0, errInvalidUTF8
		}
		u.n = copy(u.tail[:], b[len(b)-t:])
	}
	if err == io.EOF && u.n > 0 {
		return 0, errInvalidUTF8
	}
	return n, err
}

// incompleteTail returns the length of a rune cut off at the end of b.
func incompleteTail(b []byte) int {
	for i := 1; i < utf8.UTFMax && i <= len(b); i++ {
		if utf8.RuneStart(b[len(b)-i]) {
			if utf8.FullRune(b[len(b)-i:]) {
				return 0
			}
			return i
		}
	}
	return 0
}

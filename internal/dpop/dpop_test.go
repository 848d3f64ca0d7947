package dpop

import (
	"testing"
	"time"
)

func TestNormalizeURL(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"https://Example.COM/a/b?x=1#f": "https://example.com/a/b",
		"HTTPS://example.com:443/a":     "https://example.com/a",
		"http://example.com:80":         "http://example.com/",
		"http://127.0.0.1:8080/t":       "http://127.0.0.1:8080/t",
		"https://[::1]:8443/t":          "https://[::1]:8443/t",
	} {
		if got, ok := NormalizeURL(in); !ok || got != want {
			t.Errorf("NormalizeURL(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, bad := range []string{"", "/relative", "ftp://example.com/", "https://user@example.com/", "::"} {
		if _, ok := NormalizeURL(bad); ok {
			t.Errorf("NormalizeURL(%q) accepted", bad)
		}
	}
	if SameURL("https://example.com/a", "https://example.com/b") || !SameURL("https://EXAMPLE.com/a?q", "https://example.com/a") {
		t.Error("SameURL")
	}
}

// A nonce holds in its window and the next, not later, and not under
// another key or altered.
func TestNonces(t *testing.T) {
	t.Parallel()
	n := NewNonces([]byte("a secrets key of thirty-two bytes"))
	now := time.Unix(1_800_000_000, 0)
	v := n.Issue(now)
	if !n.Valid(v, now) || !n.Valid(v, now.Add(NonceStep)) {
		t.Fatal("a current nonce is refused")
	}
	if n.Valid(v, now.Add(2*NonceStep)) || n.Valid(v, now.Add(-NonceStep)) {
		t.Fatal("a nonce outside its windows is accepted")
	}
	altered := []byte(v)
	if altered[12] == 'B' {
		altered[12] = 'C'
	} else {
		altered[12] = 'B'
	}
	other := NewNonces([]byte("another secrets key of 32 bytes!"))
	if other.Valid(v, now) || n.Valid(string(altered), now) || n.Valid("", now) || n.Valid("!!", now) {
		t.Fatal("a foreign or altered nonce is accepted")
	}
}

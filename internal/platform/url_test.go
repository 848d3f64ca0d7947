package platform

import (
	"strings"
	"testing"
)

// TestIsLoopback holds the one definition of a loopback host: localhost
// and names under .localhost, 127.0.0.0/8 and ::1, nothing else.
func TestIsLoopback(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "LOCALHOST": true, "localhost.": true, "app.localhost": true, "a.b.localhost": true,
		"127.0.0.1": true, "127.0.0.2": true, "127.255.255.254": true, "::1": true, "[::1]": true, "::ffff:127.0.0.1": true,
		"": false, "localhost.example": false, "notlocalhost": false, "localhostx": false, "example.com": false,
		"128.0.0.1": false, "10.0.0.1": false, "0.0.0.0": false, "::": false, "::2": false, "169.254.169.254": false,
	} {
		if got := IsLoopback(host); got != want {
			t.Errorf("IsLoopback(%q) = %v, want %v", host, got, want)
		}
	}
}

// TestURLChecks: what each named check accepts and refuses, and that a
// refusal is EINVALID naming the field.
func TestURLChecks(t *testing.T) {
	for _, tc := range []struct {
		check  func(field, raw string) error
		name   string
		accept []string
		refuse []string
	}{
		{CheckRedirectURI, "redirect", []string{"https://a.example/cb", "http://a.example/cb", "http://localhost:3000/cb?x=1", "https://u@a.example/cb"},
			[]string{"", "/cb", "a.example/cb", "https://a.example/cb#f", "javascript:alert(1)", "ftp://a.example/cb", "https:///cb"}},
		{CheckInstanceURL, "instance", []string{"https://i.example", "http://i.internal:8080", "https://i.example/base"},
			[]string{"", "i.example", "https://i.example?x=1", "https://i.example#f", "https://u:p@i.example", "javascript:alert(1)",
				"https://i.example/" + strings.Repeat("a", 500)}},
		{CheckHTTPSOrLoopback, "endpoint", []string{"https://h.example/hook?x=1", "http://localhost:9000/hook", "http://127.0.0.5/hook",
			"http://[::1]:8080/", "http://app.localhost/hook"},
			[]string{"", "h.example/hook", "http://h.example/hook", "http://10.0.0.1/hook", "https://u:p@h.example/", "https://h.example/#f",
				"mailto:a@h.example", "ftp://h.example/", "https://h.example/" + strings.Repeat("a", 2000)}},
		{CheckOrigin, "origin", []string{"https://id.example", "http://localhost:8080", "http://127.0.0.1:8080", "http://[::1]:8080"},
			[]string{"", "id.example", "ftp://id.example", "http://id.example", "https://id.example/app", "https://id.example?x=1",
				"https://id.example#f", "https://u@id.example", "https://id.example/"}},
	} {
		for _, raw := range tc.accept {
			if err := tc.check("f", raw); err != nil {
				t.Errorf("%s refused %q: %v", tc.name, raw, err)
			}
		}
		for _, raw := range tc.refuse {
			err := tc.check("the field", raw)
			if ErrorCode(err) != EINVALID || !strings.HasPrefix(ErrorMessage(err), "the field ") {
				t.Errorf("%s accepted %q or refused it without naming the field: %v", tc.name, raw, err)
			}
		}
	}
	if err := CheckOrigin("f", "https://id.example/"); ErrorMessage(err) != "f must not end with a slash" {
		t.Errorf("a trailing slash: %v", err)
	}
}

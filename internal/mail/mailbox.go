package mail

import (
	"log/slog"
	"net"
	"net/http"
	"regexp"
	"time"

	"github.com/platform/platform/internal/i18n"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/secrets"
	"github.com/platform/platform/internal/store"
	"github.com/platform/platform/internal/web"
)

// PathMailbox is the development mailbox of the all-in-one role.
const PathMailbox = "/dev/mailbox"

// mailboxPages are the mailbox's page in each language (D-languages).
var mailboxPages = func() i18n.Pages {
	ps, err := i18n.ParsePages(web.FS, "mail/mailbox.html")
	if err != nil {
		panic(err)
	}
	return ps
}()

type mailboxRow struct {
	ID, To, Subject, Status, Kind string
	At                            string
}

type part struct {
	Text string
	Link bool
}

type mailboxMessage struct {
	mailboxRow
	Parts   []part
	HTMLURL string
}

var linkPattern = regexp.MustCompile(`https?://[^\s<>"]+`)

// parts splits a text body into plain text and links, so the page can make
// the links clickable without trusting the body as HTML.
func parts(text string) []part {
	var out []part
	last := 0
	for _, m := range linkPattern.FindAllStringIndex(text, -1) {
		out = append(out, part{Text: text[last:m[0]]}, part{Text: text[m[0]:m[1]], Link: true})
		last = m[1]
	}
	return append(out, part{Text: text[last:]})
}

// Mailbox serves the development mailbox: the newest unsent messages with
// their text (links clickable) and HTML. Mount it only in the all-in-one
// role (ROLE=all): it shows single-use links (invitations, password resets)
// to whoever can reach it, so it answers only requests from this machine
// (fromLoopback); any other gets 404 with a hint where to open it.
func Mailbox(st *store.Store, sl *secrets.Sealer) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !fromLoopback(r) {
			http.Error(w, "the development mailbox answers only on the machine that runs the platform: open "+PathMailbox+
				" there, on a loopback address (localhost)", http.StatusNotFound)
			return
		}
		h := w.Header()
		h.Set("Cache-Control", "no-store")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		row := func(e *store.Email) mailboxRow {
			return mailboxRow{ID: e.ID, To: e.Recipient, Subject: e.Subject, Status: e.Status, Kind: e.Kind,
				At: e.At.Local().Format(time.DateTime)}
		}
		if id := r.URL.Query().Get("id"); id != "" {
			e, err := st.OutboxEmail(r.Context(), id)
			if err != nil || e.BodySealed == nil {
				http.Error(w, "no such message in the mailbox", http.StatusNotFound)
				return
			}
			b, err := Open(sl, e)
			if err != nil {
				http.Error(w, "the message cannot be opened", http.StatusInternalServerError)
				return
			}
			if r.URL.Query().Get("format") == "html" {
				h.Set("Content-Type", "text/html; charset=utf-8")
				h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
				_, _ = w.Write([]byte(b.HTML))
				return
			}
			render(w, r, map[string]any{"Message": mailboxMessage{mailboxRow: row(e), Parts: parts(b.Text),
				HTMLURL: PathMailbox + "?format=html&id=" + e.ID}})
			return
		}
		es, err := st.Mailbox(r.Context(), 200)
		if err != nil {
			slog.ErrorContext(r.Context(), "mailbox", "err", err)
			http.Error(w, "the mailbox cannot be read", http.StatusInternalServerError)
			return
		}
		rows := make([]mailboxRow, 0, len(es))
		for i := range es {
			rows = append(rows, row(&es[i]))
		}
		render(w, r, map[string]any{"Messages": rows})
	})
}

// render writes the page in the language the browser asks for.
func render(w http.ResponseWriter, r *http.Request, data any) {
	tag := i18n.Match(i18n.AcceptLanguage(r.Header.Get("Accept-Language")))
	w.Header().Set("Content-Language", tag.String())
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'")
	if err := mailboxPages.For(tag).ExecuteTemplate(w, "mailbox.html", data); err != nil {
		slog.Error("render mailbox", "err", err)
	}
}

// fromLoopback reports whether r comes straight from this machine: its
// peer is a loopback address and no proxy forwarded it (a proxy on this
// machine would make every client look local).
func fromLoopback(r *http.Request) bool {
	for _, h := range []string{"Forwarded", "X-Forwarded-For", "X-Real-Ip"} {
		if r.Header.Get(h) != "" {
			return false
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	return platform.IsLoopback(host)
}

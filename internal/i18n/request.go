package i18n

import (
	"context"
	"net/http"
)

type requestKey struct{}

// WithRequest remembers the language a request asks for (its
// Accept-Language, bounded as Match bounds it) in its context, for what it
// causes later: the e-mails of a request are written in the recipient's
// saved language, else in this one (D-languages). Work detached from the
// request (context.WithoutCancel) keeps it.
func WithRequest(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if v := r.Header.Get("Accept-Language"); v != "" && len(v) <= MaxHeader {
			r = r.WithContext(context.WithValue(r.Context(), requestKey{}, v))
		}
		next.ServeHTTP(w, r)
	})
}

// Request is the language preference of the request of ctx (see
// WithRequest); it names none when there is no request.
func Request(ctx context.Context) Choice {
	v, _ := ctx.Value(requestKey{}).(string)
	return AcceptLanguage(v)
}

// ForMail returns the language of an e-mail to a user who saved the
// language saved ("" for none), caused by the request of ctx: the saved
// one, else the request's, else English.
func ForMail(ctx context.Context, saved string) string {
	return Match(Saved(saved), Request(ctx)).String()
}

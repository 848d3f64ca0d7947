package admin

import (
	"context"
	"log/slog"
	"time"

	"github.com/platform/platform/internal/access"
	"github.com/platform/platform/internal/store"
)

// EmailView is one e-mail the platform sent.
type EmailView struct {
	ID         string    `json:"id"`
	At         time.Time `json:"at"`
	CustomerID *string   `json:"customerId"`
	Recipient  string    `json:"recipient"`
	Kind       string    `json:"kind"`
	Subject    string    `json:"subject"`
	Status     string    `json:"status"`
	UserID     *string   `json:"userId"`
}

// EmailLog lists e-mails the platform sent that the caller may read, newest first.
func (s *Service) EmailLog(ctx context.Context, c *access.Caller, q LogQuery) (*Page[EmailView], error) {
	scope, err := s.logScope(ctx, c)
	if err != nil {
		return nil, err
	}
	if err := logLimit(q); err != nil {
		return nil, err
	}
	es, next, err := s.store.EmailLog(ctx, store.EmailQuery{Scope: scope, Limit: q.Limit, Cursor: q.Cursor})
	if err != nil {
		return nil, err
	}
	out := make([]EmailView, 0, len(es))
	for _, e := range es {
		v := EmailView{ID: e.ID, At: e.At, Recipient: e.Recipient, Kind: e.Kind, Subject: e.Subject, Status: e.Status}
		v.CustomerID, v.UserID = orNull(e.CustomerID), orNull(e.UserID)
		out = append(out, v)
	}
	return newPage(out, next), nil
}

// sendEmail records an e-mail in the e-mail log. No mail server is wired
// yet: the entry's status is "queued" for the delivery worker.
func (s *Service) sendEmail(ctx context.Context, customerID, to, userID, kind, subject string) {
	e := &store.Email{ID: newID(), At: s.now().UTC().Truncate(time.Microsecond), CustomerID: customerID, Recipient: to,
		Kind: kind, Subject: subject, Status: "queued", UserID: userID}
	if err := s.store.AppendEmail(context.WithoutCancel(ctx), e); err != nil {
		slog.ErrorContext(ctx, "e-mail log", "err", err, "kind", kind)
	}
}

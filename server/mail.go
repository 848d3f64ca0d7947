package main

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/platform/platform/internal/mail"
)

// devMailbox reports whether this process shows the development mailbox:
// the all-in-one role without SMTP_URL (D-mail).
func (m *Main) devMailbox() bool { return m.Config.Role == RoleAll && m.Config.SMTPURL == "" }

// startMail runs the outbox's delivery worker (every role: replicas share
// the outbox through leases) and, in the all-in-one role without a mail
// server, mounts the development mailbox on the identity provider's
// listener. Production roles without SMTP_URL warn once at start.
func (m *Main) startMail(ctx context.Context, handlers map[string]http.Handler) error {
	sealer, err := m.Config.sealer()
	if err != nil {
		return err
	}
	w := &mail.Worker{Store: m.Store, Sealer: sealer, From: m.Config.MailFrom}
	if m.MailSender != nil {
		w.Sender = m.MailSender
	} else if s := m.Config.Mailer(); s != nil {
		w.Sender = s
		slog.Info("e-mail delivery", "server", s.Describe())
	} else if m.Config.Role != RoleAll {
		slog.Warn("SMTP_URL is not set: no e-mail is sent (invitations, password resets, unlock links); " +
			"the e-mail log shows such messages as \"not configured\"")
	}
	if m.devMailbox() && handlers[RoleIDP] != nil {
		r := chi.NewRouter()
		r.Handle(mail.PathMailbox, mail.Mailbox(m.Store, sealer))
		r.Mount("/", handlers[RoleIDP])
		handlers[RoleIDP] = r
	}
	m.Mail = w
	go w.Run(ctx, 5*time.Second)
	return nil
}

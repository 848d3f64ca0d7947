package audit

import (
	"context"
	"log/slog"
	"time"

	"github.com/platform/platform/internal/background"
	"github.com/platform/platform/internal/store"
)

// PrunePerPass bounds the events one pass of Retain deletes, so a pass is
// one short statement whatever the log's size; a backlog (a shorter
// retention just configured) goes at this pace, pass after pass.
const PrunePerPass = 5000

// Prune deletes at most PrunePerPass events older than retention at now,
// oldest first, and answers how many (D-audit-retention); with them, as
// many support impersonations over for longer than retention (the record
// of who acted as whom lasts as long as the events that name it).
func Prune(ctx context.Context, st *store.Store, retention time.Duration, now time.Time) (int64, error) {
	if _, err := st.PruneImpersonations(ctx, now.Add(-retention), PrunePerPass); err != nil {
		return 0, err
	}
	return st.PruneAudit(ctx, now.Add(-retention), PrunePerPass)
}

// Retain prunes the events older than retention every interval until ctx
// ends, on the background loop of periodic work. Replicas may prune at
// once: each deletes what is still there.
func Retain(ctx context.Context, st *store.Store, retention, interval time.Duration) {
	background.Every(ctx, "audit retention", interval, interval/10, func(ctx context.Context) error {
		n, err := Prune(ctx, st, retention, time.Now())
		if n > 0 {
			slog.InfoContext(ctx, "audit events pruned", "events", n, "retention", retention.String())
		}
		return err
	})
}

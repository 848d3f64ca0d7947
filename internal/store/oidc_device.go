package store

import (
	"context"
	"database/sql"
	"time"
)

// DeviceAuthorization is one device authorization grant (RFC 8628).
type DeviceAuthorization struct {
	DeviceCodeHash string
	UserCode       string
	ClientID       string
	Scopes         []string
	State          string // pending, approved, denied or consumed
	Interval       time.Duration
	LastPolledAt   time.Time
	UserID         string
	AMR            []string
	AuthTime       time.Time
	CreatedAt      time.Time
	ExpiresAt      time.Time
}

// Device authorization states.
const (
	DevicePending  = "pending"
	DeviceApproved = "approved"
	DeviceDenied   = "denied"
	DeviceConsumed = "consumed"
)

const deviceColumns = `device_code_hash, user_code, client_id, scopes, state, interval_seconds, last_polled_at, user_id, amr,
	auth_time, created_at, expires_at`

func scanDevice(r Row) (DeviceAuthorization, error) {
	var d DeviceAuthorization
	var scopes, amr string
	var secs int64
	var polled, authTime sql.NullTime
	err := r.Scan(&d.DeviceCodeHash, &d.UserCode, &d.ClientID, &scopes, &d.State, &secs, &polled, &d.UserID, &amr,
		&authTime, &d.CreatedAt, &d.ExpiresAt)
	d.Scopes, d.AMR, d.Interval = splitList(scopes), splitList(amr), time.Duration(secs)*time.Second
	if polled.Valid {
		d.LastPolledAt = polled.Time
	}
	if authTime.Valid {
		d.AuthTime = authTime.Time
	}
	return d, err
}

// CreateDeviceAuthorization stores a new device authorization. ECONFLICT
// when its user code is taken (the caller draws another).
func (s *OIDC) CreateDeviceAuthorization(ctx context.Context, d *DeviceAuthorization) error {
	_, err := s.db.Exec(ctx, `INSERT INTO device_authorizations (`+deviceColumns+`)
		VALUES ($1, $2, $3, $4, $5, $6, NULL, '', '', NULL, $7, $8)`, d.DeviceCodeHash, d.UserCode, d.ClientID,
		joinList(d.Scopes), DevicePending, int64(d.Interval/time.Second), d.CreatedAt.UTC(), d.ExpiresAt.UTC())
	return wrap(err, "device authorization")
}

// DeviceAuthorizationByUserCode returns the pending, unexpired device
// authorization of a user code. ENOTFOUND otherwise.
func (s *OIDC) DeviceAuthorizationByUserCode(ctx context.Context, userCode string, now time.Time) (*DeviceAuthorization, error) {
	return queryOne(ctx, s.db, "device authorization", scanDevice, `SELECT `+deviceColumns+` FROM device_authorizations
		WHERE user_code = $1 AND state = 'pending' AND expires_at > $2`, userCode, now.UTC())
}

// PollDeviceAuthorization records a poll of the device code of clientID
// and answers the authorization as it was before: fast is true when the
// poll came sooner than the interval, which is then widened by five seconds
// (RFC 8628 section 3.5). An approved authorization is consumed by the poll
// that sees it, so its tokens are issued once. ENOTFOUND for an unknown
// code or another client's.
func (s *OIDC) PollDeviceAuthorization(ctx context.Context, clientID, deviceCodeHash string, now time.Time) (d *DeviceAuthorization, fast bool, err error) {
	err = s.InTx(ctx, func(tx *Store) error {
		d, err = queryOne(ctx, tx.db, "device authorization", scanDevice, `SELECT `+deviceColumns+` FROM device_authorizations
			WHERE device_code_hash = $1 AND client_id = $2`+tx.forUpdate(), deviceCodeHash, clientID)
		if err != nil {
			return err
		}
		fast = !d.LastPolledAt.IsZero() && now.Sub(d.LastPolledAt) < d.Interval
		interval := d.Interval
		if fast {
			interval += 5 * time.Second
		}
		state := d.State
		if state == DeviceApproved && !fast {
			state = DeviceConsumed
		}
		_, err = tx.db.Exec(ctx, `UPDATE device_authorizations SET last_polled_at = $2, interval_seconds = $3, state = $4
			WHERE device_code_hash = $1`, deviceCodeHash, now.UTC(), int64(interval/time.Second), state)
		return err
	})
	return d, fast, err
}

// DecideDeviceAuthorization approves (with the user who signed in) or
// denies a pending device authorization. ENOTFOUND when it is no longer
// pending or has expired.
func (s *OIDC) DecideDeviceAuthorization(ctx context.Context, deviceCodeHash string, approve bool, userID string,
	amr []string, authTime, now time.Time) error {
	state := DeviceDenied
	if approve {
		state = DeviceApproved
	}
	return s.execOne(ctx, "device authorization", `UPDATE device_authorizations SET state = $2, user_id = $3, amr = $4,
		auth_time = $5 WHERE device_code_hash = $1 AND state = 'pending' AND expires_at > $6`,
		deviceCodeHash, state, userID, joinList(amr), nullTime(authTime), now.UTC())
}

// CreateDeviceConfirmation stores the hash of a confirmation page's
// one-time value for a device authorization and the browser (its binding
// hash) that was shown the page.
func (s *OIDC) CreateDeviceConfirmation(ctx context.Context, confirmationHash, deviceCodeHash, bindingHash string, expires time.Time) error {
	_, err := s.db.Exec(ctx, `INSERT INTO device_confirmations (confirmation_hash, device_code_hash, binding_hash, expires_at)
		VALUES ($1, $2, $3, $4)`, confirmationHash, deviceCodeHash, bindingHash, expires.UTC())
	return wrap(err, "device confirmation")
}

// TakeDeviceConfirmation spends an unexpired confirmation of the browser
// with bindingHash and returns its device authorization while that is
// still pending. ENOTFOUND for an unknown, spent or expired value, another
// browser's (which stays unspent), or a device no longer pending.
func (s *OIDC) TakeDeviceConfirmation(ctx context.Context, confirmationHash, bindingHash string, now time.Time) (*DeviceAuthorization, error) {
	var d *DeviceAuthorization
	err := s.InTx(ctx, func(tx *Store) error {
		var deviceCodeHash string
		err := tx.db.QueryRow(ctx, `DELETE FROM device_confirmations WHERE confirmation_hash = $1 AND binding_hash = $2
			AND expires_at > $3 RETURNING device_code_hash`, confirmationHash, bindingHash, now.UTC()).Scan(&deviceCodeHash)
		if err != nil {
			return wrap(err, "device confirmation")
		}
		d, err = queryOne(ctx, tx.db, "device authorization", scanDevice, `SELECT `+deviceColumns+` FROM device_authorizations
			WHERE device_code_hash = $1 AND state = 'pending' AND expires_at > $2`, deviceCodeHash, now.UTC())
		return err
	})
	return d, err
}

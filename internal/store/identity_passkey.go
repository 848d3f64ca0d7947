package store

import (
	"context"
	"database/sql"
	"time"
)

// Passkey is a user's WebAuthn credential. Credential is the WebAuthn
// library's record of it (JSON), opaque to the store.
type Passkey struct {
	ID           string
	UserID       string
	CredentialID []byte
	Name         string
	Credential   []byte
	SignCount    uint32
	CloneWarning bool
	CreatedAt    time.Time
	LastUsedAt   *time.Time
}

const passkeyColumns = `id, user_id, credential_id, name, credential, sign_count, clone_warning, created_at, last_used_at`

func scanPasskey(r Row) (Passkey, error) {
	var k Passkey
	var cred string
	var count int64
	var used sql.NullTime
	err := r.Scan(&k.ID, &k.UserID, &k.CredentialID, &k.Name, &cred, &count, &k.CloneWarning, &k.CreatedAt, &used)
	k.Credential, k.SignCount, k.LastUsedAt = []byte(cred), uint32(count), timePtr(used)
	return k, err
}

// CreatePasskey stores a new passkey. ECONFLICT when its credential id is
// registered already (to anyone).
func (s *Identity) CreatePasskey(ctx context.Context, k *Passkey) error {
	_, err := s.db.Exec(ctx, `INSERT INTO passkeys (`+passkeyColumns+`) VALUES ($1, $2, $3, $4, $5, $6, FALSE, $7, NULL)`,
		k.ID, k.UserID, k.CredentialID, k.Name, string(k.Credential), int64(k.SignCount), k.CreatedAt.UTC())
	return wrap(err, "passkey")
}

// Passkeys lists a user's passkeys, oldest first.
func (s *Identity) Passkeys(ctx context.Context, userID string) ([]Passkey, error) {
	return queryAll(ctx, s.db, scanPasskey, `SELECT `+passkeyColumns+` FROM passkeys WHERE user_id = $1 ORDER BY created_at, id`, userID)
}

// PasskeyByCredentialID finds the passkey an assertion names. ENOTFOUND
// when none.
func (s *Identity) PasskeyByCredentialID(ctx context.Context, credentialID []byte) (*Passkey, error) {
	return queryOne(ctx, s.db, "passkey", scanPasskey, `SELECT `+passkeyColumns+` FROM passkeys WHERE credential_id = $1`, credentialID)
}

// RenamePasskey names a user's passkey. ENOTFOUND when the user has no
// passkey with that id.
func (s *Identity) RenamePasskey(ctx context.Context, userID, id, name string) error {
	return s.execOne(ctx, "passkey", `UPDATE passkeys SET name = $3 WHERE id = $1 AND user_id = $2`, id, userID, name)
}

// DeletePasskey removes a user's passkey. ENOTFOUND when the user has no
// passkey with that id.
func (s *Identity) DeletePasskey(ctx context.Context, userID, id string) error {
	return s.execOne(ctx, "passkey", `DELETE FROM passkeys WHERE id = $1 AND user_id = $2`, id, userID)
}

// UsePasskey records a sign-in with a passkey: its new counter and record,
// when the stored counter is still the one the check read (oldCount), so
// two uses of one signature cannot both pass. It reports false when the
// counter moved in between.
func (s *Identity) UsePasskey(ctx context.Context, id string, oldCount, newCount uint32, credential []byte, at time.Time) (bool, error) {
	n, err := s.db.Exec(ctx, `UPDATE passkeys SET sign_count = $3, credential = $4, last_used_at = $5
		WHERE id = $1 AND sign_count = $2 AND NOT clone_warning`, id, int64(oldCount), int64(newCount), string(credential), at.UTC())
	return n == 1, err
}

// FlagClonedPasskey marks a passkey whose counter went backwards: it signs
// no one in any more until its user removes it.
func (s *Identity) FlagClonedPasskey(ctx context.Context, id string) error {
	_, err := s.db.Exec(ctx, `UPDATE passkeys SET clone_warning = TRUE WHERE id = $1`, id)
	return err
}

// PutCeremony keeps a WebAuthn ceremony of an owner for a purpose until
// expires, replacing the one before.
func (s *Identity) PutCeremony(ctx context.Context, owner, purpose string, data []byte, expires time.Time) error {
	_, err := s.db.Exec(ctx, `INSERT INTO webauthn_ceremonies (owner, purpose, data, expires_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (owner, purpose) DO UPDATE SET data = EXCLUDED.data, expires_at = EXCLUDED.expires_at`,
		owner, purpose, string(data), expires.UTC())
	return wrap(err, "webauthn ceremony")
}

// TakeCeremony returns and deletes an unexpired ceremony, so its challenge
// is answered once. ENOTFOUND when there is none.
func (s *Identity) TakeCeremony(ctx context.Context, owner, purpose string, now time.Time) ([]byte, error) {
	var data string
	err := s.db.QueryRow(ctx, `DELETE FROM webauthn_ceremonies WHERE owner = $1 AND purpose = $2 AND expires_at > $3
		RETURNING data`, owner, purpose, now.UTC()).Scan(&data)
	return []byte(data), wrap(err, "webauthn ceremony")
}

// DeleteExpiredCeremonies removes ceremonies nobody answered.
func (s *Identity) DeleteExpiredCeremonies(ctx context.Context, now time.Time) error {
	_, err := s.db.Exec(ctx, `DELETE FROM webauthn_ceremonies WHERE expires_at <= $1`, now.UTC())
	return err
}

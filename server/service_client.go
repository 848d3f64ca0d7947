package main

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"time"

	"github.com/platform/platform/internal/idp"
	"github.com/platform/platform/internal/platform"
	"github.com/platform/platform/internal/store"
)

// consoleServiceSecret is the secret of the console's service client:
// CONSOLE_SERVICE_CLIENT_SECRET, or in the all-in-one role a value derived
// from the secrets key, so it is the same after every restart and never
// written anywhere but as a hash.
func (c Config) consoleServiceSecret() (string, error) {
	if c.ConsoleServiceClientSecret != "" {
		return c.ConsoleServiceClientSecret, nil
	}
	if c.Role != RoleAll {
		return "", errors.New("CONSOLE_SERVICE_CLIENT_SECRET is not set")
	}
	key, err := c.secretsKey()
	if err != nil {
		return "", err
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte("console-service-client:" + c.ConsoleServiceClientID))
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil)), nil
}

// consoleServiceAppID is the fixed application id of the demo service client.
const consoleServiceAppID = "5c0e8a52-0000-4000-8000-000000000004"

// ensureServiceClient registers the console's service client (allowed to
// use the management API) with the hash of secret, or refreshes its hash.
func ensureServiceClient(ctx context.Context, st *store.Store, clientID, secret string) error {
	return st.Locked(ctx, store.LockSeed, func(tx *store.Store) error { // replicas starting at once register it once
		a, err := tx.ApplicationByClientID(ctx, clientID)
		switch {
		case platform.ErrorCode(err) == platform.ENOTFOUND:
		case err != nil:
			return err
		case a.SecretHash == idp.HashSecret(secret) && a.Management && a.Kind == platform.AppService:
			return nil
		default: // the secret changed: register the client again
			if err := tx.DeleteApplication(ctx, a.AppID); err != nil {
				return err
			}
		}
		return tx.CreateApplication(ctx, &platform.Application{AppID: consoleServiceAppID, ClientID: clientID,
			Name: "Console service client", Kind: platform.AppService, SecretHash: idp.HashSecret(secret), Management: true,
			CreatedAt: time.Now().UTC().Truncate(time.Microsecond)})
	})
}

package secrets

// Label is the associated data a value is sealed under: the row (and
// column) the value belongs to, so a sealed value copied to another row or
// column does not open. Every label is made by one of the functions below,
// sealing and opening alike, so the two cannot be spelled apart. The
// strings are the stored format: values sealed under them must keep
// opening, so a label's text never changes.
type Label string

// LabelIDPSecret seals an external identity provider's client secret
// (customer_idp_configs and external_idps rows), sealed by the console
// and opened by the identity provider.
func LabelIDPSecret(idpID string) Label { return Label("idp-secret:" + idpID) }

// LabelWebhookSecret seals a webhook's signing secret (webhooks.secret).
func LabelWebhookSecret(webhookID string) Label { return Label("webhooks.secret:" + webhookID) }

// LabelEnvValue seals a secret environment variable's value
// (environment_variables.value).
func LabelEnvValue(envVarID string) Label { return Label("environment_variables.value:" + envVarID) }

// LabelMail seals an outbox message's body (emails row by its id).
func LabelMail(emailID string) Label { return Label("mail:" + emailID) }

// LabelTOTP seals a user's TOTP seed.
func LabelTOTP(userID string) Label { return Label("totp:" + userID) }

// LabelRefreshSuccessor seals the answer a refresh token's successor was
// issued with, kept for its grace period, by the presented token's hash.
func LabelRefreshSuccessor(tokenHash string) Label { return Label("refresh-successor:" + tokenHash) }

// LabelTenantRefresh seals the refresh token a tenant session holds, by the
// session id's hash.
func LabelTenantRefresh(sessionIDHash string) Label { return Label("tenant-refresh:" + sessionIDHash) }

// LabelTenantAccess seals the access token an impersonated tenant session
// holds (which ending the impersonation revokes), by the session id's hash.
func LabelTenantAccess(sessionIDHash string) Label { return Label("tenant-access:" + sessionIDHash) }

// LabelSigningKey seals the identity provider's private signing key
// (signing_keys.private_key) by the key's id.
func LabelSigningKey(keyID string) Label { return Label("signing_keys.private_key:" + keyID) }

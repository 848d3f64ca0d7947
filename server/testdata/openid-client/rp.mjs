// An independent relying party: panva's openid-client against the
// platform's identity provider. server/openid_client_test.go starts it,
// writes one JSON line with the settings, answers the lines it asks
// ({"step":"authorize"} with the browser's callback URL, {"step":"device"}
// by approving the device), and reads one JSON line per step; last, the
// service account delegates the user's token (token exchange). Any failure
// is printed as {"step":"error"} and exits 1.
import * as client from 'openid-client'
import { createInterface } from 'node:readline'

const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]()
const read = async () => JSON.parse((await lines.next()).value)
const say = (o) => process.stdout.write(JSON.stringify(o) + '\n')
const insecure = { execute: [client.allowInsecureRequests] } // the test provider listens on plain loopback HTTP

try {
  const cfg = await read()
  const issuer = new URL(cfg.issuer)

  // client_credentials with private_key_jwt (RFC 7523)
  const key = await crypto.subtle.importKey('jwk', cfg.serviceAccount.privateJwk,
    { name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign'])
  const sa = await client.discovery(issuer, cfg.serviceAccount.clientId, {},
    client.PrivateKeyJwt({ key, kid: cfg.serviceAccount.kid }), insecure)
  const meta = sa.serverMetadata()
  say({
    step: 'discovery',
    par: meta.pushed_authorization_request_endpoint ?? '',
    device: meta.device_authorization_endpoint ?? '',
    backchannelLogout: meta.backchannel_logout_supported === true,
    authMethods: meta.token_endpoint_auth_methods_supported ?? [],
  })
  const cc = await client.clientCredentialsGrant(sa)
  say({ step: 'client_credentials', accessToken: cc.access_token, tokenType: cc.token_type, expiresIn: cc.expires_in })

  // PAR + authorization code + PKCE (RFC 9126, RFC 7636), then a refresh
  const app = await client.discovery(issuer, cfg.app.clientId, { redirect_uris: [cfg.app.redirectUri] }, client.None(), insecure)
  const verifier = client.randomPKCECodeVerifier()
  const state = client.randomState()
  const nonce = client.randomNonce()
  const url = await client.buildAuthorizationUrlWithPAR(app, {
    redirect_uri: cfg.app.redirectUri,
    scope: 'openid profile email offline_access',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  })
  say({ step: 'authorize', url: url.href })
  const { callback } = await read()
  const tokens = await client.authorizationCodeGrant(app, new URL(callback),
    { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true })
  const claims = tokens.claims()
  say({ step: 'code', sub: claims.sub, sid: claims.sid ?? '', email: claims.email ?? '', refresh: Boolean(tokens.refresh_token) })
  const refreshed = await client.refreshTokenGrant(app, tokens.refresh_token)
  say({ step: 'refresh', sub: refreshed.claims()?.sub ?? '', rotated: refreshed.refresh_token !== tokens.refresh_token,
    accessToken: refreshed.access_token })

  // device authorization grant (RFC 8628)
  const device = await client.initiateDeviceAuthorization(app, { scope: 'openid email' })
  say({ step: 'device', userCode: device.user_code, verificationUri: device.verification_uri,
    verificationUriComplete: device.verification_uri_complete ?? '', interval: device.interval ?? 5 })
  const deviceTokens = await client.pollDeviceAuthorizationGrant(app, device)
  say({ step: 'device_tokens', sub: deviceTokens.claims()?.sub ?? '', accessToken: deviceTokens.access_token })

  // service delegation by token exchange (RFC 8693): the service account
  // exchanges the user's access token for one of the console's API
  const exchanged = await client.genericGrantRequest(sa, 'urn:ietf:params:oauth:grant-type:token-exchange', {
    subject_token: refreshed.access_token,
    subject_token_type: 'urn:ietf:params:oauth:token-type:access_token',
    resource: cfg.consoleUrl,
  })
  say({ step: 'exchange', accessToken: exchanged.access_token, issuedTokenType: exchanged.issued_token_type ?? '',
    refresh: Boolean(exchanged.refresh_token) })
  process.exit(0)
} catch (err) {
  say({ step: 'error', error: String(err?.message ?? err), code: err?.code ?? '', cause: JSON.stringify(err?.cause ?? null) })
  process.exit(1)
}

// Dynamic client registration (RFC 7591) as panva's openid-client does it,
// against the platform: server/openid_client_dpop_test.go
// (TestOpenIDClientRegistration) starts it, writes one JSON line with the
// settings (the issuer and a customer's initial access token), answers
// {"step":"authorize"} with the browser's callback URL, and reads one JSON
// line per step. The client registers itself as a public client, then
// signs a user in with it (code flow, PKCE). Any failure is printed as
// {"step":"error"} and exits 1.
import * as client from 'openid-client'
import { createInterface } from 'node:readline'

const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]()
const read = async () => JSON.parse((await lines.next()).value)
const say = (o) => process.stdout.write(JSON.stringify(o) + '\n')

try {
  const cfg = await read()
  const config = await client.dynamicClientRegistration(new URL(cfg.issuer),
    { redirect_uris: [cfg.redirectUri], token_endpoint_auth_method: 'none', client_name: 'openid-client registered' },
    client.None(), { initialAccessToken: cfg.initialAccessToken, execute: [client.allowInsecureRequests] })
  const meta = config.clientMetadata()
  say({ step: 'registered', clientId: meta.client_id, registrationClientUri: meta.registration_client_uri ?? '',
    registrationAccessToken: meta.registration_access_token ?? '' })

  const verifier = client.randomPKCECodeVerifier()
  const state = client.randomState()
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: cfg.redirectUri,
    scope: 'openid email',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  })
  say({ step: 'authorize', url: url.href })
  const { callback } = await read()
  const tokens = await client.authorizationCodeGrant(config, new URL(callback), { pkceCodeVerifier: verifier, expectedState: state })
  say({ step: 'code', email: tokens.claims()?.email ?? '' })
  process.exit(0)
} catch (err) {
  say({ step: 'error', error: String(err?.message ?? err), code: err?.code ?? '', cause: JSON.stringify(err?.cause ?? null) })
  process.exit(1)
}

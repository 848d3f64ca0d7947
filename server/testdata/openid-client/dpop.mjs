// DPoP (RFC 9449) as panva's openid-client does it, against the platform:
// server/openid_client_test.go (TestOpenIDClientDPoP) starts it, writes one
// JSON line with the settings, answers {"step":"authorize"} with the
// browser's callback URL, and reads one JSON line per step. openid-client
// makes the proofs, retries once with the server's DPoP-Nonce (at the token
// endpoint and at the API), binds the code to its key beforehand (dpop_jkt)
// and the tokens of a public client to its key. Any failure is printed as
// {"step":"error"} and exits 1.
import * as client from 'openid-client'
import { createInterface } from 'node:readline'

const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]()
const read = async () => JSON.parse((await lines.next()).value)
const say = (o) => process.stdout.write(JSON.stringify(o) + '\n')
const insecure = { execute: [client.allowInsecureRequests] } // the test provider listens on plain loopback HTTP

const fetchJSON = async (config, token, url, DPoP) => {
  const res = await client.fetchProtectedResource(config, token, new URL(url), 'GET', null, undefined, { DPoP })
  return { status: res.status, body: await res.json() }
}

try {
  const cfg = await read()
  const config = await client.discovery(new URL(cfg.issuer), cfg.clientId, { redirect_uris: [cfg.redirectUri] },
    client.None(), insecure)
  say({ step: 'discovery', algs: config.serverMetadata().dpop_signing_alg_values_supported ?? [] })

  const DPoP = client.getDPoPHandle(config, await client.randomDPoPKeyPair('ES256'))
  const jkt = await DPoP.calculateThumbprint()
  const verifier = client.randomPKCECodeVerifier()
  const state = client.randomState()
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: cfg.redirectUri,
    scope: 'openid email offline_access',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    login_hint: cfg.email,
    dpop_jkt: jkt,
  })
  say({ step: 'authorize', url: url.href })
  const { callback } = await read()
  const tokens = await client.authorizationCodeGrant(config, new URL(callback),
    { pkceCodeVerifier: verifier, expectedState: state }, undefined, { DPoP })
  const claims = JSON.parse(Buffer.from(tokens.access_token.split('.')[1], 'base64url').toString())
  say({ step: 'code', tokenType: tokens.token_type, refresh: Boolean(tokens.refresh_token), jkt, cnf: claims.cnf?.jkt ?? '' })
  say({ step: 'api', ...(await fetchJSON(config, tokens.access_token, cfg.api, DPoP)) })

  const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token, undefined, { DPoP })
  say({ step: 'refresh', tokenType: refreshed.token_type })
  say({ step: 'api_after_refresh', ...(await fetchJSON(config, refreshed.access_token, cfg.api, DPoP)) })

  // the bound refresh token does not refresh with another key's proofs
  const thief = client.getDPoPHandle(config, await client.randomDPoPKeyPair('ES256'))
  try {
    await client.refreshTokenGrant(config, refreshed.refresh_token, undefined, { DPoP: thief })
    say({ step: 'stolen_refresh', error: '' })
  } catch (err) {
    say({ step: 'stolen_refresh', error: err?.error ?? err?.cause?.error ?? String(err?.message ?? err) })
  }
  process.exit(0)
} catch (err) {
  say({ step: 'error', error: String(err?.message ?? err), code: err?.code ?? '', cause: JSON.stringify(err?.cause ?? null) })
  process.exit(1)
}

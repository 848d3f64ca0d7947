// Passkeys on the identity provider's pages: a progressive enhancement of
// forms that post without it. It asks the provider for the options of a
// ceremony, lets the browser create or use a passkey, puts the answer in
// the form's hidden "credential" field and submits the form, so the
// provider answers with a page as for any other form.
(function () {
  "use strict";
  if (!window.PublicKeyCredential || !navigator.credentials) return;

  const fromB64 = (s) => {
    const b = atob(s.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((s.length + 3) % 4));
    return Uint8Array.from(b, (c) => c.charCodeAt(0)).buffer;
  };
  const toB64 = (buf) => {
    let s = "";
    new Uint8Array(buf).forEach((c) => { s += String.fromCharCode(c); });
    return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  };
  const ids = (list) => (list || []).map((c) => Object.assign({}, c, { id: fromB64(c.id) }));

  // msg answers a message in the page's language: the page writes its
  // translations into the form's data-msg-* attributes (D-languages).
  const msg = (form, key, fallback) => form.dataset["msg" + key] || fallback;

  const showError = (form, msg) => {
    const el = form.querySelector("#passkey-error");
    if (el) { el.textContent = msg; el.hidden = false; }
  };

  // options posts the form's fields (CSRF token, transaction) and returns
  // the ceremony's options, or null after showing why not.
  async function options(form) {
    const body = new URLSearchParams();
    form.querySelectorAll("input[type=hidden]").forEach((i) => { if (i.name !== "credential") body.set(i.name, i.value); });
    const resp = await fetch(form.dataset.options, { method: "POST", body, credentials: "same-origin" });
    const data = await resp.json().catch(() => ({}));
    if (!resp.ok) { showError(form, data.error || msg(form, "Unavailable", "Passkeys are not available right now.")); return null; }
    return data.publicKey;
  }

  function submitWith(form, cred) {
    const r = cred.response;
    const out = { id: cred.id, rawId: toB64(cred.rawId), type: cred.type,
      clientExtensionResults: cred.getClientExtensionResults ? cred.getClientExtensionResults() : {},
      authenticatorAttachment: cred.authenticatorAttachment || undefined,
      response: { clientDataJSON: toB64(r.clientDataJSON) } };
    if (r.attestationObject) {
      out.response.attestationObject = toB64(r.attestationObject);
      if (r.getTransports) out.response.transports = r.getTransports();
    } else {
      out.response.authenticatorData = toB64(r.authenticatorData);
      out.response.signature = toB64(r.signature);
      if (r.userHandle) out.response.userHandle = toB64(r.userHandle);
    }
    form.querySelector("input[name=credential]").value = JSON.stringify(out);
    form.submit();
  }

  function requestOptions(pk) {
    return Object.assign({}, pk, { challenge: fromB64(pk.challenge), allowCredentials: ids(pk.allowCredentials) });
  }

  // Sign-in: a button, and on the address field the browser's autofill
  // (conditional mediation) while the page is open.
  const login = document.getElementById("passkey-login");
  if (login) {
    const button = login.querySelector("#passkey-button");
    let pending = null; // the autofill request, aborted when the button is used
    const run = async (conditional) => {
      const pk = await options(login);
      if (!pk) return;
      const req = { publicKey: requestOptions(pk) };
      if (conditional) {
        pending = new AbortController();
        Object.assign(req, { mediation: "conditional", signal: pending.signal });
      }
      try {
        const cred = await navigator.credentials.get(req);
        if (cred) submitWith(login, cred);
      } catch (e) {
        if (!conditional && e.name !== "AbortError") showError(login, msg(login, "None", "No passkey was used. Try again, or sign in another way."));
      }
    };
    button.hidden = false;
    login.querySelectorAll(".divider").forEach((d) => { d.hidden = false; });
    button.addEventListener("click", () => {
      if (pending) { pending.abort(); pending = null; }
      run(false);
    });
    const field = document.querySelector("input[autocomplete~=webauthn]");
    // after a passkey that failed, the button stays but autofill waits for the next page
    if (field && !login.hasAttribute("data-no-autofill") && PublicKeyCredential.isConditionalMediationAvailable) {
      PublicKeyCredential.isConditionalMediationAvailable().then((ok) => { if (ok) run(true); });
    }
  }

  // Enrolment on the account page, and at sign-in when the organization
  // requires a passkey the user does not have yet.
  const add = document.getElementById("passkey-add");
  if (add) {
    // a page whose enrolment works only with this script (sign-in) shows
    // its button now, and drops what it says to browsers without it
    add.querySelectorAll("[data-script]").forEach((e) => { e.hidden = false; });
    add.querySelectorAll("[data-no-script]").forEach((e) => { e.hidden = true; });
    add.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const pk = await options(add);
      if (!pk) return;
      pk.challenge = fromB64(pk.challenge);
      pk.user = Object.assign({}, pk.user, { id: fromB64(pk.user.id) });
      pk.excludeCredentials = ids(pk.excludeCredentials);
      try {
        const cred = await navigator.credentials.create({ publicKey: pk });
        if (cred) submitWith(add, cred);
      } catch (e) {
        showError(add, e.name === "InvalidStateError" ? msg(add, "Exists", "This device already holds one of your passkeys.")
          : msg(add, "Failed", "No passkey was created. Try again."));
      }
    });
  }
})();

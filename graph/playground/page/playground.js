// The GraphQL playground (D-playground): GraphiQL over this endpoint, served
// from this host only. On the console the page signs in through the
// console's own PKCE flow: it reuses the access token of this tab, or asks
// the identity provider for one silently (the console's session in any tab),
// or sends the user to the console's sign-in page, which brings them back
// here. On the tenant app the session cookie goes along by itself.
(function () {
  "use strict";
  const cfg = document.body.dataset;
  const store = window.sessionStorage;
  const consoleMode = cfg.signIn === "console";

  function b64url(bytes) {
    let s = "";
    for (const b of new Uint8Array(bytes)) s += String.fromCharCode(b);
    return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  const random = () => b64url(crypto.getRandomValues(new Uint8Array(32)));
  const s256 = async (v) => b64url(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(v)));

  function status(text) {
    const el = document.getElementById("status");
    el.textContent = text;
    el.hidden = !text;
  }

  // signIn starts the console's flow silently once; when the provider has
  // no session the console's callback sends the user to its sign-in page,
  // and after it back here (return_to).
  async function signIn() {
    if (store.getItem("playground_signin")) {
      store.removeItem("playground_signin");
      status("");
      document.getElementById("signin").hidden = false;
      return;
    }
    store.setItem("playground_signin", "1");
    store.setItem("return_to", cfg.endpoint);
    const verifier = random(), state = random(), nonce = random();
    store.setItem("pkce_verifier", verifier);
    store.setItem("oauth_state", state);
    store.setItem("oauth_nonce", nonce);
    status("Signing in…");
    const resp = await fetch("/api/v1/login/authorize", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ flow: "console-silent", codeChallenge: await s256(verifier), state, nonce }) });
    const data = await resp.json().catch(() => ({}));
    if (!resp.ok || !data.url) { status("Signing in failed; use the link below."); document.getElementById("signin").hidden = false; return; }
    window.location.assign(data.url);
  }

  async function fetcher(params) {
    const headers = { "Content-Type": "application/json", Accept: "application/json" };
    const token = store.getItem("access_token");
    if (token) headers.Authorization = "Bearer " + token;
    const resp = await fetch(cfg.endpoint, { method: "POST", headers, body: JSON.stringify(params), credentials: "same-origin" });
    if (resp.status === 401 && consoleMode) {
      store.removeItem("access_token");
      signIn();
    }
    return resp.json();
  }

  function start() {
    if (consoleMode && !store.getItem("access_token")) { signIn(); return; }
    store.removeItem("playground_signin");
    status("");
    const root = document.getElementById("graphiql");
    root.hidden = false;
    window.ReactDOM.createRoot(root).render(window.React.createElement(window.GraphiQL, {
      fetcher,
      defaultQuery: cfg.example,
      defaultEditorToolsVisibility: true,
      shouldPersistHeaders: false,
      // GraphiQL's history and editors (operations with their variables)
      // stay with this tab, never in the browser profile's localStorage.
      storage: store,
    }));
  }

  // GraphiQL's editors type into hidden textareas without names, and
  // scroll in regions that take no focus: name each by its editor and let
  // the keyboard reach the scrolling regions, as GraphiQL renders them.
  function label(root) {
    const named = [
      [".graphiql-query-editor textarea", "Operation"],
      [".graphiql-editor-tool .graphiql-editor:not(.hidden) textarea", "Variables or headers"],
      [".graphiql-editor-tool .graphiql-editor.hidden textarea", "Variables or headers"],
      [".graphiql-response textarea", "Response"],
    ];
    for (const [sel, name] of named) {
      for (const el of root.querySelectorAll(sel)) if (!el.hasAttribute("aria-label")) el.setAttribute("aria-label", name);
    }
    for (const el of root.querySelectorAll("textarea:not([aria-label])")) el.setAttribute("aria-label", "Editor");
    // CodeMirror leaves its scrolling region out of the tab order (-1)
    for (const el of root.querySelectorAll(".CodeMirror-scroll")) if (el.getAttribute("tabindex") !== "0") el.setAttribute("tabindex", "0");
  }
  const graphiql = document.getElementById("graphiql");
  new MutationObserver(() => label(graphiql)).observe(graphiql, { childList: true, subtree: true });

  document.getElementById("signin-link").addEventListener("click", () => {
    store.setItem("return_to", cfg.endpoint);
  });
  start();
})();

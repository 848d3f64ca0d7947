import "@mantine/core/styles.css";
import "./app.css";
import { StrictMode, useMemo } from "react";
import { createRoot } from "react-dom/client";
import { Alert, MantineProvider, Modal, Text, createTheme } from "@mantine/core";
import { Client, Provider, cacheExchange, fetchExchange, useQuery } from "urql";
import { refusedChangesNothing } from "./refused";
import { trustedOperations } from "./trusted";
import { retryAfterStepUp, stepUpOnRefusal } from "./stepup";
import { accessToken, signedIn, startSignIn } from "./auth";
import { CallerContext, MeDocument, caller } from "./me";
import { Shell } from "./shell";
import { graphErrors, sentence } from "./errors";
import { navigate, useRoute } from "./router";
import i18n from "./i18n";
import { useTranslation } from "react-i18next";

const nonce = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content ?? "";
// Shade 8, and darker error and dimmed colors, keep text contrast at WCAG
// AA. Dialogs are portalled into <section id="dialogs"> (index.html), so
// their <header> is no second banner landmark.
const theme = createTheme({
  primaryColor: "indigo",
  primaryShade: 8,
  defaultRadius: "md",
  // no fades or slides for people who ask their system for reduced motion
  respectReducedMotion: true,
  components: {
    Modal: Modal.extend({ defaultProps: { portalProps: { target: "#dialogs" }, closeButtonProps: { "aria-label": i18n.t("common.close") } } }),
  },
});

// The app follows the system's colour scheme (defaultColorScheme "auto",
// prefers-color-scheme), with the same contrast in both: the dark scheme's
// error and secondary texts are light shades; --app-danger is the colour
// of a destructive outline button (red.9 in light, red.4 in dark).
const contrast = () => ({
  variables: {},
  light: {
    "--mantine-color-error": "var(--mantine-color-red-8)", "--mantine-color-dimmed": "var(--mantine-color-gray-7)",
    "--app-danger": "var(--mantine-color-red-9)",
  },
  dark: {
    "--mantine-color-error": "var(--mantine-color-red-4)", "--mantine-color-dimmed": "var(--mantine-color-dark-1)",
    "--app-danger": "var(--mantine-color-red-4)",
  },
});

// fetchWithAuth sends the console's access token; a 401 (expired or revoked
// token) starts the silent sign-in, which comes back to the same URL.
const fetchWithAuth: typeof fetch = async (input, init) => {
  const headers = new Headers(init?.headers);
  headers.set("Authorization", "Bearer " + (accessToken() ?? ""));
  const resp = await fetch(input, { ...init, headers });
  if (resp.status === 401) void startSignIn();
  return resp;
};

function App() {
  const { t } = useTranslation();
  const [{ data, error }] = useQuery({ query: MeDocument });
  const route = useRoute();
  const value = useMemo(() => {
    if (!data) return null;
    signedIn();
    return caller(data.me, data.me.email, data.me.name);
  }, [data]);
  if (error) {
    return (
      <Alert color="red" role="alert" m="md" title={t("common.couldNotStart")}>
        <Text>{graphErrors(error).map((e) => sentence(e)).join(" ")}</Text>
      </Alert>
    );
  }
  if (!value) return <Text aria-live="polite" m="md">{t("common.loading")}</Text>;
  // internal users work under /dashboard, customer users under /portal
  const base = value.internal ? "/dashboard" : "/portal";
  if (route.base !== base) {
    queueMicrotask(() => navigate(base, { replace: true }));
    return null;
  }
  return (
    <CallerContext.Provider value={value}>
      <Shell />
    </CallerContext.Provider>
  );
}

function start() {
  if (!accessToken()) {
    void startSignIn();
    return;
  }
  const client = new Client({
    url: "/graphql",
    exchanges: [cacheExchange, refusedChangesNothing, stepUpOnRefusal, trustedOperations, fetchExchange],
    fetch: fetchWithAuth,
    requestPolicy: "cache-and-network",
    preferGetMethod: false,
  });
  // a mutation refused for want of a second factor is retried once, after the step-up's sign-in
  void retryAfterStepUp().finally(() => render(client));
}

function render(client: Client) {
  createRoot(document.getElementById("root")!).render(
    <StrictMode>
      <MantineProvider theme={theme} defaultColorScheme="auto" getStyleNonce={() => nonce} cssVariablesResolver={contrast}>
        <Provider value={client}>
          <App />
        </Provider>
      </MantineProvider>
    </StrictMode>,
  );
}

start();

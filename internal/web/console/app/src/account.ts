// accountURL is the provider's account page, told which page of the app to
// lead back to (D-account-frame): the path and query of this one, which
// the account page appends to the console's own address.
export function accountURL(issuer: string, here: { pathname: string; search: string }): string {
  const u = new URL(issuer + "/ui/account");
  u.searchParams.set("back", (here.pathname + here.search).slice(0, 512));
  return u.toString();
}

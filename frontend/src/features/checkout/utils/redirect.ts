/** Leaves the shop for the payment provider's page (a full navigation, not a route change). */
export function redirectTo(url: string): void {
  window.location.assign(url);
}

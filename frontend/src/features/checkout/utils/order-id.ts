/** The order id of ?order_id=42, or null when missing or malformed. */
export function orderIdFrom(params: URLSearchParams): number | null {
  const raw = params.get('order_id');
  if (!raw || !/^\d+$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** A generated buyer, as the buyers feature keeps it (`buyers-store.ts`). Times are epoch milliseconds on the sandbox clock. */
export interface Buyer {
  seq: number;
  id: string;
  account_id: string;
  display_name: string | null;
  external_identifier: string | null;
  created_at: number;
  updated_at: number;
}

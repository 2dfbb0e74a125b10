/** The sandbox's log lines on stderr. */
export function logError(message: string, err: unknown): void {
  console.error(`[payment-sandbox] ${message}:`, err);
}

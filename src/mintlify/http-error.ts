/** A failure below HTTP. `sent`: 'no' when the request provably never reached the service (safe to retry even a write), 'maybe' otherwise. */
export class HttpError extends Error {
  override name = 'HttpError'
  constructor(
    message: string,
    readonly code: string,
    readonly sent: 'no' | 'maybe',
    options?: ErrorOptions
  ) {
    super(message, options)
  }
}

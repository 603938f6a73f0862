import { redact } from '../action/redact.js'

const MAX_SERVICE_MESSAGE = 500

/** The service's `error` text, shortened, on one line, and never holding the key. */
export function serviceMessage(text: string, secretForms: readonly string[]): string {
  let message = ''
  try {
    const body = JSON.parse(text) as { error?: unknown; details?: { message?: unknown }[] }
    if (typeof body.error === 'string') message = body.error
    if (Array.isArray(body.details)) {
      const details = body.details.map(d => d?.message).filter(m => typeof m === 'string')
      if (details.length) message += ` (${details.join('; ')})`
    }
  } catch {
    // Not JSON (a proxy's HTML page, say): the status alone says enough.
  }
  message = redact(message, secretForms).replace(/\s+/g, ' ').trim()
  return message.length > MAX_SERVICE_MESSAGE
    ? `${message.slice(0, MAX_SERVICE_MESSAGE)}…`
    : message
}

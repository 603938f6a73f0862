import type { Connection } from '../action/connection.js'
import type { Logger } from '../action/clock.js'
import { InputError } from '../action/errors.js'
import { ApiClient } from './client.js'
import { proxyFor } from './http.js'

/**
 * The service client for validated inputs. A broken proxy variable is found here, before the first
 * request, not as a network error retried until the time-out; a key without the admin prefix gets
 * a warning, not a refusal.
 */
export function openClient(
  connection: Connection & { githubToken?: string; docsToken?: string },
  log: Logger,
  signal: AbortSignal
): ApiClient {
  try {
    proxyFor(connection.apiUrl)
  } catch (error) {
    throw new InputError((error as Error).message)
  }
  if (!connection.apiKey.startsWith('mint_')) {
    log.warning(
      "The 'api-key' does not start with mint_: admin API keys do. The service will refuse any other key."
    )
  }
  return new ApiClient({
    baseUrl: connection.apiUrl,
    apiKey: connection.apiKey,
    secrets: [connection.githubToken, connection.docsToken].filter((t): t is string => Boolean(t)),
    log,
    signal
  })
}

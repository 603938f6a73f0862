import * as core from '@actions/core'
import { coreLogger } from './action-support.js'
import { ApiClient } from './api/client.js'
import type { Connection } from './input-common.js'

/** The service client for validated inputs; a key without the admin prefix gets a warning, not a refusal. */
export function openClient(connection: Connection, signal: AbortSignal): ApiClient {
  if (!connection.apiKey.startsWith('mint_')) {
    core.warning(
      "The 'api-key' does not start with mint_: admin API keys do. The service will refuse any other key."
    )
  }
  return new ApiClient({
    baseUrl: connection.apiUrl,
    apiKey: connection.apiKey,
    log: coreLogger,
    signal
  })
}

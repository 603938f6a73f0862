import { STATUS_CODES } from 'node:http'
import { Transport } from '../api/transport.js'

const MAX_BYTES = 16 * 1024 * 1024
const TIMEOUT_MS = 15_000

/** What Octokit's request reads from a fetch response (@octokit/request's fetch wrapper). */
export interface FetchResponse {
  status: number
  statusText: string
  url: string
  headers: ResponseHeaders
  body: string | null
  text(): Promise<string>
  json(): Promise<unknown>
  arrayBuffer(): Promise<ArrayBuffer>
}

/** Iterates as `[name, value]` pairs like `Headers`; names are lower case. */
export class ResponseHeaders implements Iterable<[string, string]> {
  private readonly map = new Map<string, string>()
  constructor(raw: Record<string, string | string[] | undefined>) {
    for (const [name, value] of Object.entries(raw))
      if (value !== undefined)
        this.map.set(name.toLowerCase(), Array.isArray(value) ? value.join(', ') : value)
  }
  get(name: string): string | null {
    return this.map.get(name.toLowerCase()) ?? null
  }
  [Symbol.iterator](): Iterator<[string, string]> {
    return this.map.entries()
  }
}

export interface FetchInit {
  method?: string
  headers?: Record<string, string>
  body?: string | null
  signal?: AbortSignal | null
}

/**
 * A `fetch` for Octokit over node:http(s). Not undici's: it compiles a WebAssembly HTTP parser on
 * first use (about 30 MB). Not even Node's own Headers and Response: their first use loads Node's
 * internal fetch, about 40 ms (on Node 20 and 24), more than all of Octokit. Octokit passes plain
 * headers and a string body and reads only what `FetchResponse` has. Used only without a proxy.
 */
export function nodeFetch(
  transport = new Transport()
): (input: string | URL, init?: FetchInit) => Promise<FetchResponse> {
  return async (input, init) => {
    const url = new URL(String(input))
    const method = init?.method ?? 'GET'
    const res = await transport.send({
      method,
      url,
      headers: init?.headers ?? {},
      body: init?.body ?? undefined,
      // GitHubApi passes a time-limited signal with every call; this is only the fallback.
      signal: init?.signal ?? AbortSignal.timeout(TIMEOUT_MS),
      maxResponseBytes: MAX_BYTES
    })
    const empty = res.status === 204 || res.status === 304 || method === 'HEAD'
    const text = empty ? '' : res.text
    return {
      status: res.status,
      statusText: STATUS_CODES[res.status] ?? '',
      url: url.href,
      headers: new ResponseHeaders(res.headers),
      body: empty ? null : text,
      text: async () => text,
      json: async () => JSON.parse(text) as unknown,
      arrayBuffer: async () => {
        const bytes = Buffer.from(text)
        return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)
      }
    }
  }
}

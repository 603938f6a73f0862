import { CancelledError } from '../runner/errors.js'
import { redact, redactedJson, secretForms } from '../runner/redact.js'
import { type Clock, systemClock } from '../runner/clock.js'
import { type Logger, silentLogger } from '../runner/logger.js'
import { formatDuration } from '../runner/duration.js'
import { USER_AGENT } from '../runner/runner.js'
import {
  AmbiguousWriteError,
  AnswerTooLargeError,
  ApiError,
  AuthError,
  RequestCapReachedError,
  NotFoundError,
  RateLimitError,
  UnreachableError
} from './errors.js'
import { type RequestCap, withinCap } from './request-cap.js'
import {
  type Attempt,
  type BackoffPolicy,
  DEFAULT_BACKOFF,
  RETRYABLE_READ_STATUSES,
  RETRYABLE_WRITE_STATUSES,
  parseRetryAfter,
  withRetries
} from './retry.js'
import { HttpError, type HttpResponse, HttpSession } from './http.js'

export interface ClientOptions {
  baseUrl: URL
  apiKey: string
  /** Other secrets the service must never be able to echo into our outputs (the GitHub token). */
  secrets?: readonly string[]
  userAgent?: string
  /** Longest wait for one response; shortened to what is left before the deadline. */
  requestTimeoutMs?: number
  /** A larger answer is refused rather than held in memory. */
  maxResponseBytes?: number
  backoff?: BackoffPolicy
  clock?: Clock
  random?: () => number
  log?: Logger
  /** Aborts every request and wait: the run was cancelled. */
  signal?: AbortSignal
  /** What to do when the service asks to wait past the deadline (a step without 'timeout'). */
  pastDeadline?: string
  /** The connections to the service: a new session by default; tests pass one that fails on cue. */
  http?: Pick<HttpSession, 'send' | 'close'>
}

export interface RequestSpec {
  method: 'GET' | 'POST'
  /** Path segments, each URL-encoded, so an ID can never change the path. */
  path: readonly string[]
  query?: Record<string, string | number | undefined>
  body?: unknown
  /** What the request does, for messages: "create the agent job". */
  what: string
  /** Not idempotent: retried only when the service provably did not act. */
  write: boolean
  /** Monotonic ms (Clock.now): no retry wait runs past it. */
  deadline: number
  /** The message for a 404, naming the input to check. */
  notFound: string
  /** For writes: how the user finds out whether the service acted after all. */
  ambiguousHint?: string
  /** Each attempt, retries included, takes one request from it; none is sent once it is spent. */
  cap?: RequestCap
}

const DEFAULT_TIMEOUT_MS = 30_000
const DEFAULT_MAX_RESPONSE_BYTES = 4 * 1024 * 1024

/** The one HTTP client of the project: every entry point talks to the service through it. */
export class ApiClient {
  private readonly http: Pick<HttpSession, 'send' | 'close'>
  private readonly clock: Clock
  private readonly log: Logger
  /** Every form of every secret, removed from whatever the service answers. */
  private readonly secretForms: string[]
  /** The service answered a request with this key: a later 401 means the key stopped working. */
  private accepted = false
  /** The service answered at all (any status): its name resolved in this run. */
  private answered = false

  constructor(private readonly options: ClientOptions) {
    this.http =
      options.http ??
      new HttpSession({
        maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES
      })
    this.clock = options.clock ?? systemClock
    this.log = options.log ?? silentLogger
    this.secretForms = secretForms([options.apiKey, ...(options.secrets ?? [])])
  }

  /**
   * `text` with every form of the run's secrets (the key, the GitHub tokens) replaced by `***`: what
   * this action writes to the service (a prompt holds titles and bodies anyone could paste a
   * secret into) carries none of them.
   */
  redact(text: string): string {
    return redact(text, this.secretForms)
  }

  /** Sends the request with the retry policy and returns the parsed JSON body. */
  async send<T>(spec: RequestSpec): Promise<T> {
    try {
      return await this.sendWithRetries<T>(spec)
    } catch (error) {
      throw finalError(spec, error, this.options.baseUrl)
    }
  }

  private sendWithRetries<T>(spec: RequestSpec): Promise<T> {
    const attempt = (): Promise<Attempt<T>> => this.attempt<T>(spec)
    return withRetries<T>(() => withinCap(spec.cap, spec.what, attempt), {
      deadline: spec.deadline,
      write: spec.write,
      policy: this.options.backoff ?? DEFAULT_BACKOFF,
      clock: this.clock,
      random: this.options.random,
      signal: this.options.signal,
      pastDeadline: this.options.pastDeadline,
      onRetry: ({ attempt, delayMs, error }) =>
        this.log.info(
          `Could not ${spec.what} (${error.message}); trying again in ${formatDuration(delayMs)} (attempt ${attempt + 1}).`
        )
    })
  }

  async close(): Promise<void> {
    await this.http.close()
  }

  url(spec: Pick<RequestSpec, 'path' | 'query'>): URL {
    const url = new URL(this.options.baseUrl.href)
    url.pathname = `${url.pathname.replace(/\/+$/, '')}/${spec.path.map(encodeSegment).join('/')}`
    for (const [key, value] of Object.entries(spec.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value))
    }
    return url
  }

  private async attempt<T>(spec: RequestSpec): Promise<Attempt<T>> {
    const url = this.url(spec)
    const remaining = spec.deadline - this.clock.now()
    const timeoutMs = Math.max(
      1,
      Math.min(this.options.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS, remaining)
    )
    const timeout = this.clock.timeout(timeoutMs)
    const signal = this.options.signal ? AbortSignal.any([this.options.signal, timeout]) : timeout
    let response: HttpResponse
    try {
      response = await this.http.send({
        method: spec.method,
        url,
        signal,
        headers: {
          authorization: `Bearer ${this.options.apiKey}`,
          accept: 'application/json',
          'user-agent': this.options.userAgent ?? USER_AGENT,
          ...(spec.body === undefined ? {} : { 'content-type': 'application/json' })
        },
        body: spec.body === undefined ? undefined : JSON.stringify(spec.body)
      })
    } catch (error) {
      if (this.options.signal?.aborted) {
        const unsent = error instanceof HttpError && error.sent === 'no'
        const message = !spec.write
          ? 'Cancelled.'
          : unsent
            ? `Cancelled before the request to ${spec.what} was sent; nothing was done.`
            : `Cancelled while waiting for the answer to the request to ${spec.what}; the service may have acted on it. ${spec.ambiguousHint ?? ''}`.trim()
        return { ok: false, error: new CancelledError(message), retry: false }
      }
      return this.unanswered(spec, error, timeout.aborted ? timeoutMs : undefined)
    }
    const { status, headers, text } = response
    this.answered = true
    if (status >= 200 && status < 300) {
      this.accepted = true
      try {
        return { ok: true, value: redactedJson(text, this.secretForms) as T }
      } catch {
        return this.unusableAnswer(spec, `HTTP ${status} with a body that is not JSON`)
      }
    }
    return this.failedStatus(spec, status, text, headers)
  }

  /** No answer came: whether even a write may go again depends on whether it was ever sent. */
  private unanswered<T>(spec: RequestSpec, error: unknown, timedOutAfterMs?: number): Attempt<T> {
    const host = this.options.baseUrl.host
    const failure =
      error instanceof HttpError ? error : new HttpError(String(error), 'network error', 'maybe')
    if (failure.code === 'RESPONSE_TOO_LARGE') {
      if (spec.write) return this.unusableAnswer(spec, failure.message)
      // The same request gets the same answer: trying again would only spend requests.
      const error = new AnswerTooLargeError(
        `The service's answer to the request to ${spec.what} is ${failure.message.replace(/^the answer is /, '')}, more than this action reads.`
      )
      return { ok: false, error, retry: false }
    }
    if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/.test(failure.code)) {
      // Waiting will not make a certificate trusted: say so at once.
      const error = new ApiError(
        `The TLS certificate of ${host} is not trusted (${failure.code}). Check 'api-url'; for a private certificate authority, set NODE_EXTRA_CA_CERTS on the runner.`
      )
      return { ok: false, error, retry: false }
    }
    if (['PROXY_AUTH', 'PROXY_CONFIG', 'NOT_LOOPBACK'].includes(failure.code)) {
      // Credentials or a proxy setting will not appear by waiting either.
      return {
        ok: false,
        error: new ApiError(`Cannot reach ${host}: ${failure.message}.`),
        retry: false
      }
    }
    const reason =
      timedOutAfterMs !== undefined
        ? `no answer within ${formatDuration(timedOutAfterMs)}`
        : failure.code === 'PROXY_REFUSED'
          ? failure.message
          : failure.code
    if (failure.sent === 'no' && failure.code === 'ENOTFOUND' && !this.answered) {
      // A name that does not exist (a resolver that cannot answer says EAI_AGAIN) before the
      // service ever answered in this run: a mistyped 'api-url' or proxy, which neither a retry nor
      // a wait for a job (up to 30 minutes of the runner's time) would mend, so not transient.
      // Once it has answered, the same code is an outage, waited out like the others.
      const error = new UnreachableError(
        `Could not ${spec.what}: cannot reach ${host}: ${unresolvedName(failure)} does not resolve (ENOTFOUND).${neverSent(spec)} ${checkApiUrl(this.options.baseUrl)}`
      )
      return { ok: false, error, retry: false }
    }
    if (failure.sent === 'no') {
      // Never sent: the service cannot have acted, so even a write may be sent again.
      const error = new UnreachableError(`cannot reach ${host}: ${reason}`, undefined, true)
      return { ok: false, error, retry: true }
    }
    if (spec.write) return { ok: false, error: this.ambiguous(spec, reason), retry: false }
    return {
      ok: false,
      error: new ApiError(`${reason} from ${host}`, undefined, true),
      retry: true
    }
  }

  private failedStatus<T>(
    spec: RequestSpec,
    status: number,
    text: string,
    headers: HttpResponse['headers']
  ): Attempt<T> {
    const detail = serviceMessage(text, this.secretForms)
    const said = detail ? `: ${detail}` : ''
    if (status === 401 || status === 403) {
      return { ok: false, retry: false, error: this.refusedKey(spec, status, said) }
    }
    if (status === 404) {
      // A 404 without the service's error text, or under an api-url with a path of its own, is
      // most likely a path the service does not serve: the URL is the first thing to check.
      const suspectUrl = !detail || this.options.baseUrl.pathname.replace(/\/+$/, '') !== ''
      const message = suspectUrl
        ? `The service answered HTTP 404${said}: check 'api-url' (${this.options.baseUrl.href}), which should be the service's base URL such as https://api.mintlify.com, without a path. If it is right: ${spec.notFound}.`
        : `${spec.notFound} (HTTP 404${said}).`
      return { ok: false, retry: false, error: new NotFoundError(message, status) }
    }
    const retryable = (spec.write ? RETRYABLE_WRITE_STATUSES : RETRYABLE_READ_STATUSES).has(status)
    if (retryable) {
      const header = headers['retry-after']
      const retryAfterMs = parseRetryAfter(Array.isArray(header) ? header[0] : header, Date.now())
      const error = new ApiError(`HTTP ${status}${said}`, status, true)
      return { ok: false, retry: true, error, retryAfterMs }
    }
    if (spec.write && status >= 500)
      return { ok: false, retry: false, error: this.ambiguous(spec, `HTTP ${status}${said}`) }
    if (status >= 500) {
      return {
        ok: false,
        retry: false,
        error: new ApiError(
          `Could not ${spec.what}: the service answered HTTP ${status}${said}.`,
          status,
          true
        )
      }
    }
    return {
      ok: false,
      retry: false,
      error: new ApiError(
        `The service rejected the request to ${spec.what} (HTTP ${status}${said}).`,
        status
      )
    }
  }

  /**
   * 401: the key is not (or no longer) valid; keys expire. 403: the key is valid but may not do
   * this: a read-only key on a write, or a caller outside the key's IP allowlist.
   */
  private refusedKey(spec: RequestSpec, status: number, said: string): AuthError {
    const earlier = this.accepted ? ' The service accepted this key earlier in this run.' : ''
    if (status === 401) {
      return new AuthError(
        `The service refused the API key (HTTP 401${said}).${earlier} If the key worked before, it has most likely expired: Mintlify keys expire after 90 days unless created with another lifetime. ` +
          "Otherwise it was revoked, or it belongs to another organisation than the project. Check 'api-key': create an admin API key on the API keys page of the dashboard and store it in the secret.",
        status
      )
    }
    const readOnly = spec.write
      ? 'the key may be read-only (read-only keys can read but not create jobs or send follow-ups), or '
      : ''
    return new AuthError(
      `The service refused the request to ${spec.what} with this API key (HTTP 403${said}).${earlier} The key is valid, but ${readOnly}the runner's address may be outside the key's IP allowlist (GitHub-hosted runners have no fixed address). ` +
        `Check the key's access and IP allowlist on the API keys page of the dashboard${spec.write ? ', or use an admin key with write access' : ''}.`,
      status
    )
  }

  /** A 2xx whose body cannot be used: for a write the service has acted, so it must not be repeated. */
  private unusableAnswer<T>(spec: RequestSpec, reason: string): Attempt<T> {
    if (spec.write) return { ok: false, retry: false, error: this.ambiguous(spec, reason) }
    return {
      ok: false,
      retry: true,
      error: new ApiError(`unusable answer: ${reason}`, undefined, true)
    }
  }

  private ambiguous(spec: RequestSpec, reason: string): AmbiguousWriteError {
    return new AmbiguousWriteError(
      `Could not confirm the request to ${spec.what} (${reason}). The service may have acted on it anyway. ` +
        `${spec.ambiguousHint ?? ''} Re-running this step may do it a second time.`.trim()
    )
  }
}

/** encodeURIComponent leaves `.` alone, and a `.` or `..` segment would be resolved away by URL parsing. */
function encodeSegment(segment: string): string {
  if (segment === '' || segment === '.' || segment === '..') {
    throw new ApiError(`Refusing to build a request path with the segment '${segment}'.`)
  }
  return encodeURIComponent(segment)
}

/** The name the resolver did not know: the service's, or the proxy's when one is used. */
function unresolvedName(failure: HttpError): string {
  const hostname = (failure.cause as { hostname?: unknown } | undefined)?.hostname
  return typeof hostname === 'string' && /^[\w.-]{1,253}$/.test(hostname)
    ? `the name ${hostname}`
    : 'its name'
}

/** For a write the service was never reached with, that nothing was done. */
const neverSent = (spec: { write: boolean }): string =>
  spec.write ? ' The request never reached the service, so nothing was done.' : ''

/** What to check when the service cannot be reached. */
const checkApiUrl = (baseUrl: URL): string =>
  `Check 'api-url' (${baseUrl.href}) and, on a self-hosted runner, the proxy settings (HTTPS_PROXY, NO_PROXY).`

/**
 * The error the caller sees once retrying is over: what was tried, what was wrong, and what to
 * do. Transient errors stay transient (a status check fails the wait only at its deadline).
 */
export function finalError(
  spec: { what: string; write: boolean },
  error: unknown,
  baseUrl: URL
): unknown {
  if (
    !(error instanceof ApiError) ||
    !error.transient ||
    error instanceof RateLimitError ||
    error instanceof RequestCapReachedError
  )
    return error
  const host = baseUrl.host
  if (error instanceof UnreachableError) {
    return new UnreachableError(
      `Could not ${spec.what}: ${error.message}.${neverSent(spec)} ${checkApiUrl(baseUrl)}`,
      undefined,
      true
    )
  }
  if (error.status === 429) {
    return new ApiError(
      `Could not ${spec.what}: the service kept rate limiting the requests (${error.message}). ${spec.write ? 'A project may start 100 agent jobs and follow-ups an hour' : 'An organisation may make 100 analytics requests an hour'}: try again later, or spread the workflows out.`,
      429,
      true
    )
  }
  const failing = error.status !== undefined ? ' kept failing' : ''
  return new ApiError(
    `Could not ${spec.what}: ${host}${failing} (${error.message}). Try again later.`,
    error.status,
    true
  )
}

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

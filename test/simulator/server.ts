import { randomBytes } from 'node:crypto'
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http'
import { createServer as createTlsServer } from 'node:https'
import type { AddressInfo, Socket } from 'node:net'
import { type VisitorsData, type VisitorsPaging, visitorsPage } from './visitors.js'
import type { DatedGaps } from './analytics-dated.js'
import { type RangeAnswer, viewsPage } from './analytics-impact.js'
import {
  type GapsData,
  type GapsRoute,
  gapsAnswer,
  gapsRouteOf,
  generateGapsData
} from './analytics.js'

/** How a simulated job ends. */
export interface JobPlan {
  /** Time from creation (or from a follow-up) until the final status. */
  durationMs: number
  finalStatus: 'completed' | 'failed' | 'archived'
  /** Whether the agent opens a pull request (only for `completed`). */
  prLink: boolean
  model: string
  /**
   * For a follow-up: how long until the job shows it is working on it (`active`). The service
   * processes messages asynchronously: the message's answer, and every status read before then,
   * show the job as it was before the message. 0 (the default): from the next status read on;
   * Infinity: never (the message is not picked up).
   */
  pickupMs?: number
  /**
   * The id a created job gets (default `job_<n>_<hex>`): the documents make ids opaque strings, so
   * one may hold spaces, slashes or `%` ("laborum est dolore" is a mock server's example).
   */
  id?: string
}

export type Route = 'create' | 'get' | 'list' | 'message' | 'visitors' | 'views' | GapsRoute

/** A misbehaviour served instead of (or before) the normal answer, `times` times, after `skip` normal answers. */
export type Fault = { route: Route; times?: number; skip?: number } & (
  | { kind: 'status'; status: number; retryAfter?: string; body?: unknown }
  /** Read the request, then drop the connection without answering. */
  | { kind: 'drop' }
  /** Answer normally after a delay; `Infinity`: never, and drop the connection at reset() or close(). */
  | { kind: 'delay'; ms: number }
  /** 200 with a body that is not JSON. */
  | { kind: 'malformed' }
  /** 200 with a JSON body of about this many bytes. */
  | { kind: 'huge'; bytes: number }
  /** Visitors: the page keeps saying hasMore and repeats the same rows. */
  | { kind: 'stuck-has-more' }
  /** Visitors: an empty page that still says hasMore. */
  | { kind: 'empty-has-more' }
  /** Visitors: two pages in turn (A, B, A, B…), each saying hasMore. */
  | { kind: 'alternating-has-more' }
  /** Visitors: three pages in turn (A, B, C, A…), each saying hasMore. */
  | { kind: 'cycling-has-more' }
  /** Visitors: each page after the first starts one row early, repeating the row before it. */
  | { kind: 'overlapping-pages' }
  /** Docs-gaps: the cursor is ignored, so the first page comes again (with its own next cursor). */
  | { kind: 'ignore-cursor' }
  /** The normal answer with these fields replaced (a service that echoes or garbles values). */
  | { kind: 'tamper'; fields: Record<string, unknown> }
  /**
   * Analytics: the normal page with these fields of its row `row` (0-based) replaced, or the row
   * replaced whole by `value`: one row the document does not allow, in an otherwise valid page.
   */
  | { kind: 'tamper-row'; row: number; fields?: Record<string, unknown>; value?: unknown }
)

export interface RecordedExchange {
  route: Route | 'unknown'
  method: string
  path: string
  query: Record<string, string>
  headers: IncomingMessage['headers']
  requestBody: unknown
  status?: number
  responseBody?: unknown
  at: number
}

export interface SimulatorOptions {
  apiKeys?: string[]
  projects?: string[]
  job?: Partial<JobPlan>
  /** Create and follow-up requests allowed per project per hour (the service allows 100). */
  agentLimitPerHour?: number
  /** Analytics requests per organisation per hour (the service allows 100). */
  analyticsLimitPerHour?: number
  visitors?: VisitorsData
  /** Generated visitors' paths this many characters long (default: short, `/docs/page-1`). */
  pathChars?: number
  /** Searches, feedback and assistant conversations (test/simulator/analytics.ts). */
  gaps?: GapsData
  now?: () => number
  port?: number
  /** Serve https with this key and certificate (PEM). */
  tls?: { key: string; cert: string }
}

interface SimJob {
  id: string
  /** The job's own number: its pull request is acme/docs#(100 + number). */
  number: number
  projectId: string
  createdAt: number
  /** When the current run of the agent ends. */
  endsAt: number
  plan: JobPlan
  prLink: string | null
  messages: string[]
  /** After a follow-up, until this moment the job still shows `before`. */
  resumesAt?: number
  before?: Record<string, unknown>
}

export const SIM_API_KEY = 'mint_sim_0123456789abcdef'
export const SIM_PROJECT = 'proj_sim'
const DEFAULT_PLAN: JobPlan = {
  durationMs: 2000,
  finalStatus: 'completed',
  prLink: true,
  model: 'sim-model-1'
}
const HOUR = 3_600_000

/** A loopback HTTP server that behaves as the service's published OpenAPI documents say. */
export class Simulator {
  readonly exchanges: RecordedExchange[] = []
  readonly jobs = new Map<string, SimJob>()
  private readonly server: Server
  private readonly sockets = new Set<Socket>()
  private readonly faults: Fault[] = []
  private readonly plans: Partial<JobPlan>[] = []
  private readonly agentCalls = new Map<string, number[]>()
  private readonly analyticsCalls: number[] = []
  private readonly requestListeners: ((exchange: RecordedExchange) => void)[] = []
  private held: (() => void)[] = []
  private visitors: VisitorsData
  private pathChars: number
  private gaps: GapsData | DatedGaps
  private byRange?: RangeAnswer
  private counter = 0
  private baseUrl = ''

  constructor(private readonly options: SimulatorOptions = {}) {
    this.visitors = options.visitors ?? 42
    this.pathChars = options.pathChars ?? 0
    this.gaps = options.gaps ?? generateGapsData()
    const handler = (req: IncomingMessage, res: ServerResponse): void => void this.handle(req, res)
    this.server = options.tls ? createTlsServer(options.tls, handler) : createServer(handler)
    this.server.on(options.tls ? 'secureConnection' : 'connection', (socket: Socket) => {
      this.sockets.add(socket)
      socket.on('close', () => this.sockets.delete(socket))
    })
  }

  static async start(options: SimulatorOptions = {}): Promise<Simulator> {
    const sim = new Simulator(options)
    await new Promise<void>(resolve => sim.server.listen(options.port ?? 0, '127.0.0.1', resolve))
    const { port } = sim.server.address() as AddressInfo
    sim.baseUrl = `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`
    return sim
  }

  get url(): string {
    return this.baseUrl
  }

  /** The plan for the next job created (or follow-up sent); later ones use the default. */
  planNext(plan: Partial<JobPlan>): this {
    this.plans.push(plan)
    return this
  }

  inject(fault: Fault): this {
    this.faults.push({ times: 1, ...fault })
    return this
  }

  /** The visitors rows, or a generated site of that many, with paths of `pathChars` characters. */
  setVisitors(rows: VisitorsData, { pathChars = 0 }: { pathChars?: number } = {}): this {
    this.visitors = rows
    this.pathChars = pathChars
    return this
  }

  /** The docs-gaps rows, or a function of the request's range (analytics-dated.ts). */
  setGaps(data: GapsData | DatedGaps): this {
    this.gaps = data
    return this
  }

  /** Analytics answered by date range (analytics-impact.ts), before the rows above; undefined: off. */
  answerByRange(answer?: RangeAnswer): this {
    this.byRange = answer
    return this
  }

  /** Calls `listener` as each request arrives (benchmarks time the first one). */
  onRequest(listener: (exchange: RecordedExchange) => void): () => void {
    this.requestListeners.push(listener)
    return () => this.requestListeners.splice(this.requestListeners.indexOf(listener), 1)
  }

  /**
   * A new world, between tests: what nextRun() forgets, and the jobs. The next job is job 1 again,
   * its pull request acme/docs#101, whatever tests ran before.
   */
  reset(): this {
    this.jobs.clear()
    this.counter = 0
    return this.nextRun()
  }

  /**
   * Between two runs of one test: forgets recorded traffic, pending faults and plans, and the
   * hourly limits' counts. The jobs stay known, so a later run can follow one up.
   */
  nextRun(): this {
    for (const release of this.held.splice(0)) release()
    this.exchanges.length = 0
    this.analyticsCalls.length = 0
    this.agentCalls.clear()
    this.faults.length = 0
    this.plans.length = 0
    return this
  }

  requests(route: Route): RecordedExchange[] {
    return this.exchanges.filter(e => e.route === route)
  }

  /** The moment a job reached its final status, for measuring detection delay. */
  terminalAt(jobId: string): number | undefined {
    return this.jobs.get(jobId)?.endsAt
  }

  async close(): Promise<void> {
    for (const release of this.held.splice(0)) release()
    for (const socket of this.sockets) socket.destroy()
    await new Promise<void>(resolve => this.server.close(() => resolve()))
  }

  private now(): number {
    return this.options.now?.() ?? Date.now()
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sim')
    const raw = await readBody(req)
    const exchange: RecordedExchange = {
      route: routeOf(req.method ?? '', url.pathname),
      method: req.method ?? '',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      requestBody: parseJson(raw),
      at: this.now()
    }
    this.exchanges.push(exchange)
    for (const listener of this.requestListeners) listener(exchange)
    let tamper: Record<string, unknown> | undefined
    const send = (status: number, answer: unknown, headers: Record<string, string> = {}): void => {
      let body = tamper && answer && typeof answer === 'object' ? { ...answer, ...tamper } : answer
      if (fault?.kind === 'tamper-row' && status === 200) body = tamperRow(body, fault)
      exchange.status = status
      exchange.responseBody = body
      res.writeHead(status, { 'content-type': 'application/json', ...headers })
      res.end(JSON.stringify(body))
    }

    const fault = exchange.route === 'unknown' ? undefined : this.takeFault(exchange.route)
    if (fault?.kind === 'tamper') tamper = fault.fields
    if (fault?.kind === 'drop') {
      req.socket.destroy()
      return
    }
    if (fault?.kind === 'delay' && fault.ms === Infinity) {
      await new Promise<void>(resolve => this.held.push(resolve))
      req.socket.destroy()
      return
    }
    if (fault?.kind === 'delay') await new Promise(resolve => setTimeout(resolve, fault.ms))
    if (fault?.kind === 'status') {
      return send(fault.status, fault.body ?? { error: `Simulated HTTP ${fault.status}` }, {
        ...(fault.retryAfter === undefined ? {} : { 'retry-after': fault.retryAfter })
      })
    }
    if (fault?.kind === 'malformed') {
      exchange.status = 200
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end('{"id": "job_')
      return
    }
    if (fault?.kind === 'huge')
      return send(200, { id: 'job_huge', padding: 'x'.repeat(fault.bytes) })

    if (exchange.route === 'unknown')
      return send(404, { error: `No route for ${req.method} ${url.pathname}` })
    const auth = req.headers.authorization ?? ''
    const keys = this.options.apiKeys ?? [SIM_API_KEY]
    if (!auth.startsWith('Bearer ') || !keys.includes(auth.slice('Bearer '.length))) {
      return send(401, { error: 'Invalid or missing API key' })
    }
    const segments = url.pathname.split('/').map(decodeURIComponent)
    const projectId = segments[3] as string
    if (!(this.options.projects ?? [SIM_PROJECT]).includes(projectId)) {
      return send(404, { error: 'Project not found' })
    }

    if (exchange.route === 'visitors' || url.pathname.startsWith('/v1/analytics/')) {
      const limited = this.rateLimit(this.analyticsCalls, this.options.analyticsLimitPerHour ?? 100)
      if (limited) return send(429, { error: 'Rate limit exceeded' }, { 'retry-after': limited })
      const answer =
        this.byRange?.(exchange.route, exchange.query) ??
        (exchange.route === 'views' ? viewsPage(exchange.query, this.visitors) : undefined) ??
        (exchange.route === 'visitors'
          ? visitorsPage(exchange.query, this.visitors, pagingFault(fault), this.pathChars)
          : gapsAnswer(
              exchange.route as GapsRoute,
              fault?.kind === 'ignore-cursor' ? withoutCursor(exchange.query) : exchange.query,
              typeof this.gaps === 'function' ? this.gaps(exchange.query) : this.gaps
            ))
      return send(answer.status, answer.body)
    }

    if (exchange.route === 'create' || exchange.route === 'message') {
      const prompt = (exchange.requestBody as { prompt?: unknown } | undefined)?.prompt
      if (typeof prompt !== 'string' || prompt.length === 0) {
        return send(400, { error: 'prompt is required and must be a non-empty string' })
      }
      let job: SimJob | undefined
      if (exchange.route === 'message') {
        job = this.jobs.get(segments[5] as string)
        if (!job || job.projectId !== projectId) return send(404, { error: 'Job not found' })
      }
      const calls = this.agentCalls.get(projectId) ?? []
      this.agentCalls.set(projectId, calls)
      const limited = this.rateLimit(calls, this.options.agentLimitPerHour ?? 100)
      if (limited) return send(429, { error: 'Rate limit exceeded' }, { 'retry-after': limited })
      const plan = { ...DEFAULT_PLAN, ...this.options.job, ...this.plans.shift() }
      const now = this.now()
      if (job) {
        // A follow-up, also on a completed job: processed asynchronously, so the answer (and any
        // read before `pickupMs`) shows the job as it was; then active again, then completed with the
        // same pull request (the agent pushes to it), or with a new one if it had none.
        const before = this.view(job)
        job.plan = plan
        job.before = before
        job.resumesAt = now + (plan.pickupMs ?? 0)
        job.endsAt = job.resumesAt + plan.durationMs
        job.messages.push(prompt)
        return send(200, before)
      }
      job = {
        number: ++this.counter,
        id: plan.id ?? `job_${this.counter}_${randomBytes(4).toString('hex')}`,
        projectId,
        createdAt: now,
        endsAt: now + plan.durationMs,
        plan,
        prLink: null,
        messages: [prompt]
      }
      this.jobs.set(job.id, job)
      return send(201, this.view(job))
    }

    if (exchange.route === 'list') return send(200, this.listed(projectId, exchange.query))

    const job = this.jobs.get(segments[5] as string)
    if (!job || job.projectId !== projectId) return send(404, { error: 'Job not found' })
    return send(200, this.view(job))
  }

  /**
   * `GET /v1/agent/{projectId}/jobs` (deprecated, still documented): the project's sessions, newest
   * first, `skip` and `take` (1 to 100, default 12) as the document says.
   */
  private listed(projectId: string, query: Record<string, string>): Record<string, unknown> {
    const take = Math.min(100, Math.max(1, Number(query.take ?? 12) || 12))
    const skip = Math.max(0, Number(query.skip ?? 0) || 0)
    const sessions = [...this.jobs.values()]
      .filter(j => j.projectId === projectId)
      .reverse()
      .slice(skip, skip + take)
      .map(j => {
        const view = this.view(j) as { status?: string; prLink?: string | null }
        return {
          sessionId: j.id,
          subdomain: projectId,
          branch: null,
          haulted: view.status !== 'active',
          haultReason: view.status === 'active' ? 'processing' : 'completed',
          ...(view.prLink ? { pullRequestLink: view.prLink } : {})
        }
      })
    return { allSessions: sessions }
  }

  private takeFault(route: Route): Fault | undefined {
    const index = this.faults.findIndex(f => f.route === route)
    if (index < 0) return undefined
    const fault = this.faults[index] as Fault
    if (fault.skip) {
      fault.skip--
      return undefined
    }
    fault.times = (fault.times ?? 1) - 1
    if (fault.times <= 0) this.faults.splice(index, 1)
    return fault
  }

  /** Sliding one-hour window; returns the Retry-After seconds when over the limit. */
  private rateLimit(calls: number[], limit: number): string | undefined {
    const now = this.now()
    while (calls.length && (calls[0] as number) <= now - HOUR) calls.shift()
    if (calls.length >= limit) return String(Math.ceil(((calls[0] as number) + HOUR - now) / 1000))
    calls.push(now)
    return undefined
  }

  /** The job as the API shows it now; the status follows the clock. */
  private view(job: SimJob): Record<string, unknown> {
    if (job.before && job.resumesAt !== undefined && this.now() < job.resumesAt) return job.before
    const done = this.now() >= job.endsAt
    const status = done ? job.plan.finalStatus : 'active'
    if (done && status === 'completed' && job.plan.prLink && !job.prLink) {
      job.prLink = `https://github.com/acme/docs/pull/${100 + job.number}`
    }
    return {
      id: job.id,
      status,
      source: { repository: 'https://github.com/acme/docs', ref: 'main' },
      model: job.plan.model,
      prLink: status === 'active' ? null : job.prLink,
      createdAt: new Date(job.createdAt).toISOString(),
      archivedAt: done && status === 'archived' ? new Date(job.endsAt).toISOString() : null
    }
  }
}

const PAGING_FAULTS: readonly string[] = [
  'stuck-has-more',
  'empty-has-more',
  'alternating-has-more',
  'cycling-has-more',
  'overlapping-pages'
] satisfies VisitorsPaging[]

const pagingFault = (fault: Fault | undefined): VisitorsPaging | undefined =>
  fault && PAGING_FAULTS.includes(fault.kind) ? (fault.kind as VisitorsPaging) : undefined

function withoutCursor(query: Record<string, string>): Record<string, string> {
  const { cursor: _ignored, ...rest } = query
  return rest
}

/** The page with one row of its list (the answer's array field) replaced or garbled. */
function tamperRow(
  body: unknown,
  fault: { row: number; fields?: Record<string, unknown>; value?: unknown }
): unknown {
  const page = body as Record<string, unknown>
  const list = Object.keys(page).find(key => Array.isArray(page[key]))
  if (!list) return body
  const rows = [...(page[list] as unknown[])]
  if (fault.row >= rows.length) return body
  rows[fault.row] =
    'value' in fault ? fault.value : { ...(rows[fault.row] as object), ...fault.fields }
  return { ...page, [list]: rows }
}

function routeOf(method: string, pathname: string): Route | 'unknown' {
  if (method === 'POST' && /^\/v2\/agent\/[^/]+\/job$/.test(pathname)) return 'create'
  if (method === 'GET' && /^\/v2\/agent\/[^/]+\/job\/[^/]+$/.test(pathname)) return 'get'
  if (method === 'GET' && /^\/v1\/agent\/[^/]+\/jobs$/.test(pathname)) return 'list'
  if (method === 'POST' && /^\/v2\/agent\/[^/]+\/job\/[^/]+\/message$/.test(pathname))
    return 'message'
  if (method === 'GET' && /^\/v1\/analytics\/[^/]+\/visitors$/.test(pathname)) return 'visitors'
  if (method === 'GET' && /^\/v1\/analytics\/[^/]+\/views$/.test(pathname)) return 'views'
  return gapsRouteOf(method, pathname) ?? 'unknown'
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

function parseJson(text: string): unknown {
  if (!text) return undefined
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

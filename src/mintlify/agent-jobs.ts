import type { ApiClient } from './client.js'
import { SERVICE_ID, shownId } from './connection.js'
import { AmbiguousWriteError, ApiError, AuthError, projectNotFound } from './errors.js'

/** Where people see a project's agent jobs, each with what the agent did and why it stopped. */
export const DASHBOARD_URL = 'https://dashboard.mintlify.com'

/** Where to look for a job, in plain text for logs and error messages. */
export const jobsOnDashboard = (projectId: string): string =>
  `the agent jobs of project ${projectId} on the Mintlify dashboard (${DASHBOARD_URL})`

/** An agent job as the service returns it; no field is guaranteed by the published schema. */
export interface AgentJob {
  id: string
  status?: string
  source?: { repository?: string; ref?: string | null }
  model?: string
  prLink?: string | null
  createdAt?: string
  /** The service sent a `prLink` that is not an http(s) URL of sane length; it is not used. */
  rejectedPrLink?: boolean
  /** Fields the service sent with a type or form this action cannot use: treated as absent. */
  ignored?: IgnoredField[]
}

/** A field of a job answer that was dropped, and why (for a warning that names it). */
export interface IgnoredField {
  field: string
  problem: string
}

/** The job's own fields, as the `job` output shows them: not what this action noted about them. */
export function jobRecord(job: AgentJob): Omit<AgentJob, 'rejectedPrLink' | 'ignored'> {
  const { rejectedPrLink: _rejected, ignored: _ignored, ...record } = job
  return record
}

const lookHint = (projectId: string): string =>
  `Look for it among ${jobsOnDashboard(projectId)} before running again.`

export async function createJob(
  client: ApiClient,
  projectId: string,
  prompt: string,
  deadline: number
): Promise<AgentJob> {
  const body = await client.send<unknown>({
    method: 'POST',
    path: ['v2', 'agent', projectId, 'job'],
    body: { prompt: client.redact(prompt) },
    what: 'create the agent job',
    write: true,
    deadline,
    notFound: projectNotFound(projectId),
    ambiguousHint: `A job may have been created. ${lookHint(projectId)}`
  })
  return asAgentJob(body, undefined, reason => {
    throw new AmbiguousWriteError(
      `The service accepted the request to create the agent job but ${reason}. A job was probably created. ${lookHint(projectId)}`
    )
  })
}

export async function getJob(
  client: ApiClient,
  projectId: string,
  jobId: string,
  deadline: number
): Promise<AgentJob> {
  const body = await client.send<unknown>({
    method: 'GET',
    path: ['v2', 'agent', projectId, 'job', jobId],
    what: `read the status of job ${jobId}`,
    write: false,
    deadline,
    notFound: `Job '${jobId}' was not found in project '${projectId}'. Check 'job-id' and 'project-id'`
  })
  // A malformed status answer passes like a network error: the next check may be fine.
  const unusable = (reason: string): never => {
    throw new ApiError(
      `Could not read the status of job ${jobId}: the answer is unusable, ${reason}.`,
      undefined,
      true
    )
  }
  const job = asAgentJob(body, jobId, unusable, true)
  // The status is what a status check is for: without it the answer tells nothing.
  const status = job.ignored?.find(f => f.field === 'status')
  if (status) unusable(`its 'status' is ${status.problem}`)
  return job
}

export async function sendMessage(
  client: ApiClient,
  projectId: string,
  jobId: string,
  prompt: string,
  deadline: number
): Promise<AgentJob> {
  const body = await client.send<unknown>({
    method: 'POST',
    path: ['v2', 'agent', projectId, 'job', jobId, 'message'],
    body: { prompt: client.redact(prompt) },
    what: `send the follow-up message to job ${jobId}`,
    write: true,
    deadline,
    notFound: `Job '${jobId}' was not found in project '${projectId}'. Check 'job-id' and 'project-id'`,
    ambiguousHint: `The message may have been delivered to job ${jobId}. ${lookHint(projectId)}`
  })
  return asAgentJob(
    body,
    jobId,
    reason => {
      throw new AmbiguousWriteError(
        `The service accepted the follow-up message to job ${jobId} but ${reason}. ${lookHint(projectId)}`
      )
    },
    true
  )
}

/**
 * The service answered a follow-up and declined it (400, 404, 409, 422 …): the message was not
 * delivered, so starting a new job instead cannot do the work twice. Not a refusal: a bad key, a rate
 * limit (a new job would meet the same), or no answer at all (the message may have arrived).
 */
export function followUpRefused(error: unknown): boolean {
  if (!(error instanceof ApiError) || error instanceof AmbiguousWriteError) return false
  if (error instanceof AuthError || error.transient) return false
  return (
    error.status !== undefined && error.status >= 400 && error.status < 500 && error.status !== 429
  )
}

/** A pull request link: http(s) only, of a sane length, or it is no link at all. */
export const MAX_LINK = 2048
const MAX_FIELD = 500

/**
 * Only a link already in the URL parser's canonical form: the parser drops tabs and line breaks
 * and lowercases the host, which could rebuild a secret that redaction did not recognise in the
 * raw text. A real pull request URL is canonical.
 */
function asLink(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > MAX_LINK) return undefined
  try {
    const url = new URL(value)
    const web = url.protocol === 'https:' || url.protocol === 'http:'
    return web && url.href === value ? value : undefined
  } catch {
    return undefined
  }
}

/**
 * Job fields are short one-line texts: the service's answers are checked, never trusted. No control
 * characters, so no value can start a line of its own in the log (a workflow command).
 */
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/
const isAbsent = (value: unknown): boolean => value === undefined || value === null

/** Why a value is not a short one-line text, or undefined when it is one. */
function textProblem(value: unknown): string | undefined {
  if (typeof value !== 'string')
    return `not a text (${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value})`
  if (value.length > MAX_FIELD) return `a text over ${MAX_FIELD} characters`
  if (CONTROL.test(value)) return 'a text with a control character or line break'
  return undefined
}

/**
 * The job fields this action uses, each checked for its type; anything else in the answer is
 * dropped. Only the id decides whether the answer is usable (`malformed` says how that is
 * reported): one that is missing (unless `idOptional`, when the caller knows it), not an id, or
 * another job's. Any other field of the wrong type or form is treated as absent and listed in
 * `ignored`, so the caller can warn, naming it: a created job is never lost to a field the run does
 * not need yet.
 */
function asAgentJob(
  body: unknown,
  expectedId: string | undefined,
  malformed: (reason: string) => never,
  idOptional = false
): AgentJob {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    return malformed('the answer is not a job')
  const raw = body as Record<string, unknown>
  if (!isAbsent(raw.id) && (typeof raw.id !== 'string' || !SERVICE_ID.test(raw.id)))
    return malformed(
      typeof raw.id === 'string'
        ? `its job id ${shownId(raw.id)} is empty, over 200 characters or holds a control character`
        : `its job id is ${textProblem(raw.id)}`
    )
  const id = typeof raw.id === 'string' ? raw.id : undefined
  if (expectedId !== undefined && id !== undefined && id !== expectedId)
    return malformed(`it is about another job (${shownId(id)})`)
  const jobId = id ?? (idOptional ? expectedId : undefined)
  if (!jobId) return malformed('the answer has no job id')

  const ignored: IgnoredField[] = []
  const text = (field: string, value: unknown): string | undefined => {
    if (isAbsent(value)) return undefined
    const problem = textProblem(value)
    if (problem) ignored.push({ field, problem })
    return problem ? undefined : (value as string)
  }
  const job: AgentJob = {
    id: jobId,
    status: text('status', raw.status),
    model: text('model', raw.model),
    createdAt: text('createdAt', raw.createdAt),
    prLink: null
  }
  if (!isAbsent(raw.source) && (typeof raw.source !== 'object' || Array.isArray(raw.source))) {
    ignored.push({ field: 'source', problem: 'not an object' })
  }
  const source =
    raw.source && typeof raw.source === 'object' && !Array.isArray(raw.source)
      ? (raw.source as Record<string, unknown>)
      : {}
  job.source = {
    repository: text('source.repository', source.repository),
    ref: text('source.ref', source.ref) ?? null
  }
  if (typeof raw.prLink === 'string') {
    job.prLink = asLink(raw.prLink) ?? null
    if (!job.prLink) job.rejectedPrLink = true
  } else if (!isAbsent(raw.prLink)) {
    ignored.push({ field: 'prLink', problem: textProblem(raw.prLink) as string })
  }
  if (ignored.length) job.ignored = ignored
  return job
}

/**
 * Checks the key and the project with a request that spends nothing: the project's jobs, one at
 * most (the documented list, `GET /v1/agent/{projectId}/jobs`, which no hourly limit counts). An
 * answer proves the key is accepted and sees the project; it cannot prove the key may create jobs
 * (a read-only key is refused only when it tries). A refused key, an unknown project or an
 * unreachable service fails as any request does, naming the cause.
 */
export async function checkAccess(
  client: ApiClient,
  projectId: string,
  deadline: number
): Promise<void> {
  const body = await client.send<unknown>({
    method: 'GET',
    path: ['v1', 'agent', projectId, 'jobs'],
    query: { take: 1 },
    what: `check the key and project '${projectId}'`,
    write: false,
    deadline,
    notFound: projectNotFound(projectId)
  })
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new ApiError(
      `Could not check the key and project '${projectId}': the service answered without a list of jobs.`,
      undefined,
      true
    )
}

import type { ApiClient } from './client.js'
import { SERVICE_ID } from './connection.js'
import { AmbiguousWriteError, ApiError, AuthError, projectNotFound } from './errors.js'

/** Where people see a project's agent jobs, each with what the agent did and why it stopped. */
export const DASHBOARD_URL = 'https://dashboard.mintlify.com'

/** Where to look for a job, in plain text for logs and error messages. */
export const jobsOnDashboard = (projectId: string): string =>
  `the agent jobs of project ${projectId} on the Mintlify dashboard (${DASHBOARD_URL})`

/** An agent job as the service returns it; no field is guaranteed by the published schema but `id`, which we check. */
export interface AgentJob {
  id: string
  status?: string
  source?: { repository?: string; ref?: string | null }
  model?: string
  prLink?: string | null
  createdAt?: string
  /** The service sent a `prLink` that is not an http(s) URL of sane length; it is not used. */
  rejectedPrLink?: boolean
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
    body: { prompt },
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
  return asAgentJob(body, jobId, reason => {
    throw new ApiError(
      `Could not read the status of job ${jobId}: the answer is unusable, ${reason}.`,
      undefined,
      true
    )
  })
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
    body: { prompt },
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
 * A short one-line text, or nothing: the service's answers are checked, never trusted. No control
 * characters, so no value can start a line of its own in the log (a workflow command).
 */
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/
const asText = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length <= MAX_FIELD && !CONTROL.test(value) ? value : undefined

const isAbsent = (value: unknown): boolean => value === undefined || value === null

/**
 * The job fields this action uses, each checked for its type; anything else in the answer is
 * dropped. A field of the wrong type, or another job's id, makes the answer malformed: `malformed`
 * says how that is reported. A follow-up's answer may leave the id out (`idOptional`).
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
  for (const field of ['id', 'status', 'model', 'createdAt'] as const) {
    const value = raw[field]
    if (!isAbsent(value) && asText(value) === undefined)
      return malformed(`its '${field}' is not a short text`)
  }
  const id = asText(raw.id)
  if (id !== undefined && !SERVICE_ID.test(id)) return malformed('its job id is not a plain id')
  if (expectedId !== undefined && id !== undefined && id !== expectedId)
    return malformed(`it is about another job ('${id}')`)
  const jobId = id ?? (idOptional ? expectedId : undefined)
  if (!jobId) return malformed('the answer has no job id')
  if (!isAbsent(raw.prLink) && typeof raw.prLink !== 'string')
    return malformed("its 'prLink' is not a text")
  const source =
    raw.source && typeof raw.source === 'object' ? (raw.source as Record<string, unknown>) : {}
  const prLink = asLink(raw.prLink)
  return {
    id: jobId,
    status: asText(raw.status),
    model: asText(raw.model),
    createdAt: asText(raw.createdAt),
    prLink: prLink ?? null,
    source: { repository: asText(source.repository), ref: asText(source.ref) ?? null },
    ...(typeof raw.prLink === 'string' && !prLink ? { rejectedPrLink: true } : {})
  }
}

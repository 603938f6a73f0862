import type { ApiClient } from './client.js'
import { AmbiguousWriteError, ApiError, AuthError, projectNotFound } from './errors.js'

/** An agent job as the service returns it; no field is guaranteed by the published schema but `id`, which we check. */
export interface AgentJob {
  id: string
  status?: string
  source?: { repository?: string; ref?: string | null }
  model?: string
  prLink?: string | null
  createdAt?: string
  archivedAt?: string | null
}

const lookHint = (projectId: string): string =>
  `Look for it among the agent jobs of project ${projectId} on the Mintlify dashboard before running again.`

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
  return asAgentJob(body)
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
  return asAgentJob(body)
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
  return asAgentJob(body, jobId)
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

function asAgentJob(body: unknown, fallbackId?: string): AgentJob {
  if (!body || typeof body !== 'object')
    throw new ApiError('The service answered with something that is not an agent job.')
  const job = body as AgentJob
  if (typeof job.id !== 'string' || job.id === '') {
    if (fallbackId) return { ...job, id: fallbackId }
    throw new ApiError('The service answered without a job id; the job cannot be followed.')
  }
  return job
}

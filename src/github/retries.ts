import type { Octokit } from '@octokit/core'
import { RequestError } from '@octokit/request-error'

// Which GitHub failures are sent again, and the queue @octokit/plugin-throttling sends a
// rate-limited request again through: both without Bottleneck. @octokit/plugin-retry makes a
// Bottleneck for every request and the throttling plugin queues every request through one; each
// of their turns is a real timer, even at a wait of 0, about 4 ms a request each (a request to a
// loopback GitHub took 11 ms through them, 2 ms without). The waits between attempts are the
// run's clock's (`bounded`, limits.ts), so the queues had nothing left to time.

/** Answers never sent again: refusals, and requests GitHub will not take (plugin-retry's list). */
const DO_NOT_RETRY = new Set([400, 401, 403, 404, 410, 422, 451])
/** Attempts after the first, unless the request says fewer (`request.retries`, as the plugin). */
const RETRIES = 3
/** GitHub's passing GraphQL failure, answered with a 200. */
const SOMETHING_WENT_WRONG = /Something went wrong while executing your query/

/**
 * @octokit/plugin-retry's rule, as its default options set it: an error GitHub answered (or a
 * request that got no answer, which Octokit reports as a 500) is sent again up to RETRIES times,
 * unless its status is a refusal; `request.retries` lowers that for one request (0: creating a
 * comment, or the time limit spent). GraphQL's "Something went wrong" in a 200 fails as a 500,
 * and is retried as one. Registered outside every other plugin: each attempt goes through them all.
 */
export function retried(octokit: Pick<Octokit, 'hook'>): void {
  octokit.hook.wrap('request', async (request, options) => {
    for (let attempt = 0; ; attempt++) {
      try {
        const response = await request(options)
        const first = (response.data as { errors?: { message?: unknown }[] } | undefined)
          ?.errors?.[0]?.message
        if (typeof first === 'string' && SOMETHING_WENT_WRONG.test(first))
          throw new RequestError(first, 500, { request: options, response })
        return response
      } catch (error) {
        const retries = (options.request as { retries?: number } | undefined)?.retries ?? RETRIES
        if (attempt >= retries || !passing(error)) throw error
      }
    }
  })
}

/** A failure worth sending the request again for: an answer (or none) that is not a refusal. */
function passing(error: unknown): boolean {
  const failure = error as { status?: unknown; request?: { request?: unknown } } | undefined
  return (
    typeof failure?.request?.request === 'object' &&
    typeof failure.status === 'number' &&
    failure.status >= 400 &&
    !DO_NOT_RETRY.has(failure.status)
  )
}

/** What the throttling plugin tells its queue of a failed attempt: the task's arguments. */
type FailedHandler = (error: unknown, info: { args: unknown[]; retryCount: number }) => unknown

/**
 * The throttling plugin's `retryLimiter`: it runs the task, and runs it again at once each time
 * the plugin's `failed` handler answers with a wait (always 0 here: `retryAfterBaseValue` is 0,
 * the wait is `bounded`'s). Not among the plugin's documented options, like its groups:
 * test/unit/throttling-contract.test.ts fails when the plugin stops taking it.
 */
export function retryQueue(): {
  on(event: string, handler: FailedHandler): void
  schedule(task: (...args: unknown[]) => unknown, ...args: unknown[]): Promise<unknown>
} {
  let failed: FailedHandler | undefined
  return {
    on(event, handler) {
      if (event === 'failed') failed = handler
    },
    async schedule(task, ...args) {
      for (let retryCount = 0; ; retryCount++) {
        try {
          return await task(...args)
        } catch (error) {
          const wait = await failed?.(error, { args, retryCount })
          if (typeof wait !== 'number') throw error
        }
      }
    }
  }
}
